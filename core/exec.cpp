// exec: the process side (spawn, signal forwarding, the read loop with its time limit) and
// the Driver that takes the output chunk by chunk: whole through compress while it fits
// the window, else through the streaming planner and store writer, with one stats record.

#include "core/exec.hpp"

#include "core/classify.hpp"
#include "core/compress.hpp"
#include "core/exec_stream.hpp"
#include "core/shape.hpp"
#include "core/stats.hpp"
#include "core/store.hpp"
#include "core/store_options.hpp"
#include "core/text_rewrite.hpp"
#include "core/utf8.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <memory>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace sutra::core {
namespace {

// The running child, for the signal handler: SIGINT and SIGTERM sent to sutra go to it.
std::atomic<pid_t> g_child{0};

extern "C" void forward_signal(int sig) {
    const pid_t pid = g_child.load();
    if (pid > 0) ::kill(pid, sig);
}

int decode_status(int status, int& signal) {
    if (WIFSIGNALED(status)) {
        signal = WTERMSIG(status);
        return 128 + signal;
    }
    signal = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

struct Child {
    pid_t pid = -1;
    int out = -1; ///< read end of the one pipe both its stdout and stderr write to
};

/// Starts argv[0] (searched in PATH) with stdout and stderr on one pipe, so the bytes arrive in
/// the order the child wrote them, as a terminal would show them. Returns the errno on failure.
std::pair<Child, int> spawn(const ExecRequest& spec) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return {{}, errno};
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    if (spec.stdin_null)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
    // The child starts with default dispositions and nothing blocked, whatever sutra set.
    sigset_t defaults, none;
    sigemptyset(&defaults);
    for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP}) sigaddset(&defaults, sig);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

    std::vector<char*> argv;
    for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        return {{}, rc};
    }
    return {{pid, fds[0]}, 0};
}

/// Takes the output chunk by chunk: first into a window held in memory, then (past it) into
/// the streaming planner and the store writer, or raw to the sink.
class Driver {
public:
    Driver(const ExecRequest& spec, const Config& cfg) : m_spec(spec), m_cfg(cfg) {}

    /// False when the raw sink stopped taking bytes (stdout closed): stop reading.
    bool feed(std::string_view chunk) {
        m_total += chunk.size();
        switch (m_phase) {
        case Phase::window:
            m_window.append(chunk);
            if (m_window.size() > m_spec.window) return leave_window();
            return true;
        case Phase::raw:
            return m_spec.raw_sink(chunk);
        case Phase::stream:
            stream(chunk);
            return true;
        }
        return true;
    }

    /// A quiet moment: keep the store's temp file from looking abandoned.
    void idle() {
        if (m_writer) m_writer->keep_alive();
    }

    ExecResult finish(int exit_code, int signal) {
        ExecResult r;
        r.exit_code = exit_code;
        r.signal = signal;
        r.original_bytes = m_total;
        switch (m_phase) {
        case Phase::window:
            finish_window(r);
            break;
        case Phase::raw:
            r.passed_raw = true;
            r.passthrough = m_raw_reason;
            if (m_raw_reason.starts_with("store-failed"))
                r.note = "the output is shown whole: " + m_raw_reason;
            log(r, "passthrough:" + m_raw_reason.substr(0, m_raw_reason.find(':')), m_total);
            break;
        case Phase::stream:
            finish_stream(r);
            break;
        }
        if (!r.passed_raw && m_spec.status_line) {
            const std::string line = status_line(exit_code, signal);
            if (!line.empty()) {
                if (!r.view.empty() && r.view.back() != '\n') r.view += '\n';
                r.view += line;
                r.view += '\n';
            }
        }
        return r;
    }

private:
    enum class Phase { window, raw, stream };
    const ExecRequest& m_spec;
    const Config& m_cfg;
    Phase m_phase = Phase::window;
    std::string m_window;
    std::uint64_t m_total = 0;
    std::string m_raw_reason;
    Shape m_shape = Shape::text;
    std::optional<Store> m_store;
    std::optional<StoreWriter> m_writer;
    std::string m_store_error;
    std::unique_ptr<KeyMatcher> m_keys;
    std::unique_ptr<StreamPlanner> m_planner;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();

    bool go_raw(std::string reason) {
        m_phase = Phase::raw;
        m_raw_reason = std::move(reason);
        const bool ok = m_spec.raw_sink(m_window);
        m_window.clear();
        m_window.shrink_to_fit();
        return ok;
    }

    bool leave_window() {
        // The core's rules past the window too: binary output and diffs are never rewritten.
        if (m_spec.raw_sink) {
            if (looks_binary(m_window)) return go_raw("binary");
            if (contains_diff(m_window)) return go_raw("diff");
        }
        m_shape = detect_shape(m_window, m_spec.command);
        if (m_shape == Shape::json || m_shape == Shape::diff || m_shape == Shape::binary ||
            m_shape == Shape::empty)
            m_shape = Shape::text;
        if (m_cfg.store_enabled) {
            auto store = Store::open(store_options(m_cfg));
            if (store) {
                auto writer = store->begin_put();
                if (writer) {
                    m_store = std::move(*store);
                    m_writer.emplace(std::move(*writer));
                } else {
                    m_store_error = writer.error().message;
                }
            } else {
                m_store_error = store.error().message;
            }
            // Fail open: without a store, nothing may be elided, so the output goes out whole.
            if (!m_writer && m_spec.raw_sink) return go_raw("store-failed: " + m_store_error);
        }
        m_keys = std::make_unique<KeyMatcher>(m_cfg.keep_patterns);
        // The exit status is not known yet: `auto` plans with the failing command's budget.
        Mode mode = m_spec.mode.value_or(m_cfg.mode);
        if (mode == Mode::automatic) mode = Mode::normal;
        m_planner =
            std::make_unique<StreamPlanner>(*m_keys, text_options(mode, m_cfg.max_view_bytes));
        m_phase = Phase::stream;
        std::string window = std::move(m_window);
        m_window = std::string();
        stream(window);
        return true;
    }

    void stream(std::string_view chunk) {
        if (m_writer && m_writer->stopped().empty()) {
            m_writer->append(chunk);
            if (!m_writer->stopped().empty()) m_planner->retention_stops_at(m_writer->retained());
        }
        m_planner->feed(chunk);
    }

    void finish_window(ExecResult& r) {
        Request req;
        req.output = m_window;
        req.tool = "exec";
        req.command = m_spec.command;
        req.exit_code = r.exit_code;
        req.host = "cli";
        req.mode = m_spec.mode;
        req.route = m_spec.route;
        const Response resp = compress(req, m_cfg);
        r.view = std::string(view_of(resp, m_window));
        r.rewritten = resp.rewritten;
        r.id = resp.id;
        r.retained_bytes = resp.retained ? m_total : 0;
        for (const auto& e : resp.elisions) r.elisions.push_back({e, resp.retained});
        r.rules = resp.rules;
        r.passthrough = resp.passthrough;
        if (resp.passthrough.starts_with("store-failed"))
            r.note = "the output is shown whole: " + resp.passthrough;
    }

    void finish_stream(ExecResult& r) {
        m_planner->finish();
        MarkerContext ctx;
        ctx.ttl_seconds = m_cfg.ttl_seconds;
        ctx.route = m_spec.route;
        StreamRetention retention;
        if (!m_cfg.store_enabled) {
            ctx.store_disabled = true;
            retention.retained = UINT64_MAX;
        } else if (m_writer) {
            const std::uint64_t kept = m_writer->retained();
            const std::string stopped = m_writer->stopped();
            auto id = m_writer->commit();
            if (id) {
                ctx.id = *id;
                r.id = *id;
                retention.retained = kept;
                r.retained_bytes = kept;
                if (stopped == "quota")
                    retention.why_not = fmt::format(
                        "past the store's per-entry quota of {} bytes ({} holds bytes 0-{} of "
                        "this output)",
                        m_cfg.max_entry_bytes, *id, kept);
                else if (!stopped.empty())
                    retention.why_not = fmt::format(
                        "the store stopped taking bytes at {} ({}); {} holds bytes 0-{}", kept,
                        stopped, *id, kept);
            } else {
                m_store_error = id.error().message;
            }
        }
        if (m_cfg.store_enabled && !r.id) {
            retention.retained = 0;
            retention.why_not = "the store could not be written (" + m_store_error + ")";
            r.note = "the original could not be retained: " + m_store_error;
        }
        StreamView v = m_planner->render(ctx, retention);
        r.view = std::move(v.view);
        r.rewritten = true;
        for (std::size_t i = 0; i < v.elisions.size(); ++i)
            r.elisions.push_back({v.elisions[i], v.retained[i]});
        r.rules = std::move(v.rules);
        log(r, "rewritten", r.view.size());
    }

    void log(const ExecResult& r, const std::string& outcome, std::uint64_t bytes_out) {
        RewriteRecord rec;
        rec.host = "cli";
        rec.tool = "exec";
        rec.command_line = m_spec.command;
        rec.shape = std::string(to_string(m_shape));
        rec.outcome = outcome;
        rec.bytes_in = m_total;
        rec.bytes_out = bytes_out;
        rec.lines_in = m_planner ? m_planner->lines() : 0;
        rec.rules = r.rules;
        rec.micros =
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                           std::chrono::steady_clock::now() - m_start)
                                           .count());
        log_rewrite(m_cfg, rec);
    }
};

/// Blocks SIGINT and SIGTERM while the child is started, then forwards them to it.
class SignalForwarding {
public:
    SignalForwarding() {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigaddset(&set, SIGTERM);
        ::sigprocmask(SIG_BLOCK, &set, &m_old_mask);
        struct sigaction sa {};
        sa.sa_handler = forward_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        ::sigaction(SIGINT, &sa, &m_old_int);
        ::sigaction(SIGTERM, &sa, &m_old_term);
        // A closed standard output shows up as EPIPE on write, not as a signal.
        struct sigaction ign {};
        ign.sa_handler = SIG_IGN;
        ::sigaction(SIGPIPE, &ign, &m_old_pipe);
    }
    void started(pid_t pid) {
        g_child.store(pid);
        ::sigprocmask(SIG_SETMASK, &m_old_mask, nullptr); // pending signals are forwarded now
    }
    ~SignalForwarding() {
        ::sigprocmask(SIG_SETMASK, &m_old_mask, nullptr);
        g_child.store(0);
        ::sigaction(SIGINT, &m_old_int, nullptr);
        ::sigaction(SIGTERM, &m_old_term, nullptr);
        ::sigaction(SIGPIPE, &m_old_pipe, nullptr);
    }
    SignalForwarding(const SignalForwarding&) = delete;
    SignalForwarding& operator=(const SignalForwarding&) = delete;

private:
    sigset_t m_old_mask{};
    struct sigaction m_old_int {};
    struct sigaction m_old_term {};
    struct sigaction m_old_pipe {};
};

int wait_child(pid_t pid, int& signal) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return 1;
    return decode_status(status, signal);
}

} // namespace

std::string status_line(int exit_code, int signal) {
    if (signal > 0) {
        const char* abbrev = ::sigabbrev_np(signal);
        return abbrev ? fmt::format("[sutra: command killed by signal {} (SIG{})]", signal, abbrev)
                      : fmt::format("[sutra: command killed by signal {}]", signal);
    }
    if (exit_code == 0) return {};
    return fmt::format("[sutra: command exited with status {}]", exit_code);
}

ExecResult exec(const ExecRequest& spec, const Config& config) noexcept {
    try {
        if (spec.argv.empty()) {
            ExecResult r;
            r.spawned = false;
            r.exit_code = 2;
            r.spawn_error = "no command given";
            return r;
        }
        SignalForwarding signals;
        auto [child, err] = spawn(spec);
        if (err != 0) {
            ExecResult r;
            r.spawned = false;
            // As a shell says it: 127 for a command that is not there, 126 for one that cannot
            // be run.
            r.exit_code = err == ENOENT || err == ENOTDIR ? 127 : 126;
            r.spawn_error = err == ENOENT ? spec.argv[0] + ": command not found"
                                          : spec.argv[0] + ": " + std::strerror(err);
            return r;
        }
        signals.started(child.pid);

        Driver driver(spec, config);
        std::vector<char> buf(1 << 17);
        bool reaped = false, timed_out = false;
        int status_signal = 0, exit_code = 0;
        const auto started = std::chrono::steady_clock::now();
        while (true) {
            if (spec.timeout_seconds > 0 && !reaped && !timed_out &&
                std::chrono::steady_clock::now() - started >=
                    std::chrono::seconds(spec.timeout_seconds)) {
                ::kill(child.pid, SIGKILL);
                timed_out = true;
            }
            pollfd p{child.out, POLLIN, 0};
            const int ready = ::poll(&p, 1, 1000);
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) {
                driver.idle();
                if (reaped) break; // the child is gone and whoever holds the pipe is quiet
                int status = 0;
                const pid_t done = ::waitpid(child.pid, &status, WNOHANG);
                if (done == child.pid) {
                    g_child.store(0); // its pid may be reused: forward nothing more
                    reaped = true;
                    exit_code = decode_status(status, status_signal);
                }
                continue;
            }
            const ssize_t n = ::read(child.out, buf.data(), buf.size());
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (n <= 0) break;
            if (!driver.feed(std::string_view(buf.data(), static_cast<std::size_t>(n)))) break;
        }
        ::close(child.out);
        if (!reaped) exit_code = wait_child(child.pid, status_signal);
        g_child.store(0);
        ExecResult result = driver.finish(exit_code, status_signal);
        result.timed_out = timed_out;
        return result;
    } catch (const std::exception& e) {
        ExecResult r;
        r.exit_code = 1;
        r.spawned = false;
        r.spawn_error = e.what();
        return r;
    } catch (...) {
        ExecResult r;
        r.exit_code = 1;
        r.spawned = false;
        r.spawn_error = "unknown error";
        return r;
    }
}

} // namespace sutra::core
