// sutra_bench: the figures in docs/benchmark.md. Each figure is a median of repeated runs,
// measured side by side in one process run, because the machines are shared and noisy.
//
//   sutra_bench [--sutra PATH] [--sutra-host PATH] [--sample FILE] [--quick]

#include "bench/inputs.hpp"
#include "core/compress.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace sutra;
using clock_type = std::chrono::steady_clock;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double time_ms(const std::function<void()>& f) {
    const auto t0 = clock_type::now();
    f();
    return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

std::string temp_dir() {
    char tmpl[] = "/tmp/sutra-bench-XXXXXX";
    if (!::mkdtemp(tmpl)) std::exit(1);
    return tmpl;
}

core::Config config_in(const std::string& dir, bool store) {
    core::Config c;
    c.store_dir = dir;
    c.store_enabled = store;
    c.stats_enabled = false;
    c.max_entry_bytes = 1ull << 30;
    c.max_total_bytes = 4ull << 30;
    return c;
}

// Runs f in a child process and returns the child's peak RSS in KiB.
long peak_rss_kib(const std::function<void()>& f) {
    std::fflush(stdout); // the child must not print the parent's buffered lines again
    const pid_t pid = ::fork();
    if (pid == 0) {
        f();
        ::_exit(0);
    }
    int status = 0;
    struct rusage ru {};
    ::wait4(pid, &status, 0, &ru);
    return ru.ru_maxrss;
}

// Runs argv to completion with stdout to /dev/null and stdin from `input` (when given).
double run_process_ms(const std::vector<std::string>& argv, const std::string& input = "") {
    std::fflush(stdout);
    return time_ms([&] {
        const pid_t pid = ::fork();
        if (pid == 0) {
            if (!::freopen("/dev/null", "w", stdout) || !::freopen("/dev/null", "w", stderr))
                ::_exit(127);
            if (!input.empty() && !::freopen(input.c_str(), "r", stdin)) ::_exit(127);
            std::vector<char*> args;
            for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            ::execv(args[0], args.data());
            ::_exit(127);
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
    });
}

void write_file(const std::string& path, const std::string& text) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size()) std::exit(1);
    std::fclose(f);
}

} // namespace

int main(int argc, char** argv) {
    std::string sutra_bin;
    std::string host_bin;
    std::string sample;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--sutra" && i + 1 < argc)
            sutra_bin = argv[++i];
        else if (a == "--sutra-host" && i + 1 < argc)
            host_bin = argv[++i];
        else if (a == "--sample" && i + 1 < argc)
            sample = argv[++i];
        else if (a == "--quick")
            quick = true;
    }
    const std::string dir = temp_dir();
    const int small_runs = quick ? 30 : 200;
    const int big_runs = quick ? 1 : 3;

    fmt::print("| figure | value |\n|---|---|\n");

    // 60 kB log, in process.
    const std::string small = bench::plain_log(60 * 1000);
    for (bool store : {false, true}) {
        const core::Config c = config_in(dir + (store ? "/store" : "/nostore"), store);
        core::Request r;
        r.output = small;
        r.exit_code = 1;
        std::vector<double> t;
        std::size_t view = 0;
        for (int i = 0; i < small_runs; ++i)
            t.push_back(time_ms([&] { view = core::compress(r, c).view.size(); }));
        fmt::print("| compress 60 kB log, in process, store {} (median of {}) | {:.3f} ms ({} B → "
                   "{} B) |\n",
                   store ? "on" : "off", small_runs, median(t), small.size(), view);
    }

    // 100 MB log: throughput and memory.
    const std::size_t big_size = quick ? (20u << 20) : (100u << 20);
    for (bool store : {false, true}) {
        std::vector<double> t;
        std::size_t view = 0;
        {
            const std::string big = bench::plain_log(big_size);
            const core::Config c = config_in(dir + "/big", store);
            core::Request r;
            r.output = big;
            r.exit_code = 1;
            for (int i = 0; i < big_runs; ++i)
                t.push_back(time_ms([&] { view = core::compress(r, c).view.size(); }));
        }
        const double ms = median(t);
        fmt::print("| compress {} MB log, one core, store {} (median of {}) | {:.0f} ms = {:.0f} "
                   "MB/s (view {} B) |\n",
                   big_size >> 20, store ? "on" : "off", big_runs, ms,
                   (double)big_size / 1e6 / (ms / 1000), view);
    }
    const long base_rss = peak_rss_kib([&] {
        volatile auto s = bench::plain_log(big_size);
        (void)s;
    });
    const long rss = peak_rss_kib([&] {
        const std::string big = bench::plain_log(big_size);
        const core::Config c = config_in(dir + "/rss", false);
        core::Request r;
        r.output = big;
        (void)core::compress(r, c);
    });
    fmt::print("| peak RSS compressing {} MB (input held in memory) | {:.0f} MiB; input alone "
               "{:.0f} MiB; ratio to input {:.2f} |\n",
               big_size >> 20, rss / 1024.0, base_rss / 1024.0,
               (double)rss * 1024 / (double)big_size);

    // The CLI end to end, against `cat` of the same file (the process-spawn floor).
    if (!sutra_bin.empty() && !sample.empty()) {
        std::vector<double> cli, cat;
        ::setenv("SUTRA_HOME", (dir + "/cli").c_str(), 1);
        ::setenv("SUTRA_CONFIG", "/nonexistent", 1);
        for (int i = 0; i < (quick ? 20 : 100); ++i) {
            cli.push_back(run_process_ms({sutra_bin, "compress", "--exit-code", "1", sample}));
            cat.push_back(run_process_ms({"/bin/cat", sample}));
        }
        fmt::print("| `sutra compress` of the {} sample, process start to exit (median of {}) | "
                   "{:.2f} ms; `cat` of it {:.2f} ms |\n",
                   sample.substr(sample.rfind('/') + 1), cli.size(), median(cli), median(cat));
    }
    // The Claude hook end to end (process start, module load, compress, store write, the
    // response) on a 60 kB Bash result, against a minimal Python hook that only reads the
    // payload and prints it back: the floor of any hook written in Python.
    if (!host_bin.empty()) {
        const std::string payload_file = dir + "/payload.json";
        const std::string python_hook = dir + "/hook.py";
        {
            std::string log = bench::plain_log(60 * 1000);
            nlohmann::json p = {
                {"session_id", "bench"},
                {"transcript_path", "/nowhere/bench.jsonl"},
                {"cwd", dir},
                {"hook_event_name", "PostToolUse"},
                {"tool_name", "Bash"},
                {"tool_input", {{"command", "make"}}},
                {"tool_response", {{"stdout", log}, {"stderr", ""}, {"interrupted", false}}},
                {"tool_use_id", "toolu_bench"}};
            write_file(payload_file, p.dump());
            write_file(python_hook,
                       "import json, sys\nsys.stdout.write(json.dumps(json.load(sys.stdin)))\n");
        }
        ::setenv("SUTRA_HOME", (dir + "/hook").c_str(), 1);
        ::setenv("SUTRA_CONFIG", "/nonexistent", 1);
        // `cat` of the payload is the spawn floor: no hook process can beat the Python hook by
        // more than python/cat on this machine. The stats-off run shows what the exact token
        // count of each rewrite (stats.count_tokens) costs on the hook path.
        std::vector<double> hook, hook_nostats, python, floor;
        for (int i = 0; i < (quick ? 20 : 100); ++i) {
            hook.push_back(run_process_ms({host_bin, "--adapter", "claude"}, payload_file));
            ::setenv("SUTRA_STATS", "0", 1);
            hook_nostats.push_back(run_process_ms({host_bin, "--adapter", "claude"}, payload_file));
            ::unsetenv("SUTRA_STATS");
            python.push_back(run_process_ms({"/usr/bin/python3", python_hook}, payload_file));
            floor.push_back(run_process_ms({"/bin/cat", payload_file}));
        }
        fmt::print("| Claude hook end to end, `sutra-host --adapter claude`, 60 kB Bash result "
                   "(median of {}) | {:.2f} ms; minimal Python hook {:.2f} ms; {:.1f}x faster |\n",
                   hook.size(), median(hook), median(python), median(python) / median(hook));
        fmt::print("| the same hook with stats off (no token count) | {:.2f} ms; {:.1f}x faster "
                   "than the Python hook |\n",
                   median(hook_nostats), median(python) / median(hook_nostats));
        fmt::print("| spawn floor: `cat` of the payload | {:.2f} ms; the most any hook process can "
                   "be faster than the Python hook here: {:.1f}x |\n",
                   median(floor), median(python) / median(floor));

        // Restore latency: one page of a stored original through the CLI, against `cat`.
        if (!sutra_bin.empty()) {
            core::Config c = config_in(dir + "/hook", true);
            std::string log = bench::plain_log(60 * 1000);
            core::Request r;
            r.output = log;
            r.exit_code = 1;
            auto resp = core::compress(r, c);
            if (resp.id) {
                std::vector<double> restore, cat;
                for (int i = 0; i < (quick ? 20 : 100); ++i) {
                    restore.push_back(
                        run_process_ms({sutra_bin, "restore", *resp.id, "--lines", "100-180"}));
                    cat.push_back(run_process_ms({"/bin/cat", payload_file}));
                }
                fmt::print("| `sutra restore ID --lines 100-180`, process start to exit (median of "
                           "{}) | {:.2f} ms; `cat` {:.2f} ms |\n",
                           restore.size(), median(restore), median(cat));
            }
        }
    }

    std::string rm = "rm -rf '" + dir + "'";
    return std::system(rm.c_str()) == 0 ? 0 : 1;
}
