// The command's process group: spawn, signals passed on to the group, the watchdog that outlives
// a killed sutra, the terminal hand-over and the read loop with its deadlines.

#include "core/exec/exec_process.hpp"

#include "core/exec/exec_watchdog.hpp"
#include "core/util/posix_io.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <fcntl.h>
#include <iterator>
#include <memory>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

extern char** environ;

namespace sutra::core {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The running command's process group, for the signal handler; and the signal it passed on.
std::atomic<pid_t> g_group{0};
std::atomic<int> g_forwarded{0};

// Recorded even before the command's group is known: a thread other than the one starting the
// command (which blocks these signals) may take the signal then, and it must not be lost.
extern "C" void forward_signal(int sig) {
    g_forwarded.store(sig);
    const pid_t group = g_group.load();
    if (group > 0) ::kill(-group, sig);
}

constexpr int k_forwarded[] = {SIGINT, SIGTERM, SIGHUP};

int decode_status(int status, int& signal) {
    if (WIFSIGNALED(status)) {
        signal = WTERMSIG(status);
        return 128 + signal;
    }
    signal = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/// Blocks SIGINT, SIGTERM and SIGHUP while the command starts, then passes them on to its group
/// (when asked to forward them; otherwise they keep whatever disposition sutra has). SIGTTOU
/// stays blocked for the run, so sutra may write to and hand over a terminal it does not hold in
/// the foreground; SIGPIPE is ignored (a closed stdout shows up as EPIPE).
class SignalForwarding {
public:
    explicit SignalForwarding(bool forward) : m_forward(forward) {
        sigset_t set;
        sigemptyset(&set);
        if (m_forward)
            for (int sig : k_forwarded) sigaddset(&set, sig);
        sigaddset(&set, SIGTTOU);
        ::pthread_sigmask(SIG_BLOCK, &set, &m_old_mask);
        if (m_forward) {
            g_forwarded.store(0);
            struct sigaction sa {};
            sa.sa_handler = forward_signal;
            sigemptyset(&sa.sa_mask);
            sa.sa_flags = SA_RESTART;
            for (std::size_t i = 0; i < std::size(k_forwarded); ++i)
                ::sigaction(k_forwarded[i], &sa, &m_old[i]);
        }
        struct sigaction ign {};
        ign.sa_handler = SIG_IGN;
        ::sigaction(SIGPIPE, &ign, &m_old_pipe);
    }
    void started(pid_t group) {
        if (m_forward) {
            g_group.store(group);
            // A signal another thread took before the group was known is passed on now.
            if (const int sig = g_forwarded.load(); sig != 0) ::kill(-group, sig);
        }
        // Pending signals are passed on now; SIGTTOU stays blocked.
        sigset_t set = m_old_mask;
        sigaddset(&set, SIGTTOU);
        ::pthread_sigmask(SIG_SETMASK, &set, nullptr);
    }
    /// The signal passed on so far (0: none, or not forwarding).
    int received() const { return m_forward ? g_forwarded.load() : 0; }
    ~SignalForwarding() {
        if (m_forward) g_group.store(0);
        ::pthread_sigmask(SIG_SETMASK, &m_old_mask, nullptr);
        if (m_forward)
            for (std::size_t i = 0; i < std::size(k_forwarded); ++i)
                ::sigaction(k_forwarded[i], &m_old[i], nullptr);
        ::sigaction(SIGPIPE, &m_old_pipe, nullptr);
    }
    SignalForwarding(const SignalForwarding&) = delete;
    SignalForwarding& operator=(const SignalForwarding&) = delete;

private:
    bool m_forward;
    sigset_t m_old_mask{};
    struct sigaction m_old[std::size(k_forwarded)]{};
    struct sigaction m_old_pipe {};
};

struct Child {
    pid_t pid = -1;
    int out = -1; ///< read end of the one pipe its stdout and stderr write to
};

/// Starts argv[0] (searched in PATH) in process group `group` (0: as the leader of a new one),
/// with stdout and stderr on one pipe, so the bytes arrive in the order the child wrote them.
/// Returns the errno on failure.
std::pair<Child, int> spawn(const CommandSpec& spec, pid_t group) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return {{}, errno};
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    if (spec.stdin_null)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
    // The child starts with default dispositions and nothing blocked, whatever sutra set.
    sigset_t defaults, none;
    sigemptyset(&defaults);
    for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP, SIGTTIN, SIGTTOU, SIGTSTP})
        sigaddset(&defaults, sig);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setpgroup(&attr, group);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETPGROUP);

    std::vector<char*> argv;
    for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        return {{}, rc};
    }
    // Also set here: the child must be in its group before anyone signals it (it may not have
    // run yet). EACCES (it already ran exec) and ESRCH (it is gone) are fine.
    ::setpgid(pid, group > 0 ? group : pid);
    return {{pid, fds[0]}, 0};
}

/// The process that stops the command's group if sutra dies before saying it is done
/// (core/exec/exec_watchdog.hpp): it holds the read end of a pipe whose write end only sutra has,
/// so sutra's death, however it comes, is an end of file. It ignores the terminating signals, so a
/// signal to sutra's group or a Ctrl-C does not take it along.
///
/// There is no moment when the command runs and the watchdog does not know its group: the
/// watchdog starts first and leads a new process group, the command is started inside that
/// group, and only then (arm) does the watchdog step out of it, into a process (and group) of its
/// own. Told the group after the start instead, it would miss a SIGKILL that comes between the
/// two.
///
/// It is the sutra-watchdog program, spawned without copying sutra's memory; where that program
/// is missing, a fork of sutra (whose copy-on-write faults cost the run ~4 ms).
class Watchdog {
public:
    explicit Watchdog(std::chrono::milliseconds grace) {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) return;
        pid_t pid = start_program(fds[0], grace);
        if (pid < 0) {
            pid = ::fork();
            if (pid == 0) {
                ::setpgid(0, 0);
                ::dup2(fds[0], watchdog::k_control_fd);
                watchdog::lead(::getpid(), grace);
            }
        }
        ::close(fds[0]);
        if (pid < 0) {
            ::close(fds[1]);
            return;
        }
        // Also set here: the group must exist before the command joins it.
        ::setpgid(pid, pid);
        m_pid = pid;
        m_group = pid;
        m_fd = fds[1];
    }
    /// The group the command starts in; 0 (a new group of its own) without a watchdog.
    pid_t group() const { return m_group; }
    /// The command has started in group(): the watchdog steps out of it (a second process of
    /// its own takes over, and the first exits), and from now on stops it if sutra dies. Not
    /// waited for: the run goes on while it does so.
    void arm() {
        if (m_pid > 0) write_byte(watchdog::k_armed);
    }
    /// Returns once the group holds only the command's processes: the watchdog's first process
    /// has stepped out and is reaped (a zombie still counts as the group's).
    void settle() {
        if (m_pid > 0)
            while (::waitpid(m_pid, nullptr, 0) < 0 && errno == EINTR) {
            }
        m_pid = -1;
    }
    /// sutra finished the run itself: the watchdog leaves the group alone and exits.
    ~Watchdog() {
        if (m_fd < 0) return;
        write_byte(watchdog::k_done);
        ::close(m_fd);
        settle();
    }
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

private:
    void write_byte(char byte) {
        while (::write(m_fd, &byte, 1) < 0 && errno == EINTR) {
        }
    }
    /// sutra-watchdog leading a new group, the pipe on its control descriptor; -1 if it could
    /// not be started. Its terminating signals stay blocked until it ignores them.
    static pid_t start_program(int control, std::chrono::milliseconds grace_ms) {
        const std::string& program = watchdog_program();
        if (program.empty()) return -1;
        posix_spawn_file_actions_t actions;
        posix_spawnattr_t attr;
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attr);
        for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO})
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0);
        posix_spawn_file_actions_adddup2(&actions, control, watchdog::k_control_fd);
        sigset_t all;
        sigfillset(&all);
        posix_spawnattr_setsigmask(&attr, &all);
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
        const std::string grace = std::to_string(grace_ms.count());
        char* argv[] = {const_cast<char*>(program.c_str()), const_cast<char*>(grace.c_str()),
                        nullptr};
        char* env[] = {nullptr};
        pid_t pid = -1;
        const int rc = ::posix_spawn(&pid, program.c_str(), &actions, &attr, argv, env);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        return rc == 0 ? pid : -1;
    }
    /// <the executable's folder>/../lib/sutra/sutra-watchdog, as installed and in the build
    /// tree; empty when it is not there.
    static const std::string& watchdog_program() {
        static const std::string path = [] {
            const std::string dir = executable_dir();
            if (dir.empty()) return std::string();
            std::string program = dir + "/../lib/sutra/sutra-watchdog";
            return ::access(program.c_str(), X_OK) == 0 ? program : std::string();
        }();
        return path;
    }

    pid_t m_pid = -1;
    int m_fd = -1;
    pid_t m_group = 0;
};

/// When sutra is a shell's foreground job on a terminal, the command's group gets the terminal for
/// the run, so it can read it (a password prompt, an editor) without being stopped by SIGTTIN, and
/// a Ctrl-C reaches it directly; sutra takes the terminal back at the end.
class Terminal {
public:
    void hand_to(pid_t group) {
        // Only as a shell's foreground job: sutra leads its process group and its input is the
        // terminal. Started by a host inside the host's own group, sutra must never take the
        // terminal from it.
        if (!::isatty(STDIN_FILENO) || ::getpgrp() != ::getpid() ||
            ::tcgetpgrp(STDIN_FILENO) != ::getpgrp() || ::tcsetpgrp(STDIN_FILENO, group) != 0)
            return;
        m_fd = STDIN_FILENO;
        m_group = group;
        // It may have touched the terminal before it had it, and stopped.
        ::kill(-group, SIGCONT);
    }
    bool held() const { return m_fd >= 0; }
    /// The command was stopped (Ctrl-Z): sutra takes the terminal back and stops too, as a
    /// shell's job would; once continued (`fg`), the command gets the terminal and goes on.
    void command_stopped() {
        if (m_fd < 0) return;
        ::tcsetpgrp(m_fd, ::getpgrp());
        ::raise(SIGTSTP);
        ::tcsetpgrp(m_fd, m_group);
        ::kill(-m_group, SIGCONT);
    }
    ~Terminal() {
        if (m_fd >= 0) ::tcsetpgrp(m_fd, ::getpgrp()); // SIGTTOU is blocked during the run
    }

private:
    int m_fd = -1;
    pid_t m_group = 0;
};

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    return -1;
#endif
}

} // namespace

std::expected<CommandEnd, int> run_command(const CommandSpec& spec,
                                           const std::function<bool(std::string_view)>& on_bytes,
                                           const std::function<void()>& on_idle) {
    SignalForwarding signals(spec.forward_signals);
    Watchdog watchdog(spec.kill_grace);
    auto [child, err] = spawn(spec, watchdog.group());
    if (err != 0) return std::unexpected(err);
    const pid_t group = watchdog.group() > 0 ? watchdog.group() : child.pid;
    watchdog.arm();
    Terminal terminal;
    terminal.hand_to(group);
    signals.started(group);

    CommandEnd end;
    const auto started = Clock::now();
    // Deadlines; never: time_point::max().
    constexpr Clock::time_point never = Clock::time_point::max();
    const Clock::time_point time_limit =
        spec.timeout_seconds > 0 ? started + std::chrono::seconds(spec.timeout_seconds) : never;
    Clock::time_point kill_at = never;  // a signal was passed on: SIGKILL then
    Clock::time_point drain_to = never; // the command exited: stop reading then
    bool reaped = false, killed = false;
    int out = child.out;
    auto last_output = started;
    // Left uninitialised: only the pages a read fills are touched (each first touch a page
    // fault, dear on a virtual machine), and none for a command that prints nothing.
    constexpr std::size_t k_read_bytes = std::size_t{1} << 17;
    const std::unique_ptr<char[]> buf(new char[k_read_bytes]);

    // With the terminal handed over, a stop (Ctrl-Z) must be seen too, which a pidfd does not
    // report: then the exit is looked for every 50 ms with WUNTRACED.
    const int pidfd = terminal.held() ? -1 : open_pidfd(child.pid);
    const auto reap = [&](int flags) {
        int status = 0;
        pid_t done;
        if (terminal.held()) flags |= WUNTRACED;
        while ((done = ::waitpid(child.pid, &status, flags)) < 0 && errno == EINTR) {
        }
        if (done == 0) return; // still running
        if (done < 0) {
            // Gone without a status to read (SIGCHLD ignored by whoever started sutra).
            reaped = true;
            end.exit_code = 1;
            drain_to = Clock::now() + spec.drain_grace;
            return;
        }
        if (WIFSTOPPED(status)) {
            terminal.command_stopped();
            return;
        }
        reaped = true;
        end.exit_code = decode_status(status, end.signal);
        drain_to = Clock::now() + spec.drain_grace;
    };

    while (true) {
        const auto now = Clock::now();
        if (kill_at == never && signals.received()) kill_at = now + spec.kill_grace;
        if (!killed && (now >= kill_at || now >= time_limit)) {
            // The hard bound: the whole group, at once.
            ::kill(-group, SIGKILL);
            killed = true;
            end.timed_out = now < kill_at;
            while (!reaped) reap(0);
            drain_to =
                std::min(drain_to, now + (end.timed_out ? k_timeout_drain : spec.drain_grace));
        }
        if (reaped && (out < 0 || now >= drain_to)) break;

        // Wake for the next deadline, the command's exit, output, or an idle second.
        auto wake = now + milliseconds(1000);
        if (!killed) wake = std::min({wake, kill_at, time_limit});
        wake = std::min(wake, drain_to);
        if (!reaped && pidfd < 0) wake = std::min(wake, now + milliseconds(50));
        const int timeout_ms = static_cast<int>(
            std::max<long>(0, std::chrono::duration_cast<milliseconds>(wake - now).count() + 1));
        pollfd p[2] = {{out, POLLIN, 0}, {reaped ? -1 : pidfd, POLLIN, 0}};
        const int ready = ::poll(p, 2, timeout_ms);
        if (ready < 0 && errno != EINTR) break;
        if (!reaped && (pidfd < 0 || (ready > 0 && p[1].revents != 0))) reap(WNOHANG);
        if (ready <= 0 || out < 0 || p[0].revents == 0) {
            if (Clock::now() - last_output >= milliseconds(1000)) {
                on_idle();
                last_output = Clock::now();
            }
            continue;
        }
        const ssize_t n = ::read(out, buf.get(), k_read_bytes);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0 || !on_bytes(std::string_view(buf.get(), static_cast<std::size_t>(n)))) {
            // End of output (or nobody takes it): what is left is waiting for the command.
            ::close(out);
            out = -1;
            continue;
        }
        last_output = Clock::now();
    }
    if (out >= 0) ::close(out);
    if (pidfd >= 0) ::close(pidfd);
    while (!reaped) reap(0);
    watchdog.settle();
    end.received_signal = signals.received();
    // A signal was passed on: nothing of the group outlives the grace.
    if (kill_at != never && !killed) {
        while (Clock::now() < kill_at && watchdog::group_alive(group))
            watchdog::sleep_for(milliseconds(20));
        if (watchdog::group_alive(group)) ::kill(-group, SIGKILL);
    }
    return end;
}

} // namespace sutra::core
