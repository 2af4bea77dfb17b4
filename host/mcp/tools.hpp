#pragma once
// The tools `sutra mcp` serves: a fixed table, each entry with its schemas and its handler.
// The server (host/mcp/server.cpp) speaks the protocol; this file knows only arguments and
// results. Each tool lives in its own file (host/mcp/tool_*.cpp, declared in tool_defs.hpp);
// a new tool joins by adding its file and a row to the table in host/mcp/tools.cpp.

#include "host/mcp/arguments.hpp"

#include <nlohmann/json.hpp>

#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::host::mcp {

/// Settings of one `sutra mcp` process, from its command line.
struct ServerOptions {
    /// How markers and notes spell the restore tool: the name the host shows the model
    /// (e.g. `mcp__sutra__sutra_restore` on Claude Code).
    std::string restore_tool = "sutra_restore";
    /// Store namespace used when a call does not name one; empty for the default store.
    std::string store_namespace;
    /// The tool groups served (`--tools`): restore, compress and stats by default; "files"
    /// (outline, symbol, read) and "exec" reach past a host's own permission rules, so a user
    /// opts into them (`sutra install --mcp-files`, `--mcp-exec`).
    std::vector<std::string> groups = {"restore", "compress", "stats"};
    /// Folders the file tools may read under (real paths); the server's working directory
    /// (the host's project folder) unless `--allow-read` names others.
    std::vector<std::string> file_roots;
};

/// Every group name `--tools` accepts, in tools/list order.
inline constexpr const char* k_tool_groups[] = {"restore", "compress", "stats", "files", "exec"};

/// Arguments the schema or the tool refuses: answered as JSON-RPC error -32602, not as a
/// tool result.
struct InvalidParams {
    std::string message;
};

/// A tools/call result ({content, structuredContent?, isError?}) or invalid arguments.
using ToolOutcome = std::expected<Json, InvalidParams>;

struct Tool {
    const char* name;
    const char* group; ///< which `--tools` group serves it
    const char* title;
    const char* description;
    Json (*input_schema)();
    Json (*output_schema)();
    bool read_only; ///< annotations.readOnlyHint
    /// Called with arguments that already passed the input schema.
    ToolOutcome (*call)(const Json& arguments, const ServerOptions& options);
};

/// Every tool, in the order tools/list shows them.
std::span<const Tool> tools();

const Tool* find_tool(std::string_view name);

/// True when `options` serves the tool's group.
bool serves(const Tool& tool, const ServerOptions& options);

/// The tools/list entry for a tool.
Json describe(const Tool& tool);

/// Validates, then calls; a failure inside the tool becomes an isError result.
ToolOutcome call_tool(const Tool& tool, const Json& arguments, const ServerOptions& options);

/// A result with one text block and isError set: a tool failure the model can act on.
Json tool_error(std::string message);

} // namespace sutra::host::mcp
