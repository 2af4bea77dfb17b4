// See files.hpp.

#include "plugins/common/files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::plugins::common {

namespace fs = std::filesystem;

std::optional<std::string> read_text(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        if (errno == ENOENT) return std::nullopt;
        throw std::runtime_error(path + ": " + std::strerror(errno));
    }
    std::string out;
    char buf[1 << 14];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    const bool bad = std::ferror(f) != 0;
    std::fclose(f);
    if (bad) throw std::runtime_error(path + ": read error");
    return out;
}

void write_atomic(const std::string& path, const std::string& data, mode_t mode) {
    fs::create_directories(fs::path(path).parent_path());
    const std::string tmp = path + ".sutra-tmp-" + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) throw std::runtime_error(tmp + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            ::unlink(tmp.c_str());
            throw std::runtime_error(tmp + ": write error");
        }
        done += static_cast<std::size_t>(n);
    }
    ::fchmod(fd, mode);
    if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": " + std::strerror(errno));
    }
}

mode_t file_mode(const std::string& path, mode_t fallback) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : fallback;
}

ojson file_change(const std::string& path,
                  const std::string& action,
                  const std::optional<std::string>& before,
                  const std::optional<std::string>& after) {
    return ojson{{"path", path},
                 {"action", action},
                 {"before", before ? ojson(*before) : ojson(nullptr)},
                 {"after", after ? ojson(*after) : ojson(nullptr)}};
}

std::vector<std::string> backups(const std::string& path) {
    std::vector<std::string> found;
    if (fs::exists(path + ".sutra-backup")) found.push_back(path + ".sutra-backup");
    for (int n = 2; fs::exists(path + ".sutra-backup-" + std::to_string(n)); ++n)
        found.push_back(path + ".sutra-backup-" + std::to_string(n));
    return found;
}

std::optional<std::string> latest_backup(const std::string& path) {
    const auto all = backups(path);
    return all.empty() ? std::nullopt : std::optional<std::string>(all.back());
}

std::string next_backup(const std::string& path) {
    std::string backup = path + ".sutra-backup";
    for (int n = 2; fs::exists(backup); ++n) backup = path + ".sutra-backup-" + std::to_string(n);
    return backup;
}

ojson apply_plans(const std::vector<FilePlan>& plans, bool dry_run) {
    ojson result{
        {"ok", true}, {"changed", false}, {"files", ojson::array()}, {"messages", ojson::array()}};
    for (const auto& p : plans) {
        ojson change = file_change(p.path, p.action, p.before, p.after);
        const mode_t mode = file_mode(p.path, p.create_mode);
        if (p.restore_from) change["backup"] = *p.restore_from;
        if (!dry_run) {
            if (p.action == "modify" && p.before && p.backup_before) {
                const std::string backup = next_backup(p.path);
                write_atomic(backup, *p.before, mode);
                change["backup"] = backup;
            }
            if (p.after) {
                write_atomic(p.path, *p.after, mode);
            } else {
                fs::remove(p.path);
            }
            if (p.restore_from) fs::remove(*p.restore_from);
        }
        result["changed"] = true;
        result["files"].push_back(change);
    }
    return result;
}

} // namespace sutra::plugins::common
