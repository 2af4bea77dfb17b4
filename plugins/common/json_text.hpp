#pragma once
// Text-level edits of one member of a JSON or JSONC file (comments, trailing commas), so that
// registering sutra's MCP server in a host's config changes only the bytes of that member:
// the user's comments, key order and layout all stay. Only `doc[section][name]` is ever set or
// removed; the caller re-parses the result with the host's grammar before writing it.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::plugins::common {

/// Parses JSON, or JSONC (`//` and `/* */` comments, trailing commas) when `jsonc`; a leading
/// UTF-8 byte-order mark is skipped, and values nest up to core::k_max_config_nesting (a user's
/// own file). Nullopt when the text is not valid in that grammar.
std::optional<nlohmann::ordered_json> parse_json_text(const std::string& text, bool jsonc);

/// Why parse_json_text refuses `text`, as a sentence's predicate: "is not valid JSON (parse error
/// at line 2, column 8: …)" or "nests deeper than 2048 levels"; empty when it parses.
std::string json_text_problem(const std::string& text, bool jsonc);

/// One top-level member of a JSON object text: its key, and its value's bytes in that text.
struct TopMember {
    std::string key;
    std::string_view value;
};

/// The top-level members of `text` (JSON, or JSONC when `jsonc`), in order, the whole text
/// checked valid in that grammar but never built as a tree: a large config (an 8 MB
/// `.claude.json`, one object of thousands of projects, which nlohmann's ordered objects build in
/// quadratic time) costs a scan. Blank text has no members. Nullopt when the text is not valid,
/// its top level is not an object, or a key appears twice there (readers differ on which wins).
std::optional<std::vector<TopMember>> json_top_members(const std::string& text, bool jsonc);
/// The views point into `text`: a temporary would leave them dangling.
std::optional<std::vector<TopMember>> json_top_members(std::string&& text, bool jsonc) = delete;

/// The bytes of member `key`'s value in the JSON object text `object` (its last occurrence, the
/// one JSON.parse and nlohmann keep), or nullopt when it is absent or the scan meets text that is
/// not JSON where it steps. Nothing is built and the skipped values are only delimited, not
/// checked: for a hook that reads two members of a large file on every call (an 8 MB
/// `.claude.json` parsed whole took 260 ms of each call), never for an edit.
std::optional<std::string_view> json_member_text(std::string_view object, std::string_view key);

/// The length of a leading UTF-8 byte-order mark (3), else 0. Edits keep it where it is.
std::size_t bom_length(const std::string& text);

/// `text` (after its byte-order mark, if any) with doc[section][name] set to `value` (added at the
/// end of its object, in the file's indentation, or its value replaced in place). Throws when the
/// top level or `section` is not an object.
std::string json_text_set(const std::string& text,
                          const std::string& section,
                          const std::string& name,
                          const nlohmann::ordered_json& value);

/// `text` without doc[section][name] (its line and one comma); the same text when absent.
std::string
json_text_remove(const std::string& text, const std::string& section, const std::string& name);

} // namespace sutra::plugins::common
