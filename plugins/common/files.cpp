// See files.hpp.

#include "plugins/common/files.hpp"

#include "core/util/read_file.hpp"
#include "plugins/common/paths.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace sutra::plugins::common {

namespace fs = std::filesystem;

// Far above any settings or config file a host writes.
constexpr std::size_t k_max_text_bytes = 64u << 20;

namespace {

// read_text's and map_text's answer to a file they may not read: absent is nullopt (returned by
// the caller), anything else throws.
[[noreturn]] void refuse(const std::string& path, const core::FileError& e) {
    if (e.problem == core::FileProblem::too_large)
        throw std::runtime_error(path + ": larger than 64 MiB");
    throw std::runtime_error(
        e.problem == core::FileProblem::not_regular ? path + ": not a regular file" : e.message);
}

bool absent(const core::FileError& e) {
    return e.problem == core::FileProblem::absent && e.err == ENOENT;
}

} // namespace

std::optional<std::string> read_text(const std::string& path) {
    // core/util/read_file.hpp's rule (header-only: the modules never link the core): a FIFO cannot
    // hold the open, only a regular file is read, and only so much.
    auto text = core::read_regular_file(path, k_max_text_bytes);
    if (text) return std::move(*text);
    if (absent(text.error())) return std::nullopt;
    refuse(path, text.error());
}

MappedText::MappedText(MappedText&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)) {}

MappedText& MappedText::operator=(MappedText&& other) noexcept {
    if (this != &other) {
        if (m_data != nullptr) ::munmap(const_cast<void*>(m_data), m_size);
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
    }
    return *this;
}

MappedText::~MappedText() {
    if (m_data != nullptr) ::munmap(const_cast<void*>(m_data), m_size);
}

std::optional<MappedText> map_text(const std::string& path) {
    // The same open and checks as read_text (core::open_checked), then a map instead of a read.
    auto file = core::open_checked(path, core::ReadRules{k_max_text_bytes});
    if (!file) {
        if (absent(file.error())) return std::nullopt;
        refuse(path, file.error());
    }
    const auto size = static_cast<std::size_t>(file->size);
    if (size == 0) return MappedText();
    void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file->fd, 0);
    if (data == MAP_FAILED) throw std::runtime_error(path + ": " + std::strerror(errno));
    return MappedText(data, size);
}

namespace {

void write_whole(int fd, const std::string& data, const std::string& path) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw std::runtime_error(path +
                                     ": cannot write: " + std::strerror(n < 0 ? errno : ENOSPC));
        done += static_cast<std::size_t>(n);
    }
}

// A file with other names (a dotfiles manager's hard link), or one whose owner a new file could
// not be given, is written where it is: the other names see the new bytes, and owner and mode
// stay. Not atomic, so it is kept for these files alone.
void write_in_place(const std::string& path, const std::string& data) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    try {
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
            throw std::runtime_error(path + ": cannot write: not a regular file");
        write_whole(fd, data, path);
        if (::ftruncate(fd, static_cast<off_t>(data.size())) != 0 || ::fsync(fd) != 0)
            throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0)
        throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
}

// Temporary files of ours beside `name` (NAME.sutra-tmp-PID) whose process is gone: what a run
// killed between creating and renaming one leaves. Another live process's are left alone.
void sweep_stale_temps(const fs::path& dir, const std::string& name) {
    const std::string prefix = name + ".sutra-tmp-";
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string entry = it->path().filename().string();
        if (!entry.starts_with(prefix) || entry.size() == prefix.size() ||
            entry.size() - prefix.size() > 10)
            continue;
        const std::string digits = entry.substr(prefix.size());
        if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
        const auto pid = static_cast<pid_t>(std::stoll(digits));
        const bool gone = pid == ::getpid() || (::kill(pid, 0) != 0 && errno == ESRCH);
        if (gone) ::unlink(it->path().c_str());
    }
}

// The nearest folder of `path` that exists.
fs::path existing_parent(fs::path dir) {
    std::error_code ec;
    while (!dir.empty() && !fs::exists(dir, ec) && dir != dir.parent_path())
        dir = dir.parent_path();
    return dir;
}

// Creates the folders of `path`. Run as root for another user (an admin installing for them),
// each new folder takes the owner of the folder it is made in, never root.
void make_parents(const fs::path& dir) {
    std::error_code ec;
    if (dir.empty() || fs::exists(dir, ec)) return;
    const fs::path base = existing_parent(dir);
    fs::create_directories(dir);
    struct stat owner {};
    if (::geteuid() != 0 || ::stat(base.c_str(), &owner) != 0 || owner.st_uid == 0) return;
    for (fs::path d = dir; d != base && !d.empty(); d = d.parent_path())
        if (::chown(d.c_str(), owner.st_uid, owner.st_gid) != 0) return;
}

struct Owner {
    uid_t uid;
    gid_t gid;
};

// The owner a file written by rename must be given, when it would otherwise end up another's:
// an existing file keeps its own; a new one, made as root, takes its folder's (an admin
// installing for a user must not leave root's files in their home).
std::optional<Owner> owner_to_keep(const struct stat* existing, const fs::path& dir) {
    if (existing != nullptr) {
        if (existing->st_uid == ::geteuid() && existing->st_gid == ::getegid()) return std::nullopt;
        return Owner{existing->st_uid, existing->st_gid};
    }
    struct stat folder {};
    if (::geteuid() != 0 || ::stat(dir.empty() ? "." : dir.c_str(), &folder) != 0 ||
        folder.st_uid == 0)
        return std::nullopt;
    return Owner{folder.st_uid, folder.st_gid};
}

} // namespace

void write_atomic(const std::string& path, const std::string& data, mode_t mode) {
    const fs::path dir = fs::path(path).parent_path();
    make_parents(dir);
    sweep_stale_temps(dir.empty() ? fs::path(".") : dir, fs::path(path).filename().string());
    struct stat old {};
    const bool exists = ::stat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode);
    if (exists && old.st_nlink > 1) return write_in_place(path, data);
    const std::optional<Owner> owner = owner_to_keep(exists ? &old : nullptr, dir);
    const std::string tmp = path + ".sutra-tmp-" + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    try {
        write_whole(fd, data, path);
    } catch (...) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    ::fchmod(fd, mode);
    if (owner && ::fchown(fd, owner->uid, owner->gid) != 0) {
        // Not ours to give away (a group file we may write): its bytes change where they are.
        ::close(fd);
        ::unlink(tmp.c_str());
        if (exists) return write_in_place(path, data);
        throw std::runtime_error(path +
                                 ": cannot give it its folder's owner: " + std::strerror(errno));
    }
    if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw std::runtime_error(path + ": cannot write: " + std::strerror(err));
    }
}

void check_writable(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IWUSR) == 0)
        throw std::runtime_error(path + " is read-only; sutra leaves it as it is (make it "
                                        "writable to install, or edit it by hand)");
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

std::string backup_record(const std::string& path) {
    return path + ".sutra-backups";
}

namespace {

// True when `name` is one that backups() looks for beside `path`: a record can name nothing
// else, so a damaged record never makes uninstall delete an unrelated file.
bool is_backup_of(const std::string& name, const std::string& path) {
    const std::string base = fs::path(path).filename().string() + ".sutra-backup";
    if (name == base) return true;
    return name.size() > base.size() + 1 && name.starts_with(base + "-") &&
           name.find_first_not_of("0123456789", base.size() + 1) == std::string::npos;
}

// The record's text: a line that says what it is, then one backup name a line.
std::string record_text(const std::string& path, const std::string& backup) {
    return "# sutra install wrote these backups of " + fs::path(path).filename().string() +
           "; sutra uninstall restores and removes them\n" + fs::path(backup).filename().string() +
           "\n";
}

// The change that makes `plan`'s record right for it, if any.
std::optional<FilePlan> record_change(const FilePlan& plan) {
    const bool backs_up = plan.action == "modify" && plan.before && plan.backup_before;
    if (!backs_up && plan.action != "create") return std::nullopt; // an upgrade keeps its record
    const std::string path = real_target(plan.path);
    const std::string record = backup_record(path);
    const auto old = read_text(record);
    // apply_plans writes the backup to next_backup(path), as here.
    const auto now =
        backs_up ? std::optional<std::string>(record_text(path, next_backup(path))) : std::nullopt;
    if (!old && !now) return std::nullopt;
    FilePlan change{record, !now ? "delete" : (old ? "modify" : "create"), old, now, std::nullopt};
    change.backup_before = false;
    change.create_mode = 0600;
    return change;
}

} // namespace

std::optional<std::vector<std::string>> recorded_backups(const std::string& path) {
    const auto text = read_text(backup_record(path));
    if (!text) return std::nullopt;
    std::vector<std::string> found;
    for (std::size_t at = 0; at < text->size();) {
        const std::size_t end = std::min(text->find('\n', at), text->size());
        const std::string name = text->substr(at, end - at);
        const std::string backup = (fs::path(path).parent_path() / name).string();
        if (is_backup_of(name, path) && fs::exists(backup)) found.push_back(backup);
        at = end + 1;
    }
    return found;
}

std::vector<std::string> recorded_leftovers(const std::string& path) {
    const auto recorded = recorded_backups(path);
    if (!recorded) return {};
    std::vector<std::string> out = *recorded;
    out.push_back(backup_record(path));
    return out;
}

std::vector<FilePlan> with_backup_records(std::vector<FilePlan> plans) {
    // Taken by value: a plan holds a file's bytes before and after (an 8 MB `.claude.json`).
    for (std::size_t i = 0, n = plans.size(); i < n; ++i)
        if (auto change = record_change(plans[i])) plans.push_back(std::move(*change));
    return plans;
}

ojson apply_install_plans(std::vector<FilePlan> plans, bool dry_run) {
    return apply_plans(with_backup_records(std::move(plans)), dry_run);
}

namespace {

// What apply_plans did to one file, so that a later failure can put it back.
struct Undo {
    std::string path;
    const std::optional<std::string>* before; // the plan's own bytes, not a copy of them
    mode_t mode;
    std::optional<std::string> backup; // a backup written for this change
};

void roll_back(const std::vector<Undo>& done) {
    for (auto u = done.rbegin(); u != done.rend(); ++u) {
        std::error_code ec;
        try {
            if (*u->before)
                write_atomic(u->path, **u->before, u->mode);
            else
                fs::remove(u->path, ec);
        } catch (const std::exception&) {
            // best effort: the error already reported names the file that failed
        }
        if (u->backup) fs::remove(*u->backup, ec);
    }
}

} // namespace

ojson apply_plans(std::vector<FilePlan> real, bool dry_run) {
    ojson result{
        {"ok", true}, {"changed", false}, {"files", ojson::array()}, {"messages", ojson::array()}};
    for (auto& p : real) {
        p.path = real_target(p.path);
        if (p.before) check_writable(p.path);
    }
    std::vector<Undo> done;
    for (const auto& p : real) {
        // The bytes go in the answer only for a dry run, whose diff shows them: a real run of
        // a 10 MB config would copy them twice more, and parse them again in the CLI.
        ojson change = dry_run ? file_change(p.path, p.action, p.before, p.after)
                               : file_change(p.path, p.action, std::nullopt, std::nullopt);
        const mode_t mode = file_mode(p.path, p.create_mode);
        if (p.restore_from) change["backup"] = *p.restore_from;
        if (!dry_run) {
            Undo undo{p.path, &p.before, mode, std::nullopt};
            try {
                if (p.action == "modify" && p.before && p.backup_before) {
                    const std::string backup = next_backup(p.path);
                    try {
                        write_atomic(backup, *p.before, mode);
                    } catch (const std::exception& e) {
                        throw std::runtime_error(p.path + ": cannot back it up (" + e.what() + ")");
                    }
                    undo.backup = backup;
                    change["backup"] = backup;
                }
                if (p.after) {
                    write_atomic(p.path, *p.after, mode);
                } else if (!fs::remove(p.path)) {
                    throw std::runtime_error(p.path + ": already gone");
                }
            } catch (const std::exception& e) {
                std::error_code ec;
                if (undo.backup) fs::remove(*undo.backup, ec);
                roll_back(done);
                throw std::runtime_error(std::string(e.what()) +
                                         (done.empty() ? "" : "; the other files were put back") +
                                         " (nothing was changed)");
            }
            done.push_back(undo);
        }
        result["changed"] = true;
        result["files"].push_back(change);
    }
    if (!dry_run)
        for (const auto& p : real) {
            std::error_code ec;
            if (p.restore_from) fs::remove(*p.restore_from, ec);
            for (const auto& b : p.remove_after) fs::remove(b, ec);
        }
    return result;
}

} // namespace sutra::plugins::common
