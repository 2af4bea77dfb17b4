#pragma once
// `sutra outline`, `sutra symbol` and `sutra read` as functions from arguments to text, so the
// CLI (host/cli/cli_outline.cpp) and the MCP tools (host/mcp/tool_files.cpp) give the same
// answers.

#include <cstddef>
#include <optional>
#include <string>

namespace sutra::host {

/// What a command prints: `out` to stdout, `err` (warnings, errors, without the "sutra: "
/// prefix, one per line) to stderr, and the exit status: 0 done, 1 failed (unreadable file,
/// unknown language, no such symbol, bad line range), 2 usage, 3 the file has syntax errors
/// and `out` holds a partial answer.
struct CommandResult {
    int status = 0;
    std::string out;
    std::string err;
};

constexpr int k_status_partial = 3;

struct OutlineRequest {
    std::string path;
    bool json = false;
    std::string language; ///< empty: from the extension or shebang
};

struct SymbolRequest {
    std::string path;
    std::string name;
    std::string kind;
    std::optional<std::size_t> line;
    enum class Form { verbatim, compact, signature } form = Form::verbatim;
    std::string language;
};

CommandResult run_outline(const OutlineRequest& request);
CommandResult run_symbol(const SymbolRequest& request);
/// `spec` is "A-B[,C-D...]" (one-based, inclusive).
CommandResult run_read(const std::string& path, const std::string& spec);

} // namespace sutra::host
