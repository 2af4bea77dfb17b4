// Directory safety for the store (the rules are in core/store/store.hpp): its directory checked
// through core/util/posix_io.cpp, its files born O_EXCL under temp names and renamed into place, so
// no write ever goes through a name someone else planted.
#include "core/store/store_dir.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace sutra::core::store_detail {

namespace {

// A collision on a 64-bit random suffix means someone planted the name; try a few others.
constexpr int k_temp_attempts = 4;

std::unexpected<StoreError> dir_failure(const DirError& error) {
    const StoreErrc code = error.problem == DirProblem::missing  ? StoreErrc::not_found
                           : error.problem == DirProblem::unsafe ? StoreErrc::unsafe
                                                                 : StoreErrc::io;
    return fail(code, "store: " + error.message);
}

std::string temp_suffix(const StoreOptions& options) {
    if (options.test.temp_suffix) return options.test.temp_suffix();
    return random_hex(8);
}

} // namespace

std::unexpected<StoreError> fail(StoreErrc code, std::string message) {
    return std::unexpected(StoreError{code, std::move(message)});
}

std::expected<UniqueFd, StoreError> open_store_dir(const std::string& dir) {
    auto fd = open_private_dir(dir);
    if (!fd) return dir_failure(fd.error());
    return std::move(*fd);
}

std::expected<UniqueFd, StoreError> prepare_store_dir(const std::string& dir) {
    if (dir.empty()) return fail(StoreErrc::io, "store: no store directory configured");
    auto fd = make_private_dir(dir);
    if (!fd) return dir_failure(fd.error());
    return std::move(*fd);
}

void unlink_quietly(int dirfd, const std::string& name) {
    ::unlinkat(dirfd, name.c_str(), 0);
}

std::expected<UniqueFd, StoreError> create_temp(int dirfd,
                                                const StoreOptions& options,
                                                std::string_view prefix,
                                                int access,
                                                std::string& name) {
    UniqueFd fd;
    for (int attempt = 0; attempt < k_temp_attempts && !fd.ok(); ++attempt) {
        name = fmt::format("{}.{}", prefix, temp_suffix(options));
        fd = UniqueFd(::openat(dirfd, name.c_str(),
                               O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | access, 0600));
        if (!fd.ok() && errno != EEXIST) break;
    }
    if (!fd.ok())
        return fail(StoreErrc::io, fmt::format("store: cannot create a temp file in {}: {}",
                                               options.dir, errno_text(errno)));
    return fd;
}

std::expected<void, StoreError> install_temp(int dirfd,
                                             const StoreOptions& options,
                                             UniqueFd fd,
                                             const std::string& tmp,
                                             const std::string& name,
                                             bool written) {
    bool ok = written;
    if (ok && options.fsync) ok = ::fsync(fd.get()) == 0;
    if (ok) ok = fd.close() == 0;
    if (ok) ok = ::renameat(dirfd, tmp.c_str(), dirfd, name.c_str()) == 0;
    if (!ok) {
        const int err = errno;
        unlink_quietly(dirfd, tmp);
        return fail(StoreErrc::io, fmt::format("store: cannot write {}/{}: {}", options.dir, name,
                                               errno_text(err)));
    }
    return {};
}

std::expected<void, StoreError> write_atomically(int dirfd,
                                                 const StoreOptions& options,
                                                 std::string_view id,
                                                 const std::string& name,
                                                 std::string_view bytes) {
    std::string tmp;
    auto fd = create_temp(dirfd, options, fmt::format("tmp.{}", id), O_WRONLY, tmp);
    if (!fd) return std::unexpected(fd.error());
    const bool written = write_all(fd->get(), bytes);
    return install_temp(dirfd, options, std::move(*fd), tmp, name, written);
}

} // namespace sutra::core::store_detail
