#include "core/trust.hpp"

#include "core/util/posix_io.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::core {

namespace {

constexpr std::size_t k_max_trust_file_bytes = 1 << 20;
constexpr const char* k_hash_prefix = "sha256:";

std::string env_value(const std::map<std::string, std::string>& env, const std::string& name) {
    auto it = env.find(name);
    return it == env.end() ? std::string{} : it->second;
}

std::string sha256_hex(const std::string& text) {
    if (!sodium_ready()) throw std::runtime_error("libsodium failed to initialise");
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    char hex[2 * crypto_hash_sha256_BYTES + 1];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    return std::string(k_hash_prefix) + hex;
}

std::string parent_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string canonical_dir(const std::string& dir) {
    char buf[PATH_MAX];
    return ::realpath(dir.c_str(), buf) != nullptr ? std::string(buf) : std::string{};
}

/// Reads a small private file without following a symlink and without blocking on a FIFO:
/// regular, owned by us, not writable by group or others, at most `limit` bytes
/// (core/util/read_file.hpp, every check on the descriptor).
std::expected<std::string, std::string> read_private(const std::string& path, std::size_t limit) {
    ReadRules rules;
    rules.limit = limit;
    rules.links = Links::refuse;
    rules.check = [](const struct stat& st) -> std::string {
        if (st.st_uid != ::geteuid())
            return fmt::format("owned by uid {}, not by you (uid {})", st.st_uid, ::geteuid());
        if ((st.st_mode & 022) != 0)
            return fmt::format("writable by group or others (mode {:o})", st.st_mode & 07777);
        return {};
    };
    auto text = read_file(path, rules);
    if (text) return std::move(*text);
    const FileError& e = text.error();
    if (e.problem == FileProblem::not_regular && e.err == ELOOP)
        return std::unexpected("is a symlink");
    if (e.problem == FileProblem::absent || e.problem == FileProblem::io)
        return std::unexpected("cannot open: " + e.why);
    if (e.problem == FileProblem::too_large)
        return std::unexpected(fmt::format("larger than {} bytes", limit));
    return std::unexpected(e.why);
}

} // namespace

std::string find_project_file(const std::string& cwd, const std::string& home) {
    if (cwd.empty() || cwd.front() != '/') return {};
    std::string dir = canonical_dir(cwd);
    if (dir.empty()) dir = cwd;
    const std::string stop = home.empty() ? std::string{} : canonical_dir(home);
    while (true) {
        const std::string candidate = (dir == "/" ? "" : dir) + "/" + k_project_file_name;
        struct stat st {};
        if (::lstat(candidate.c_str(), &st) == 0) return candidate;
        if (dir == "/" || (!stop.empty() && dir == stop)) return {};
        dir = parent_of(dir);
    }
}

ProjectRules inspect_project_file(const std::string& path) {
    ProjectRules rules;
    const std::string dir = canonical_dir(parent_of(path));
    rules.path = dir.empty() ? path : (dir == "/" ? "" : dir) + "/" + k_project_file_name;
    if (path.substr(path.find_last_of('/') + 1) != k_project_file_name) {
        rules.state = ProjectState::refused;
        rules.reason = fmt::format("not named {}", k_project_file_name);
        return rules;
    }
    if (dir.empty()) {
        rules.state = ProjectState::refused;
        rules.reason = "its folder cannot be resolved";
        return rules;
    }
    auto text = read_private(rules.path, k_max_project_file_bytes);
    if (!text) {
        rules.state = ProjectState::refused;
        rules.reason = text.error();
        return rules;
    }
    rules.text = std::move(*text);
    rules.hash = sha256_hex(rules.text);
    rules.state = ProjectState::untrusted;
    return rules;
}

std::string trust_file_path(const std::map<std::string, std::string>& env) {
    const std::string xdg = env_value(env, "XDG_CONFIG_HOME");
    if (!xdg.empty() && xdg.front() == '/') return xdg + "/sutra/trusted-projects";
    const std::string home = home_dir(env_value(env, "HOME"));
    if (home.empty()) return {};
    return home + "/.config/sutra/trusted-projects";
}

// The file holds one `sha256:HEX PATH` line per trust; paths are canonical and hold no newline.
std::expected<std::vector<TrustEntry>, std::string> read_trusts(const std::string& trust_file) {
    std::vector<TrustEntry> entries;
    if (trust_file.empty()) return entries;
    struct stat st {};
    if (::lstat(trust_file.c_str(), &st) != 0 && errno == ENOENT) return entries;
    auto text = read_private(trust_file, k_max_trust_file_bytes);
    if (!text) return std::unexpected(fmt::format("{}: {}", trust_file, text.error()));
    std::size_t line_no = 0;
    for (std::size_t pos = 0; pos < text->size();) {
        std::size_t end = text->find('\n', pos);
        if (end == std::string::npos) end = text->size();
        const std::string line = text->substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if (line.empty()) continue;
        const auto space = line.find(' ');
        const std::string hash = line.substr(0, space);
        const bool ok = space != std::string::npos && hash.size() == 7 + 64 &&
                        hash.starts_with(k_hash_prefix) && space + 1 < line.size() &&
                        line[space + 1] == '/';
        if (!ok) return std::unexpected(fmt::format("{}:{}: malformed line", trust_file, line_no));
        entries.push_back(TrustEntry{line.substr(space + 1), hash});
    }
    return entries;
}

std::expected<void, std::string> write_trusts(const std::string& trust_file,
                                              const std::vector<TrustEntry>& entries) {
    if (trust_file.empty()) return std::unexpected("no home folder to keep trusts in");
    std::string text;
    for (const TrustEntry& e : entries) {
        if (e.path.find('\n') != std::string::npos || e.path.empty() || e.path.front() != '/')
            return std::unexpected(fmt::format("cannot record the path {}", e.path));
        text += e.hash + " " + e.path + "\n";
    }
    // The folder (and its missing parents) 0700, like the store.
    if (auto made = make_dirs(parent_of(trust_file)); !made) return std::unexpected(made.error());
    if (!sodium_ready()) return std::unexpected("libsodium failed to initialise");
    const std::string tmp = trust_file + ".tmp." + random_hex(8);
    const int fd = ::open(tmp.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return std::unexpected(fmt::format("cannot create {}: {}", tmp, std::strerror(errno)));
    bool ok = write_all(fd, text) && ::fsync(fd) == 0;
    const int saved = errno;
    ok = ::close(fd) == 0 && ok;
    if (!ok || ::rename(tmp.c_str(), trust_file.c_str()) != 0) {
        const int err = ok ? errno : saved;
        ::unlink(tmp.c_str());
        return std::unexpected(fmt::format("cannot write {}: {}", trust_file, std::strerror(err)));
    }
    return {};
}

ProjectRules resolve_project_rules(const std::string& cwd,
                                   const std::map<std::string, std::string>& env) {
    const std::string found = find_project_file(cwd, home_dir(env_value(env, "HOME")));
    if (found.empty()) return {};
    ProjectRules rules = inspect_project_file(found);
    if (rules.state == ProjectState::refused) return rules;
    auto trusts = read_trusts(trust_file_path(env));
    if (!trusts) {
        rules.state = ProjectState::refused;
        rules.reason = "the trust file is unusable: " + trusts.error();
        return rules;
    }
    bool known = false;
    for (const TrustEntry& e : *trusts) {
        if (e.path != rules.path) continue;
        known = true;
        if (sodium_memcmp(e.hash.data(), rules.hash.data(),
                          std::min(e.hash.size(), rules.hash.size())) == 0 &&
            e.hash.size() == rules.hash.size()) {
            rules.state = ProjectState::applied; // the caller may still find it invalid
            return rules;
        }
    }
    rules.state = known ? ProjectState::changed : ProjectState::untrusted;
    return rules;
}

std::string describe_project_state(const ProjectRules& rules) {
    switch (rules.state) {
    case ProjectState::none:
        return "none";
    case ProjectState::untrusted:
        return "not trusted: ignored (run `sutra trust` to apply it)";
    case ProjectState::changed:
        return "changed since it was trusted: ignored (run `sutra trust` again to apply it)";
    case ProjectState::refused:
        return "refused: " + rules.reason;
    case ProjectState::invalid:
        return "trusted but invalid: ignored: " + rules.reason;
    case ProjectState::applied:
        return "trusted, applied";
    }
    return "?";
}

} // namespace sutra::core
