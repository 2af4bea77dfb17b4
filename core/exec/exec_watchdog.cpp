// The watchdog's side of a run (see exec_watchdog.hpp). Built into sutra's core and, alone,
// into the sutra-watchdog program, so it uses the C library only.

#include "core/exec/exec_watchdog.hpp"

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <ctime>
#include <fcntl.h>
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

/// What /proc says of one process: its group, and whether it has exited (a zombie, or dead,
/// waiting for a parent to reap it). false when it cannot be read.
bool read_stat(int proc, const char* pid, pid_t& group, bool& exited) {
    char path[64];
    std::size_t n = 0;
    for (const char* c = pid; *c && n < sizeof path - 6; ++c) path[n++] = *c;
    for (const char* c = "/stat"; *c; ++c) path[n++] = *c;
    path[n] = '\0';
    const int fd = ::openat(proc, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char buf[512];
    const ssize_t got = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (got <= 0) return false;
    // "PID (COMM) STATE PPID PGRP ...": COMM may hold anything, so from its last ')'.
    std::size_t at = static_cast<std::size_t>(got);
    while (at > 0 && buf[at - 1] != ')') --at;
    if (at == 0 || at + 2 >= static_cast<std::size_t>(got)) return false;
    const char state = buf[at + 1];
    at += 2;
    long fields[2] = {0, 0}; // PPID, PGRP
    for (long& field : fields) {
        while (at < static_cast<std::size_t>(got) && buf[at] == ' ') ++at;
        bool negative = at < static_cast<std::size_t>(got) && buf[at] == '-';
        if (negative) ++at;
        while (at < static_cast<std::size_t>(got) && buf[at] >= '0' && buf[at] <= '9')
            field = field * 10 + (buf[at++] - '0');
        if (negative) field = -field;
    }
    group = static_cast<pid_t>(fields[1]);
    exited = state == 'Z' || state == 'X' || state == 'x';
    return true;
}

} // namespace

bool group_alive(pid_t group) {
    if (::kill(-group, 0) != 0 && errno != EPERM) return false;
    // kill(2) finds a group whose members have all exited but wait to be reaped (orphans under
    // a PID 1 that reaps nothing, as in some containers): those run nothing, and waiting on
    // them would wait out every grace. Only where /proc shows members, and all of them have
    // exited, is the group dead; where it shows none (hidden, unreadable), it lives.
    const int proc = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (proc < 0) return true;
    bool member_seen = false, live_seen = false;
    alignas(8) char buf[4096];
    long n;
    while (!live_seen && (n = ::syscall(SYS_getdents64, proc, buf, sizeof buf)) > 0) {
        for (long off = 0; off < n && !live_seen;) {
            // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
            unsigned short reclen;
            __builtin_memcpy(&reclen, buf + off + 16, sizeof reclen);
            const char* name = buf + off + 19;
            off += reclen;
            if (name[0] < '1' || name[0] > '9') continue;
            pid_t member_group = 0;
            bool exited = false;
            if (!read_stat(proc, name, member_group, exited) || member_group != group) continue;
            member_seen = true;
            live_seen = !exited;
        }
    }
    ::close(proc);
    return live_seen || !member_seen;
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
