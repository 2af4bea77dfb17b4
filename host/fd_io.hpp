#pragma once
// Whole writes to a file descriptor, retried on EINTR and short writes: every byte of a view or
// a restore reaches the pipe, or the caller learns it did not.

#include <string_view>

namespace sutra::host {

/// Writes all of `data` to `fd`; false on an error (EPIPE included).
bool write_all(int fd, std::string_view data) noexcept;

} // namespace sutra::host
