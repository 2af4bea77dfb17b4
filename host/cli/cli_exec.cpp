// `sutra exec`: runs a command and prints the compressed view of its output, passing its exit
// status through. The work is in core/exec.cpp (core::exec); this file reads options and prints.

#include "core/compress.hpp"
#include "core/config.hpp"
#include "core/exec.hpp"
#include "core/outline/outline.hpp"
#include "core/stats.hpp"
#include "core/util/json_fast.hpp"
#include "core/util/posix_io.hpp"
#include "host/cli/cli.hpp"
#include "host/response_json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <unistd.h>

namespace sutra::host {
namespace {

const char* const k_exec_usage =
    "usage: sutra exec [OPTIONS] -- CMD [ARGS...]\n"
    "       sutra exec [OPTIONS] [--shell PATH] --sh 'SHELL LINE'\n"
    "options: --mode MODE, --keep PATTERN (repeatable), --json, --mcp-tool NAME,\n"
    "         --max-view-bytes N (a lower ceiling on the view than the configured one),\n"
    "         --max-view-bytes-on-success N (the same for a command that exits 0),\n"
    "         --namespace NS (the store namespace the output is kept in),\n"
    "         --session ID (the host's session, for the stats log),\n"
    "         --host-cut OVER:HEAD:TAIL[:WINDOW], --host-cut-on-success SPEC (what the host\n"
    "         would show without sutra, for the stats log's honest figure),\n"
    "         --no-status-line (the host shows the exit status itself),\n"
    "         --kill-grace-ms N (SIGKILL this long after a passed-on signal; default 2000),\n"
    "         --drain-grace-ms N (output read this long after the command exits; default\n"
    "         1000), each 10-600000\n";

std::string json_text(const core::ExecResult& r) {
    // The CLI's form keeps its keys sorted (nlohmann::json), with the view beside them and a
    // null signal when the command was not killed by one.
    nlohmann::json out = exec_json(r, r.view.size());
    out["view"] = r.view;
    if (r.signal <= 0) out["signal"] = nullptr;
    if (!r.note.empty()) out["note"] = r.note;
    // JSON cannot carry invalid UTF-8; such bytes are replaced in this form only.
    return core::dump_json_fast(out) + "\n";
}

} // namespace

int cmd_exec(const Args& args) {
    core::ExecRequest spec;
    spec.outliner = core::outline::printed_file_outline;
    bool json = false;
    std::vector<std::string> keeps;
    std::optional<std::string> shell_line;
    std::string shell = "/bin/sh";
    std::optional<std::uint64_t> max_view;
    std::optional<std::uint64_t> max_view_on_success;
    std::size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* name) -> std::optional<std::string> {
            if (i + 1 >= args.size()) {
                print_error(std::string(name) + " needs a value");
                return std::nullopt;
            }
            return args[++i];
        };
        if (a == "--") {
            ++i;
            break;
        }
        if (a == "--json") {
            json = true;
        } else if (const auto o = read_view_option(args, i, spec.mode, spec.route);
                   o != OptionRead::not_mine) {
            if (o == OptionRead::bad) return 2;
        } else if (const auto ns_read = read_namespace_option(args, i, spec.store_namespace);
                   ns_read != OptionRead::not_mine) {
            if (ns_read == OptionRead::bad) return 2;
        } else if (a == "--keep") {
            auto v = value("--keep");
            if (!v) return 2;
            if (v->empty()) {
                print_error("--keep takes a non-empty pattern");
                return 2;
            }
            keeps.push_back(*v);
        } else if (a == "--sh") {
            auto v = value("--sh");
            if (!v) return 2;
            shell_line = *v;
        } else if (a == "--no-status-line") {
            spec.status_line = false;
        } else if (a == "--session") {
            auto v = value("--session");
            if (!v) return 2;
            if (!core::valid_session_id(*v)) {
                print_error("--session takes 1-128 of [A-Za-z0-9._:-]");
                return 2;
            }
            spec.session = *v;
        } else if (a == "--shell") {
            // The shell that runs --sh; Claude Code's wrapper names the user's bash or zsh.
            auto v = value("--shell");
            if (!v) return 2;
            if (v->empty() || (*v)[0] != '/') {
                print_error("--shell takes an absolute path");
                return 2;
            }
            shell = *v;
        } else if (a == "--max-view-bytes" || a == "--max-view-bytes-on-success") {
            auto v = value(a.c_str());
            if (!v) return 2;
            char* end = nullptr;
            errno = 0;
            const unsigned long long n = std::strtoull(v->c_str(), &end, 10);
            if (v->empty() || *end != '\0' || errno != 0 || n < 1024 || (*v)[0] == '-') {
                print_error(a + " takes a number of bytes, at least 1024");
                return 2;
            }
            (a == "--max-view-bytes" ? max_view : max_view_on_success) = n;
        } else if (a == "--kill-grace-ms" || a == "--drain-grace-ms") {
            auto v = value(a.c_str());
            if (!v) return 2;
            char* end = nullptr;
            errno = 0;
            const unsigned long long n = std::strtoull(v->c_str(), &end, 10);
            const auto lo = static_cast<unsigned long long>(core::k_min_grace.count());
            const auto hi = static_cast<unsigned long long>(core::k_max_grace.count());
            if (v->empty() || *end != '\0' || errno != 0 || (*v)[0] == '-' || n < lo || n > hi) {
                print_error(a + " takes a number of milliseconds, " + std::to_string(lo) + "-" +
                            std::to_string(hi));
                return 2;
            }
            (a == "--kill-grace-ms" ? spec.kill_grace : spec.drain_grace) =
                std::chrono::milliseconds(n);
        } else if (a == "--host-cut" || a == "--host-cut-on-success") {
            auto v = value(a.c_str());
            if (!v) return 2;
            const auto cut = core::parse_host_cut(*v);
            if (!cut) {
                print_error(a + " takes OVER:HEAD:TAIL[:WINDOW], each a number of bytes");
                return 2;
            }
            (a == "--host-cut" ? spec.host_cut : spec.host_cut_on_success) = *cut;
        } else if (!a.empty() && a[0] == '-') {
            print_error("unknown option '" + a + "'");
            std::fputs(k_exec_usage, stderr);
            return 2;
        } else {
            break; // the command starts here
        }
    }
    const std::vector<std::string> command(args.begin() + static_cast<std::ptrdiff_t>(i),
                                           args.end());
    if (shell_line && !command.empty()) {
        print_error("give either --sh 'LINE' or a command after --, not both");
        return 2;
    }
    if (shell_line) {
        spec.argv = {shell, "-c", *shell_line};
        spec.command = *shell_line;
    } else {
        if (command.empty()) {
            print_error("exec needs a command");
            std::fputs(k_exec_usage, stderr);
            return 2;
        }
        spec.argv = command;
        for (const auto& word : command) spec.command += (spec.command.empty() ? "" : " ") + word;
    }

    auto config = core::load_config();
    if (!config) {
        print_error(config.error());
        return 2;
    }
    warn_if_project_ignored(*config);
    for (auto& k : keeps) config->keep_patterns.push_back(std::move(k));
    // A host may show a successful command's output more generously than a failing one's
    // (Claude Code cuts a failure near 10,000 characters, a success at 30,000).
    if (max_view_on_success)
        spec.max_view_bytes_on_success = std::min(config->max_view_bytes, *max_view_on_success);
    if (max_view) config->max_view_bytes = std::min(config->max_view_bytes, *max_view);
    if (!json)
        spec.raw_sink = [](std::string_view bytes) {
            return core::write_all(STDOUT_FILENO, bytes);
        };

    spec.count_later = true;
    const core::ExecResult r = core::exec(spec, *config);
    if (!r.spawned) {
        print_error("exec: " + r.spawn_error);
        return r.exit_code;
    }
    if (!r.note.empty()) std::fprintf(stderr, "sutra: note: %s\n", r.note.c_str());
    if (json) {
        core::write_all(STDOUT_FILENO, json_text(r));
    } else if (!r.passed_raw) {
        core::write_all(STDOUT_FILENO, r.view);
    } else if (spec.status_line) {
        const std::string line = core::status_line(r.exit_code, r.signal);
        if (!line.empty()) std::fprintf(stderr, "sutra: %s\n", line.c_str());
    }
    core::log_counted_after_exit(r.counts.stats, r.counts.original, r.counts.view, *config);
    return r.exit_code;
}

} // namespace sutra::host
