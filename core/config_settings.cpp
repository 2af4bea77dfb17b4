// The setting table (see config_settings.hpp): names and types, each integer's range, and the
// checks every layer's value passes through on its way into a Config.

#include "core/config_settings.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>

namespace sutra::core {
namespace detail {
namespace {

constexpr std::size_t k_max_keep_pattern_bytes = 100;

constexpr std::int64_t k_gib = std::int64_t{1} << 30;
constexpr std::int64_t k_ten_years = std::int64_t{3650} * 24 * 3600;

using T = SettingType;

// Lower bounds above zero keep a setting from disabling its feature by accident: a view ceiling
// too small for even a marker, a store that can hold nothing, a TTL that expires on write. Upper
// bounds keep every size and duration far from overflow (`created + ttl`, byte sums) and within
// what the code that uses it can hold: an input or entry in memory, a report that reads at most
// 64 MiB of log. A project file may set compression only, never the store, retention, restore or
// stats (a repository must not move or keep the user's data).
constexpr std::array k_settings{
    SettingInfo{.name = "compress.mode", .type = T::string, .env = "SUTRA_MODE", .project = true},
    SettingInfo{.name = "compress.min_bytes",
                .type = T::integer,
                .env = "SUTRA_MIN_BYTES",
                .project = true,
                .min = 0,
                .max = k_gib,
                .u64 = &Config::min_bytes},
    SettingInfo{.name = "compress.min_lines",
                .type = T::integer,
                .project = true,
                .min = 0,
                .max = k_gib,
                .u64 = &Config::min_lines},
    SettingInfo{.name = "compress.max_view_bytes",
                .type = T::integer,
                .env = "SUTRA_MAX_VIEW_BYTES",
                .project = true,
                .min = 256,
                .max = k_gib,
                .u64 = &Config::max_view_bytes},
    SettingInfo{.name = "compress.max_input_bytes",
                .type = T::integer,
                .min = 1,
                .max = 16 * k_gib,
                .u64 = &Config::max_input_bytes},
    SettingInfo{.name = "compress.min_saving_percent",
                .type = T::integer,
                .project = true,
                .min = 0,
                .max = 90,
                .u32 = &Config::min_saving_percent},
    // Also SUTRA_KEEP, which appends to the list (config.cpp).
    SettingInfo{.name = "compress.keep_patterns", .type = T::string_array, .project = true},
    SettingInfo{.name = "store.enabled",
                .type = T::boolean,
                .env = "SUTRA_STORE",
                .flag = &Config::store_enabled},
    SettingInfo{.name = "store.dir", .type = T::string, .env = "SUTRA_HOME"},
    SettingInfo{.name = "store.max_entry_bytes",
                .type = T::integer,
                .min = 1,
                .max = 16 * k_gib,
                .u64 = &Config::max_entry_bytes},
    SettingInfo{.name = "store.max_total_bytes",
                .type = T::integer,
                .min = 1,
                .max = 1024 * k_gib,
                .u64 = &Config::max_total_bytes},
    SettingInfo{.name = "store.max_entries",
                .type = T::integer,
                .min = 1,
                .max = 1'000'000,
                .u64 = &Config::max_entries},
    SettingInfo{.name = "store.ttl_seconds",
                .type = T::integer,
                .env = "SUTRA_TTL_SECONDS",
                .min = 1,
                .max = k_ten_years,
                .i64 = &Config::ttl_seconds},
    SettingInfo{.name = "store.fsync", .type = T::boolean, .flag = &Config::fsync},
    SettingInfo{.name = "restore.max_bytes",
                .type = T::integer,
                .env = "SUTRA_RESTORE_MAX_BYTES",
                .min = 1,
                .max = static_cast<std::int64_t>(k_restore_hard_cap),
                .u64 = &Config::restore_max_bytes},
    SettingInfo{.name = "stats.enabled",
                .type = T::boolean,
                .env = "SUTRA_STATS",
                .flag = &Config::stats_enabled},
    SettingInfo{.name = "stats.max_bytes",
                .type = T::integer,
                .min = 1,
                .max = 64 << 20,
                .u64 = &Config::stats_max_bytes},
    SettingInfo{
        .name = "stats.count_tokens", .type = T::boolean, .flag = &Config::stats_count_tokens},
};

// Each integer row names its range and exactly one member; each boolean row its flag.
constexpr bool table_is_whole() {
    for (const SettingInfo& s : k_settings) {
        const int members = (s.u64 != nullptr) + (s.u32 != nullptr) + (s.i64 != nullptr);
        if (s.type == T::integer && (members != 1 || s.min < 0 || s.max < s.min)) return false;
        if (s.type != T::integer && members != 0) return false;
        if ((s.type == T::boolean) != (s.flag != nullptr)) return false;
    }
    return true;
}
static_assert(table_is_whole());

} // namespace

// Strings are written as TOML basic strings so `sutra config` output is valid TOML.
std::string toml_string(std::string_view s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c < 0x20 || c == 0x7f)
                out += fmt::format("\\u{:04X}", c);
            else
                out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

std::span<const SettingInfo> settings() {
    return k_settings;
}

const SettingInfo* find_setting(std::string_view name) {
    for (const SettingInfo& s : k_settings)
        if (s.name == name) return &s;
    return nullptr;
}

std::string set_integer(Config& c, std::string_view name, std::int64_t value) {
    const SettingInfo* s = find_setting(name);
    if (s == nullptr || s->type != T::integer)
        return fmt::format("{} is not an integer setting", name);
    if (value < 0) return fmt::format("{} must not be negative, got {}", name, value);
    if (value < s->min || value > s->max)
        return fmt::format("{} must be between {} and {}, got {}", name, s->min, s->max, value);
    if (s->u64 != nullptr)
        c.*(s->u64) = static_cast<std::uint64_t>(value);
    else if (s->u32 != nullptr)
        c.*(s->u32) = static_cast<std::uint32_t>(value);
    else
        c.*(s->i64) = value;
    return {};
}

std::string set_boolean(Config& c, std::string_view name, bool value) {
    const SettingInfo* s = find_setting(name);
    if (s == nullptr || s->type != T::boolean)
        return fmt::format("{} is not a boolean setting", name);
    c.*(s->flag) = value;
    return {};
}

std::string set_string(Config& c, std::string_view name, const std::string& value) {
    if (name == "compress.mode") {
        std::optional<Mode> mode = parse_mode(value);
        if (!mode)
            return fmt::format("{} must be one of auto, concise, normal, verbose, full; got {}",
                               name, toml_string(value));
        c.mode = *mode;
        return {};
    }
    if (name == "store.dir") {
        // A relative store would follow the working directory, which differs per project.
        bool ok = !value.empty() && value.find('\0') == std::string::npos &&
                  (value.front() == '/' || value == "~" || value.starts_with("~/"));
        if (!ok)
            return fmt::format("{} must be an absolute path (or start with ~/), got {}", name,
                               toml_string(value));
        c.store_dir = value;
        return {};
    }
    return fmt::format("{} is not a string setting", name);
}

std::string check_keep_pattern(std::string_view pattern) {
    if (pattern.empty() || pattern.size() > k_max_keep_pattern_bytes)
        return fmt::format("compress.keep_patterns: each pattern must be 1 to {} bytes, got {}",
                           k_max_keep_pattern_bytes, pattern.size());
    return {};
}

std::string
set_string_array(Config& c, std::string_view name, const std::vector<std::string>& value) {
    if (name != "compress.keep_patterns") return fmt::format("{} is not an array setting", name);
    for (const std::string& p : value) {
        std::string error = check_keep_pattern(p);
        if (!error.empty()) return error;
    }
    c.keep_patterns = value;
    return {};
}

} // namespace detail

bool project_may_set(std::string_view setting) {
    const detail::SettingInfo* s = detail::find_setting(setting);
    return s != nullptr && s->project;
}

} // namespace sutra::core
