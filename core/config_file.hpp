#pragma once
// Internal to config.cpp: the TOML reader, over the setting table (config_settings.hpp). Kept
// apart so that only config_file.cpp includes toml++, which is slow to compile.

#include "core/config_settings.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core::detail {

/// Parses TOML `text` into `config`, recording each value's source as "PATH:LINE". Errors are
/// "PATH:LINE: what" ("PATH:LINE:COL: what" for syntax errors); empty on success.
std::string apply_toml(Config& config, std::string_view text, const std::string& path);

/// As apply_toml for a project file: every key must pass project_may_set, else nothing is
/// applied and the error names the first offending key; keep_patterns are appended to the
/// user's, not replacing them.
std::string apply_project_toml(Config& config, std::string_view text, const std::string& path);

} // namespace sutra::core::detail
