// Checking tool arguments against their input schema, with messages that say what an argument
// takes.

#include "host/mcp/arguments.hpp"

#include "core/util/utf8.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string_view>

namespace sutra::host::mcp {
namespace {

std::size_t code_points(std::string_view s) {
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string quoted_list(const Json& values) {
    std::string out;
    for (const auto& v : values) {
        if (!out.empty()) out += ", ";
        out += v.dump();
    }
    return out;
}

// What a property schema accepts, in words, for error messages.
std::string takes(const Json& s) {
    if (s.contains("enum")) return "one of " + quoted_list(s["enum"]);
    const std::string type = s.value("type", "");
    if (type == "integer" || type == "number") {
        std::string word = type == "integer" ? "an integer" : "a number";
        if (s.contains("minimum") && s.contains("maximum"))
            return fmt::format("{} from {} to {}", word, s["minimum"].dump(), s["maximum"].dump());
        if (s.contains("minimum")) return fmt::format("{} >= {}", word, s["minimum"].dump());
        return word;
    }
    if (type == "string") {
        if (s.contains("pattern"))
            return fmt::format("a string matching {}", s["pattern"].get<std::string>());
        if (s.contains("minLength") && s.contains("maxLength"))
            return fmt::format("a string of {} to {} characters", s["minLength"].dump(),
                               s["maxLength"].dump());
        if (s.contains("maxLength"))
            return fmt::format("a string of at most {} characters", s["maxLength"].dump());
        return "a string";
    }
    if (type == "boolean") return "true or false";
    if (type == "array") return "an array";
    if (type == "object") return "an object";
    return "a value";
}

bool has_type(const Json& v, std::string_view type) {
    if (type == "string") return v.is_string();
    if (type == "integer") return integer_value(v).has_value();
    if (type == "number") return v.is_number();
    if (type == "boolean") return v.is_boolean();
    if (type == "array") return v.is_array();
    if (type == "object") return v.is_object();
    if (type == "null") return v.is_null();
    return true;
}

bool check_value(const Json& s, const Json& v) {
    if (s.contains("type") && !has_type(v, s["type"].get<std::string>())) return false;
    if (s.contains("enum") && std::ranges::find(s["enum"], v) == s["enum"].end()) return false;
    if (v.is_number()) {
        const auto x = integer_value(v).value_or(static_cast<long double>(v.get<double>()));
        if (s.contains("minimum") && x < s["minimum"].get<long double>()) return false;
        if (s.contains("maximum") && x > s["maximum"].get<long double>()) return false;
    }
    if (v.is_string()) {
        const auto& text = v.get_ref<const std::string&>();
        const std::size_t n = code_points(text);
        if (s.contains("minLength") && n < s["minLength"].get<std::size_t>()) return false;
        // The length check comes first so a pattern never runs over a huge string.
        if (s.contains("maxLength") && n > s["maxLength"].get<std::size_t>()) return false;
        if (s.contains("pattern")) {
            const std::regex re(s["pattern"].get<std::string>(), std::regex::ECMAScript);
            if (!std::regex_search(text, re)) return false;
        }
    }
    return true;
}

std::string clip_name(const std::string& name) {
    return name.size() <= 64 ? name : name.substr(0, core::utf8_floor(name, 64)) + "…";
}

} // namespace

std::optional<long double> integer_value(const Json& v) {
    if (v.is_number_unsigned()) return static_cast<long double>(v.get<std::uint64_t>());
    if (v.is_number_integer()) return static_cast<long double>(v.get<std::int64_t>());
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::isfinite(d) && std::trunc(d) == d) return static_cast<long double>(d);
    }
    return std::nullopt;
}

std::uint64_t get_u64(const Json& v) {
    return static_cast<std::uint64_t>(integer_value(v).value_or(0));
}

std::optional<std::string> check_arguments(const Json& schema, const Json& arguments) {
    if (!arguments.is_object()) return "arguments must be an object";
    const Json& props = schema["properties"];
    const bool closed =
        schema.contains("additionalProperties") && schema["additionalProperties"] == Json(false);
    for (const auto& [key, value] : arguments.items()) {
        if (!props.contains(key)) {
            if (!closed) continue;
            std::string known;
            for (const auto& [name, _] : props.items()) known += (known.empty() ? "" : ", ") + name;
            return fmt::format("unknown argument '{}'; this tool takes: {}", clip_name(key),
                               known.empty() ? "no arguments" : known);
        }
        if (!check_value(props[key], value))
            return fmt::format("argument '{}' must be {}", key, takes(props[key]));
    }
    if (schema.contains("required"))
        for (const auto& name : schema["required"])
            if (!arguments.contains(name.get<std::string>()))
                return fmt::format("missing required argument '{}' ({})", name.get<std::string>(),
                                   takes(props[name.get<std::string>()]));
    return std::nullopt;
}

} // namespace sutra::host::mcp
