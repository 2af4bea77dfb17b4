// exec: the Driver that takes the output chunk by chunk: whole through compress while it fits
// the window, else through the streaming planner and store writer, with one stats record. The
// process side (process group, signals, watchdog, deadlines) is core/exec/exec_process.cpp.

#include "core/exec.hpp"

#include "core/compress.hpp"
#include "core/exec/exec_process.hpp"
#include "core/exec/exec_stream.hpp"
#include "core/rewrite/classify.hpp"
#include "core/rewrite/shape.hpp"
#include "core/rewrite/text_rewrite.hpp"
#include "core/stats.hpp"
#include "core/store/store.hpp"
#include "core/store/store_options.hpp"
#include "core/util/utf8.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <exception>
#include <memory>

namespace sutra::core {
namespace {

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
            if (m_window.size() > m_window_limit) return leave_window();
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
        m_cut = exit_code == 0 && m_spec.host_cut_on_success.known ? m_spec.host_cut_on_success
                                                                   : m_spec.host_cut;
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
    /// The window's size; raised to the store's per-entry quota when the store fails and no
    /// raw sink can take the output (--json, MCP): a full disk must not cost the output.
    std::uint64_t m_window_limit = m_spec.window;
    bool m_store_failed = false;
    std::uint64_t m_total = 0;
    std::string m_raw_reason;
    Shape m_shape = Shape::text;
    std::optional<Store> m_store;
    std::optional<StoreWriter> m_writer;
    std::string m_store_error;
    std::unique_ptr<KeyMatcher> m_keys;
    std::unique_ptr<StreamPlanner> m_planner;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    HostCut m_cut; ///< the host's cut for this run's exit status (core/host_cut.hpp)

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
        if (m_cfg.store_enabled && !m_store_failed && !start_entry()) {
            // The store cannot take the output (not there, not writable, a full disk): nothing
            // may be elided that it does not hold. The CLI passes the output through; a caller
            // without a raw sink gets it whole from memory up to the store's own per-entry
            // quota, and past that a view whose markers say what is not retained.
            if (m_spec.raw_sink) return go_raw("store-failed: " + m_store_error);
            m_store_failed = true;
            m_window_limit = std::max(m_spec.window, m_cfg.max_entry_bytes);
            if (m_window.size() <= m_window_limit) return true;
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
        // The store holds the window already (start_entry); the planner sees it now.
        if (m_writer && !m_writer->stopped().empty())
            m_planner->retention_stops_at(m_writer->retained());
        m_planner->feed(window);
        return true;
    }

    /// Opens the store's streaming entry and writes the window to it; false (with the reason in
    /// m_store_error, and no entry left behind) when any of it fails, short of the quota.
    bool start_entry() {
        auto store = Store::open(store_options(m_cfg, m_spec.store_namespace));
        if (!store) {
            m_store_error = store.error().message;
            return false;
        }
        auto writer = store->begin_put();
        if (!writer) {
            m_store_error = writer.error().message;
            return false;
        }
        writer->append(m_window);
        if (!writer->stopped().empty() && writer->stopped() != "quota") {
            m_store_error = writer->stopped();
            writer->abort();
            return false;
        }
        m_store = std::move(*store);
        m_writer.emplace(std::move(*writer));
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
        if (m_store_failed) {
            r.view = m_window;
            r.passthrough = "store-failed: " + m_store_error;
            r.note = "the output is shown whole: " + r.passthrough;
            log(r, "passthrough:store-failed", m_total);
            return;
        }
        Request req;
        req.output = m_window;
        req.tool = "exec";
        req.command = m_spec.command;
        req.exit_code = r.exit_code;
        req.host = "cli";
        req.mode = m_spec.mode;
        req.route = m_spec.route;
        req.store_namespace = m_spec.store_namespace;
        req.session = m_spec.session;
        req.outliner = m_spec.outliner;
        req.host_cut = m_cut;
        Config cfg = m_cfg;
        if (r.exit_code == 0 && m_spec.max_view_bytes_on_success > 0)
            cfg.max_view_bytes = m_spec.max_view_bytes_on_success;
        StatsLater later;
        const Response resp = m_spec.count_later ? compress(req, cfg, later) : compress(req, cfg);
        r.view = std::string(view_of(resp, m_window));
        if (later.due) {
            r.counts.stats = std::move(later);
            r.counts.view = resp.view;
            r.counts.original = std::move(m_window); // read no more after this
        }
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
        if (ctx.route.kind == RestoreRoute::Kind::cli)
            ctx.route.store_namespace = m_spec.store_namespace;
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
        rec.session = m_spec.session;
        rec.shape = std::string(to_string(m_shape));
        rec.outcome = outcome;
        rec.bytes_in = m_total;
        rec.bytes_out = bytes_out;
        if (m_cut.known) rec.host_bytes = host_shown_bytes(m_cut, m_total);
        rec.lines_in = m_planner ? m_planner->lines() : 0;
        rec.rules = r.rules;
        rec.micros =
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                           std::chrono::steady_clock::now() - m_start)
                                           .count());
        log_rewrite(m_cfg, rec);
    }
};

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
        CommandSpec command;
        command.argv = spec.argv;
        command.stdin_null = spec.stdin_null;
        command.timeout_seconds = spec.timeout_seconds;
        command.kill_grace = spec.kill_grace;
        command.drain_grace = spec.drain_grace;
        command.forward_signals = spec.forward_signals;
        Driver driver(spec, config);
        const auto end = run_command(
            command, [&](std::string_view bytes) { return driver.feed(bytes); },
            [&] { driver.idle(); });
        if (!end) {
            const int err = end.error();
            ExecResult r;
            r.spawned = false;
            // As a shell says it: 127 for a command that is not there, 126 for one that cannot
            // be run.
            r.exit_code = err == ENOENT || err == ENOTDIR ? 127 : 126;
            r.spawn_error = err == ENOENT ? spec.argv[0] + ": command not found"
                                          : spec.argv[0] + ": " + std::strerror(err);
            return r;
        }
        ExecResult result = driver.finish(end->exit_code, end->signal);
        result.timed_out = end->timed_out;
        result.received_signal = end->received_signal;
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
