// The setting table (see config_settings.hpp): names and types, each integer's range, and the
// checks every layer's value passes through on its way into a Config.

#include "core/config_settings.hpp"

#include <fmt/format.h>

#include <array>
#include <limits>
#include <optional>

namespace sutra::core {
namespace detail {
namespace {

constexpr std::int64_t k_int_max = std::numeric_limits<std::int64_t>::max();
constexpr std::size_t k_max_keep_pattern_bytes = 100;

constexpr std::array k_settings{
    SettingInfo{"compress.mode", SettingType::string},
    SettingInfo{"compress.min_bytes", SettingType::integer},
    SettingInfo{"compress.min_lines", SettingType::integer},
    SettingInfo{"compress.max_view_bytes", SettingType::integer},
    SettingInfo{"compress.max_input_bytes", SettingType::integer},
    SettingInfo{"compress.min_saving_percent", SettingType::integer},
    SettingInfo{"compress.keep_patterns", SettingType::string_array},
    SettingInfo{"store.enabled", SettingType::boolean},
    SettingInfo{"store.dir", SettingType::string},
    SettingInfo{"store.max_entry_bytes", SettingType::integer},
    SettingInfo{"store.max_total_bytes", SettingType::integer},
    SettingInfo{"store.max_entries", SettingType::integer},
    SettingInfo{"store.ttl_seconds", SettingType::integer},
    SettingInfo{"store.fsync", SettingType::boolean},
    SettingInfo{"restore.max_bytes", SettingType::integer},
    SettingInfo{"stats.enabled", SettingType::boolean},
    SettingInfo{"stats.max_bytes", SettingType::integer},
    SettingInfo{"stats.count_tokens", SettingType::boolean},
};

struct IntRange {
    std::int64_t min;
    std::int64_t max;
};

constexpr std::int64_t k_gib = std::int64_t{1} << 30;
constexpr std::int64_t k_ten_years = std::int64_t{3650} * 24 * 3600;

// Lower bounds above zero keep a setting from disabling its feature by accident: a view ceiling
// too small for even a marker, a store that can hold nothing, a TTL that expires on write. Upper
// bounds keep every size and duration far from overflow (`created + ttl`, byte sums) and within
// what the code that uses it can hold: an input or entry in memory, a report that reads at most
// 64 MiB of log.
IntRange int_range(std::string_view name) {
    if (name == "compress.min_bytes" || name == "compress.min_lines") return {0, k_gib};
    if (name == "compress.max_view_bytes") return {256, k_gib};
    if (name == "compress.max_input_bytes") return {1, 16 * k_gib};
    if (name == "compress.min_saving_percent") return {0, 90};
    if (name == "store.max_entry_bytes") return {1, 16 * k_gib};
    if (name == "store.max_total_bytes") return {1, 1024 * k_gib};
    if (name == "store.max_entries") return {1, 1'000'000};
    if (name == "store.ttl_seconds") return {1, k_ten_years};
    if (name == "restore.max_bytes") return {1, static_cast<std::int64_t>(k_restore_hard_cap)};
    if (name == "stats.max_bytes") return {1, 64 << 20};
    return {1, k_int_max};
}

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
    IntRange range = int_range(name);
    if (value < 0) return fmt::format("{} must not be negative, got {}", name, value);
    if (value < range.min || value > range.max) {
        if (range.max == k_int_max)
            return fmt::format("{} must be at least {}, got {}", name, range.min, value);
        return fmt::format("{} must be between {} and {}, got {}", name, range.min, range.max,
                           value);
    }
    auto u = static_cast<std::uint64_t>(value);
    if (name == "compress.min_bytes")
        c.min_bytes = u;
    else if (name == "compress.min_lines")
        c.min_lines = u;
    else if (name == "compress.max_view_bytes")
        c.max_view_bytes = u;
    else if (name == "compress.max_input_bytes")
        c.max_input_bytes = u;
    else if (name == "compress.min_saving_percent")
        c.min_saving_percent = static_cast<std::uint32_t>(u);
    else if (name == "store.max_entry_bytes")
        c.max_entry_bytes = u;
    else if (name == "store.max_total_bytes")
        c.max_total_bytes = u;
    else if (name == "store.max_entries")
        c.max_entries = u;
    else if (name == "store.ttl_seconds")
        c.ttl_seconds = value;
    else if (name == "restore.max_bytes")
        c.restore_max_bytes = u;
    else if (name == "stats.max_bytes")
        c.stats_max_bytes = u;
    else
        return fmt::format("{} is not an integer setting", name);
    return {};
}

std::string set_boolean(Config& c, std::string_view name, bool value) {
    if (name == "store.enabled")
        c.store_enabled = value;
    else if (name == "store.fsync")
        c.fsync = value;
    else if (name == "stats.enabled")
        c.stats_enabled = value;
    else if (name == "stats.count_tokens")
        c.stats_count_tokens = value;
    else
        return fmt::format("{} is not a boolean setting", name);
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
    return setting == "compress.mode" || setting == "compress.keep_patterns" ||
           setting == "compress.min_bytes" || setting == "compress.min_lines" ||
           setting == "compress.max_view_bytes" || setting == "compress.min_saving_percent";
}

} // namespace sutra::core
