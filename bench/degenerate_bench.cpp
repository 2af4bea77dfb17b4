// sutra_degenerate_bench: time per MB of outputs made of one line over and over (blank lines,
// spaces, CRLF, one character, one long line repeated, cycling letters, and one line of
// carriage returns), which once took quadratic time (issue 25). Each input runs at several sizes,
// so a linear cost shows as the same MB/s at every size. Figures are medians, measured side by
// side in one run:
//  - core::compress in process, store off (the rewrite) and on (a private store, as by default);
//  - `sutra compress FILE` as a whole process beside `wc -l FILE` (the floor: reading the file
//    and counting its lines), run in turn, and `sutra exec -- cat FILE` beside `cat FILE`;
//  - MCP sutra_exec of `cat FILE; sleep 30` under a 1 s limit: the time to its answer;
//  - with --before PATH, an older `sutra compress` and MCP sutra_exec in the same turns, killed
//    past --timeout (and not run on larger sizes once one was).
//
//   sutra_degenerate_bench --sutra PATH [--before PATH] [--runs N] [--timeout S]
//                          [--lines N,N,...] [--inputs NAME,NAME,...]

#include "bench/inputs.hpp"
#include "bench/process_runs.hpp"
#include "core/compress.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace sutra;
using clock_type = std::chrono::steady_clock;

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double time_ms(const std::function<void()>& f) {
    const auto t0 = clock_type::now();
    f();
    return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at <= s.size()) {
        const std::size_t comma = std::min(s.find(',', at), s.size());
        if (comma > at) out.push_back(s.substr(at, comma - at));
        at = comma + 1;
    }
    return out;
}

core::Config config_in(const std::string& dir, bool store) {
    core::Config c;
    c.store_dir = dir;
    c.store_enabled = store;
    c.stats_enabled = false;
    return c;
}

std::string mbps(std::size_t bytes, double ms) {
    return ms <= 0 ? "-" : fmt::format("{:.0f}", static_cast<double>(bytes) / 1e6 / (ms / 1e3));
}

// "12.3 ms (81 MB/s)"
std::string cell(std::size_t bytes, double ms) {
    return fmt::format("{:.1f} ms ({} MB/s)", ms, mbps(bytes, ms));
}

} // namespace

int main(int argc, char** argv) {
    std::string sutra_bin, before_bin;
    int runs = 7;
    double timeout_s = 60;
    std::vector<std::string> inputs = {"blank", "spaces", "crlf", "char", "same", "letters", "cr"};
    std::vector<std::size_t> sizes = {50000, 250000, 1000000};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--sutra" && has_value)
            sutra_bin = argv[++i];
        else if (a == "--before" && has_value)
            before_bin = argv[++i];
        else if (a == "--runs" && has_value)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--timeout" && has_value)
            timeout_s = std::atof(argv[++i]);
        else if (a == "--inputs" && has_value)
            inputs = split(argv[++i]);
        else if (a == "--lines" && has_value) {
            sizes.clear();
            for (const std::string& n : split(argv[++i])) sizes.push_back(std::stoul(n));
        } else {
            std::fprintf(stderr, "usage: sutra_degenerate_bench --sutra PATH [--before PATH] "
                                 "[--runs N] [--timeout S] [--lines N,...] [--inputs NAME,...]\n");
            return 2;
        }
    }
    char tmpl[] = "/tmp/sutra-degenerate-XXXXXX";
    if (!::mkdtemp(tmpl)) return 1;
    const std::string dir = tmpl;
    ::setenv("SUTRA_HOME", (dir + "/home").c_str(), 1);
    ::setenv("SUTRA_CONFIG", "/nonexistent", 1);

    fmt::print("Medians of {} runs; whole processes run in turn (A B A B ...).\n\n", runs);
    std::string header = "| input | lines | MB | in process, store off | in process, store on |";
    std::string rule = "|---|---:|---:|---|---|";
    if (!sutra_bin.empty()) {
        header +=
            " `sutra compress` | `wc -l` | `sutra exec -- cat` | `cat` | MCP `sutra_exec`, 1 s "
            "limit: answer after |";
        rule += "---|---|---|---|---|";
    }
    if (!before_bin.empty()) {
        header += " `sutra compress`, before | MCP `sutra_exec`, before |";
        rule += "---|---|";
    }
    fmt::print("{}\n{}\n", header, rule);

    for (const std::string& name : inputs) {
        bool before_gave_up = false; // past the timeout at a smaller size: larger ones too
        bool before_mcp_gave_up = false;
        for (const std::size_t lines : sizes) {
            const std::string text = bench::degenerate_output(name, lines);
            if (text.empty()) {
                std::fprintf(stderr, "unknown input %s\n", name.c_str());
                return 2;
            }
            const std::string file = dir + "/" + name + "-" + std::to_string(lines);
            if (std::FILE* f = std::fopen(file.c_str(), "wb")) {
                std::fwrite(text.data(), 1, text.size(), f);
                std::fclose(f);
            }
            std::string row = fmt::format("| {} | {} | {:.2f} |", name, lines,
                                          static_cast<double>(text.size()) / 1e6);
            for (const bool store : {false, true}) {
                const core::Config c = config_in(dir + "/store", store);
                core::Request r;
                r.output = text;
                std::vector<double> t;
                for (int k = 0; k < runs; ++k)
                    t.push_back(time_ms([&] { (void)core::compress(r, c); }));
                row += " " + cell(text.size(), median(t)) + " |";
            }
            if (!sutra_bin.empty()) {
                std::vector<double> compress, wc, exec, cat, before, mcp, before_mcp;
                bool before_timed_out = before_gave_up;
                bool before_mcp_timed_out = before_mcp_gave_up;
                const std::string slow_cat = "cat '" + file + "'; sleep 30";
                for (int k = 0; k < runs; ++k) {
                    compress.push_back(
                        bench::run_process_ms({sutra_bin, "compress", file}, timeout_s)
                            .value_or(-1));
                    wc.push_back(bench::run_process_ms({"wc", "-l", file}, timeout_s).value_or(-1));
                    exec.push_back(
                        bench::run_process_ms({sutra_bin, "exec", "--", "cat", file}, timeout_s)
                            .value_or(-1));
                    cat.push_back(bench::run_process_ms({"cat", file}, timeout_s).value_or(-1));
                    if (!before_bin.empty() && !before_timed_out) {
                        const auto ms =
                            bench::run_process_ms({before_bin, "compress", file}, timeout_s);
                        if (ms)
                            before.push_back(*ms);
                        else
                            before_timed_out = true;
                    }
                    if (k >= 3) continue; // a second or more each: three will do
                    mcp.push_back(
                        bench::mcp_exec_ms(sutra_bin, slow_cat, 1, timeout_s).value_or(-1));
                    if (!before_bin.empty() && !before_mcp_timed_out) {
                        const auto ms = bench::mcp_exec_ms(before_bin, slow_cat, 1, timeout_s);
                        if (ms)
                            before_mcp.push_back(*ms);
                        else
                            before_mcp_timed_out = true;
                    }
                }
                for (const auto* v : {&compress, &wc, &exec, &cat})
                    row += " " + cell(text.size(), median(*v)) + " |";
                row += fmt::format(" {:.2f} s |", median(mcp) / 1e3);
                before_gave_up = before_timed_out;
                before_mcp_gave_up = before_mcp_timed_out;
                const std::string killed = fmt::format(" > {:.0f} s (killed) |", timeout_s);
                if (!before_bin.empty()) {
                    row +=
                        before_timed_out ? killed : " " + cell(text.size(), median(before)) + " |";
                    row += before_mcp_timed_out
                               ? killed
                               : fmt::format(" {:.2f} s |", median(before_mcp) / 1e3);
                }
            }
            fmt::print("{}\n", row);
        }
    }
    const std::string rm = "rm -rf '" + dir + "'";
    return std::system(rm.c_str()) == 0 ? 0 : 1;
}
