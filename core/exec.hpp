#pragma once
// The core's second entry beside core::compress: runs one command (`sutra exec`, the MCP tool
// sutra_exec) and compresses its output as it arrives. It spawns the command in a process group
// of its own with one pipe for both standard output and standard error (core/exec/exec_process.hpp:
// signals to the group, a watchdog, the grace after the command's exit, the time limit), and
// takes the bytes in memory with core::compress while they fit a window, then with the
// streaming planner (core/exec/exec_stream.hpp) and a streaming store writer, in bounded memory. A
// store that cannot be written never costs the output (docs/exec.md). Front ends only
// translate: they fill an ExecRequest and print or wrap the ExecResult.

#include "core/compress.hpp"
#include "core/config.hpp"
#include "core/exec/exec_process.hpp"
#include "core/request.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

struct ExecRequest {
    std::vector<std::string> argv; ///< argv[0] is looked up in PATH; `--sh` passes /bin/sh -c
    std::string command;           ///< the command line as shown to the core (shape hints, stats)
    std::optional<Mode> mode;
    RestoreRoute route;
    /// The store namespace the output is kept in (as Request::store_namespace); a CLI-dialect
    /// route names it in every marker, an MCP route only when its server defaults to another.
    std::string store_namespace;
    std::uint64_t window = 4u << 20; ///< outputs up to this size are compressed whole
    /// Past the window, binary output and diffs pass through raw (the core's rules) to this
    /// sink; when it is empty they are planned like text instead (for --json and MCP).
    std::function<bool(std::string_view)> raw_sink;
    bool stdin_null = false; ///< give the child /dev/null as standard input
    /// Kill the command's whole process group (SIGKILL) once it has run this long, a hard bound
    /// on the call; 0: no limit. For callers that must answer, such as the MCP tool.
    unsigned timeout_seconds = 0;
    /// The graces of core/exec/exec_process.hpp: SIGKILL after a passed-on signal (or sutra's
    /// death), and how long the pipe is read after the command's exit.
    std::chrono::milliseconds kill_grace = k_kill_grace;
    std::chrono::milliseconds drain_grace = k_drain_grace;
    /// Pass the signals sutra receives on to the command (core/exec/exec_process.hpp). The CLI
    /// does; the MCP server does not, so the host's SIGTERM ends the server at once.
    bool forward_signals = true;
    /// End a non-zero status's view with "[sutra: command exited with status N]". Off for hosts
    /// that show the status themselves (Claude Code's "Exit code N").
    bool status_line = true;
    Outliner
        outliner; ///< a printed file's outline past the ceiling (core/rewrite/printed_file.hpp)
    /// The view's ceiling when the command exits 0 and its output fits the window; 0: the
    /// configured one, as for a failure.
    std::uint64_t max_view_bytes_on_success = 0;
    std::string session; ///< the host's session id, for the stats log
    /// The host's own cut of a failing command's output, and of a succeeding one's (unknown:
    /// the failing one's), for the stats log (core/host_cut.hpp).
    HostCut host_cut;
    HostCut host_cut_on_success;
    /// Leave a rewrite's token counts for the stats log in ExecResult::counts instead of
    /// counting before the result: the CLI counts once the view is printed
    /// (log_counted_after_exit); the MCP server, a process that goes on, does not ask.
    bool count_later = false;
};

struct ExecElision {
    Elision range;
    bool retained = true;
};

struct ExecResult {
    int exit_code = 0;   ///< the child's status, or 128+N when killed by signal N
    int signal = 0;      ///< N when killed by a signal
    bool spawned = true; ///< false: the command could not be started (exit_code 127 or 126)
    std::string spawn_error;
    /// What to show: the view (ending with the status line when non-zero). Empty when the
    /// output was passed through raw to the sink.
    std::string view;
    bool passed_raw = false;
    bool rewritten = false;
    std::optional<std::string> id;
    std::uint64_t original_bytes = 0;
    std::uint64_t retained_bytes = 0;
    std::vector<ExecElision> elisions;
    std::vector<std::string> rules;
    std::string passthrough; ///< why the output was shown whole, when it was
    std::string note;        ///< a line for standard error (store trouble), or empty
    bool timed_out = false;  ///< killed for running past ExecRequest::timeout_seconds
    /// A signal sutra received during the run and passed on to the command; 0 when none.
    int received_signal = 0;
    /// With ExecRequest::count_later: the record still to be counted (counts.due), with the
    /// output and the view it counts.
    struct Counts {
        StatsLater stats;
        std::string original;
        std::string view;
    } counts;
};

/// Runs the command to completion. Never throws.
ExecResult exec(const ExecRequest& request, const Config& config) noexcept;

/// `[sutra: command exited with status 2]` / `[sutra: command killed by signal 9 (SIGKILL)]`,
/// or empty for status 0.
std::string status_line(int exit_code, int signal);

} // namespace sutra::core
