// Eligibility, fail-open and bad input.

#include "bench/inputs.hpp"
#include "core/compress.hpp"
#include "core/rewrite/shape.hpp"
#include "core/store/store.hpp"
#include "core/store/store_options.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <random>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::core {
namespace {

using test::TempDir;

Response run(const std::string& input, const Config& c, std::optional<int> exit_code = 1) {
    Request req;
    req.output = input;
    req.exit_code = exit_code;
    return compress(req, c);
}

std::string big_log(std::size_t lines) {
    std::string s;
    for (std::size_t i = 0; i < lines; ++i)
        s += "step " + std::to_string(i * 7919 % 10007) + " of the job\n";
    return s;
}

// A uniform listing (grep -rn) with a few lines of another kind: each odd one is in the view,
// and every elided range still restores exactly.
TEST(Compress, OddLinesOutOfAUniformListingStayVisible) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    StoreOptions so;
    so.dir = resolve_store_dir(c);
    const Store store = *Store::open(so);
    std::mt19937 rng(23);
    const char* words[] = {"alpha", "beta", "gamma", "delta", "omega", "sigma"};
    for (int round = 0; round < 40; ++round) {
        std::string listing;
        std::vector<std::string> odd;
        const int lines = 300 + static_cast<int>(rng() % 3000);
        const int planted = 1 + static_cast<int>(rng() % 6);
        for (int i = 0; i < lines; ++i) {
            listing += "src/" + std::string(words[rng() % 6]) + "/module_" + std::to_string(i / 7) +
                       ".py:" + std::to_string(1 + rng() % 900) +
                       ":    # TODO: " + (rng() % 2 ? "tidy " : "rename ") + words[rng() % 6] +
                       " before release\n";
            if (static_cast<int>(odd.size()) < planted && rng() % (lines / planted + 1) == 0) {
                odd.push_back("src/billing/invoice.py:" + std::to_string(i) +
                              ":    # TODO(security" + std::to_string(odd.size()) +
                              "): token logged in plaintext");
                listing += odd.back() + "\n";
            }
        }
        const Response r = run(listing, c, 0);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        for (const auto& line : odd) EXPECT_NE(r.view.find(line), std::string::npos) << line;
        for (const auto& e : r.elisions) {
            auto bytes = store.read(*r.id, e.begin, e.end);
            ASSERT_TRUE(bytes.has_value());
            EXPECT_EQ(*bytes, listing.substr(e.begin, e.end - e.begin));
        }
    }
}

// The store's files other than its key and ledger: entries and temp files.
std::vector<std::string> store_files(const std::string& dir) {
    std::vector<std::string> names;
    if (!std::filesystem::exists(dir)) return names;
    for (const auto& f : std::filesystem::directory_iterator(dir)) {
        const std::string name = f.path().filename().string();
        if (name.starts_with("su_") || name.starts_with("tmp.")) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

// From 256 KiB the original is written to a temp file and hashed on a second thread while the
// rewrite plans: the id is still the store's id of the retained bytes, and the entry restores
// whole, at sizes on both sides of that line and of the per-entry quota; a view not worth
// showing publishes nothing and leaves no temp file, though its write was started.
TEST(Compress, LargeOutputsStoredAsideGetTheStoresId) {
    TempDir dir;
    std::mt19937 rng(77);
    for (int round = 0; round < 10; ++round) {
        Config c = test::test_config(dir.path);
        const std::size_t size = (200u << 10) + rng() % (3u << 20);
        if (round % 3 == 2) c.max_entry_bytes = size / 2 + rng() % (size / 2);
        std::string log;
        for (int i = 0; log.size() < size; ++i)
            log += "GET /api/items/" + std::to_string(i * 7919 % 100003) + " 200 " +
                   std::to_string(i % 977) + "ms\n";
        log += "ERROR: upstream timed out\n";
        const Response r = run(log, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        ASSERT_TRUE(r.id);
        const std::size_t retain = std::min<std::size_t>(log.size(), c.max_entry_bytes);
        EXPECT_EQ(r.retained_bytes, retain);
        auto store = Store::open(store_options(c, ""));
        ASSERT_TRUE(store);
        EXPECT_EQ(*r.id, store->id_for(log.substr(0, retain)));
        EXPECT_EQ(*store->read_all(*r.id), log.substr(0, retain));
        for (const auto& e : r.elisions) {
            if (e.end > retain) continue;
            EXPECT_EQ(*store->read(*r.id, e.begin, e.end), log.substr(e.begin, e.end - e.begin));
        }
        const auto files = store_files(resolve_store_dir(c));
        for (const auto& f : files) EXPECT_FALSE(f.starts_with("tmp.")) << f;
    }

    TempDir other;
    const Config c = test::test_config(other.path);
    std::string random;
    std::mt19937 rng2(1);
    for (int i = 0; random.size() < (2u << 20); ++i)
        random += std::to_string(rng2()) + std::to_string(rng2()) + "\n";
    Config strict = c;
    strict.min_saving_percent = 100; // no view can be worth it
    const Response p = run(random, strict);
    EXPECT_FALSE(p.rewritten);
    EXPECT_EQ(store_files(resolve_store_dir(c)), std::vector<std::string>{});
}

// A write that fails part way on the second thread (here the file-size limit, as a full disk
// would) leaves no temp file behind: the store path writes the bytes again, and when that fails
// too the output passes through whole.
TEST(Compress, AFailedAsideWriteFailsOpen) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string log;
    for (int i = 0; log.size() < (3u << 20); ++i)
        log += "GET /api/items/" + std::to_string(i * 7919 % 100003) + " 200 ms\n";
    log += "ERROR: upstream timed out\n";
    struct rlimit old {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 1u << 20;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const Response r = run(log, c);
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    EXPECT_FALSE(r.rewritten);
    EXPECT_EQ(r.passthrough.rfind("store-failed", 0), 0u) << r.passthrough;
    EXPECT_EQ(view_of(r, log), log);
    EXPECT_EQ(store_files(resolve_store_dir(c)), std::vector<std::string>{});
}

// Under settings that let a large output pass whole as small or as a printed file, the store
// is not even made: nothing is written aside for an output that is shown as it is.
TEST(Compress, LargeOutputsShownWholeStartNoStoreWrite) {
    TempDir dir;
    std::string log;
    for (int i = 0; log.size() < (300u << 10); ++i)
        log += "step " + std::to_string(i * 7919 % 10007) + " of the job\n";
    Config c = test::test_config(dir.path);
    c.min_bytes = 1u << 20;
    const Response small = run(log, c);
    EXPECT_FALSE(small.rewritten);
    EXPECT_EQ(small.passthrough, "small");
    c = test::test_config(dir.path);
    c.max_view_bytes = 1u << 20;
    Request req;
    req.output = log;
    req.command = "cat build/notes.txt";
    req.exit_code = 0;
    const Response printed = compress(req, c);
    EXPECT_FALSE(printed.rewritten);
    EXPECT_EQ(printed.passthrough, "printed-file");
    EXPECT_FALSE(std::filesystem::exists(resolve_store_dir(c)));
}

TEST(Compress, SmallOutputsPassThrough) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    const Response r = run("all good\n", c);
    EXPECT_FALSE(r.rewritten);
    EXPECT_EQ(r.passthrough, "small");
    EXPECT_EQ(view_of(r, "all good\n"), "all good\n");
    EXPECT_FALSE(std::filesystem::exists(resolve_store_dir(c))); // nothing stored
}

TEST(Compress, DiffsAreByteIdenticalAtAnySize) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(5);
    for (int round = 0; round < 30; ++round) {
        std::string d =
            round % 2
                ? "commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: A <a@b>\n\n    msg\n\n"
                : "";
        d += "diff --git a/src/f" + std::to_string(round) +
             ".c b/src/f.c\n--- a/src/f.c\n+++ b/src/f.c\n";
        const int hunks = 1 + static_cast<int>(rng() % 50);
        for (int h = 0; h < hunks; ++h) {
            d += "@@ -" + std::to_string(h * 100) + ",60 +" + std::to_string(h * 100) + ",60 @@\n";
            for (int k = 0; k < 60; ++k)
                d += (k % 3 ? " " : (k % 2 ? "-" : "+")) + std::string("\x1b[31mline ") +
                     std::to_string(k) + " error\n";
        }
        if (round % 5 == 0) d = test::random_log(rng, 2000) + d; // a diff inside a log
        const Response r = run(d, c);
        EXPECT_FALSE(r.rewritten);
        EXPECT_EQ(view_of(r, d), d);
    }
}

// rustfmt's diff (`cargo fmt --check`): no `---`/`+++` header and no hunk, only `Diff in
// PATH:LINE:` (older: `Diff in PATH at line N:`) over the changed lines, coloured or not. It is
// a diff all the same, byte-identical at any size, after a log too.
TEST(Compress, FormattersDiffsAreByteIdentical) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(17);
    for (int round = 0; round < 24; ++round) {
        const bool colour = round % 2 == 0, old_header = round % 3 == 0;
        std::string d = round % 4 == 3 ? test::random_log(rng, 1500) : "";
        const int files = 1 + static_cast<int>(rng() % 20);
        for (int f = 0; f < files; ++f) {
            const std::string path = "/work/ws/crate" + std::to_string(f) + "/src/lib.rs";
            const std::string line = std::to_string(1 + rng() % 400);
            d += "Diff in " + path + (old_header ? " at line " + line : ":" + line) + ":\n";
            const int changed = 20 + static_cast<int>(rng() % 200);
            for (int k = 0; k < changed; ++k) {
                const char sign = k % 5 == 4 ? ' ' : (k % 2 ? '+' : '-');
                const std::string body = "pub fn func_" + std::to_string(k % 7) +
                                         "( a:i32,b :i32)->i32{ let  x=a+b ; x }";
                d += colour ? std::string(k % 5 == 4 ? "" : "\x1b[31m") + sign + body +
                                  "\n\x1b(B\x1b[m"
                            : sign + body + "\n";
            }
        }
        SCOPED_TRACE(round);
        ASSERT_GT(d.size(), c.min_bytes);
        const Response r = run(d, c);
        EXPECT_FALSE(r.rewritten);
        EXPECT_EQ(view_of(r, d), d);
    }
}

TEST(Compress, BadInputFailsOpen) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string nul = big_log(3000);
    nul[100] = '\0';
    std::string invalid = big_log(3000);
    invalid[200] = '\xff';
    std::string binary(300000, '\0');
    for (std::size_t i = 0; i < binary.size(); ++i)
        binary[i] = static_cast<char>(i * 2654435761u >> 13);
    for (const std::string& in : {nul, binary, std::string()}) {
        const Response r = run(in, c);
        EXPECT_FALSE(r.rewritten);
        EXPECT_EQ(view_of(r, in), in);
    }
    // A stray invalid byte in text is still text: lines are cut whole, so it survives intact.
    const Response r = run(invalid, c);
    EXPECT_TRUE(r.rewritten);
}

TEST(Compress, HugeSingleLineKeepsEndsAndRestores) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string line = "BEGIN ";
    while (line.size() < 5u << 20) line += "日本語 payload ";
    line += " END\n";
    const Response r = run(line, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    EXPECT_LE(r.view.size(), c.max_view_bytes);
    EXPECT_EQ(r.view.rfind("BEGIN", 0), 0u);
    EXPECT_NE(r.view.find(" END\n"), std::string::npos);
    ASSERT_EQ(r.elisions.size(), 1u);
    EXPECT_EQ(r.elisions[0].reason, Reason::long_line);
    StoreOptions so;
    so.dir = resolve_store_dir(c);
    auto store = Store::open(so);
    ASSERT_TRUE(store);
    auto bytes = store->read(*r.id, r.elisions[0].begin, r.elisions[0].end);
    ASSERT_TRUE(bytes);
    EXPECT_EQ(*bytes, line.substr(r.elisions[0].begin, r.elisions[0].end - r.elisions[0].begin));
}

TEST(Compress, LargeInputWithinLimitsIsBounded) {
    TempDir dir;
    Config c = test::test_config(dir.path);
    c.max_entry_bytes = 256u << 20;
    c.max_total_bytes = 512u << 20;
    // 200 MB (48 MB under the sanitizers, where the plain pass has proved the size).
    const std::size_t size = test::k_sanitized ? 48u << 20 : 200u << 20;
    std::string in;
    in.reserve(size);
    std::size_t i = 0;
    while (in.size() < size) {
        in += "worker " + std::to_string(i % 13) + " handled item " + std::to_string(i) + "\n";
        if (++i == 1234567) in += "ERROR: item 1234567 could not be parsed\n";
    }
    const Response r = run(in, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    EXPECT_LE(r.view.size(), c.max_view_bytes);
    EXPECT_NE(r.view.find("ERROR: item 1234567 could not be parsed"), std::string::npos);
}

// An output larger than the store takes still gets a bounded view (never the whole original):
// the store holds its first max_entry_bytes, every error line is shown wherever it is, a marker
// inside the retained prefix restores exactly, and one reaching past it says it is not retained.
TEST(Compress, OutputsOverTheEntryQuotaGetABoundedView) {
    TempDir dir;
    std::mt19937 rng(41);
    for (int round = 0; round < 12; ++round) {
        Config c = test::test_config(dir.path);
        c.max_entry_bytes = 40000 + rng() % 200000;
        const std::size_t lines = 20000 + rng() % 60000;
        std::string in;
        std::vector<std::string> errors;
        for (std::size_t i = 0; i < lines; ++i) {
            if (rng() % 4000 == 0) {
                errors.push_back("ERROR: shard " + std::to_string(i) + " failed to converge");
                in += errors.back() + "\n";
            }
            in += "step " + std::to_string(i * 7919 % 10007) + " of the job\n";
        }
        ASSERT_GT(in.size(), c.max_entry_bytes);
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_LE(r.view.size(), c.max_view_bytes);
        EXPECT_FALSE(r.retained);
        EXPECT_EQ(r.retained_bytes, c.max_entry_bytes);
        for (const auto& e : errors) EXPECT_NE(r.view.find(e), std::string::npos) << e;
        StoreOptions so;
        so.dir = resolve_store_dir(c);
        so.max_entry_bytes = c.max_entry_bytes;
        const Store store = *Store::open(so);
        ASSERT_TRUE(r.id);
        EXPECT_EQ(*store.read_all(*r.id), in.substr(0, c.max_entry_bytes));
        bool past = false;
        for (const auto& e : r.elisions) {
            if (e.end <= c.max_entry_bytes) {
                EXPECT_EQ(*store.read(*r.id, e.begin, e.end), in.substr(e.begin, e.end - e.begin));
            } else {
                past = true;
            }
        }
        EXPECT_TRUE(past);
        EXPECT_NE(r.view.find("not retained: past the store's per-entry quota of " +
                              std::to_string(c.max_entry_bytes) + " bytes"),
                  std::string::npos);
    }
}

TEST(Compress, StoreFailureMeansPassThrough) {
    TempDir dir;
    Config c = test::test_config(dir.path);
    // The store path is a symlink: refused, so no lossy view may be emitted.
    std::filesystem::create_directory(dir.path + "/real");
    std::filesystem::create_directory_symlink(dir.path + "/real", dir.path + "/store");
    const std::string in = big_log(5000);
    const Response r = run(in, c);
    EXPECT_FALSE(r.rewritten);
    EXPECT_EQ(r.passthrough.rfind("store-failed", 0), 0u) << r.passthrough;
    EXPECT_EQ(view_of(r, in), in);
}

TEST(Compress, ManyScatteredErrorsStillFitTheCeiling) {
    // One line in twenty is an error: the critical lines alone nearly fill the ceiling and each
    // gap costs a marker, so some errors must go inside markers rather than the whole passing.
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string in;
    for (int i = 0; i < 30000; ++i) {
        if (i % 20 == 7)
            in += "\x1b[31mERROR\x1b[0m fetch request " + std::to_string(i) + " failed\n";
        else
            in += "[" + std::to_string(i % 97) + "] build step " + std::to_string(i) + " took " +
                  std::to_string(i % 13) + "ms\n";
    }
    const Response r = run(in, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    EXPECT_LE(r.view.size(), c.max_view_bytes);
    EXPECT_NE(r.view.find("fetch request 7 failed"), std::string::npos);     // the first
    EXPECT_NE(r.view.find("fetch request 29987 failed"), std::string::npos); // the last
}

// Thousands of runs of similar lines: their fold markers alone outgrow the ceiling. The view
// must then give up the folds, not the errors (it once became a single marker over everything).
TEST(Compress, ManyFoldsNeverCrowdOutTheErrors) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const std::size_t size : {std::size_t{2} << 20, std::size_t{5} << 20}) {
        std::vector<std::string> errors;
        const std::string in = bench::runs_log(size, &errors);
        const Response r = run(in, c);
        ASSERT_TRUE(r.rewritten) << r.passthrough;
        EXPECT_LE(r.view.size(), c.max_view_bytes);
        ASSERT_FALSE(errors.empty());
        for (const auto& e : errors) EXPECT_NE(r.view.find(e + "\n"), std::string::npos) << e;
        EXPECT_EQ(r.view.rfind("[0%] Building CXX object src/unit0.cpp.o\n", 0), 0u); // the head
    }
}

TEST(Compress, NeverWorseOnIncompressibleText) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    // Distinct, key-word lines everywhere: nothing is safe to remove.
    std::string in;
    for (int i = 0; i < 300; ++i)
        in += "error: distinct failure number " + std::to_string(i) + " in module m" +
              std::to_string(i * 31) + "\n";
    const Response r = run(in, c);
    EXPECT_FALSE(r.rewritten);
    EXPECT_EQ(view_of(r, in), in);
}

TEST(Compress, ModesScaleTheView) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(3);
    std::string in;
    for (int i = 0; i < 20000; ++i)
        in += "line " + std::to_string(rng()) + " " + std::string(rng() % 40, 'x') + "\n";
    std::size_t last = 0;
    for (Mode m : {Mode::concise, Mode::normal, Mode::verbose, Mode::full}) {
        Request req;
        req.output = in;
        req.mode = m;
        const Response r = compress(req, c);
        ASSERT_TRUE(r.rewritten);
        EXPECT_GT(r.view.size(), last) << to_string(m);
        EXPECT_LE(r.view.size(), c.max_view_bytes);
        last = r.view.size();
    }
    // auto: a failing command gets a larger window than a successful one.
    EXPECT_LT(run(in, c, 0).view.size(), run(in, c, 2).view.size());
}

TEST(Compress, McpRouteSpellsTheToolCall) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    Request req;
    const std::string in = big_log(5000);
    req.output = in;
    req.route.kind = RestoreRoute::Kind::mcp;
    req.route.tool = "mcp__sutra__sutra_restore";
    const Response r = compress(req, c);
    ASSERT_TRUE(r.rewritten);
    EXPECT_NE(r.view.find("mcp__sutra__sutra_restore(id=\"" + *r.id + "\", mode=\"lines\""),
              std::string::npos);
}

TEST(Compress, NamespacesAreSeparateStores) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    Request req;
    const std::string in = big_log(5000);
    req.output = in;
    req.store_namespace = "profile-a";
    const Response r = compress(req, c);
    ASSERT_TRUE(r.rewritten);
    EXPECT_TRUE(std::filesystem::exists(resolve_store_dir(c) + "/ns/profile-a/" + *r.id + ".data"));
    req.store_namespace = "../escape";
    EXPECT_FALSE(compress(req, c).rewritten);
}

} // namespace

// Small outputs pass through byte for byte: an agent that runs `cat` on a 6 KB file or a short
// `git log` reads all of it (issue 15, item 9).
TEST(Compress, OutputsUnderEightKiBPassThroughWhole) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string source;
    for (int i = 0; source.size() < 6000; ++i)
        source += "    total_" + std::to_string(i) + " = compute(values[" + std::to_string(i) +
                  "], weight)\n";
    Request req;
    req.output = source;
    req.command = "cat src/big.py";
    const Response r = compress(req, c);
    EXPECT_FALSE(r.rewritten) << r.view;
    EXPECT_EQ(r.passthrough, "small");
}

// A file's own contents (code, configuration) is never folded as "similar lines": each line
// of code is meant. Only an oversized middle may go, and it restores exactly.
TEST(Compress, AFileShownByCatIsNeverFoldedAsSimilarLines) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::string source;
    for (int i = 0; i < 1200; ++i)
        source += "    total_" + std::to_string(i) + " = compute(values[" + std::to_string(i) +
                  "], weight)\n";
    for (const char* command : {"cat src/big.py", "head -n 2000 src/big.py",
                                "sed -n 1,2000p src/big.py", "/bin/cat ./a/b/config.toml"}) {
        Request req;
        req.output = source;
        req.command = command;
        const Response r = compress(req, c);
        for (const auto& e : r.elisions) EXPECT_NE(e.reason, Reason::similar_lines) << command;
        EXPECT_EQ(r.view.find("similar lines"), std::string::npos) << command;
    }
    // The same lines from a program's own output still fold.
    Request log;
    log.output = source;
    log.command = "python3 run.py";
    const Response folded = compress(log, c);
    EXPECT_NE(folded.view.find("similar lines"), std::string::npos);
}

TEST(Shape, ShowsFileContentsKnowsFilePrintersAndSourceFiles) {
    for (const char* yes : {"cat src/a.py", "cat -n x.cpp", "head -n 40 lib/x.ts", "tail -20 a.go",
                            "sed -n 10,80p src/main.rs", "sed -n '10,80p' Makefile",
                            "bat config.toml", "cat a.h b.h", "/usr/bin/cat CMakeLists.txt"})
        EXPECT_TRUE(shows_file_contents(yes)) << yes;
    for (const char* no :
         {"cat build.log", "cat a.py | grep x", "python3 a.py", "tail -f server.out",
          "cat a.py && make", "cat $(ls)", "grep -rn x .", "head -n 40 data.csv", ""})
        EXPECT_FALSE(shows_file_contents(no)) << no;
}

} // namespace sutra::core
