#pragma once
// Text-level edits of one member of a JSON or JSONC file (comments, trailing commas), so that
// registering sutra's MCP server in a host's config changes only the bytes of that member:
// the user's comments, key order and layout all stay. Only `doc[section][name]` is ever set or
// removed; the caller re-parses the result with the host's grammar before writing it.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace sutra::plugins::common {

/// Parses JSON, or JSONC (`//` and `/* */` comments, trailing commas) when `jsonc`. Nullopt
/// when the text is not valid in that grammar.
std::optional<nlohmann::ordered_json> parse_json_text(const std::string& text, bool jsonc);

/// `text` with doc[section][name] set to `value` (added at the end of its object, in the file's
/// indentation, or its value replaced in place). Throws when the top level or `section` is not
/// an object.
std::string json_text_set(const std::string& text,
                          const std::string& section,
                          const std::string& name,
                          const nlohmann::ordered_json& value);

/// `text` without doc[section][name] (its line and one comma); the same text when absent.
std::string
json_text_remove(const std::string& text, const std::string& section, const std::string& name);

} // namespace sutra::plugins::common
