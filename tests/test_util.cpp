#include "tests/test_util.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

#include <fmt/core.h>

namespace sutra::test {

TempDir::TempDir() {
    std::string tmpl = "/tmp/sutra-test-XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
}

TempDir::~TempDir() {
    std::error_code ec;
    // Tests may leave read-only or 0000 directories behind; make them removable first.
    for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_directory(ec) && !it->is_symlink(ec))
            std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all,
                                         std::filesystem::perm_options::add, ec);
    }
    std::filesystem::remove_all(path, ec);
}

core::Config test_config(const std::string& dir) {
    core::Config c;
    c.store_dir = dir + "/store";
    c.stats_enabled = false;
    c.fsync = false;
    return c;
}

namespace {

std::string pick(std::mt19937& rng, const std::vector<std::string>& options) {
    return options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
}

} // namespace

std::string random_log(std::mt19937& rng, std::size_t lines) {
    std::uniform_int_distribution<int> kind(0, 99);
    std::uniform_int_distribution<int> num(0, 99999);
    const std::vector<std::string> words = {"fetch", "build", "load", "sync", "index", "parse",
                                            "cache", "résumé", "日本", "emoji 👍", "module"};
    std::string out;
    std::size_t i = 0;
    while (i < lines) {
        const int k = kind(rng);
        if (k < 40) {
            out += fmt::format("[{}] {} step {} took {}ms\n", num(rng), pick(rng, words), i, num(rng) % 500);
            ++i;
        } else if (k < 48) {
            // A run of similar lines.
            const int n = 4 + num(rng) % 60;
            for (int t = 0; t < n && i < lines; ++t, ++i)
                out += fmt::format("Downloading /pkg/{}/{}.tar.gz ({} kB)\n", pick(rng, words),
                                   num(rng), num(rng) % 900);
        } else if (k < 54) {
            const int n = 2 + num(rng) % 40;
            const std::string line = fmt::format("retrying connection to db-{}\n", num(rng) % 7);
            for (int t = 0; t < n && i < lines; ++t, ++i) out += line;
        } else if (k < 58) {
            out += fmt::format("ERROR {}: request {} failed with status {}\n", pick(rng, words),
                               num(rng), 500 + num(rng) % 4);
            ++i;
        } else if (k < 61) {
            out += fmt::format("warning: deprecated option --{} used\n", pick(rng, words));
            ++i;
        } else if (k < 66) {
            out += fmt::format("\x1b[32mok\x1b[0m \x1b[1m{}\x1b[0m {}\n", pick(rng, words), num(rng));
            ++i;
        } else if (k < 69) {
            out += fmt::format("progress {}%\rprogress {}%\rprogress 100%\n", num(rng) % 50,
                               50 + num(rng) % 50);
            ++i;
        } else if (k < 71) {
            const std::size_t len = 3000 + static_cast<std::size_t>(num(rng)) % 9000;
            std::string l;
            while (l.size() < len) l += pick(rng, words) + " ";
            out += l + "\n";
            ++i;
        } else if (k < 74) {
            out += "\n";
            ++i;
        } else if (k < 76) {
            // A repeated two-line block, like recursion frames.
            const int n = 3 + num(rng) % 30;
            for (int t = 0; t < n && i + 1 < lines; ++t, i += 2)
                out += "  File \"app.py\", line 12, in walk\n    return walk(node.next)\n";
        } else {
            out += fmt::format("{} {} {}\n", pick(rng, words), pick(rng, words), num(rng));
            ++i;
        }
    }
    if (num(rng) % 3 == 0 && !out.empty()) out.pop_back(); // sometimes no final newline
    return out;
}

std::vector<Fixture> fixtures() {
    std::vector<Fixture> out;
    {
        std::string t = "============================= test session starts ==============================\n"
                        "platform linux -- Python 3.11.7, pytest-8.3.4\ncollected 3000 items\n\n";
        for (int i = 0; i < 3000; ++i)
            t += fmt::format("tests/test_mod{}.py::test_case_{} PASSED [{:3}%]\n", i % 7, i, i / 30);
        t += "=================================== FAILURES ===================================\n"
             "_________________________________ test_total _________________________________\n\n"
             "    def test_total():\n>       assert total([1, 2]) == 4\n"
             "E       assert 3 == 4\n\ntests/test_sum.py:12: AssertionError\n"
             "=========================== short test summary info ============================\n"
             "FAILED tests/test_sum.py::test_total - assert 3 == 4\n"
             "======================== 1 failed, 3000 passed in 9.81s ========================\n";
        out.push_back({"pytest", t, "E       assert 3 == 4"});
    }
    {
        std::string t;
        for (int i = 0; i < 400; ++i)
            t += fmt::format("[ {:2}%] Building CXX object src/CMakeFiles/app.dir/unit{}.cpp.o\n", i / 4, i);
        t += "/home/dev/app/src/parser.cpp:88:17: error: no matching function for call to 'parse(int)'\n"
             "   88 |     auto v = parse(42);\n      |              ~~~~~^~~~\n"
             "/home/dev/app/src/parser.hpp:12:6: note: candidate: 'int parse(const std::string&)'\n";
        for (int i = 400; i < 600; ++i)
            t += fmt::format("[ {:2}%] Building CXX object src/CMakeFiles/app.dir/unit{}.cpp.o\n", i / 6, i);
        t += "make[2]: *** [src/CMakeFiles/app.dir/build.make:76: src/parser.cpp.o] Error 1\n"
             "make: *** [Makefile:136: all] Error 2\n";
        out.push_back({"gcc-build", t, "      |              ~~~~~^~~~"});
    }
    {
        std::string t = "running 900 tests\n";
        for (int i = 0; i < 900; ++i) t += fmt::format("test tests::case_{} ... ok\n", i);
        t += "\nfailures:\n\n---- tests::overflow stdout ----\n"
             "thread 'tests::overflow' panicked at src/lib.rs:44:9:\nattempt to add with overflow\n"
             "\nfailures:\n    tests::overflow\n\ntest result: FAILED. 900 passed; 1 failed; 0 ignored\n";
        out.push_back({"cargo-test", t, "attempt to add with overflow"});
    }
    {
        std::string t = "Traceback (most recent call last):\n";
        for (int i = 0; i < 990; ++i)
            t += "  File \"/srv/app/tree.py\", line 41, in depth\n    return 1 + depth(node.child)\n";
        t += "  [Previous line repeated 996 more times]\nRecursionError: maximum recursion depth exceeded\n";
        out.push_back({"recursion", t, "RecursionError: maximum recursion depth exceeded"});
    }
    {
        std::string t;
        for (int i = 0; i < 2000; ++i)
            t += fmt::format("2026-11-29T10:{:02}:{:02}Z INFO request id=req-{:08x} path=/api/items/{} status=200 dur={}ms\n",
                             i / 60 % 60, i % 60, i * 7919, i, i % 97);
        t.insert(t.size() / 2, "2026-11-29T10:16:40Z INFO worker 3 lost its lease; the job was requeued\n");
        out.push_back({"service-log", t, "worker 3 lost its lease"});
    }
    {
        std::string t = "=== RUN   TestParse\n";
        for (int i = 0; i < 700; ++i) t += fmt::format("=== RUN   TestParse/case_{}\n", i);
        t += "--- FAIL: TestParse (0.02s)\n    --- FAIL: TestParse/case_318 (0.00s)\n"
             "        parse_test.go:57: got \"a,b\", want \"a;b\"\n";
        for (int i = 0; i < 700; ++i) t += fmt::format("    --- PASS: TestParse/case_{} (0.00s)\n", i);
        t += "FAIL\nFAIL\texample.com/parse\t0.412s\n";
        out.push_back({"go-test", t, "parse_test.go:57: got \"a,b\", want \"a;b\""});
    }
    return out;
}

std::string run_command(const std::string& command, int* status) {
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) throw std::runtime_error("popen failed");
    std::string out;
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int rc = ::pclose(p);
    if (status) *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
    return out;
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

void write_file(const std::string& path, const std::string& data) {
    std::ofstream f(path, std::ios::binary);
    f << data;
}

} // namespace sutra::test
