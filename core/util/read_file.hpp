#pragma once
// The one way sutra reads a file that a user, a payload or a host names: the config, the trust
// file, a host's persisted output, a source file for the outline tools, a host's settings. Each
// once had its own open/fstat/read loop. The rules, every one checked on the open descriptor (a
// name swapped after a check by name leads nowhere):
//   - opened O_NONBLOCK, so a FIFO in the file's place cannot hold the open; O_NOFOLLOW when
//     links are refused;
//   - only a regular file is read (fstat), and only up to the caller's limit: a file that is, or
//     grows, larger is refused, and memory follows the file, not the limit;
//   - optionally, its real path must lie under given folders, and the caller's own checks on its
//     fstat (owner, mode, size, inode) must pass.
// Header-only because the adapter modules use it too, and they never link the core.

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <expected>
#include <fcntl.h>
#include <functional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace sutra::core {

enum class FileProblem {
    absent,      ///< no such file (or a parent is not a folder)
    not_regular, ///< a FIFO, a device, a socket, a folder, a refused symlink: never read
    too_large,   ///< over the caller's limit, or grew past it while being read
    outside,     ///< opened, but not under any of the caller's folders
    refused,     ///< the caller's own check on the descriptor said no
    io,          ///< any other system error
};

struct FileError {
    FileProblem problem;
    int err = 0;            ///< errno for absent and io
    std::uint64_t size = 0; ///< the file's size for too_large (0 when it grew while read)
    std::string why;        ///< the reason alone
    std::string message;    ///< "PATH: why", one line
};

enum class Links { follow, refuse };

struct ReadRules {
    std::size_t limit = 0;
    Links links = Links::follow;
    /// Not empty: the opened file's real path must be one of these folders or under one.
    std::vector<std::string> within = {};
    /// More checks on the descriptor's fstat; a non-empty answer refuses with that reason.
    std::function<std::string(const struct stat&)> check = {};
};

/// `real` (an absolute path without `.`/`..` parts) is `root` or under it.
inline bool path_within(std::string_view real, std::string_view root) {
    if (root == "/") return real.starts_with('/');
    return real == root ||
           (real.starts_with(root) && real.size() > root.size() && real[root.size()] == '/');
}

/// The real path of an open descriptor (from /proc/self/fd), or empty when it cannot be told.
inline std::string real_path_of(int fd) {
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    char buf[4096];
    const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf);
    if (n <= 0 || static_cast<std::size_t>(n) >= sizeof buf || buf[0] != '/') return {};
    std::string real(buf, static_cast<std::size_t>(n));
    // A file deleted since it was opened reads "/path (deleted)": no path to judge.
    if (real.ends_with(" (deleted)")) return {};
    return real;
}

/// A descriptor opened and checked under read rules, and the size fstat gave; closed with it.
struct CheckedFile {
    int fd = -1;
    std::uint64_t size = 0;
    CheckedFile(int f, std::uint64_t n) : fd(f), size(n) {}
    CheckedFile(CheckedFile&& o) noexcept : fd(std::exchange(o.fd, -1)), size(o.size) {}
    CheckedFile(const CheckedFile&) = delete;
    CheckedFile& operator=(const CheckedFile&) = delete;
    CheckedFile& operator=(CheckedFile&&) = delete;
    ~CheckedFile() {
        if (fd >= 0) ::close(fd);
    }
};

inline std::unexpected<FileError> file_error(
    const std::string& path, FileProblem problem, int err, std::uint64_t size, std::string why) {
    std::string message = path + ": " + why;
    return std::unexpected(FileError{problem, err, size, std::move(why), std::move(message)});
}

/// Opens `path` and checks the descriptor under `rules` (see the top of this file): every check
/// but the read itself, for a caller that reads the bytes its own way (read_file, or a map).
inline std::expected<CheckedFile, FileError> open_checked(const std::string& path,
                                                          const ReadRules& rules) {
    auto fail = [&](FileProblem problem, int err, std::uint64_t size, std::string why) {
        return file_error(path, problem, err, size, std::move(why));
    };
    const int flags =
        O_RDONLY | O_CLOEXEC | O_NONBLOCK | (rules.links == Links::refuse ? O_NOFOLLOW : 0);
    const int fd = ::open(path.c_str(), flags);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT || err == ENOTDIR)
            return fail(FileProblem::absent, err, 0, std::strerror(err));
        if (err == ELOOP && rules.links == Links::refuse)
            return fail(FileProblem::not_regular, err, 0, "a symlink; refusing to follow it");
        return fail(FileProblem::io, err, 0, std::strerror(err));
    }
    CheckedFile file(fd, 0);
    struct stat st {};
    if (::fstat(fd, &st) != 0) return fail(FileProblem::io, errno, 0, std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return fail(FileProblem::not_regular, 0, 0, "not a regular file");
    if (!rules.within.empty()) {
        const std::string real = real_path_of(fd);
        const bool inside = !real.empty() && std::any_of(rules.within.begin(), rules.within.end(),
                                                         [&](const std::string& root) {
                                                             return path_within(real, root);
                                                         });
        if (!inside)
            return fail(FileProblem::outside, 0, 0,
                        real.empty()
                            ? "where it was opened cannot be told; not read"
                            : "opened as " + real + ", outside the folders this call may read");
    }
    if (rules.check)
        if (std::string why = rules.check(st); !why.empty())
            return fail(FileProblem::refused, 0, 0, std::move(why));
    file.size = static_cast<std::uint64_t>(st.st_size);
    if (file.size > rules.limit)
        return fail(FileProblem::too_large, 0, file.size,
                    std::to_string(file.size) + " bytes, over the " + std::to_string(rules.limit) +
                        "-byte limit");
    return file;
}

/// Reads `path` under `rules` (see the top of this file).
inline std::expected<std::string, FileError> read_file(const std::string& path,
                                                       const ReadRules& rules) {
    auto file = open_checked(path, rules);
    if (!file) return std::unexpected(std::move(file.error()));
    const int fd = file->fd;
    const std::uint64_t size = file->size;
    auto fail = [&](FileProblem problem, int err, std::uint64_t n, std::string why) {
        return file_error(path, problem, err, n, std::move(why));
    };
    // Read in chunks, one byte past the limit to tell a file that grew while being read; room
    // for the size fstat gave up front, so a large file is not copied as the string grows.
    std::string out;
    out.reserve(static_cast<std::size_t>(size) + 1);
    char buf[65536];
    while (out.size() <= rules.limit) {
        const std::size_t want = std::min(sizeof buf, rules.limit + 1 - out.size());
        const ssize_t n = ::read(fd, buf, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail(FileProblem::io, errno, 0, std::strerror(errno));
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    if (out.size() > rules.limit)
        return fail(FileProblem::too_large, 0, 0,
                    "grew past the " + std::to_string(rules.limit) +
                        "-byte limit while being read");
    return out;
}

/// read_file with only a limit, the link rule and the folders: the common case.
inline std::expected<std::string, FileError>
read_regular_file(const std::string& path,
                  std::size_t limit,
                  Links links = Links::follow,
                  const std::vector<std::string>& within = {}) {
    return read_file(path, ReadRules{limit, links, within, {}});
}

} // namespace sutra::core
