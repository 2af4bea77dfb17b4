#pragma once
// The one small POSIX layer under the store (core/store/store_*.cpp), the stats log, the trust file and
// the CLI's output: an owning descriptor, whole writes, bounded reads, private directories checked
// for links and ownership, the home folder and libsodium's start. One copy of each, so a fix to
// EINTR handling or to the directory checks reaches every caller.

#include "core/util/read_file.hpp"

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sutra::core {

/// Owns one file descriptor and closes it once.
class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : m_fd(fd) {}
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    UniqueFd(UniqueFd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        if (this != &other) {
            reset();
            m_fd = std::exchange(other.m_fd, -1);
        }
        return *this;
    }
    ~UniqueFd() { reset(); }

    int get() const { return m_fd; }
    bool ok() const { return m_fd >= 0; }
    void reset();
    /// Closes and reports the close error (a write error may only show up here).
    int close();

private:
    int m_fd = -1;
};

/// strerror as a string.
std::string errno_text(int err);

/// Writes all of `data`, retrying EINTR and short writes; false on an error (EPIPE included).
bool write_all(int fd, std::string_view data) noexcept;

/// Reads up to `length` bytes at `offset` into `out`; fewer only at end of file.
bool pread_all(int fd, std::uint64_t offset, std::size_t length, std::string& out);

/// Reads from the current offset to end of file, at most `limit` bytes, in chunks (memory follows
/// the file, not the limit). False on a read error, with what was read so far in `out`.
bool read_bounded(int fd, std::size_t limit, std::string& out);

/// Creates `dir` and each missing parent, 0700; existing ones are left as they are. The error is
/// "cannot create <prefix>: <reason>".
std::expected<void, std::string> make_dirs(const std::string& dir);

enum class DirProblem {
    missing, ///< the directory does not exist
    unsafe,  ///< a symlink, not a directory, another user's, or swapped while being opened
    io,      ///< any other system error
};

struct DirError {
    DirProblem problem;
    std::string message; ///< one line that names the directory
};

/// Opens an existing directory as private: O_DIRECTORY|O_NOFOLLOW (a symlink at its last
/// component is refused), owned by this user, its mode tightened to 0700 when it drifted.
std::expected<UniqueFd, DirError> open_private_dir(const std::string& dir);

/// make_dirs, the same checks on an lstat of the path, then open_private_dir, refusing a
/// directory that was swapped in between.
std::expected<UniqueFd, DirError> make_private_dir(const std::string& dir);

/// $HOME when given, else the password database: hooks may run with a scrubbed environment.
std::string home_dir(const std::string& home_env);

/// This process's executable (/proc/self/exe), from which the programs find their modules,
/// registry, watchdog and data as installed and in the build tree; empty when unreadable.
/// (The adapter modules and the tokenizer, which do not link the core, read it themselves.)
std::string executable_path();

/// The folder of executable_path(), without a trailing '/'; empty when unreadable.
std::string executable_dir();

/// libsodium initialised (once per process); false when it cannot be.
bool sodium_ready();

/// `bytes` random bytes from libsodium, as lowercase hex.
std::string random_hex(std::size_t bytes);

} // namespace sutra::core
