#pragma once
// Effective settings: built-in defaults, then the user's TOML file, then SUTRA_* variables.
// Each value remembers where it came from so `sutra config` can say so.

#include "core/config_settings.hpp"
#include "core/config_values.hpp"

#include <cstdint>
#include <expected>
#include <map>
#include <string>
#include <vector>

namespace sutra::core {

/// Loads the effective configuration. A file that does not parse, or a setting of the wrong
/// type or out of range, gives an error naming the file and line; the caller decides whether
/// that is fatal (the CLI) or means pass-through (a hook).
std::expected<Config, std::string> load_config();

/// As load_config, but from explicit text (tests) with `path` used in messages, and with
/// `env` consulted instead of the process environment.
std::expected<Config, std::string> load_config_from(const std::string& toml_text,
                                                    const std::string& path,
                                                    const std::map<std::string, std::string>& env);

/// As load_config, with an explicit working directory (where the project file is looked for)
/// and environment. Layers: defaults, the user's file, a trusted project file, the environment.
std::expected<Config, std::string> load_config_in(const std::string& cwd,
                                                  const std::map<std::string, std::string>& env);

/// The directory the store lives in, resolved from the config and environment.
std::string resolve_store_dir(const Config&);

/// `name = value  # source` lines for `sutra config`.
std::string describe_config(const Config&);

} // namespace sutra::core
