// Faults found by an attack run on the store (issue 14): ids handed out for entries their own
// sweep removed, limits that overflow or contradict each other, a stats log written where the
// store was refused, and a restore that made a namespace as a side effect.
#include "core/compress.hpp"
#include "core/config.hpp"
#include "core/restore.hpp"
#include "core/stats.hpp"
#include "core/store/store.hpp"
#include "core/store/store_options.hpp"
#include "tests/test_util.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::core {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class TempDir {
public:
    TempDir() {
        char pattern[] = "/tmp/sutra-store-faults.XXXXXX";
        const char* made = ::mkdtemp(pattern);
        EXPECT_NE(made, nullptr);
        path = made ? made : "";
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string path;
};

// A log of `lines` distinct lines that compresses (repeats and similar runs), unique per seed.
std::string foldable_log(int seed, std::size_t lines) {
    std::string out;
    for (std::size_t i = 0; i < lines; ++i)
        out += "[build " + std::to_string(seed) + "] compiling unit " + std::to_string(i % 50) +
               " of target_" + std::to_string(seed) + " ... ok\n";
    out += "error: run " + std::to_string(seed) + " failed\n";
    return out;
}

std::string restore_all(const Config& config, const std::string& id) {
    RestoreRequest req;
    req.query.id = id;
    req.all = true;
    auto r = restore(req, config);
    return r ? r->result.text : "restore failed: " + r.error().message;
}

// Item 1: under tiny quotas, every id a compress hands out (and calls retained) restores, in
// the same second as its neighbours (whole-second ties were what let a put evict itself).
TEST(StoreFaults, EveryHandedOutIdRestoresUnderTinyQuotas) {
    for (std::uint64_t max_entries = 1; max_entries <= 3; ++max_entries) {
        TempDir tmp;
        Config config = test::test_config(tmp.path);
        config.max_entries = max_entries;
        for (int run = 0; run < 40; ++run) {
            const std::string original = foldable_log(run, 400);
            Request req;
            req.output = original;
            req.command = "make";
            const Response r = compress(req, config);
            ASSERT_TRUE(r.rewritten) << r.passthrough;
            ASSERT_TRUE(r.retained && r.id) << "run " << run;
            EXPECT_EQ(restore_all(config, *r.id), original)
                << "max_entries " << max_entries << ", run " << run;
        }
    }
}

TEST(StoreFaults, EveryHandedOutIdRestoresUnderATinyByteQuota) {
    TempDir tmp;
    Config config = test::test_config(tmp.path);
    config.max_entry_bytes = 40000;
    config.max_total_bytes = 60000; // room for one or two entries of 20-35 KB
    std::mt19937 rng(7);
    for (int run = 0; run < 40; ++run) {
        const std::string original = foldable_log(run, 300 + rng() % 200);
        ASSERT_LE(original.size(), config.max_entry_bytes);
        Request req;
        req.output = original;
        const Response r = compress(req, config);
        ASSERT_TRUE(r.rewritten && r.retained && r.id) << r.passthrough;
        EXPECT_EQ(restore_all(config, *r.id), original) << "run " << run;
    }
}

TEST(StoreFaults, APutIsNeverItsOwnSweepsVictim) {
    TempDir tmp;
    StoreOptions o;
    o.dir = tmp.path + "/store";
    o.clock = [] { return std::int64_t{1'700'000'000}; }; // every put in one second
    o.test.sweep_every_128_writes = false;
    for (std::uint64_t max_entries = 1; max_entries <= 3; ++max_entries) {
        o.max_entries = max_entries;
        auto store = Store::open(o);
        ASSERT_TRUE(store);
        for (int i = 0; i < 60; ++i) {
            const std::string content =
                "entry " + std::to_string(max_entries) + "/" + std::to_string(i);
            auto id = store->put(content);
            ASSERT_TRUE(id) << id.error().message;
            auto back = store->read_all(*id);
            ASSERT_TRUE(back) << "put " << i << " of " << max_entries << ": "
                              << back.error().message;
            EXPECT_EQ(*back, content);
        }
    }
}

TEST(StoreFaults, AnEntryThatCannotFitTheStoreIsRefusedNotHandedOut) {
    TempDir tmp;
    StoreOptions o;
    o.dir = tmp.path + "/store";
    o.max_entry_bytes = 10000;
    o.max_total_bytes = 1000; // a contradiction config refuses; the store must still hold
    auto store = Store::open(o);
    ASSERT_TRUE(store);
    auto id = store->put(std::string(5000, 'x'));
    ASSERT_FALSE(id);
    EXPECT_EQ(id.error().code, StoreErrc::too_large);
    for (const auto& e : fs::directory_iterator(o.dir))
        EXPECT_FALSE(e.path().filename().string().ends_with(".data")) << e.path();
}

// Item 1: nonsensical limits are config errors that say what to fix.
TEST(StoreFaults, ContradictoryLimitsAreConfigErrors) {
    auto c = load_config_from("[store]\nmax_total_bytes = 100000\n", "/cfg.toml", {});
    ASSERT_FALSE(c);
    EXPECT_THAT(c.error(), HasSubstr("store.max_total_bytes (100000, /cfg.toml:2)"));
    EXPECT_THAT(c.error(), HasSubstr("at least store.max_entry_bytes (33554432, default)"));
    EXPECT_TRUE(load_config_from("[store]\nmax_total_bytes = 100000\nmax_entry_bytes = 100000\n",
                                 "/cfg.toml", {}));
    for (const char* zero : {"max_entries = 0", "max_total_bytes = 0", "max_entry_bytes = 0",
                             "ttl_seconds = 0", "max_entries = -3"}) {
        auto z = load_config_from(std::string("[store]\n") + zero + "\n", "/cfg.toml", {});
        EXPECT_FALSE(z) << zero;
    }
}

// Item 2: every duration and size is bounded, from the file and from the environment.
TEST(StoreFaults, ExtremeDurationsAndSizesAreRefusedWithTheirRange) {
    const std::string max = std::to_string(std::numeric_limits<std::int64_t>::max());
    auto env = load_config_from("", "/cfg.toml", {{"SUTRA_TTL_SECONDS", max}});
    ASSERT_FALSE(env);
    EXPECT_THAT(env.error(), HasSubstr("env SUTRA_TTL_SECONDS"));
    EXPECT_THAT(env.error(), HasSubstr("store.ttl_seconds must be between 1 and 315360000"));
    EXPECT_FALSE(load_config_from("", "/cfg.toml", {{"SUTRA_TTL_SECONDS", "-1"}}));
    EXPECT_FALSE(load_config_from("", "/cfg.toml", {{"SUTRA_TTL_SECONDS", max + "0"}}));
    EXPECT_FALSE(load_config_from("", "/cfg.toml", {{"SUTRA_MIN_BYTES", max}}));
    EXPECT_FALSE(load_config_from("", "/cfg.toml", {{"SUTRA_MAX_VIEW_BYTES", max}}));
    for (const char* setting :
         {"compress.min_bytes", "compress.min_lines", "compress.max_view_bytes",
          "compress.max_input_bytes", "store.max_entry_bytes", "store.max_total_bytes",
          "store.max_entries", "store.ttl_seconds", "stats.max_bytes"}) {
        const std::string_view name(setting);
        const auto dot = name.find('.');
        const std::string text = "[" + std::string(name.substr(0, dot)) + "]\n" +
                                 std::string(name.substr(dot + 1)) + " = " + max + "\n";
        auto c = load_config_from(text, "/cfg.toml", {});
        ASSERT_FALSE(c) << setting;
        EXPECT_THAT(c.error(), HasSubstr(std::string(setting) + " must be between")) << setting;
    }
    auto ok = load_config_from("", "/cfg.toml", {{"SUTRA_TTL_SECONDS", "315360000"}});
    ASSERT_TRUE(ok);
    EXPECT_EQ(ok->ttl_seconds, 315360000);
}

// Item 2: the store's own arithmetic saturates, for options that bypass the config's bounds.
TEST(StoreFaults, AHugeTtlSaturatesAndTheEntryLives) {
    TempDir tmp;
    StoreOptions o;
    o.dir = tmp.path + "/store";
    o.ttl_seconds = std::numeric_limits<std::int64_t>::max();
    auto store = Store::open(o);
    ASSERT_TRUE(store);
    auto id = store->put("kept for a very long time");
    ASSERT_TRUE(id);
    store->sweep();
    auto info = store->info(*id);
    ASSERT_TRUE(info) << info.error().message;
    EXPECT_EQ(info->expires, std::numeric_limits<std::int64_t>::max());
    auto back = store->read_all(*id);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, "kept for a very long time");
}

// Item 7: the stats log passes the store's directory checks; nothing is appended where the
// store was refused.
TEST(StoreFaults, NoStatsWhereTheStoreIsASymlink) {
    TempDir tmp;
    const std::string target = tmp.path + "/elsewhere";
    ASSERT_EQ(::mkdir(target.c_str(), 0700), 0);
    test::write_file(target + "/stats.jsonl", "");
    ASSERT_EQ(::symlink(target.c_str(), (tmp.path + "/store").c_str()), 0);
    Config config = test::test_config(tmp.path);
    config.stats_enabled = true;
    const std::string original = foldable_log(1, 400);
    Request req;
    req.output = original;
    req.command = "make";
    const Response r = compress(req, config);
    EXPECT_FALSE(r.rewritten);
    EXPECT_EQ(r.passthrough.substr(0, 5), "store");
    log_restore(config, "ok");
    EXPECT_EQ(test::read_file(target + "/stats.jsonl"), "");
    EXPECT_EQ(std::distance(fs::directory_iterator(target), fs::directory_iterator()), 1);

    // Nor is a log behind the link read into the report.
    test::write_file(target + "/stats.jsonl",
                     R"({"event":"rewrite","tool":"Planted","bytes_in":10,"bytes_out":5})"
                     "\n");
    const std::string report = stats_report(config, false);
    EXPECT_THAT(report, HasSubstr("stats not read"));
    EXPECT_THAT(report, HasSubstr("refusing to use it"));
    EXPECT_THAT(report, ::testing::Not(HasSubstr("Planted")));
}

TEST(StoreFaults, NoStatsInAnotherUsersOpenDirectory) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown a directory to another user";
    TempDir tmp;
    const std::string store = tmp.path + "/store";
    ASSERT_EQ(::mkdir(store.c_str(), 0777), 0);
    ASSERT_EQ(::chmod(store.c_str(), 0777), 0);
    test::write_file(store + "/stats.jsonl", "");
    ASSERT_EQ(::chmod((store + "/stats.jsonl").c_str(), 0666), 0);
    ASSERT_EQ(::chown((store + "/stats.jsonl").c_str(), 65534, 65534), 0);
    ASSERT_EQ(::chown(store.c_str(), 65534, 65534), 0);
    Config config = test::test_config(tmp.path);
    config.stats_enabled = true;
    const std::string original = foldable_log(2, 400);
    Request req;
    req.output = original;
    const Response r = compress(req, config);
    EXPECT_FALSE(r.rewritten);
    EXPECT_EQ(r.passthrough.substr(0, 5), "store");
    log_restore(config, "ok");
    EXPECT_EQ(test::read_file(store + "/stats.jsonl"), "");

    // The same file in a directory that has become ours (a 0777 folder chowned back): the other
    // user's pre-made log still gets nothing.
    ASSERT_EQ(::chown(store.c_str(), 0, 0), 0);
    log_rewrite(config, RewriteRecord{});
    EXPECT_EQ(test::read_file(store + "/stats.jsonl"), "");
}

// Item 11b: a restore is a read; it makes no namespace, store or key.
TEST(StoreFaults, RestoreInAMissingNamespaceCreatesNothing) {
    TempDir tmp;
    Config config = test::test_config(tmp.path);
    config.stats_enabled = true;
    Request req;
    const std::string original = foldable_log(3, 400);
    req.output = original;
    ASSERT_TRUE(compress(req, config).retained); // the default store exists

    RestoreRequest rr;
    rr.query.id = "su_" + std::string(32, 'a');
    rr.route.store_namespace = "never-written";
    auto r = restore(rr, config);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, RestoreError::Code::not_found);
    EXPECT_FALSE(fs::exists(config.store_dir + "/ns"));

    // And in a home with no store at all: nothing at all is made.
    TempDir empty;
    Config fresh = test::test_config(empty.path);
    fresh.stats_enabled = true;
    rr.route.store_namespace.clear();
    auto none = restore(rr, fresh);
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, RestoreError::Code::not_found);
    EXPECT_FALSE(fs::exists(fresh.store_dir));
}

TEST(StoreFaults, OpenExistingCreatesNoKey) {
    TempDir tmp;
    StoreOptions o;
    o.dir = tmp.path + "/store";
    auto missing = Store::open_existing(o);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, StoreErrc::not_found);
    EXPECT_FALSE(fs::exists(o.dir));
    ASSERT_EQ(::mkdir(o.dir.c_str(), 0700), 0);
    auto keyless = Store::open_existing(o);
    ASSERT_FALSE(keyless);
    EXPECT_EQ(keyless.error().code, StoreErrc::not_found);
    EXPECT_FALSE(fs::exists(o.dir + "/key"));
}

} // namespace
} // namespace sutra::core
