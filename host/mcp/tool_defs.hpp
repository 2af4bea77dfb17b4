#pragma once
// The tools of `sutra mcp`, one file each, and what they share. Only the table in
// host/mcp/tools.cpp reads these; the server sees the table alone (host/mcp/tools.hpp).

#include "host/mcp/tools.hpp"

#include <expected>
#include <string>

namespace sutra::host::mcp {

// ---- shared by the tools (tools.cpp) ------------------------------------------------------

/// One MCP text content block.
Json text_block(std::string text);

/// Arguments the tool refuses, answered as JSON-RPC invalid params.
std::unexpected<InvalidParams> invalid(std::string message);

/// The optional `namespace` argument of sutra_restore and sutra_compress.
Json namespace_schema();

// ---- sutra_restore (tool_restore.cpp) -----------------------------------------------------

Json restore_input_schema();
Json restore_output_schema();
ToolOutcome call_restore(const Json& arguments, const ServerOptions& options);

// ---- sutra_compress (tool_compress.cpp) ---------------------------------------------------

Json compress_input_schema();
Json compress_output_schema();
ToolOutcome call_compress(const Json& arguments, const ServerOptions& options);

// ---- sutra_stats (tool_stats.cpp) ---------------------------------------------------------

Json stats_input_schema();
Json stats_output_schema();
ToolOutcome call_stats(const Json& arguments, const ServerOptions& options);

// ---- sutra_outline, sutra_symbol, sutra_read (tool_files.cpp) -----------------------------

Json outline_input_schema();
Json outline_output_schema();
ToolOutcome call_outline(const Json& arguments, const ServerOptions& options);
Json symbol_input_schema();
ToolOutcome call_symbol(const Json& arguments, const ServerOptions& options);
Json read_input_schema();
Json read_output_schema();
ToolOutcome call_read(const Json& arguments, const ServerOptions& options);
/// The output schema of sutra_symbol: {"text"}.
Json text_output_schema();

// ---- sutra_exec (tool_exec.cpp) -----------------------------------------------------------

Json exec_input_schema();
Json exec_output_schema();
ToolOutcome call_exec(const Json& arguments, const ServerOptions& options);

} // namespace sutra::host::mcp
