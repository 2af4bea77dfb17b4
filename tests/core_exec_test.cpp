// The streaming half of `sutra exec`, without processes: the store's streaming writer and the
// streaming planner. Properties over many generated outputs fed in random chunk sizes:
//  - the writer's id equals id_for of the bytes, the entry is exactly the retained prefix, and
//    an aborted writer leaves nothing;
//  - every retained marker's range restores to exactly the bytes it replaced (bytes and lines
//    name the same bytes), every unretained one lies past the retained prefix;
//  - the view is the original with each elided range replaced by its marker, after the
//    core's line cleaning: nothing invented;
//  - the view stays under the ceiling, whatever the output.

#include "core/exec/exec_stream.hpp"
#include "core/restore.hpp"
#include "core/rewrite/classify.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/marker.hpp"
#include "core/rewrite/text_rewrite.hpp"
#include "core/store/store.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <random>
#include <string>
#include <sys/stat.h>

namespace sutra::core {
namespace {

using test::TempDir;

Store open_store(const std::string& dir, std::uint64_t quota = 32ull << 20) {
    StoreOptions so;
    so.dir = dir + "/store";
    so.max_entry_bytes = quota;
    so.max_total_bytes = 1ull << 30;
    auto s = Store::open(so);
    EXPECT_TRUE(s.has_value());
    return *s;
}

std::size_t files_named(const std::string& dir, std::string_view prefix) {
    std::size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().filename().string().starts_with(prefix)) ++n;
    return n;
}

// The core's cleaning, line by line, of a stretch of the original.
std::string cleaned(std::string_view seg) {
    std::string out;
    std::size_t pos = 0;
    while (pos < seg.size()) {
        const std::size_t nl = seg.find('\n', pos);
        const std::size_t end = nl == std::string_view::npos ? seg.size() : nl + 1;
        const std::string_view line = seg.substr(pos, end - pos);
        Noise n;
        out += has_noise(line) ? clean_line(line, n) : std::string(line);
        pos = end;
    }
    return out;
}

void feed_in_chunks(StreamPlanner& p, StoreWriter* w, std::string_view input, std::mt19937& rng) {
    std::uniform_int_distribution<std::size_t> size(1, 70000);
    std::size_t pos = 0;
    while (pos < input.size()) {
        const std::string_view chunk = input.substr(pos, size(rng));
        if (w && w->stopped().empty()) {
            w->append(chunk);
            if (!w->stopped().empty()) p.retention_stops_at(w->retained());
        }
        p.feed(chunk);
        pos += chunk.size();
    }
    p.finish();
}

struct StreamRun {
    StreamView view;
    std::string id;
    std::uint64_t retained = 0;
};

StreamRun plan_and_store(const std::string& input,
                         Store& store,
                         Mode mode,
                         std::mt19937& rng,
                         const std::vector<std::string>& keep = {}) {
    const KeyMatcher keys(keep);
    StreamPlanner planner(keys, text_options(mode, 65536));
    auto writer = store.begin_put();
    EXPECT_TRUE(writer.has_value());
    feed_in_chunks(planner, &*writer, input, rng);
    StreamRun run;
    run.retained = writer->retained();
    const std::string stopped = writer->stopped();
    auto id = writer->commit();
    EXPECT_TRUE(id.has_value());
    run.id = *id;
    MarkerContext ctx;
    ctx.id = run.id;
    ctx.ttl_seconds = 7 * 86400;
    StreamRetention retention;
    retention.retained = run.retained;
    if (!stopped.empty()) retention.why_not = "past the quota";
    run.view = planner.render(ctx, retention);
    EXPECT_EQ(planner.bytes(), input.size());
    return run;
}

// Checks the contract for one streamed run; returns the number of elisions.
std::size_t check_run(const std::string& input, const StreamRun& run, Store& store) {
    const std::string_view original = input;
    const std::string_view entry_expected = original.substr(0, run.retained);
    auto all = store.read_all(run.id);
    EXPECT_TRUE(all.has_value());
    if (all) {
        EXPECT_TRUE(*all == entry_expected) << "entry size " << all->size();
    }
    EXPECT_EQ(store.id_for(entry_expected), run.id);
    const LineIndex entry_lines = index_lines(entry_expected);

    std::string view = run.view.view;
    // The closing notes (key lines inside markers, terminal noise removed) are not original.
    bool stripped = false;
    for (int k = 0; k < 2; ++k) {
        const auto at = view.rfind("\n[sutra: ", view.size() >= 2 ? view.size() - 2 : 0);
        if (at == std::string::npos) break;
        const std::string last = view.substr(at + 1);
        if (last.find("more lines with key words") == std::string::npos &&
            last.find("removed from the lines shown") == std::string::npos)
            break;
        view.resize(at + 1);
        stripped = true;
    }
    // A note after a last line without a newline starts a line of its own.
    if (stripped && !input.empty() && input.back() != '\n' && view.ends_with('\n')) view.pop_back();
    EXPECT_LE(run.view.view.size(), 65536u + 1024);

    MarkerContext ctx;
    ctx.id = run.id;
    ctx.ttl_seconds = 7 * 86400;
    // Retained markers spell the restore call once: the first in full, the later by range.
    std::vector<Elision> retained_ones;
    for (std::size_t i = 0; i < run.view.elisions.size(); ++i)
        if (run.view.retained[i]) retained_ones.push_back(run.view.elisions[i]);
    const std::vector<std::string> texts = text_marker_texts(retained_ones, ctx);
    std::size_t next_retained = 0;
    std::uint64_t orig_pos = 0;
    std::size_t view_pos = 0;
    for (std::size_t i = 0; i < run.view.elisions.size(); ++i) {
        const Elision& e = run.view.elisions[i];
        const bool retained = run.view.retained[i];
        EXPECT_LT(e.begin, e.end);
        EXPECT_LE(e.end, input.size());
        EXPECT_GE(e.begin, orig_pos);
        if (retained) {
            EXPECT_LE(e.end, run.retained);
            auto bytes = store.read(run.id, e.begin, e.end);
            EXPECT_TRUE(bytes.has_value());
            if (bytes) {
                EXPECT_TRUE(*bytes == original.substr(e.begin, e.end - e.begin));
            }
            if (e.reason == Reason::large_output) {
                // The line range names the same bytes in the entry.
                EXPECT_EQ(entry_lines.begin(e.first_line - 1), e.begin);
                EXPECT_EQ(entry_lines.end(e.last_line - 1), e.end);
            }
        } else {
            EXPECT_GE(e.begin, run.retained);
        }
        const std::string marker =
            retained ? texts[next_retained++] : unretained_marker(e, "past the quota");
        const std::size_t at = view.find(marker, view_pos);
        EXPECT_NE(at, std::string::npos) << marker << "\nthe view from here:\n"
                                         << view.substr(view_pos, 1500);
        if (at == std::string::npos) return i;
        EXPECT_TRUE(view.substr(view_pos, at - view_pos) ==
                    cleaned(original.substr(orig_pos, e.begin - orig_pos)))
            << "before elision " << i;
        view_pos = at + marker.size();
        if (e.reason != Reason::long_line && view_pos < view.size() && view[view_pos] == '\n')
            ++view_pos;
        orig_pos = e.end;
    }
    EXPECT_TRUE(view.substr(view_pos) == cleaned(original.substr(orig_pos))) << "after the last";
    return run.view.elisions.size();
}

std::string noisy_output(std::mt19937& rng, std::size_t target) {
    std::uniform_int_distribution<int> kind(0, 99);
    std::uniform_int_distribution<int> num(0, 999999);
    std::string out;
    std::size_t n = 0;
    while (out.size() < target) {
        const int k = kind(rng);
        ++n;
        if (k < 50)
            out +=
                "step " + std::to_string(n) + " processed item " + std::to_string(num(rng)) + "\n";
        else if (k < 55)
            out += "\x1b[31merror\x1b[0m: failed to fetch " + std::to_string(num(rng)) + "\n";
        else if (k < 60)
            out += "progress 10%\rprogress 50%\rprogress 100%\n";
        else if (k < 63)
            out += std::string("bad \xff\xfe utf8 \xc3\n");
        else if (k < 66)
            out += std::string("nul\0byte line\n", 14);
        else if (k < 70)
            out += "    at frame " + std::to_string(num(rng)) + " (src/x.js:1:2)\n";
        else if (k < 72)
            out += std::string(3000 + num(rng) % 9000, 'x') + "\n";
        else if (k < 74)
            out += "\r\n";
        else if (k < 76)
            out += "src/main.c:" + std::to_string(num(rng)) + ":5: warning: unused\n";
        else if (k < 78)
            out += "FAILED tests/test_x.py::test_" + std::to_string(num(rng)) + "\n";
        else if (k < 80)
            out += "déjà vu 日本語 👍 " + std::to_string(num(rng)) + "\n";
        else
            out += "plain line number " + std::to_string(n) + "\n";
    }
    return out;
}

TEST(StoreWriter, IdEqualsIdForAndEntryIsTheBytes) {
    TempDir dir;
    Store store = open_store(dir.path);
    std::mt19937 rng(7);
    for (std::size_t size : {0u, 1u, 100u, 65536u, 1000003u}) {
        std::string bytes(size, '\0');
        for (auto& c : bytes) c = static_cast<char>(rng());
        auto w = store.begin_put();
        ASSERT_TRUE(w.has_value());
        std::size_t pos = 0;
        while (pos < bytes.size()) {
            const std::size_t n = std::min<std::size_t>(bytes.size() - pos, 1 + rng() % 50000);
            EXPECT_TRUE(w->append(std::string_view(bytes).substr(pos, n)));
            pos += n;
        }
        EXPECT_EQ(w->seen(), size);
        EXPECT_EQ(w->retained(), size);
        auto id = w->commit();
        ASSERT_TRUE(id.has_value());
        EXPECT_EQ(*id, store.id_for(bytes));
        auto back = store.read_all(*id);
        ASSERT_TRUE(back.has_value());
        EXPECT_TRUE(*back == bytes);
        struct stat st {};
        ASSERT_EQ(::stat((store.dir() + "/" + *id + ".data").c_str(), &st), 0);
        EXPECT_EQ(st.st_mode & 07777, 0600u);
    }
    EXPECT_EQ(files_named(store.dir(), "tmp."), 0u);
}

TEST(StoreWriter, QuotaKeepsAPrefixAndAbortLeavesNothing) {
    TempDir dir;
    Store store = open_store(dir.path, 1000);
    auto w = store.begin_put();
    ASSERT_TRUE(w.has_value());
    std::string bytes;
    for (int i = 0; i < 300; ++i) bytes += "line " + std::to_string(i) + "\n";
    EXPECT_TRUE(w->append(std::string_view(bytes).substr(0, 600)));
    EXPECT_FALSE(w->append(std::string_view(bytes).substr(600)));
    EXPECT_EQ(w->stopped(), "quota");
    EXPECT_EQ(w->seen(), bytes.size());
    EXPECT_EQ(w->retained(), 1000u);
    auto id = w->commit();
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(*id, store.id_for(bytes.substr(0, 1000)));
    EXPECT_EQ(*store.read_all(*id), bytes.substr(0, 1000));

    {
        auto aborted = store.begin_put();
        ASSERT_TRUE(aborted.has_value());
        aborted->append("never stored");
        EXPECT_EQ(files_named(store.dir(), "tmp.stream."), 1u);
    } // destroyed without commit
    EXPECT_EQ(files_named(store.dir(), "tmp."), 0u);
    EXPECT_EQ(files_named(store.dir(), "su_"), 2u); // the one entry's data and metadata
}

TEST(StoreWriter, SurvivesItsTempFileBeingSweptAway) {
    TempDir dir;
    Store store = open_store(dir.path);
    auto w = store.begin_put();
    ASSERT_TRUE(w.has_value());
    w->append("bytes written before another process's sweep\n");
    // What a sweep does to a temp file it takes for a dead writer's.
    test::run_command("rm -f '" + store.dir() + "'/tmp.stream.*");
    w->append("and after\n");
    auto id = w->commit();
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(*store.read_all(*id), "bytes written before another process's sweep\nand after\n");
}

TEST(StreamPlanner, GeneratedOutputsRestoreExactly) {
    TempDir dir;
    Store store = open_store(dir.path);
    std::mt19937 rng(2026);
    std::size_t elisions = 0;
    for (int round = 0; round < 12; ++round) {
        const Mode mode = std::array{Mode::concise, Mode::normal, Mode::verbose,
                                     Mode::full}[static_cast<std::size_t>(round % 4)];
        const std::string input = noisy_output(rng, 200000 + rng() % 900000);
        const StreamRun run = plan_and_store(input, store, mode, rng);
        elisions += check_run(input, run, store);
        EXPECT_LT(run.view.view.size(), input.size() / 4);
    }
    EXPECT_GT(elisions, 24u);
}

TEST(StreamPlanner, RandomLogsRestoreExactly) {
    TempDir dir;
    Store store = open_store(dir.path);
    std::mt19937 rng(99);
    for (int round = 0; round < 8; ++round) {
        const std::string input = test::random_log(rng, 3000 + rng() % 30000);
        const StreamRun run = plan_and_store(input, store, Mode::normal, rng);
        check_run(input, run, store);
    }
}

TEST(StreamPlanner, OddEndingsAndOneHugeLine) {
    TempDir dir;
    Store store = open_store(dir.path);
    std::mt19937 rng(5);
    std::string five_mb(5u << 20, 'a');
    for (std::size_t i = 0; i < five_mb.size(); i += 977) five_mb[i] = "é\xff\x1b\r"[i % 4];
    const std::vector<std::string> inputs = {
        five_mb,                                           // one 5 MB line, no newline
        "head\n" + five_mb + "\ntail without newline",     // a huge line in the middle
        std::string(300000, '\n'),                         // blank lines only
        noisy_output(rng, 400000) + "no trailing newline", // a partial last line
        "x",                                               // a single byte
        "",                                                // nothing at all
    };
    for (const auto& input : inputs) {
        const StreamRun run = plan_and_store(input, store, Mode::normal, rng);
        check_run(input, run, store);
        EXPECT_LE(run.view.view.size(), 65536u);
    }
}

TEST(StreamPlanner, KeyLinesAreShownFirstAndLastAndTheRestCounted) {
    TempDir dir;
    Store store = open_store(dir.path);
    std::mt19937 rng(11);
    // 200,000 plain lines, an error after every `every`-th, and a verdict.
    const auto log = [](int every, const std::string& verdict) {
        std::string out;
        for (int i = 0; i < 200000; ++i) {
            out += "ok line " + std::to_string(i) + "\n";
            if (i % every == every / 2) out += "error: case " + std::to_string(i) + " broke\n";
        }
        return out + verdict + "\n";
    };
    std::string input = log(1000, "FINAL: 200 failed");
    const StreamRun run = plan_and_store(input, store, Mode::normal, rng);
    check_run(input, run, store);
    const std::string& v = run.view.view;
    // All 200 fit under the ceiling: all are shown (signal first).
    for (int i = 500; i < 200000; i += 1000)
        EXPECT_NE(v.find("error: case " + std::to_string(i) + " broke"), std::string::npos) << i;
    EXPECT_NE(v.find("FINAL: 200 failed"), std::string::npos);
    EXPECT_EQ(v.find("more lines with key words"), std::string::npos);
    EXPECT_LE(v.size(), 65536u);
    // Ten times as many do not: the first and the last, and a count of the rest.
    input = log(100, "FINAL: 2000 failed");
    const StreamRun many = plan_and_store(input, store, Mode::normal, rng);
    check_run(input, many, store);
    const std::string& w = many.view.view;
    EXPECT_NE(w.find("error: case 50 broke"), std::string::npos);     // the first error
    EXPECT_NE(w.find("error: case 199950 broke"), std::string::npos); // the last one
    EXPECT_NE(w.find("FINAL: 2000 failed"), std::string::npos);
    EXPECT_NE(w.find("more lines with key words"), std::string::npos);
    EXPECT_LE(w.size(), 65536u);
    // The closing line names the call that lists every error line; it lists all 2000 (and the
    // verdict), the hidden ones included.
    EXPECT_NE(w.find("list the errors: sutra restore " + many.id + " --critical"),
              std::string::npos);
    RestoreQuery q;
    q.id = many.id;
    q.mode = RestoreMode::critical;
    q.max_bytes = 65536;
    std::string listed;
    for (int page = 0; page < 100; ++page) {
        auto r = restore(store, q);
        ASSERT_TRUE(r) << r.error().message;
        listed += r->text;
        if (!r->next_lines) break;
        q.start = r->next_lines->first;
        q.end = r->next_lines->second;
    }
    EXPECT_NE(listed.find(":error: case 100050 broke\n"), std::string::npos);
    EXPECT_EQ(std::count(listed.begin(), listed.end(), '\n'), 2001);
}

TEST(StreamPlanner, KeepPatternsMakeLinesKey) {
    TempDir dir;
    Store store = open_store(dir.path);
    std::mt19937 rng(12);
    std::string input;
    for (int i = 0; i < 100000; ++i) input += "record " + std::to_string(i) + "\n";
    input.insert(input.size() / 2, "checkpoint zebra reached\n");
    const StreamRun plain = plan_and_store(input, store, Mode::normal, rng);
    EXPECT_EQ(plain.view.view.find("zebra"), std::string::npos);
    const StreamRun kept = plan_and_store(input, store, Mode::normal, rng, {"zebra"});
    EXPECT_NE(kept.view.view.find("checkpoint zebra reached"), std::string::npos);
    check_run(input, kept, store);
}

TEST(StreamPlanner, QuotaMarkersStateTheUnretainedBytes) {
    TempDir dir;
    std::mt19937 rng(13);
    for (std::uint64_t quota : {100000ull, 123457ull, 5ull << 20}) {
        Store store = open_store(dir.path, quota);
        std::string input = noisy_output(rng, 3u << 20);
        if (quota == (5ull << 20)) input = std::string(8u << 20, 'z'); // cut inside one line
        const StreamRun run = plan_and_store(input, store, Mode::normal, rng);
        EXPECT_EQ(run.retained, quota);
        check_run(input, run, store);
        bool lost = false;
        for (std::size_t i = 0; i < run.view.elisions.size(); ++i)
            if (!run.view.retained[i]) {
                lost = true;
                EXPECT_GE(run.view.elisions[i].begin, quota);
            }
        EXPECT_TRUE(lost);
        // The elided stretch the boundary falls in is split there: restorable up to it.
        bool split = false;
        for (std::size_t i = 0; i < run.view.elisions.size(); ++i)
            split |= run.view.retained[i] && run.view.elisions[i].end == quota;
        EXPECT_TRUE(split);
        EXPECT_NE(run.view.view.find("not retained: past the quota"), std::string::npos);
        EXPECT_NE(run.view.view.find(std::to_string(quota) + "-"), std::string::npos);
    }
}

TEST(StreamPlanner, StoreOffSaysNotRetained) {
    std::mt19937 rng(14);
    const std::string input = noisy_output(rng, 500000);
    const KeyMatcher keys;
    StreamPlanner planner(keys, text_options(Mode::normal, 65536));
    feed_in_chunks(planner, nullptr, input, rng);
    MarkerContext ctx;
    ctx.store_disabled = true;
    StreamRetention all;
    all.retained = UINT64_MAX;
    const StreamView v = planner.render(ctx, all);
    EXPECT_FALSE(v.elisions.empty());
    EXPECT_NE(v.view.find("not retained (store off)"), std::string::npos);
    EXPECT_EQ(v.view.find("restore:"), std::string::npos);
}

TEST(StreamPlanner, SameBytesSameViewWhateverTheChunks) {
    TempDir dir;
    Store store = open_store(dir.path);
    std::mt19937 data_rng(15);
    const std::string input = noisy_output(data_rng, 700000);
    std::mt19937 a(1), b(2);
    const StreamRun one = plan_and_store(input, store, Mode::normal, a);
    const StreamRun two = plan_and_store(input, store, Mode::normal, b);
    EXPECT_EQ(one.id, two.id);
    EXPECT_TRUE(one.view.view == two.view.view);
}

// Issue 15 item 9: the streaming path is signal first, as compress is.

// Feeds `input` to a planner under `ceiling`, with the store holding everything, and renders.
StreamView plan_only(const std::string& input, const TextOptions& options, std::mt19937& rng) {
    const KeyMatcher keys;
    StreamPlanner planner(keys, options);
    feed_in_chunks(planner, nullptr, input, rng);
    MarkerContext ctx;
    ctx.id = k_placeholder_id;
    ctx.ttl_seconds = 7 * 86400;
    StreamRetention all;
    all.retained = UINT64_MAX;
    return planner.render(ctx, all);
}

StreamView plan_only(const std::string& input, std::uint64_t ceiling, std::mt19937& rng) {
    return plan_only(input, text_options(Mode::normal, ceiling), rng);
}

std::size_t occurrences(std::string_view text, std::string_view what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// 22 MB with 9 errors spread through it: all 9 fit under an 8 KiB ceiling, so all 9 are shown.
TEST(StreamPlanner, EveryCriticalLineThatFitsIsShown) {
    std::mt19937 rng(21);
    std::string input;
    input.reserve(23u << 20);
    const std::size_t lines = 460000;
    for (std::size_t i = 0; i < lines; ++i) {
        if (i % (lines / 9) == lines / 18)
            input += "ERROR job " + std::to_string(i) + " failed: connection reset by peer\n";
        else
            input += "INFO worker " + std::to_string(i % 97) + " processed batch " +
                     std::to_string(i) + " in " + std::to_string(i * 7 % 1000) + " ms\n";
    }
    ASSERT_GT(input.size(), 20u << 20);
    const StreamView v = plan_only(input, 8192, rng);
    EXPECT_EQ(occurrences(v.view, "ERROR job "), 9u) << v.view;
    EXPECT_EQ(v.key_lines_elided, 0u);
    EXPECT_LE(v.view.size(), 8192u);
}

// The streaming planner applies the message rule of core/rewrite/block_rules.hpp too: a panic's
// message on the line below its `panicked at PLACE:` is critical, so it is shown with its panic
// even where no context is shown.
TEST(StreamPlanner, AnAnnouncedMessageIsShownWithItsError) {
    std::mt19937 rng(23);
    std::string input;
    std::vector<std::string> messages;
    const std::size_t lines = 400000;
    for (std::size_t i = 0; i < lines; ++i) {
        if (i % (lines / 12) == lines / 24) {
            messages.push_back("index out of bounds: the len is 0 but the index is " +
                               std::to_string(i));
            input += "thread 'case_" + std::to_string(i) +
                     "' panicked at src/lib.rs:" + std::to_string(i % 500) + ":9:\n" +
                     messages.back() + "\n";
        } else {
            input += "INFO worker " + std::to_string(i % 97) + " processed batch " +
                     std::to_string(i) + "\n";
        }
    }
    ASSERT_GT(input.size(), 12u << 20);
    // No context lines: a message is shown only as a critical line of its own.
    TextOptions options = text_options(Mode::normal, 16384);
    options.context_before = options.context_after = 0;
    const StreamView v = plan_only(input, options, rng);
    ASSERT_EQ(messages.size(), 12u);
    for (const auto& m : messages) EXPECT_EQ(occurrences(v.view, m + "\n"), 1u) << m;
    EXPECT_EQ(v.key_lines_elided, 0u);
}

// And its detail rule: psql's `DETAIL:` under an `ERROR:` is critical, shown with its error even
// where no context is shown; a log's `INFO:` lines after an error are no details of it.
TEST(StreamPlanner, AnErrorsDetailsAreShownWithIt) {
    std::mt19937 rng(29);
    std::string input;
    std::vector<std::string> details;
    const std::size_t lines = 400000;
    for (std::size_t i = 0; i < lines; ++i) {
        if (i % (lines / 12) == lines / 24) {
            details.push_back("DETAIL:  Key (id)=(" + std::to_string(i) + ") already exists.");
            input += "psql:load.sql:" + std::to_string(i) +
                     ": ERROR:  duplicate key value violates unique constraint \"orders_pkey\"\n" +
                     details.back() + "\nINFO:  after " + std::to_string(i) + "\n";
        } else {
            input += "INSERT 0 1\n";
        }
    }
    TextOptions options = text_options(Mode::normal, 16384);
    options.context_before = options.context_after = 0;
    const StreamView v = plan_only(input, options, rng);
    ASSERT_EQ(details.size(), 12u);
    for (const auto& d : details) EXPECT_EQ(occurrences(v.view, d + "\n"), 1u) << d;
    EXPECT_EQ(occurrences(v.view, "INFO:  after "), 0u) << v.view;
    EXPECT_EQ(v.key_lines_elided, 0u);
}

// A build with twenty thousand located warnings and a few errors among them: the warnings are
// thinned first, so every error is shown (none was, before), in the reservoir and in the view;
// with more errors than fit, the errors take the room and are spread evenly.
TEST(StreamPlanner, ErrorsAreShownBeforeWarningsWhenNotAllFit) {
    std::mt19937 rng(31);
    for (const std::size_t error_count : {3u, 7u, 4000u}) {
        std::string input;
        std::vector<std::string> errors;
        const std::size_t lines = 40000;
        std::vector<bool> is_error(lines, false);
        for (std::size_t k = 0; k < error_count; ++k) is_error[rng() % lines] = true;
        for (std::size_t i = 0; i < lines; ++i) {
            const std::string place =
                "src/mod" + std::to_string(i % 300) + ".c:" + std::to_string(i % 900 + 1);
            if (is_error[i]) {
                errors.push_back(place + ":5: error: 'undeclared_" + std::to_string(i) +
                                 "' undeclared (first use in this function)");
                input += errors.back() + "\n";
            } else {
                input += place + ":12: warning: unused variable 'tmp" + std::to_string(i) +
                         "' [-Wunused-variable]\n";
            }
            input += "  " + std::to_string(i % 900 + 1) + " |     int tmp = compute(" +
                     std::to_string(i) + ");\n      |            ^~~~\n";
        }
        input += "make: *** [Makefile:12: all] Error 1\n";
        ASSERT_GT(input.size(), 4u << 20);
        const StreamView v = plan_only(input, 65536, rng);
        EXPECT_LE(v.view.size(), 65536u);
        std::size_t shown = 0;
        for (const auto& e : errors) shown += occurrences(v.view, e + "\n") > 0;
        if (errors.size() < 100) {
            EXPECT_EQ(shown, errors.size()) << error_count;
        } else {
            // More than fit: the room goes to errors, none to warnings, first and last shown.
            EXPECT_GT(shown, 100u) << error_count;
            EXPECT_EQ(occurrences(v.view, ": warning: "), 0u) << error_count;
            EXPECT_EQ(occurrences(v.view, errors.front() + "\n"), 1u);
            EXPECT_EQ(occurrences(v.view, errors.back() + "\n"), 1u);
        }
    }
}

// And its place rule: rustc's `  --> src/main.rs:N:19` under each identical `error[E0308]:
// mismatched types` is the error's, critical, so among 45,000 warnings with places of their own
// every error is shown with its place (1 of 10 was, before: the same header read as a repeat).
TEST(StreamPlanner, AnErrorsPlaceBelowItIsShownWithIt) {
    std::mt19937 rng(37);
    std::string input;
    std::vector<std::string> places;
    for (std::size_t i = 0; i < 45000; ++i) {
        input += "warning: unused variable: `x" + std::to_string(i) + "`\n  --> src/lib" +
                 std::to_string(i % 50) + ".rs:" + std::to_string(i % 700 + 1) + ":9\n   |\n" +
                 std::to_string(i % 700 + 1) +
                 " |     let x = 5;\n   |         ^ help: prefix it\n\n";
        if (i % 4500 == 7) {
            places.push_back("  --> src/main.rs:" + std::to_string(i) + ":19");
            input += "error[E0308]: mismatched types\n" + places.back() +
                     "\n   |\n12 |     let y: u32 = \"s\";\n   |            ^^^ expected `u32`\n\n";
        }
    }
    input += "error: could not compile `bad` due to 10 previous errors; 45000 warnings emitted\n";
    ASSERT_GT(input.size(), 4u << 20);
    const StreamView v = plan_only(input, 65536, rng);
    ASSERT_EQ(places.size(), 10u);
    for (const auto& p : places)
        EXPECT_EQ(occurrences(v.view, "error[E0308]: mismatched types\n" + p + "\n"), 1u) << p;
}

// Far more critical lines than fit: as many as fit, spread evenly over the whole output (the
// first and the last among them), no other line shown but the last one, and one closing line
// counting the rest.
TEST(StreamPlanner, CriticalLinesOverTheCeilingAreSpreadEvenlyAndCounted) {
    std::mt19937 rng(22);
    std::string input;
    const std::size_t errors = 5000;
    for (std::size_t k = 0; k < errors; ++k) {
        for (int j = 0; j < 60; ++j)
            input += "INFO step " + std::to_string(k * 60 + static_cast<std::size_t>(j)) +
                     " went fine\n";
        input += "ERROR case " + std::to_string(k) + " failed\n";
    }
    input += "done: 5000 failed\n";
    for (std::uint64_t ceiling : {8192ull, 65536ull}) {
        const StreamView v = plan_only(input, ceiling, rng);
        EXPECT_LE(v.view.size(), ceiling);
        std::vector<std::size_t> shown;
        for (auto at = v.view.find("ERROR case "); at != std::string::npos;
             at = v.view.find("ERROR case ", at + 1))
            shown.push_back(std::stoul(v.view.substr(at + 11)));
        ASSERT_GT(shown.size(), 10u);
        // The verdict ("failed") is critical too, and shown.
        EXPECT_EQ(shown.size() + v.key_lines_elided, errors);
        EXPECT_EQ(shown.front(), 0u);
        EXPECT_EQ(shown.back(), errors - 1);
        // Evenly: every tenth of the output has its share.
        std::array<std::size_t, 10> per_tenth{};
        for (std::size_t k : shown) ++per_tenth[k * 10 / errors];
        for (std::size_t t = 0; t < 10; ++t)
            EXPECT_GE(per_tenth[t] * 20, shown.size()) << "tenth " << t << " of " << ceiling;
        EXPECT_EQ(occurrences(v.view, "INFO step"), 0u) << "a plain line beside dropped errors";
        EXPECT_NE(v.view.find("done: 5000 failed"), std::string::npos);
        EXPECT_EQ(occurrences(v.view, "more lines with key words"), 1u);
    }
}

// 400 distinct warnings in the middle of a long run fit under the ceiling: all are shown.
TEST(StreamPlanner, NotableLinesThatFitAreShown) {
    std::mt19937 rng(23);
    std::string input;
    for (int i = 0; i < 150000; ++i) input += "info line " + std::to_string(i) + "\n";
    for (int i = 0; i < 400; ++i)
        input += "warning: deprecated call " + std::to_string(i) + " in module_" +
                 std::to_string(i % 37) + ".py\n";
    for (int i = 0; i < 150000; ++i) input += "info line " + std::to_string(i) + "\n";
    const StreamView v = plan_only(input, 65536, rng);
    EXPECT_EQ(occurrences(v.view, "warning: deprecated call"), 400u);
    EXPECT_EQ(v.view.find("similar lines"), std::string::npos);
    EXPECT_LE(v.view.size(), 65536u);
}

} // namespace
} // namespace sutra::core
