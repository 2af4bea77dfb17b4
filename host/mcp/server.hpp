#pragma once
// `sutra mcp`'s server: MCP over standard input and output until end of input. Its command line
// is read in host/cli/cli_mcp.cpp.

#include "host/mcp/tools.hpp"

namespace sutra::host::mcp {

/// Serves until standard input ends; returns the process exit status.
int serve_stdio(ServerOptions options, bool text_only);

} // namespace sutra::host::mcp
