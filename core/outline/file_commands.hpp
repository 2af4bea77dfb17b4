#pragma once
// The core's entries for source files: outline, symbol and read, as functions from a request to
// the answer's text, so the CLI (host/cli/cli_outline.cpp, cli_read.cpp) and the MCP tools
// (host/mcp/tool_files.cpp) give the same answers without either including the other.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sutra::core::outline {

/// What a command prints: `out` to stdout, `err` (warnings, errors, without the "sutra: "
/// prefix, one per line) to stderr, and the exit status: 0 done, 1 failed (unreadable file,
/// unknown language, no such symbol, bad line range), 2 usage, 3 the file has syntax errors
/// and `out` holds a partial answer.
struct CommandResult {
    int status = 0;
    std::string out;
    std::string err;
    std::string note; ///< `sutra read`: what the page holds and the next call, printed as is
    /// run_outline with `both`: the JSON form beside the text one in `out`, from one parse.
    nlohmann::ordered_json structured;
};

constexpr int k_status_partial = 3;

struct OutlineRequest {
    std::string path;
    bool both = false; ///< `out` the text form and `structured` the JSON one (the MCP tool)
    std::vector<std::string> within; ///< not empty: the file must lie under one of these
    bool json = false;
    std::string language; ///< empty: from the extension or shebang
};

struct SymbolRequest {
    std::string path;
    std::vector<std::string> within; ///< not empty: the file must lie under one of these
    std::string name;
    std::string kind;
    std::optional<std::size_t> line;
    enum class Form { verbatim, compact, signature } form = Form::verbatim;
    std::string language;
};

/// `sutra read`: one bounded page of a file's lines or bytes (docs/outline.md).
struct ReadRequest {
    std::string path;
    std::vector<std::string> within; ///< not empty: the file must lie under one of these
    std::string lines;              ///< "A-B[,C-D...]", one-based, inclusive; or empty with `bytes`
    std::string bytes;              ///< "A-B", zero-based, end exclusive; or empty with `lines`
    std::uint64_t max_bytes = 8192; ///< the page's bound (restore's page: restore.max_bytes)
    bool max_bytes_given = false;   ///< the next call repeats it
    std::string tool;               ///< the MCP tool that spells the next call; empty: the CLI
};

/// Where a page of `sutra read` leaves off, for a caller that answers in fields.
struct ReadPage {
    std::string next_lines; ///< the lines still to ask for, or empty
    std::optional<std::pair<std::uint64_t, std::uint64_t>> next_bytes; ///< bytes mode: the rest
    /// The page's one line alone was longer than the page: the bytes of it that follow.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> rest;
    std::uint64_t rest_line = 0;
    std::uint64_t total_lines = 0;
    std::uint64_t total_bytes = 0;
};

CommandResult run_outline(const OutlineRequest& request);
CommandResult run_symbol(const SymbolRequest& request);
/// `out` is the page, `note` (empty when the answer is whole) says what it holds and spells the
/// next call; `page` (when given) gets the same in fields.
CommandResult run_read(const ReadRequest& request, ReadPage* page = nullptr);

/// A whole decimal number of at most 19 digits, nothing else.
std::optional<std::uint64_t> parse_u64(std::string_view s);

} // namespace sutra::core::outline
