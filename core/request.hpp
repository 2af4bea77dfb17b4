#pragma once
// The core's request and response: plain values that every front end (the CLI, the host adapters,
// the MCP server, exec) fills in and reads back. Nothing here owns a file or a process.

#include "core/host_cut.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

/// How much of a result the view keeps. `automatic` picks `normal` for a failing command
/// (non-zero exit) and `concise` for a successful one.
enum class Mode { automatic, concise, normal, verbose, full };

/// What the bytes look like; decides which rewrite runs.
enum class Shape { empty, binary, diff, json, traceback, test_log, build_log, text };

/// Why bytes were elided. Each elision leaves one marker naming its reason.
enum class Reason {
    repeated_lines,
    similar_lines,
    large_output,
    long_line,
    long_string,
    array_items,
    object_members,
    outside_outline ///< a printed file's lines between the symbols its outline shows
};

/// How a marker spells the restore call, so the model can run it in its own host.
struct RestoreRoute {
    enum class Kind { cli, mcp };
    Kind kind = Kind::cli;
    /// The tool name the host shows the model, e.g. `mcp__sutra__sutra_restore` (mcp only).
    std::string tool = "sutra_restore";
    /// The command a shell tool can run (cli only).
    std::string program = "sutra";
    /// The store namespace the call must name; empty for the default store. An MCP server that
    /// install registers for a namespace already defaults to it, so markers in the MCP dialect
    /// leave it out (core/compress.cpp) and only explicit calls name it.
    std::string store_namespace;
};

/// One line of a printed file's outline: where a symbol starts, and how deeply it is nested.
struct OutlineLine {
    std::uint64_t line = 0; ///< one-based
    std::uint64_t depth = 0;
};

/// The outline of a printed file past the view ceiling (core/rewrite/printed_file.hpp); `name` is
/// the file's name as the command gave it ("" when unknown), which tells the language. Empty when
/// it has none. Front ends that link tree-sitter set it; the core never calls anything else.
using Outliner =
    std::function<std::vector<OutlineLine>(std::string_view text, std::string_view name)>;

struct Request {
    /// The tool result, exactly as the host received it.
    std::string_view output;
    std::string tool;    ///< host's tool name, e.g. "Bash"; may be empty
    std::string command; ///< the command line that produced the output; may be empty
    std::optional<int> exit_code;
    std::string host; ///< "claude", "codex", "cli", …
    std::optional<Mode> mode;
    /// Store namespace (e.g. one per Hermes profile); empty for the default store.
    std::string store_namespace;
    RestoreRoute route;
    Outliner outliner; ///< optional; see Outliner
    /// The host's session id, for the stats log (`sutra stats --session`, `sutra statusline`);
    /// logged only when valid_session_id holds.
    std::string session;
    /// What the host would have shown of this output without sutra, for the stats log's
    /// savings against it (core/host_cut.hpp); unknown: the raw output.
    HostCut host_cut;
};

/// One elided range, in the original's coordinates: bytes are zero-based half-open [begin, end),
/// lines one-based inclusive [first_line, last_line].
struct Elision {
    Reason reason = Reason::large_output;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint64_t first_line = 0;
    std::uint64_t last_line = 0;
    std::uint64_t items = 0;  ///< array items, or repeats of a repeated block
    std::uint64_t keys = 0;   ///< JSON: of the items, those holding an error or other key word
    std::uint64_t period = 0; ///< repeated_lines: lines in the repeated block
};

struct Response {
    /// What the model should read. Equal to the original when `rewritten` is false.
    std::string view;
    bool rewritten = false;
    std::optional<std::string> id; ///< store id, when the original was retained
    bool retained = false;         ///< the whole original is in the store under `id`
    /// Bytes [0, retained_bytes) of the original are in the store: all of them when `retained`,
    /// a prefix when the output is larger than the store's per-entry quota.
    std::uint64_t retained_bytes = 0;
    Shape shape = Shape::empty;
    std::vector<Elision> elisions;
    std::uint64_t original_bytes = 0;
    std::uint64_t original_lines = 0;
    /// Which rules changed the bytes ("ansi", "redraw", "repeated", "similar", "budget", …).
    std::vector<std::string> rules;
    /// Why the original passed through unchanged ("small", "binary", "diff", "not-smaller",
    /// "store-failed", "error: …"); empty when rewritten.
    std::string passthrough;
};

std::string_view to_string(Mode);
std::string_view to_string(Shape);
std::string_view to_string(Reason);
std::optional<Mode> parse_mode(std::string_view);

} // namespace sutra::core
