#pragma once
// The watchdog of `sutra exec` (core/exec/exec_process.cpp): the process that stops the command's
// group when sutra dies before saying the run is done. It runs as its own small program,
// sutra-watchdog (host/watchdog/), started without copying sutra's memory, or, where that
// program is missing, in a fork of sutra. Only async-signal-safe calls: a fork of a process
// with threads may run it.

#include <chrono>
#include <sys/types.h>

namespace sutra::core::watchdog {

/// The control pipe's read end, in the watchdog.
inline constexpr int k_control_fd = 3;
/// What sutra writes on the pipe: the command started in the group (the watchdog steps out of
/// it), and the run is done (the watchdog exits without touching the group).
inline constexpr char k_armed = 'a', k_done = 'd';

/// Whether any process of the group lives (a process of another user's counts).
bool group_alive(pid_t group);

/// Sleeps, EINTR or not, the whole time.
void sleep_for(std::chrono::milliseconds ms);

/// SIGTERM to the group, then SIGKILL once `grace` has passed while any of it lives.
void stop_group(pid_t group, std::chrono::milliseconds grace);

/// The watchdog's whole life, once it leads `group` and holds the control pipe on
/// k_control_fd: it ignores the terminating signals, holds nothing else of sutra's, and follows
/// the pipe; an end of file (sutra gone) stops the group.
[[noreturn]] void lead(pid_t group, std::chrono::milliseconds grace);

} // namespace sutra::core::watchdog
