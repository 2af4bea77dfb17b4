// See app_server.hpp.

#include "plugins/codex/app_server.hpp"

#include "core/util/json_nesting.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <string_view>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace sutra::plugins::codex {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// initialize, initialized, hooks/list: the exchange Codex's own clients start with. Sent at
// once; the server answers in order. "/" as the cwd: the user's hooks, no project's.
constexpr std::string_view k_requests =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"sutra","version":"1"}}})"
    "\n"
    R"({"jsonrpc":"2.0","method":"initialized"})"
    "\n"
    R"({"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":["/"]}})"
    "\n";

bool is_program(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(path.c_str(), X_OK) == 0;
}

// `name` in the absolute PATH entries; an empty or relative entry would be the current folder.
std::string in_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "";
    while (!rest.empty()) {
        const auto colon = rest.find(':');
        const std::string dir(rest.substr(0, colon));
        if (dir.starts_with("/") && is_program(dir + "/" + name)) return dir + "/" + name;
        if (colon == std::string_view::npos) break;
        rest.remove_prefix(colon + 1);
    }
    return {};
}

void sleep_ms(long ms) {
    timespec ts{0, ms * 1000000};
    while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

// Writes all of `data` with SIGPIPE held back: a program that exits before reading its requests
// must not kill sutra. A SIGPIPE raised here is taken off again.
bool write_all(int fd, std::string_view data) {
    sigset_t pipe_set;
    sigset_t old;
    sigset_t pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigpending(&pending);
    const bool was_pending = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    bool ok = true;
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok = false;
            break;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    if (!ok && !was_pending) {
        const timespec zero{0, 0};
        while (sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return ok;
}

// `codex app-server` in its own process group, killed with its whole group and reaped however
// the exchange ends.
class AppServer {
public:
    AppServer() = default;
    AppServer(const AppServer&) = delete;
    AppServer& operator=(const AppServer&) = delete;
    ~AppServer() { stop(false); }

    // "" once started, else why not.
    std::string start(const std::string& program, const std::string& codex_home) {
        int in[2];
        int out[2];
        if (::pipe2(in, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
        if (::pipe2(out, O_CLOEXEC) != 0) {
            const int err = errno;
            ::close(in[0]);
            ::close(in[1]);
            return std::string("pipe: ") + std::strerror(err);
        }
        posix_spawn_file_actions_t actions;
        posix_spawnattr_t attr;
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attr);
        posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addchdir_np(&actions, "/");
        sigset_t none;
        sigset_t defaults;
        sigemptyset(&none);
        sigemptyset(&defaults);
        for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&defaults, s);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                            POSIX_SPAWN_SETSIGMASK);
        // The environment as it is, with CODEX_HOME as the install sees it.
        std::vector<std::string> env;
        for (char** e = environ; e != nullptr && *e != nullptr; ++e)
            if (!std::string_view(*e).starts_with("CODEX_HOME=")) env.emplace_back(*e);
        env.push_back("CODEX_HOME=" + codex_home);
        std::vector<char*> envp;
        for (auto& e : env) envp.push_back(e.data());
        envp.push_back(nullptr);
        std::string prog = program;
        std::string sub = "app-server";
        char* argv[] = {prog.data(), sub.data(), nullptr};
        pid_t pid = -1;
        const int rc = ::posix_spawn(&pid, program.c_str(), &actions, &attr, argv, envp.data());
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        ::close(in[0]);
        ::close(out[1]);
        if (rc != 0) {
            ::close(in[1]);
            ::close(out[0]);
            return "cannot run " + program + ": " + std::strerror(rc);
        }
        m_pid = pid;
        m_in = in[1];
        m_out = out[0];
        return {};
    }

    int in() const { return m_in; }
    int out() const { return m_out; }

    // `graceful`: stdin closes and the server gets a second to exit on its own (it may be
    // writing its state). Then the group is killed, before the leader is reaped, so its id
    // cannot have been reused by then.
    void stop(bool graceful) {
        if (m_pid <= 0) return;
        close_fd(m_in);
        for (int waited = 0; graceful && waited < 1000; waited += 10) {
            siginfo_t info{};
            if (::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) ==
                    0 &&
                info.si_pid != 0)
                break;
            sleep_ms(10);
        }
        ::kill(-m_pid, SIGKILL);
        close_fd(m_out);
        while (::waitpid(m_pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        m_pid = -1;
    }

private:
    static void close_fd(int& fd) {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
    pid_t m_pid = -1;
    int m_in = -1;
    int m_out = -1;
};

// What one line of the server's output says: nullopt while it is not the answer to our
// initialize or hooks/list (a notification, a request of the server's own, other output).
std::optional<std::expected<json, std::string>> answer_in(std::string_view line) {
    const json m = sutra::core::parse_within_nesting<json>(line);
    if (!m.is_object() || m.contains("method") || !m.contains("id")) return std::nullopt;
    const json& id = m["id"];
    if (id != 1 && id != 2) return std::nullopt;
    const std::string what = id == 1 ? "initialize" : "hooks/list";
    if (const auto e = m.find("error"); e != m.end()) {
        const std::string message =
            e->is_object() && e->contains("message") && (*e)["message"].is_string()
                ? (*e)["message"].get<std::string>()
                : e->dump();
        return std::unexpected("codex app-server refused " + what + ": " + message);
    }
    if (id == 1) return std::nullopt;
    const auto r = m.find("result");
    if (r == m.end() || !r->is_object())
        return std::unexpected(std::string("codex app-server answered hooks/list without a "
                                           "result object"));
    return *r;
}

} // namespace

std::string find_codex() {
    if (const char* chosen = std::getenv("SUTRA_CODEX_BIN")) {
        const std::string p = chosen;
        if (p.find('/') == std::string::npos) return p.empty() ? p : in_path(p);
        return is_program(p) ? p : std::string();
    }
    return in_path("codex");
}

std::expected<json, std::string> list_hooks(const std::string& program,
                                            const std::string& codex_home,
                                            milliseconds timeout,
                                            std::size_t max_bytes) {
    AppServer server;
    if (std::string e = server.start(program, codex_home); !e.empty()) return std::unexpected(e);
    if (!write_all(server.in(), k_requests))
        return std::unexpected(program + " app-server exited before reading its requests");
    const auto deadline = Clock::now() + timeout;
    std::string pending;     // the line not yet complete
    std::size_t scanned = 0; // of `pending`, holding no newline: a long line is scanned once
    std::size_t total = 0;
    char chunk[65536];
    for (;;) {
        for (auto nl = pending.find('\n', scanned); nl != std::string::npos;
             nl = pending.find('\n')) {
            auto got = answer_in(std::string_view(pending).substr(0, nl));
            pending.erase(0, nl + 1);
            if (got) {
                if (got->has_value()) server.stop(true);
                return *got;
            }
        }
        scanned = pending.size();
        const auto left = std::chrono::ceil<milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            return std::unexpected("no answer from " + program + " app-server within " +
                                   (timeout.count() % 1000 == 0
                                        ? std::to_string(timeout.count() / 1000) + " s"
                                        : std::to_string(timeout.count()) + " ms"));
        pollfd p{server.out(), POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left));
        if (ready < 0 && errno != EINTR)
            return std::unexpected(std::string("poll: ") + std::strerror(errno));
        if (ready <= 0) continue;
        const ssize_t n = ::read(server.out(), chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) return std::unexpected(std::string("read: ") + std::strerror(errno));
        if (n == 0) {
            if (auto got = answer_in(pending)) return *got; // a last line without its newline
            return std::unexpected(program + " app-server exited without answering hooks/list");
        }
        total += static_cast<std::size_t>(n);
        if (total > max_bytes)
            return std::unexpected(program + " app-server sent more than " +
                                   std::to_string(max_bytes) +
                                   " bytes without answering hooks/list");
        pending.append(chunk, static_cast<std::size_t>(n));
    }
}

} // namespace sutra::plugins::codex
