// The watchdog's side of a run (see exec_watchdog.hpp). Built into sutra's core and, alone,
// into the sutra-watchdog program, so it uses the C library only.

#include "core/exec_watchdog.hpp"

#include <cerrno>
#include <csignal>
#include <ctime>
#include <sys/syscall.h>
#include <unistd.h>

namespace sutra::core::watchdog {
namespace {

/// One byte from sutra; 0 at end of file (sutra is gone).
char read_byte() {
    char byte = 0;
    ssize_t n;
    do n = ::read(k_control_fd, &byte, 1);
    while (n < 0 && errno == EINTR);
    return n == 1 ? byte : 0;
}

} // namespace

bool group_alive(pid_t group) {
    return ::kill(-group, 0) == 0 || errno == EPERM;
}

void sleep_for(std::chrono::milliseconds ms) {
    timespec ts{static_cast<time_t>(ms.count() / 1000),
                static_cast<long>(ms.count() % 1000) * 1000000};
    while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void stop_group(pid_t group, std::chrono::milliseconds grace) {
    ::kill(-group, SIGTERM);
    constexpr std::chrono::milliseconds step{50};
    for (auto waited = std::chrono::milliseconds{0}; waited < grace; waited += step) {
        if (!group_alive(group)) return;
        sleep_for(step);
    }
    ::kill(-group, SIGKILL);
}

void lead(pid_t group, std::chrono::milliseconds grace) {
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTTIN, SIGTTOU, SIGTSTP})
        ::sigaction(sig, &ign, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    // Hold nothing of sutra's: not its stdout (a host waits for that to close), not the
    // command's pipe.
    ::syscall(SYS_close_range, static_cast<unsigned>(k_control_fd) + 1, ~0u, 0u);
    ::close(0), ::close(1), ::close(2);
    const char first = read_byte();
    if (first == k_done) ::_exit(0); // the command did not start
    if (first == k_armed) {
        const pid_t out = ::fork();
        if (out == 0) {
            ::setpgid(0, 0);
            if (read_byte() != k_done) stop_group(group, grace);
            ::_exit(0);
        }
        // Out of the group before sutra, which waits for this exit, goes on. Without a second
        // process the run goes on unwatched, as when the watchdog could not be started.
        if (out > 0) ::setpgid(out, out);
        ::_exit(0);
    }
    // sutra died with the command started, or while starting it. This process is in the group
    // too, so the grace is waited out in full before SIGKILL ends the lot.
    stop_group(group, grace);
    ::_exit(0);
}

} // namespace sutra::core::watchdog
