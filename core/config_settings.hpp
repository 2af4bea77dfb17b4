#pragma once
// The setting table: every setting's name and type, its range, and the one place a value is
// checked and stored (core/config_settings.cpp). The TOML reader (config_file.cpp), the SUTRA_*
// variables and `sutra config` (config.cpp) all go through it.

#include "core/config_values.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

/// The settings a project file may set (the table's `project` column): compression only.
bool project_may_set(std::string_view setting);

namespace detail {

enum class SettingType { integer, boolean, string, string_array };

/// One setting: everything that reading, checking, overriding and printing it needs. Adding a
/// setting is a field in Config (config_values.hpp) and a row in the table.
struct SettingInfo {
    std::string_view name; ///< dotted, e.g. "compress.min_bytes"
    SettingType type;
    std::string_view env = {}; ///< the SUTRA_* variable that overrides it; empty: none
    bool project = false;      ///< a trusted project's .sutra.toml may set it
    std::int64_t min = 0;      ///< an integer's range (inclusive)
    std::int64_t max = 0;
    // Where the value lives: the one member of its type (strings and the array have checks of
    // their own in set_string and set_string_array).
    std::uint64_t Config::*u64 = nullptr;
    std::uint32_t Config::*u32 = nullptr;
    std::int64_t Config::*i64 = nullptr;
    bool Config::*flag = nullptr;
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

/// `s` as a TOML basic string, so `sutra config` prints valid TOML and errors quote values.
std::string toml_string(std::string_view s);

} // namespace detail
} // namespace sutra::core
