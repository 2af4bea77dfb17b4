#pragma once
// Internal to config.cpp and config_file.cpp: the setting table and the TOML reader. Kept apart
// so that only config_file.cpp includes toml++, which is slow to compile.

#include "core/config.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core::detail {

enum class SettingType { integer, boolean, string, string_array };

struct SettingInfo {
    std::string_view name; ///< dotted, e.g. "compress.min_bytes"
    SettingType type;
};

/// Every setting, in the order `sutra config` prints them.
std::span<const SettingInfo> settings();

/// Looks a dotted name up in settings(); nullptr when unknown.
const SettingInfo* find_setting(std::string_view name);

// Validate and store one value. Each returns an empty string on success, else what is wrong
// (without a location; the caller prefixes the file and line or the variable name).
std::string set_integer(Config& config, std::string_view name, std::int64_t value);
std::string set_boolean(Config& config, std::string_view name, bool value);
std::string set_string(Config& config, std::string_view name, const std::string& value);
std::string
set_string_array(Config& config, std::string_view name, const std::vector<std::string>& value);

/// What is wrong with one keep pattern; empty when it is fine.
std::string check_keep_pattern(std::string_view pattern);

/// Parses TOML `text` into `config`, recording each value's source as "PATH:LINE". Errors are
/// "PATH:LINE: what" ("PATH:LINE:COL: what" for syntax errors); empty on success.
std::string apply_toml(Config& config, std::string_view text, const std::string& path);

/// As apply_toml for a project file: every key must pass project_may_set, else nothing is
/// applied and the error names the first offending key; keep_patterns are appended to the
/// user's, not replacing them.
std::string apply_project_toml(Config& config, std::string_view text, const std::string& path);

} // namespace sutra::core::detail
