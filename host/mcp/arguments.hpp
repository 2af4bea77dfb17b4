#pragma once
// Tool arguments: the subset of JSON Schema the tools declare, checked before any tool runs, and
// the number conversions the tools share.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace sutra::host::mcp {

using Json = nlohmann::ordered_json;

/// Integers a JavaScript client can send exactly.
inline constexpr std::int64_t k_max_safe_integer = 9007199254740991;

/// A JSON number that is a whole number (3 and 3.0 alike), as a long double.
std::optional<long double> integer_value(const Json& v);

/// Arguments already passed their schema, so bounds hold; this only converts.
std::uint64_t get_u64(const Json& v);

/// Checks arguments against the subset of JSON Schema the tools use (object, properties,
/// required, additionalProperties:false, type, enum, minimum, maximum, minLength, maxLength,
/// pattern). Returns a message naming the argument and what it takes, or nothing when valid.
std::optional<std::string> check_arguments(const Json& schema, const Json& arguments);

} // namespace sutra::host::mcp
