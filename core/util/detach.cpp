#include "core/util/detach.hpp"

#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace sutra::core {

bool run_detached(const std::function<void()>& work, unsigned seconds) noexcept {
    // Anything buffered would otherwise be written twice, once by each process.
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) return false;
    if (pid > 0) return true;
    ::setsid();
    const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; fd <= 2; ++fd) {
        if (null >= 0) {
            ::dup2(null, fd);
        } else {
            ::close(fd);
        }
    }
    ::alarm(seconds); // the default action of SIGALRM, or the caller's handler, ends it
    try {
        work();
    } catch (...) {
    }
    ::_exit(0);
}

} // namespace sutra::core
