#pragma once
// The process side of `sutra exec` (core/exec.cpp): starts the command in a process group of its
// own (no other process's) with one pipe for its standard output and error, reads that pipe until
// the command is done, and makes sure the command's whole tree stops when sutra is stopped:
//  - SIGINT, SIGTERM and SIGHUP sent to sutra go to the whole group, then SIGKILL after
//    k_kill_grace;
//  - a watchdog process (forked before the command, leading the group the command starts in,
//    then stepping out into a group of its own; it holds the read end of a pipe only sutra
//    writes) sees sutra die, even by SIGKILL and even as the command starts, and stops the
//    group the same way;
//  - a time limit kills the group (SIGKILL) and is a hard bound on the wait: the pipe is read
//    k_timeout_drain more at most;
//  - the command's own exit ends the wait within k_drain_grace, even if a background child keeps
//    the pipe open and keeps writing.
// When sutra is a shell's foreground job on a terminal (it leads its process group and reads the
// terminal), the command's group gets the terminal for the run, and sutra takes it back after; a
// Ctrl-Z stops both, as a shell's job. Started by a host inside the host's own group, sutra never
// takes the terminal.
// docs/exec.md says the same for users.

#include <chrono>
#include <expected>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

/// After the command's first process exits, the pipe is read at most this much longer.
inline constexpr std::chrono::milliseconds k_drain_grace{1000};
/// After the time limit kills the group, what it printed is in the pipe already: it is read
/// at most this much longer (only a process that left the group can still write), so the
/// answer, compressed, follows the limit within a second.
inline constexpr std::chrono::milliseconds k_timeout_drain{250};
/// After a terminating signal is passed on to the group, SIGKILL follows this much later.
inline constexpr std::chrono::milliseconds k_kill_grace{2000};
/// The range `sutra exec --kill-grace-ms` and `--drain-grace-ms` accept.
inline constexpr std::chrono::milliseconds k_min_grace{10}, k_max_grace{600000};

struct CommandSpec {
    std::vector<std::string> argv; ///< argv[0] is looked up in PATH
    bool stdin_null = false;       ///< /dev/null as standard input, else sutra's own
    unsigned timeout_seconds = 0;  ///< 0: no limit
    /// After a passed-on signal (or sutra's death, in the watchdog), SIGKILL this much later.
    std::chrono::milliseconds kill_grace = k_kill_grace;
    /// After the command's first process exits, the pipe is read at most this much longer.
    std::chrono::milliseconds drain_grace = k_drain_grace;
    /// Pass SIGINT, SIGTERM and SIGHUP that sutra receives on to the command's group (the CLI).
    /// Off, sutra's own dispositions stay as they are, so a server that a host ends with SIGTERM
    /// ends at once and its watchdog stops the command (sutra mcp).
    bool forward_signals = true;
};

struct CommandEnd {
    int exit_code = 0; ///< the status, or 128+N when killed by signal N
    int signal = 0;
    bool timed_out = false;
    /// A signal sutra itself received during the run and passed on to the command (SIGINT,
    /// SIGTERM, SIGHUP); 0 when none, and always 0 without forward_signals.
    int received_signal = 0;
};

/// Runs the command; each chunk of its output goes to `on_bytes` (false: stop reading), and
/// `on_idle` is called after a second without output. Returns the errno of a failed start.
std::expected<CommandEnd, int> run_command(const CommandSpec& spec,
                                           const std::function<bool(std::string_view)>& on_bytes,
                                           const std::function<void()>& on_idle);

} // namespace sutra::core
