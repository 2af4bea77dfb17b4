// The POSIX layer of core/util/posix_io.hpp: each helper once, so the store, the stats log, the
// trust file and the CLI agree on EINTR, short reads and writes, and what a private directory is.
#include "core/util/posix_io.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::core {

void UniqueFd::reset() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
}

int UniqueFd::close() {
    return ::close(std::exchange(m_fd, -1));
}

std::string errno_text(int err) {
    return std::strerror(err);
}

bool write_all(int fd, std::string_view data) noexcept {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool pread_all(int fd, std::uint64_t offset, std::size_t length, std::string& out) {
    out.assign(length, '\0');
    std::size_t done = 0;
    while (done < length) {
        const ssize_t n =
            ::pread(fd, out.data() + done, length - done, static_cast<off_t>(offset + done));
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (n == 0) break;
        done += static_cast<std::size_t>(n);
    }
    out.resize(done);
    return true;
}

bool read_bounded(int fd, std::size_t limit, std::string& out) {
    out.clear();
    char buf[65536];
    while (out.size() < limit) {
        const ssize_t n = ::read(fd, buf, std::min(sizeof buf, limit - out.size()));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    return true;
}

std::expected<void, std::string> make_dirs(const std::string& dir) {
    std::size_t pos = 0;
    while (pos != std::string::npos) {
        pos = dir.find('/', pos + 1);
        const std::string prefix = dir.substr(0, pos);
        if (prefix.empty() || prefix == "/") continue;
        if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
            return std::unexpected(fmt::format("cannot create {}: {}", prefix, errno_text(errno)));
    }
    return {};
}

namespace {

std::unexpected<DirError> dir_fail(DirProblem problem, std::string message) {
    return std::unexpected(DirError{problem, std::move(message)});
}

/// The path without trailing slashes: with one, lstat and O_NOFOLLOW would resolve a symlink.
std::string without_trailing_slashes(const std::string& dir) {
    const auto last = dir.find_last_not_of('/');
    return last == std::string::npos ? dir.substr(0, 1) : dir.substr(0, last + 1);
}

/// The checks both an lstat and an fstat of the directory must pass.
std::expected<void, DirError> check_private(const std::string& dir, const struct stat& st) {
    if (S_ISLNK(st.st_mode))
        return dir_fail(DirProblem::unsafe,
                        fmt::format("{} is a symlink; refusing to use it", dir));
    if (!S_ISDIR(st.st_mode))
        return dir_fail(DirProblem::unsafe,
                        fmt::format("{} is not a directory; refusing to use it", dir));
    if (st.st_uid != ::geteuid())
        return dir_fail(DirProblem::unsafe,
                        fmt::format("{} is owned by uid {}, not by this user; refusing to use it",
                                    dir, st.st_uid));
    return {};
}

} // namespace

std::expected<UniqueFd, DirError> open_private_dir(const std::string& dir) {
    const std::string path = without_trailing_slashes(dir);
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!fd.ok()) {
        const int err = errno;
        if (err == ELOOP)
            return dir_fail(DirProblem::unsafe,
                            fmt::format("{} is a symlink; refusing to use it", dir));
        if (err == ENOTDIR)
            return dir_fail(DirProblem::unsafe,
                            fmt::format("{} is not a directory; refusing to use it", dir));
        if (err == ENOENT)
            return dir_fail(DirProblem::missing, fmt::format("{} does not exist", dir));
        return dir_fail(DirProblem::io, fmt::format("cannot open {}: {}", dir, errno_text(err)));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        return dir_fail(DirProblem::io, fmt::format("cannot stat {}: {}", dir, errno_text(errno)));
    if (auto checked = check_private(dir, st); !checked) return std::unexpected(checked.error());
    if ((st.st_mode & 07777) != 0700 && ::fchmod(fd.get(), 0700) != 0)
        return dir_fail(DirProblem::io,
                        fmt::format("cannot set {} to mode 0700: {}", dir, errno_text(errno)));
    return fd;
}

std::expected<UniqueFd, DirError> make_private_dir(const std::string& dir) {
    if (dir.empty()) return dir_fail(DirProblem::io, "no directory given");
    const std::string path = without_trailing_slashes(dir);
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno != ENOENT)
            return dir_fail(DirProblem::io,
                            fmt::format("cannot stat {}: {}", dir, errno_text(errno)));
        if (auto made = make_dirs(dir); !made) return dir_fail(DirProblem::io, made.error());
        if (::lstat(path.c_str(), &st) != 0)
            return dir_fail(DirProblem::io,
                            fmt::format("cannot stat {}: {}", dir, errno_text(errno)));
    }
    if (auto checked = check_private(dir, st); !checked) return std::unexpected(checked.error());
    auto fd = open_private_dir(dir);
    if (!fd) return fd;
    struct stat opened {};
    if (::fstat(fd->get(), &opened) != 0 || opened.st_dev != st.st_dev ||
        opened.st_ino != st.st_ino)
        return dir_fail(DirProblem::unsafe,
                        fmt::format("{} changed while being opened; refusing to use it", dir));
    return fd;
}

std::string home_dir(const std::string& home_env) {
    if (!home_env.empty()) return home_env;
    long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
    std::string buf(size > 0 ? static_cast<std::size_t>(size) : 16384, '\0');
    passwd pw{};
    passwd* result = nullptr;
    if (::getpwuid_r(::getuid(), &pw, buf.data(), buf.size(), &result) == 0 && result != nullptr &&
        result->pw_dir != nullptr)
        return result->pw_dir;
    return {};
}

std::string executable_path() {
    char exe[4096];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe);
    if (n <= 0 || n == static_cast<ssize_t>(sizeof exe)) return {}; // unreadable or cut
    return std::string(exe, static_cast<std::size_t>(n));
}

std::string executable_dir() {
    std::string path = executable_path();
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return {};
    path.resize(slash);
    return path;
}

bool sodium_ready() {
    static const bool ready = sodium_init() >= 0;
    return ready;
}

std::string random_hex(std::size_t bytes) {
    std::string raw(bytes, '\0');
    randombytes_buf(raw.data(), raw.size());
    std::string hex(bytes * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), reinterpret_cast<const unsigned char*>(raw.data()),
                   raw.size());
    hex.pop_back();
    return hex;
}

} // namespace sutra::core
