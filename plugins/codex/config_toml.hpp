#pragma once
// Minimal text edits of Codex's config.toml for one table, `[mcp_servers.sutra]`, in the exact
// form `codex mcp add` writes. We do not parse and re-emit TOML (that would drop
// the user's comments and layout): install appends the table, or replaces its command and args
// lines; uninstall deletes its lines. Every edit is then re-read with toml++ and must change
// nothing but that table (check_server_edit). Shapes where an appended table would be invalid
// TOML (an inline `mcp_servers = {…}`, a `sutra` key inside `[mcp_servers]`) throw, and install
// then changes nothing. Only the Codex adapter edits config.toml, so these stay beside it and are
// compiled into its module (plugins/CMakeLists.txt), not into sutra_plugin_common.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sutra::plugins::codex {

/// A TOML basic string: JSON's escapes are all valid TOML.
std::string toml_string(const std::string& value);

/// The table sutra registers: `command = …` and `args = […]`.
std::string toml_server_table(const std::string& command, const std::vector<std::string>& args);

/// `s` without leading and trailing blanks.
std::string toml_trim(const std::string& s);

/// A table header's dotted name without brackets, quotes or blanks ("" for other lines).
std::string toml_header(const std::string& line);

/// Where our table is: byte offsets [begin, end) of its lines, subtables included.
struct TomlTable {
    std::size_t begin = 0, end = 0;
};

struct TomlLine {
    std::size_t begin, end; // end includes the '\n'
    std::string text;
};

/// `text` cut into its lines.
std::vector<TomlLine> toml_lines(const std::string& text);

/// Finds `[mcp_servers.sutra]`; throws where a table cannot be added safely.
std::optional<TomlTable> find_server_table(const std::string& text);

/// The one-line value text of `key = …` inside a table's text; nullopt when absent.
std::optional<std::string> toml_table_raw(const std::string& table, const std::string& key);

/// The value of `key = "…"` (or '…') inside a table's text, decoded; nullopt when absent.
std::optional<std::string> toml_table_string(const std::string& table, const std::string& key);

/// `key = ["…", …]` of basic strings (the form `codex mcp add` writes), decoded.
std::vector<std::string> toml_table_strings(const std::string& table, const std::string& key);

/// True when the table says `enabled = false`.
bool toml_table_disabled(const std::string& table);

/// `original` (absent = no file) with our table set to `table`; the same bytes when it is.
std::string with_server_table(const std::optional<std::string>& original, const std::string& table);

/// `text` without our table (and the blank line install put before it). The comments and blank
/// lines after its last key belong to what follows and stay.
std::string without_server_table(const std::string& text);

/// A bare or quoted TOML key, unquoted and trimmed.
std::string toml_key(const std::string& raw);

/// What Codex itself reads of `mcp_servers.sutra` (toml++, Codex's grammar): its command and
/// args; nullopt when absent. Throws, naming `path`, when the text is not valid TOML.
struct TomlServer {
    std::string command;
    std::vector<std::string> args;
};
std::optional<TomlServer> toml_read_server(const std::string& text, const std::string& path);

/// A top-level integer key of the file (toml++); nullopt when absent or not an integer.
std::optional<std::int64_t> toml_read_int(const std::string& text, const std::string& key);

/// The boolean `[features] NAME` (toml++); nullopt when absent or not a boolean. Throws, naming
/// `path`, when the text is not valid TOML.
std::optional<bool>
toml_read_feature(const std::string& text, const std::string& path, const std::string& name);

/// Throws, naming `path`, unless `after` is valid TOML that differs from `before` only in
/// `mcp_servers.sutra`: its command and args as `want` (nullopt: the table is gone), every other
/// key of it and of the file as it was.
void check_server_edit(const std::optional<std::string>& before,
                       const std::string& after,
                       const std::optional<TomlServer>& want,
                       const std::string& path);

/// Throws, naming `path`, unless `after` is valid TOML that differs from `before` only in the
/// top-level integer `key`, which holds `want` (nullopt: any value, or none).
void check_key_edit(const std::string& before,
                    const std::string& after,
                    const std::string& key,
                    std::optional<std::int64_t> want,
                    const std::string& path);

} // namespace sutra::plugins::codex
