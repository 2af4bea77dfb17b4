#pragma once
// Minimal text edits of Hermes' config.yaml: add or remove one name in `plugins.enabled`, and set
// or remove the `mcp_servers.sutra` block. We do not parse and re-emit YAML (that would drop
// comments and reformat the user's file); we find the one list or block by its indentation and
// insert or delete single lines or list items, leaving every other byte as it was. Shapes we
// cannot edit safely (flow mappings, anchors, multi-line flow lists) throw, and install then
// changes nothing. Only the Hermes adapter edits config.yaml, so these stay beside it and are
// compiled into its module (plugins/CMakeLists.txt), not into sutra_plugin_common.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sutra::plugins::hermes {

struct YamlLines {
    std::vector<std::string> lines; // without their '\n'
    bool final_newline = true;
    std::string cr; // "\r" when the file uses CRLF line ends
};

/// `text` cut into lines, with its line-end style kept for join_yaml.
YamlLines split_yaml(const std::string& text);

/// The text split_yaml read, with any edits to its lines.
std::string join_yaml(const YamlLines& y);

/// `s` without leading and trailing blanks.
std::string yaml_trim(const std::string& s);

/// The number of leading spaces.
std::size_t yaml_indent(const std::string& line);

/// True for a blank or comment-only line.
bool yaml_skip(const std::string& line);

/// The text before a comment (`#` at the start or after a blank), trimmed.
std::string yaml_value(const std::string& s);

/// `s` without one pair of matching surrounding quotes.
std::string yaml_unquote(std::string s);

/// `key:` at exactly `indent`; sets `rest` to what follows the colon.
bool yaml_key(const std::string& line,
              std::size_t indent,
              const std::string& key,
              std::string& rest);

/// Where `plugins.<key>` is and what it holds.
struct YamlList {
    std::optional<std::size_t> plugins_line;
    std::size_t block_end = 0; // one past the plugins block
    std::size_t child_indent = 2;
    std::optional<std::size_t> key_line;
    enum class Kind { absent, block, flow } kind = Kind::absent;
    std::vector<std::string> items;
    std::vector<std::size_t> item_lines; // block lists: the line of each item
    std::size_t item_indent = 4;
};

/// Finds `plugins.<key>`; throws on shapes we do not edit.
YamlList find_plugins_list(const YamlLines& y, const std::string& key);

/// True when `plugins.<key>` of `text` lists `name`.
bool yaml_lists(const std::optional<std::string>& text,
                const std::string& key,
                const std::string& name);

/// `text` (absent = no file) with `name` added to plugins.enabled; unchanged when already there.
std::string yaml_enable(const std::optional<std::string>& text, const std::string& name);

/// `text` without `name` in plugins.enabled (used only when the file changed since install).
std::string yaml_disable(const std::string& text, const std::string& name);

// ---- `mcp_servers.sutra`: one child block of the top-level `mcp_servers:` mapping.

/// Where the top-level `mcp_servers:` mapping and our `sutra:` child are.
struct YamlServer {
    std::optional<std::size_t> section_line;
    bool flow_empty = false; // `mcp_servers: {}`
    std::size_t child_indent = 2;
    std::size_t last_content = 0;     // last non-blank, non-comment line of the section
    std::optional<std::size_t> begin; // our child's first line
    std::size_t end = 0;              // one past its last content line
};

/// Finds `mcp_servers.<name>`; throws when `mcp_servers:` is not a block mapping.
YamlServer find_server(const YamlLines& y, const std::string& name);

/// The child block `name:` with `command:` and a flow list of `args:` (JSON strings are valid
/// YAML double-quoted scalars), at indent 0 (yaml_set_server indents it).
std::vector<std::string> yaml_server_block(const std::string& name,
                                           const std::string& command,
                                           const std::vector<std::string>& args);

/// Our child block's lines (without their '\n'), re-indented to column 0 of the child.
std::optional<std::vector<std::string>> yaml_server_lines(const std::optional<std::string>& text,
                                                          const std::string& name);

/// The `command:` value of our child block, decoded; nullopt when absent.
std::optional<std::string> yaml_server_command(const std::optional<std::string>& text,
                                               const std::string& name);

/// `text` (absent = no file) with our child block set to `block` (lines at child indent 0,
/// re-indented here); the same bytes when it is already there. An existing block keeps its
/// other keys (an upgrade changes only `command:` and `args:`).
std::string yaml_set_server(const std::optional<std::string>& text,
                            const std::string& name,
                            const std::vector<std::string>& block);

/// `text` without our child block (used only when the file changed since install).
std::string yaml_remove_server(const std::string& text, const std::string& name);

/// The `args:` flow list of our child block, decoded; nullopt when absent or another shape.
std::optional<std::vector<std::string>> yaml_server_args(const std::optional<std::string>& text,
                                                         const std::string& name);

// ---- Document markers: a config.yaml is one document. `---` may open it and `...` may end
// it; an edit goes before the `...`, where YAML still reads it as part of the document.

/// `text` cut at its `...` line: {the document, the marker and what follows}. Throws when the
/// file holds more than one document (content after `...`, or a `---` after content).
std::pair<std::string, std::string> yaml_document(const std::string& text);

} // namespace sutra::plugins::hermes
