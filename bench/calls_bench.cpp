// What one call of sutra costs as a whole process, beside the floor a process of its kind cannot
// beat, in one run (issue 24's table; docs/benchmark.md, "Session 11: start-up and calls"):
//
//   sutra_calls_bench --sutra BUILD/host/sutra --sutra-host BUILD/bin/sutra-host [--runs N]
//
// Each row runs the command and its floor in turn (A B A B ...), N pairs, and prints the median
// wall time of each and the median of the per-pair ratios, so a drift in the machine's speed
// hits both sides alike. CPU time and peak RSS come from wait4's rusage of the child itself.
// SUTRA_BENCH_KEEP=1 keeps the inputs' folder (named on stderr) to look at a row by hand.

#include "core/config.hpp"
#include "core/store/store.hpp"
#include "core/store/store_options.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <spawn.h>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

struct Run {
    double wall_ms = 0, cpu_ms = 0;
    long peak_kib = 0;
};

double ms(timeval t) {
    return t.tv_sec * 1e3 + t.tv_usec / 1e3;
}

/// argv run to its exit, stdin from `input` (or /dev/null), stdout and stderr to /dev/null.
/// posix_spawn (no copy of this process's memory): a child's peak RSS is then its own.
Run run(const std::vector<std::string>& argv, const std::string& input = "/dev/null") {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, input.c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = -1;
    if (const int err = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
        err != 0) {
        // A figure of a process that never ran would read as 0.00 ms: say so and stop.
        fmt::print(stderr, "sutra_calls_bench: cannot run {}: {}\n", argv[0], std::strerror(err));
        std::exit(2);
    }
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    rusage usage{};
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    Run r;
    r.wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.cpu_ms = ms(usage.ru_utime) + ms(usage.ru_stime);
    r.peak_kib = usage.ru_maxrss;
    return r;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Pair {
    std::vector<double> a_wall, b_wall, a_cpu, ratio;
    std::vector<double> a_peak;
};

/// `a` and its floor `b` in turn, after one warm-up run of each. `before` runs untimed ahead of
/// every run of a (a fresh state for an installer).
Pair pairs(int n,
           const std::vector<std::string>& a,
           const std::string& a_in,
           const std::vector<std::string>& b,
           const std::string& b_in,
           const std::function<void()>& before = {}) {
    Pair p;
    if (before) before();
    run(a, a_in), run(b, b_in);
    for (int i = 0; i < n; ++i) {
        if (before) before();
        const Run ra = run(a, a_in);
        const Run rb = run(b, b_in);
        p.a_wall.push_back(ra.wall_ms);
        p.a_cpu.push_back(ra.cpu_ms);
        p.a_peak.push_back(static_cast<double>(ra.peak_kib));
        p.b_wall.push_back(rb.wall_ms);
        p.ratio.push_back(ra.wall_ms / rb.wall_ms);
    }
    return p;
}

void row(const std::string& what,
         const std::string& floor,
         const Pair& p,
         const std::string& goal) {
    fmt::print(
        "| {} | {:.2f} ms ({:.2f} ms CPU, {:.1f} MiB peak) | {}: {:.2f} ms | {:.2f}x | {} |\n",
        what, median(p.a_wall), median(p.a_cpu), median(p.a_peak) / 1024, floor, median(p.b_wall),
        median(p.ratio), goal);
}

void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

/// A .claude.json in the shape Claude Code writes, `projects` of them with their histories.
std::string claude_json(int projects) {
    nlohmann::ordered_json doc = {
        {"numStartups", 412}, {"theme", "dark"}, {"projects", nlohmann::ordered_json::object()}};
    for (int i = 0; i < projects; ++i) {
        nlohmann::ordered_json history = nlohmann::ordered_json::array();
        for (int h = 0; h < 6; ++h)
            history.push_back(
                {{"display", fmt::format("fix the failing test number {} in module {}", h, i)},
                 {"pastedContents", nlohmann::ordered_json::object()}});
        doc["projects"][fmt::format("/home/dev/src/project-{:04}", i)] = {
            {"allowedTools", nlohmann::ordered_json::array()},
            {"history", history},
            {"mcpContextUris", nlohmann::ordered_json::array()},
            {"mcpServers", nlohmann::ordered_json::object()},
            {"hasTrustDialogAccepted", true},
            {"lastCost", 0.4213},
            {"lastSessionId", fmt::format("{:08x}-1c2d-4e5f-8a9b-{:012x}", i * 7919, i * 104729)}};
    }
    return doc.dump(2);
}

/// A store as a long-used machine has it: the default quotas' 2,000 entries of 60 kB outputs,
/// written through the core's own Store (about a second) into `sutra_home`.
void fill_store(const std::string& sutra_home, const std::string& output) {
    ::setenv("SUTRA_HOME", sutra_home.c_str(), 1);
    const auto config = sutra::core::load_config();
    if (!config) return;
    auto store = sutra::core::Store::open(sutra::core::store_options(*config));
    if (!store) return;
    for (std::uint64_t i = 0; i < config->max_entries; ++i)
        if (!store->put(fmt::format("{}run {}\n", output, i))) return;
}

/// The inputs of every row, as files in `dir`.
/// A 60 kB Bash result: test-runner lines with a failure in them.
std::string test_log() {
    std::string log;
    for (int i = 0; log.size() < 60000; ++i)
        log += i % 97 == 50
                   ? fmt::format("tests/test_orders.py::test_total[{}] FAILED\n", i)
                   : fmt::format("tests/test_orders.py::test_total[{}] PASSED    [{:3}%]\n", i,
                                 i % 100);
    return log;
}

/// `log` as the stdout of a Bash call in a PostToolUse payload.
std::string hook_payload(const std::string& dir, const std::string& log) {
    const nlohmann::json payload = {
        {"session_id", "bench"},
        {"transcript_path", "/nowhere/bench.jsonl"},
        {"cwd", dir},
        {"hook_event_name", "PostToolUse"},
        {"tool_name", "Bash"},
        {"tool_input", {{"command", "pytest"}}},
        {"tool_response", {{"stdout", log}, {"stderr", ""}, {"interrupted", false}}},
        {"tool_use_id", "toolu_bench"}};
    return payload.dump();
}

void make_inputs(const std::string& dir) {
    const std::string log = test_log();
    write_file(dir + "/payload.json", hook_payload(dir, log));
    fill_store(dir + "/full", log);
    write_file(dir + "/small.txt", "sutra 0.1.0\n");
    std::string kb;
    while (kb.size() < 1024) kb += "build step ok: compiled module and linked it\n";
    write_file(dir + "/1kb.txt", kb);
    write_file(dir + "/line4mb.txt", std::string(4u << 20, 'x') + "\n");
    // A 30 MB web-server access log (compress throughput against a line count).
    {
        std::string access;
        access.reserve(31u << 20);
        for (long i = 0; access.size() < 30'000'000; ++i)
            access +=
                fmt::format("10.0.{}.{} - - [02/Dec/2026:13:{:02}:{:02} +0000] \"GET /api/items/{} "
                            "HTTP/1.1\" {} {} \"-\" \"curl/7.88\"\n",
                            i % 200, i % 250, (i / 60) % 60, i % 60, i % 5000,
                            i % 331 == 7 ? 500 : 200, 200 + i % 900);
        write_file(dir + "/access.log", access);
    }

    write_file(dir + "/claude.json", claude_json(8000));
}

} // namespace

int main(int argc, char** argv) {
    std::string sutra, host;
    int n = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--sutra")
            sutra = argv[i + 1];
        else if (flag == "--sutra-host")
            host = argv[i + 1];
        else if (flag == "--runs")
            n = std::max(1, std::atoi(argv[i + 1]));
    }
    if (sutra.empty() || host.empty()) {
        fmt::print(stderr, "usage: sutra_calls_bench --sutra PATH --sutra-host PATH [--runs N]\n");
        return 2;
    }
    char tmpl[] = "/tmp/sutra-calls-XXXXXX";
    const std::string dir = ::mkdtemp(tmpl);
    ::setenv("SUTRA_HOME", (dir + "/home").c_str(), 1);
    ::setenv("SUTRA_CONFIG", "/nonexistent", 1);

    // The inputs are made in a child process: a child's peak RSS (wait4) counts the largest
    // memory of every image it ran, the vfork it started from (this process) included.
    if (const pid_t maker = ::fork(); maker == 0) {
        make_inputs(dir);
        ::_exit(0);
    } else {
        int status = 0;
        ::waitpid(maker, &status, 0);
    }

    fmt::print(
        "| call | sutra | floor | ratio (median of pairs) | goal |\n|---|---|---|---|---|\n");
    row("Claude hook, `sutra-host --adapter claude`, 60 kB PostToolUse payload", "`cat` of it",
        pairs(n, {host, "--adapter", "claude"}, dir + "/payload.json", {"cat"},
              dir + "/payload.json"),
        "≤ 1.5x");
    {
        // Once the store is full, a write that takes it over a quota sweeps it; each sweep reads
        // every entry's metadata, so it must be rare (core/store/store_sweep.cpp).
        // Every call brings a new output, as in use: a re-put of one payload would find its
        // entry already counted.
        ::setenv("SUTRA_HOME", (dir + "/full").c_str(), 1);
        const std::string log = test_log();
        int call = 0;
        const auto next_output = [&] {
            write_file(dir + "/new.json",
                       hook_payload(dir, fmt::format("{}call {}\n", log, ++call)));
        };
        row("Claude hook on a full store (2,000 entries of 60 kB), a new output each call",
            "`cat` of the payload",
            pairs(n, {host, "--adapter", "claude"}, dir + "/new.json", {"cat"}, dir + "/new.json",
                  next_output),
            "as on an empty store");
        ::setenv("SUTRA_HOME", (dir + "/home").c_str(), 1);
    }
    row("`sutra exec -- true`", "`bash -c true`",
        pairs(n, {sutra, "exec", "--", "true"}, "/dev/null", {"bash", "-c", "true"}, "/dev/null"),
        "≤ 1.5x");
    row("`sutra exec --sh true`", "`bash -c true`",
        pairs(n, {sutra, "exec", "--sh", "true"}, "/dev/null", {"bash", "-c", "true"}, "/dev/null"),
        "");
    row("`sutra exec -- cat` of 1 KB", "`cat` of it",
        pairs(n, {sutra, "exec", "--", "cat", dir + "/1kb.txt"}, "/dev/null",
              {"cat", dir + "/1kb.txt"}, "/dev/null"),
        "");
    row("`sutra --version`", "`cat` of a 12-byte file",
        pairs(n, {sutra, "--version"}, "/dev/null", {"cat", dir + "/small.txt"}, "/dev/null"),
        "≤ 1.2x");
    const int heavy = std::max(3, n / 4);
    {
        const Pair p = pairs(heavy, {sutra, "compress"}, dir + "/access.log", {"wc", "-l"},
                             dir + "/access.log");
        row("`sutra compress` of a 30 MB access log", "`wc -l` of it", p, "≤ 5x");
        fmt::print("| (the same, as throughput) | {:.0f} MB/s | | | |\n",
                   30.0 / (median(p.a_wall) / 1e3));
    }
    row("one 4 MB line through `sutra exec -- cat`", "`cat` of it",
        pairs(heavy, {sutra, "exec", "--", "cat", dir + "/line4mb.txt"}, "/dev/null",
              {"cat", dir + "/line4mb.txt"}, "/dev/null"),
        "≤ 0.1 s, ≤ 16 MiB");
    {
        // An 8 MB .claude.json: install (the file copied fresh before each run), floor `cat`.
        const std::string home = dir + "/user";
        const auto size = std::filesystem::file_size(dir + "/claude.json");
        ::mkdir(home.c_str(), 0700);
        const auto fresh = [&] {
            std::filesystem::copy_file(dir + "/claude.json", home + "/.claude.json",
                                       std::filesystem::copy_options::overwrite_existing);
            std::filesystem::remove_all(home + "/.claude");
        };
        ::setenv("HOME", home.c_str(), 1);
        ::unsetenv("CLAUDE_CONFIG_DIR");
        const Pair p = pairs(heavy, {sutra, "install", "--client", "claude"}, "/dev/null",
                             {"cat", home + "/.claude.json"}, "/dev/null", fresh);
        row(fmt::format("`sutra install --client claude`, {:.1f} MB `.claude.json`",
                        static_cast<double>(size) / 1e6),
            "`cat` of it", p, "< 0.5 s, memory ≈ 2x the file");
        // What every hook call then reads: the server registered in that .claude.json.
        row("Claude hook after that install (sutra registered in the 8 MB `.claude.json`)",
            "`cat` of the payload",
            pairs(n, {host, "--adapter", "claude"}, dir + "/payload.json", {"cat"},
                  dir + "/payload.json"),
            "");
    }
    if (!std::getenv("SUTRA_BENCH_KEEP"))
        std::filesystem::remove_all(dir);
    else
        fmt::print(stderr, "kept {}\n", dir);
}
