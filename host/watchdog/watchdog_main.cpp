// sutra-watchdog: the watchdog of `sutra exec` as a program of its own
// (core/exec/exec_watchdog.hpp). sutra starts it with posix_spawn, which copies none of sutra's
// memory: forking sutra instead cost ~4 ms a run, on every command the Bash route wraps
// (docs/benchmark.md, "Session 11"). It is linked statically and uses the C library only, so it
// starts in about a millisecond.
//
//   sutra-watchdog GRACE_MS      started leading its own process group, the control pipe on fd 3

#include "core/exec/exec_watchdog.hpp"

#include <cstdlib>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    char* end = nullptr;
    const long grace = std::strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || grace < 0 || grace > 600000) return 2;
    sutra::core::watchdog::lead(::getpgrp(), std::chrono::milliseconds(grace));
}
