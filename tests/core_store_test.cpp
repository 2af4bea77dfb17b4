#include "core/store/store.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using sutra::core::Store;
using sutra::core::StoreErrc;
using sutra::core::StoreOptions;
using sutra::core::valid_id;

class TempDir {
public:
    TempDir() {
        char pattern[] = "/tmp/sutra-store-test.XXXXXX";
        const char* made = ::mkdtemp(pattern);
        EXPECT_NE(made, nullptr);
        m_path = made ? made : "";
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return m_path; }
    std::string operator/(const std::string& name) const { return m_path + "/" + name; }

private:
    std::string m_path;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

mode_t mode_of(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
    return st.st_mode & 07777;
}

bool present(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

std::string random_bytes(std::mt19937_64& rng, std::size_t n) {
    std::string s(n, '\0');
    for (auto& c : s) c = static_cast<char>(rng() & 0xff);
    return s;
}

std::vector<std::string> entry_files(const std::string& dir, const std::string& suffix) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) {
        const auto name = e.path().filename().string();
        if (name.ends_with(suffix)) out.push_back(name);
    }
    return out;
}

struct FakeClock {
    std::shared_ptr<std::int64_t> t = std::make_shared<std::int64_t>(1'700'000'000);
    std::function<std::int64_t()> fn() const {
        auto p = t;
        return [p] { return *p; };
    }
};

StoreOptions options_for(const std::string& dir) {
    StoreOptions o;
    o.dir = dir;
    o.fsync = false; // the tests do not need durability; keep them fast
    return o;
}

Store open_ok(const StoreOptions& o) {
    auto s = Store::open(o);
    EXPECT_TRUE(s.has_value()) << (s ? "" : s.error().message);
    return s ? *s : throw std::runtime_error("store did not open");
}

} // namespace

TEST(StoreIds, ValidIdAcceptsOnlyTheExactForm) {
    EXPECT_TRUE(valid_id("su_0123456789abcdef0123456789abcdef"));
    EXPECT_FALSE(valid_id("su_0123456789ABCDEF0123456789abcdef"));
    EXPECT_FALSE(valid_id("su_0123456789abcdef0123456789abcde"));
    EXPECT_FALSE(valid_id("su_0123456789abcdef0123456789abcdef0"));
    EXPECT_FALSE(valid_id("xx_0123456789abcdef0123456789abcdef"));
    EXPECT_FALSE(valid_id("su_0123456789abcdef0123456789abcdeg"));
    EXPECT_FALSE(valid_id(""));
}

TEST(StoreBasics, RoundTripsManyRandomContents) {
    TempDir tmp;
    Store store = open_ok(options_for(tmp / "store"));
    std::mt19937_64 rng(42);
    std::set<std::string> ids;
    for (int i = 0; i < 150; ++i) {
        const std::size_t size = i == 0 ? 0 : rng() % (i % 10 == 0 ? 70000 : 3000);
        const std::string content = random_bytes(rng, size);
        auto id = store.put(content);
        ASSERT_TRUE(id) << id.error().message;
        EXPECT_TRUE(valid_id(*id)) << *id;
        EXPECT_EQ(*id, store.id_for(content));
        ids.insert(*id);

        auto all = store.read_all(*id);
        ASSERT_TRUE(all) << all.error().message;
        EXPECT_EQ(*all, content);
        auto info = store.info(*id);
        ASSERT_TRUE(info);
        EXPECT_EQ(info->size, content.size());
        EXPECT_GT(info->expires, info->created);

        const std::uint64_t a = size ? rng() % size : 0;
        const std::uint64_t b = a + rng() % 500;
        auto part = store.read(*id, a, b);
        ASSERT_TRUE(part) << part.error().message;
        EXPECT_EQ(*part, content.substr(a, b - a));
    }
    EXPECT_EQ(ids.size(), 150u);
}

TEST(StoreBasics, EmptyContentIsAllowed) {
    TempDir tmp;
    Store store = open_ok(options_for(tmp / "store"));
    auto id = store.put("");
    ASSERT_TRUE(id) << id.error().message;
    auto all = store.read_all(*id);
    ASSERT_TRUE(all);
    EXPECT_EQ(*all, "");
    EXPECT_EQ(store.info(*id)->size, 0u);
}

TEST(StoreBasics, SameContentSameIdOtherStoreOtherId) {
    TempDir tmp;
    Store a = open_ok(options_for(tmp / "a"));
    Store a_again = open_ok(options_for(tmp / "a"));
    Store b = open_ok(options_for(tmp / "b"));
    auto id1 = a.put("hello world\n");
    auto id2 = a.put("hello world\n");
    ASSERT_TRUE(id1 && id2);
    EXPECT_EQ(*id1, *id2);
    EXPECT_EQ(a_again.id_for("hello world\n"), *id1); // the key persists across opens
    EXPECT_NE(b.id_for("hello world\n"), *id1);       // a different key gives a different id
    EXPECT_NE(a.id_for("hello world"), *id1);
    EXPECT_EQ(slurp(tmp / "a/key").size(), 32u);
}

TEST(StoreBasics, RefusesTooLargeAndWritesNothing) {
    TempDir tmp;
    auto o = options_for(tmp / "store");
    o.max_entry_bytes = 10;
    Store store = open_ok(o);
    auto big = store.put("0123456789X");
    ASSERT_FALSE(big);
    EXPECT_EQ(big.error().code, StoreErrc::too_large);
    EXPECT_TRUE(entry_files(tmp / "store", ".data").empty());
    EXPECT_TRUE(store.put("0123456789"));
}

TEST(StoreDirectory, CreatesMissingDirectoriesPrivate) {
    TempDir tmp;
    const std::string dir = tmp / "a/b/c";
    Store store = open_ok(options_for(dir));
    EXPECT_EQ(mode_of(tmp / "a"), 0700u);
    EXPECT_EQ(mode_of(tmp / "a/b"), 0700u);
    EXPECT_EQ(mode_of(dir), 0700u);
    EXPECT_EQ(mode_of(dir + "/key"), 0600u);
}

TEST(StoreDirectory, RefusesASymlink) {
    TempDir tmp;
    ASSERT_EQ(::mkdir((tmp / "real").c_str(), 0700), 0);
    ASSERT_EQ(::symlink((tmp / "real").c_str(), (tmp / "link").c_str()), 0);
    auto s = Store::open(options_for(tmp / "link"));
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, StoreErrc::unsafe);
    EXPECT_NE(s.error().message.find("symlink"), std::string::npos);
    EXPECT_EQ(s.error().message.find('\n'), std::string::npos);
    // A trailing slash would make lstat and O_NOFOLLOW resolve the link; it must not help.
    auto slash = Store::open(options_for(tmp / "link/"));
    ASSERT_FALSE(slash);
    EXPECT_EQ(slash.error().code, StoreErrc::unsafe);
    EXPECT_FALSE(present(tmp / "real/key")); // nothing was written through the link
}

TEST(StoreDirectory, RefusesANonDirectory) {
    TempDir tmp;
    spit(tmp / "file", "x");
    auto s = Store::open(options_for(tmp / "file"));
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, StoreErrc::unsafe);
    EXPECT_EQ(slurp(tmp / "file"), "x");
}

TEST(StoreDirectory, TightensAnExistingOpenDirectory) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
    ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
    ASSERT_EQ(mode_of(dir), 0777u);
    open_ok(options_for(dir));
    EXPECT_EQ(mode_of(dir), 0700u);
}

TEST(StoreDirectory, RefusesAnotherUsersDirectory) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown a directory to another user";
    TempDir tmp;
    const std::string dir = tmp / "store";
    ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
    ASSERT_EQ(::chown(dir.c_str(), 65534, 65534), 0);
    auto s = Store::open(options_for(dir));
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, StoreErrc::unsafe);
    EXPECT_FALSE(present(dir + "/key"));
}

TEST(StoreDirectory, RefusesABadKey) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    open_ok(options_for(dir));
    spit(tmp / "outside", std::string(32, 'k'));
    ASSERT_EQ(::unlink((dir + "/key").c_str()), 0);
    ASSERT_EQ(::symlink((tmp / "outside").c_str(), (dir + "/key").c_str()), 0);
    auto s = Store::open(options_for(dir));
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, StoreErrc::unsafe);

    ASSERT_EQ(::unlink((dir + "/key").c_str()), 0);
    spit(dir + "/key", "short");
    s = Store::open(options_for(dir));
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, StoreErrc::unsafe);
}

TEST(StoreFiles, AreCreatedPrivate) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    Store store = open_ok(options_for(dir));
    ASSERT_TRUE(store.put("some output\n"));
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        EXPECT_EQ(mode_of(e.path().string()), 0600u) << e.path();
        ++files;
    }
    EXPECT_GE(files, 3); // key, data, meta (and the sweep stamp)
}

TEST(StoreFiles, MetadataHoldsNoContent) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    Store store = open_ok(options_for(dir));
    auto id = store.put("SECRET-TOKEN-1234");
    ASSERT_TRUE(id);
    const std::string meta = slurp(dir + "/" + *id + ".meta");
    EXPECT_EQ(meta.find("SECRET"), std::string::npos);
    EXPECT_NE(meta.find("\"size\":17"), std::string::npos) << meta;
}

class StoreSymlinks : public ::testing::TestWithParam<const char*> {};

TEST_P(StoreSymlinks, PlantedEntryLinkIsNotFollowed) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    Store store = open_ok(options_for(dir));
    const std::string content = "tool output that must not leak\n";
    const std::string id = store.id_for(content);
    const std::string victim = tmp / "victim";
    spit(victim, "precious");
    const std::string planted = dir + "/" + id + GetParam();
    ASSERT_EQ(::symlink(victim.c_str(), planted.c_str()), 0);

    auto put = store.put(content);
    EXPECT_EQ(slurp(victim), "precious");
    if (put) {
        struct stat st {};
        ASSERT_EQ(::lstat(planted.c_str(), &st), 0);
        EXPECT_TRUE(S_ISREG(st.st_mode)); // the link itself was replaced
        auto all = store.read_all(id);
        ASSERT_TRUE(all) << all.error().message;
        EXPECT_EQ(*all, content);
    }
    EXPECT_EQ(slurp(victim), "precious");
}

INSTANTIATE_TEST_SUITE_P(StoreEntry, StoreSymlinks, ::testing::Values(".data", ".meta"));

TEST(StoreSymlinksRead, PlantedLinkOnReadIsRefusedAndRemoved) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    Store store = open_ok(options_for(dir));
    auto id = store.put("abc");
    ASSERT_TRUE(id);
    spit(tmp / "victim", "xyz");
    const std::string data = dir + "/" + *id + ".data";
    ASSERT_EQ(::unlink(data.c_str()), 0);
    ASSERT_EQ(::symlink((tmp / "victim").c_str(), data.c_str()), 0);
    auto all = store.read_all(*id);
    ASSERT_FALSE(all);
    EXPECT_EQ(all.error().code, StoreErrc::corrupt);
    EXPECT_FALSE(present(data));
    EXPECT_EQ(slurp(tmp / "victim"), "xyz");
}

TEST(StoreSymlinksTemp, PlantedTempLinkIsNotFollowed) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    Store store = open_ok(options_for(dir));
    const std::string content = "payload";
    const std::string id = store.id_for(content);
    const std::string victim = tmp / "victim";
    spit(victim, "precious");
    // Every temp name the put can pick is planted: it must fail rather than write through.
    auto hooked = options_for(dir);
    hooked.test.temp_suffix = [] { return std::string("0123456789abcdef"); };
    const std::string planted = dir + "/tmp." + id + ".0123456789abcdef";
    ASSERT_EQ(::symlink(victim.c_str(), planted.c_str()), 0);
    auto put = open_ok(hooked).put(content);

    EXPECT_EQ(slurp(victim), "precious");
    ASSERT_FALSE(put);
    EXPECT_EQ(put.error().code, StoreErrc::io);
    EXPECT_FALSE(present(dir + "/" + id + ".data"));
    EXPECT_FALSE(present(dir + "/" + id + ".meta"));

    // With a fresh suffix the same put goes through, and the planted link is left alone.
    auto again = store.put(content);
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(*store.read_all(id), content);
    EXPECT_EQ(slurp(victim), "precious");
}

TEST(StoreHostile, BadIdsAreRefusedBeforeAnyPath) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    Store store = open_ok(options_for(dir));
    spit(tmp / "x", "outside");
    std::string with_nul = "su_0123456789abcdef0123456789abcdef";
    with_nul[10] = '\0';
    const std::vector<std::string> hostile = {
        "../x",
        "su_../../etc",
        "su_../../../../../../../etc/passwd",
        "su_0123456789abcdef/123456789abcdef",
        with_nul,
        "su_0123456789ABCDEF0123456789ABCDEF",
        "su_0123456789abcdef0123456789abcde",
        "su_0123456789abcdef0123456789abcdef0",
        "",
        "key",
        "/etc/passwd",
    };
    for (const auto& id : hostile) {
        auto info = store.info(id);
        ASSERT_FALSE(info);
        EXPECT_EQ(info.error().code, StoreErrc::bad_id);
        auto read = store.read(id, 0, 10);
        ASSERT_FALSE(read);
        EXPECT_EQ(read.error().code, StoreErrc::bad_id);
        auto all = store.read_all(id);
        ASSERT_FALSE(all);
        EXPECT_EQ(all.error().code, StoreErrc::bad_id);
    }
    auto unknown = store.read_all("su_0123456789abcdef0123456789abcdef");
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().code, StoreErrc::not_found);
}

TEST(StoreCorruption, UnparsableMetaIsCorruptAndRemoved) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    Store store = open_ok(options_for(dir));
    auto id = store.put("content\n");
    ASSERT_TRUE(id);
    const std::vector<std::string> bad_metas = {
        "garbage", "{\"v\":1}", "{\"v\":2,\"size\":8,\"created\":1,\"expires\":9}",
        "{\"v\":1,\"size\":-8,\"created\":1,\"expires\":9}", std::string(5000, ' ')};
    for (const auto& bad : bad_metas) {
        ASSERT_TRUE(store.put("content\n"));
        spit(dir + "/" + *id + ".meta", bad);
        auto info = store.info(*id);
        ASSERT_FALSE(info) << bad;
        EXPECT_EQ(info.error().code, StoreErrc::corrupt);
        EXPECT_FALSE(present(dir + "/" + *id + ".meta"));
        EXPECT_FALSE(present(dir + "/" + *id + ".data"));
        EXPECT_EQ(store.info(*id).error().code, StoreErrc::not_found);
    }
}

TEST(StoreCorruption, SizeMismatchIsCorruptAndRemoved) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    Store store = open_ok(options_for(dir));
    auto id = store.put("0123456789");
    ASSERT_TRUE(id);
    ASSERT_EQ(::truncate((dir + "/" + *id + ".data").c_str(), 4), 0);
    auto read = store.read(*id, 0, 2);
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().code, StoreErrc::corrupt);
    EXPECT_FALSE(present(dir + "/" + *id + ".data"));
    EXPECT_FALSE(present(dir + "/" + *id + ".meta"));
}

TEST(StoreCorruption, ChangedContentFailsTheHashCheck) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    Store store = open_ok(options_for(dir));
    auto id = store.put("0123456789");
    ASSERT_TRUE(id);
    spit(dir + "/" + *id + ".data", "0123456780");
    auto all = store.read_all(*id);
    ASSERT_FALSE(all);
    EXPECT_EQ(all.error().code, StoreErrc::corrupt);
    EXPECT_FALSE(present(dir + "/" + *id + ".data"));
    EXPECT_FALSE(present(dir + "/" + *id + ".meta"));
}

TEST(StoreLifetime, ExpiresWithTheClockAndRePutRefreshes) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    o.ttl_seconds = 100;
    o.clock = clock.fn();
    Store store = open_ok(o);
    auto id = store.put("short-lived");
    ASSERT_TRUE(id);
    *clock.t += 60;
    ASSERT_TRUE(store.put("short-lived")); // refreshes: now expires at +160
    *clock.t += 99;
    EXPECT_TRUE(store.read_all(*id));
    *clock.t += 1;
    auto gone = store.read_all(*id);
    ASSERT_FALSE(gone);
    EXPECT_EQ(gone.error().code, StoreErrc::expired);
    EXPECT_FALSE(present(dir + "/" + *id + ".data"));
    EXPECT_EQ(store.info(*id).error().code, StoreErrc::not_found);
}

TEST(StoreQuota, EvictsOldestBeyondMaxEntries) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    // Only the quota check may trigger a sweep here, not the every-128-writes rule.
    o.test.sweep_every_128_writes = false;
    o.max_entries = 5;
    o.clock = clock.fn();
    Store store = open_ok(o);
    std::vector<std::string> ids;
    for (int i = 0; i < 8; ++i) {
        *clock.t += 1;
        auto id = store.put("entry " + std::to_string(i));
        ASSERT_TRUE(id);
        ids.push_back(*id);
        EXPECT_LE(entry_files(dir, ".data").size(), 5u);
    }
    for (int i = 0; i < 8; ++i) {
        auto all = store.read_all(ids[i]);
        if (i < 3) {
            ASSERT_FALSE(all) << i;
            EXPECT_EQ(all.error().code, StoreErrc::not_found);
        } else {
            ASSERT_TRUE(all) << i;
            EXPECT_EQ(*all, "entry " + std::to_string(i));
        }
    }
}

TEST(StoreQuota, EvictsOldestBeyondMaxTotalBytes) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    // Only the quota check may trigger a sweep here, not the every-128-writes rule.
    o.test.sweep_every_128_writes = false;
    o.max_total_bytes = 1000;
    o.clock = clock.fn();
    Store store = open_ok(o);
    std::vector<std::string> ids;
    for (int i = 0; i < 5; ++i) {
        *clock.t += 1;
        auto id = store.put(std::string(300, static_cast<char>('a' + i)));
        ASSERT_TRUE(id);
        ids.push_back(*id);
    }
    // 5 x 300 bytes: the two oldest go, leaving 900 <= 1000.
    EXPECT_EQ(store.info(ids[0]).error().code, StoreErrc::not_found);
    EXPECT_EQ(store.info(ids[1]).error().code, StoreErrc::not_found);
    for (int i = 2; i < 5; ++i) EXPECT_TRUE(store.info(ids[i])) << i;
}

// Puts check both quotas from the ledger the last sweep started (no listing, no stat of every
// entry); a ledger that is missing, garbled, oversized or of the older one-number form makes the
// next put sweep and restart it.
TEST(StoreQuota, TheLedgerCountsPutsAndAGarbledOneSweeps) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    o.test.sweep_every_128_writes = false; // keep the every-128-writes sweep out of the way
    o.max_total_bytes = 1000;
    o.clock = clock.fn();
    Store store = open_ok(o);
    ASSERT_TRUE(store.put(std::string(100, 'a'))); // no ledger yet: sweeps, ledger "100 1"
    EXPECT_EQ(slurp(dir + "/sweep.ledger"), "100 1\n");
    *clock.t += 1;
    ASSERT_TRUE(store.put(std::string(200, 'b')));
    *clock.t += 1;
    ASSERT_TRUE(store.put(std::string(300, 'c')));
    EXPECT_EQ(slurp(dir + "/sweep.ledger"), "100 1\n200\n300\n");
    for (const char* bad : {"", "12x\n", "100 1\n5", "99999999999999999999999 1\n", "100\n",
                            "100 1 1\n", " 100 1\n", "100 1\n200 1\n", "100  1\n"}) {
        spit(dir + "/sweep.ledger", bad);
        *clock.t += 1;
        ASSERT_TRUE(store.put(std::string(10, 'd')));
        // The sweep recounted from the entries: 100 + 200 + 300 + 10, four of them.
        EXPECT_EQ(slurp(dir + "/sweep.ledger"), "610 4\n") << bad;
    }
    spit(dir + "/sweep.ledger", std::string(70 * 1024, '1') + "\n");
    ASSERT_TRUE(store.put(std::string(10, 'd')));
    EXPECT_EQ(slurp(dir + "/sweep.ledger"), "610 4\n");
    // Over the byte quota by the ledger: the oldest entries go, down to a tenth below it (900).
    *clock.t += 1;
    ASSERT_TRUE(store.put(std::string(500, 'e')));
    EXPECT_EQ(slurp(dir + "/sweep.ledger"), "810 3\n"); // 300 + 10 + 500 left
}

// The entry quota is checked by the ledger too: its count says when to sweep, with no listing.
TEST(StoreQuota, TheLedgerCountsEntries) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    o.test.sweep_every_128_writes = false;
    o.max_entries = 4;
    o.clock = clock.fn();
    Store store = open_ok(o);
    for (int i = 0; i < 4; ++i) {
        *clock.t += 1;
        ASSERT_TRUE(store.put("entry " + std::to_string(i)));
    }
    EXPECT_EQ(slurp(dir + "/sweep.ledger"), "7 1\n7\n7\n7\n");
    // A ledger that says the store is full makes the next put sweep, though the folder holds
    // fewer entries: the count comes from the ledger, not from a listing.
    spit(dir + "/sweep.ledger", "7 4\n");
    *clock.t += 1;
    ASSERT_TRUE(store.put("entry 4"));
    EXPECT_EQ(slurp(dir + "/sweep.ledger"), "28 4\n"); // entry 0 went, 1-4 are left
    EXPECT_EQ(entry_files(dir, ".data").size(), 4u);
}

// A full store sweeps to a tenth below its quotas, so the writes after a sweep write only their
// own files until the store is full again: one sweep in about a tenth of the quota's writes.
TEST(StoreQuota, AFullStoreSweepsToATenthBelowItsQuotas) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    o.test.sweep_every_128_writes = false;
    o.max_entries = 100;
    o.clock = clock.fn();
    Store store = open_ok(o);
    std::vector<std::string> ids;
    for (int i = 0; i < 100; ++i) {
        *clock.t += 1;
        ids.push_back(*store.put("entry " + std::to_string(i)));
    }
    EXPECT_EQ(entry_files(dir, ".data").size(), 100u);
    *clock.t += 1;
    ids.push_back(*store.put("entry 100")); // over the quota: down to 90
    EXPECT_EQ(entry_files(dir, ".data").size(), 90u);
    for (int i = 0; i <= 100; ++i) EXPECT_EQ(store.info(ids[i]).has_value(), i >= 11) << i;
    for (int i = 101; i < 111; ++i) {
        *clock.t += 1;
        ids.push_back(*store.put("entry " + std::to_string(i)));
        // No sweep until the quota is reached again: every put adds one entry.
        EXPECT_EQ(entry_files(dir, ".data").size(), static_cast<std::size_t>(i - 10)) << i;
    }
    *clock.t += 1;
    ASSERT_TRUE(store.put("entry 111")); // the 101st again: down to 90
    EXPECT_EQ(entry_files(dir, ".data").size(), 90u);
    // The byte quota the same way: 1,000 bytes, 100-byte entries; 11 take it over, 9 are left.
    TempDir tmp2;
    auto b = options_for(tmp2 / "store");
    b.test.sweep_every_128_writes = false;
    b.max_total_bytes = 1000;
    b.clock = clock.fn();
    Store bytes_store = open_ok(b);
    for (int i = 0; i < 11; ++i) {
        *clock.t += 1;
        ASSERT_TRUE(bytes_store.put(std::string(100, static_cast<char>('a' + i))));
    }
    EXPECT_EQ(entry_files(tmp2 / "store", ".data").size(), 9u);
}

// A write checks and appends to the ledger under its shared lock, so it waits while a sweep
// holds the exclusive one (from its listing to its restart of the ledger): no write's line can
// land in a ledger that the sweep then restarts without it.
TEST(StoreQuota, AWriteWaitsForASweepsHoldOnTheLedger) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    auto o = options_for(dir);
    o.test.sweep_every_128_writes = false;
    Store store = open_ok(o);
    ASSERT_TRUE(store.put("first")); // makes the ledger
    const int fd = ::open((dir + "/sweep.ledger").c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::flock(fd, LOCK_EX), 0);
    std::atomic<bool> done{false};
    std::thread writer([&] {
        EXPECT_TRUE(store.put("second"));
        done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(done.load()); // it cannot have counted itself yet
    ::flock(fd, LOCK_UN);
    ::close(fd);
    writer.join();
    EXPECT_TRUE(done.load());
    EXPECT_EQ(slurp(dir + "/sweep.ledger"), "5 1\n6\n");
}

// A holder of the ledger's lock that never lets go (a stopped process) delays a write by at
// most the bound (a second), never for good: the write goes on and counts itself unlocked.
TEST(StoreQuota, AWriteDoesNotWaitForeverOnAHeldLedger) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    auto o = options_for(dir);
    o.test.sweep_every_128_writes = false;
    Store store = open_ok(o);
    ASSERT_TRUE(store.put("first"));
    const int fd = ::open((dir + "/sweep.ledger").c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::flock(fd, LOCK_EX), 0);
    EXPECT_TRUE(store.put("second")); // returns with the lock still held
    EXPECT_EQ(slurp(dir + "/sweep.ledger"), "5 1\n6\n");
    ::close(fd);
}

TEST(StoreQuota, RePutMakesAnEntryNewest) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    // Only the quota check may trigger a sweep here, not the every-128-writes rule.
    o.test.sweep_every_128_writes = false;
    o.max_entries = 2;
    o.clock = clock.fn();
    Store store = open_ok(o);
    auto a = store.put("a");
    *clock.t += 1;
    auto b = store.put("b");
    *clock.t += 1;
    ASSERT_TRUE(store.put("a")); // a is now newer than b
    *clock.t += 1;
    ASSERT_TRUE(store.put("c"));
    EXPECT_TRUE(store.info(*a));
    EXPECT_EQ(store.info(*b).error().code, StoreErrc::not_found);
}

TEST(StoreQuota, TiesAreBrokenByName) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    o.clock = clock.fn();
    std::vector<std::string> ids;
    {
        Store store = open_ok(o);
        for (int i = 0; i < 6; ++i) ids.push_back(*store.put("same second " + std::to_string(i)));
    }
    std::sort(ids.begin(), ids.end());
    o.max_entries = 3;
    Store store = open_ok(o);
    store.sweep();
    for (int i = 0; i < 6; ++i) EXPECT_EQ(store.info(ids[i]).has_value(), i >= 3) << i;
}

TEST(StoreSweep, RemovesOrphansStaleTempsAndExpired) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    o.clock = clock.fn();
    o.ttl_seconds = 1000;
    Store store = open_ok(o);
    auto keep = store.put("keep me");
    ASSERT_TRUE(keep);
    *clock.t += 500;
    auto later = store.put("expires later");
    ASSERT_TRUE(later);
    *clock.t += 600; // `keep` (created 1100 s ago) has expired, `later` has not

    const auto age = [&](const std::string& name, std::int64_t seconds) {
        spit(dir + "/" + name, "x");
        const struct timespec t[2] = {{static_cast<time_t>(*clock.t - seconds), 0},
                                      {static_cast<time_t>(*clock.t - seconds), 0}};
        ASSERT_EQ(::utimensat(AT_FDCWD, (dir + "/" + name).c_str(), t, AT_SYMLINK_NOFOLLOW), 0);
    };
    const std::string orphan = "su_00000000000000000000000000000001";
    const std::string young = "su_00000000000000000000000000000002";
    const std::string lonely = "su_00000000000000000000000000000003";
    age("tmp." + orphan + ".aaaaaaaaaaaaaaaa", 120);
    age("tmp." + young + ".bbbbbbbbbbbbbbbb", 5);
    age(orphan + ".data", 120);
    age(young + ".data", 5);
    age(lonely + ".meta", 120);
    age("unrelated-file", 100000);

    store.sweep();
    EXPECT_FALSE(present(dir + "/tmp." + orphan + ".aaaaaaaaaaaaaaaa"));
    EXPECT_TRUE(present(dir + "/tmp." + young + ".bbbbbbbbbbbbbbbb"));
    EXPECT_FALSE(present(dir + "/" + orphan + ".data"));
    EXPECT_TRUE(present(dir + "/" + young + ".data")); // may be a put in progress
    EXPECT_FALSE(present(dir + "/" + lonely + ".meta"));
    EXPECT_FALSE(present(dir + "/" + *keep + ".data"));
    EXPECT_FALSE(present(dir + "/" + *keep + ".meta"));
    EXPECT_TRUE(present(dir + "/" + *later + ".data"));
    EXPECT_TRUE(present(dir + "/unrelated-file"));
    EXPECT_TRUE(present(dir + "/key"));
    EXPECT_TRUE(store.read_all(*later));
}

TEST(StoreSweep, RunsFromPutWhenTheStampIsOld) {
    TempDir tmp;
    const std::string dir = tmp / "store";
    FakeClock clock;
    auto o = options_for(dir);
    o.clock = clock.fn();
    o.ttl_seconds = 100;
    o.test.sweep_every_128_writes = false; // keep the every-128-writes sweep out of the way
    Store store = open_ok(o);
    auto first = store.put("first"); // no stamp yet: sweeps and stamps
    ASSERT_TRUE(first);
    EXPECT_TRUE(present(dir + "/sweep.stamp"));
    *clock.t += 200; // `first` expired on disk, but the stamp is only 200 s old
    ASSERT_TRUE(store.put("second"));
    EXPECT_TRUE(present(dir + "/" + *first + ".data"));
    *clock.t += 450; // stamp is 650 s old
    ASSERT_TRUE(store.put("third"));
    EXPECT_FALSE(present(dir + "/" + *first + ".data"));
    EXPECT_FALSE(present(dir + "/" + *first + ".meta"));
}

namespace {

// Child side of the multi-process test: opens the (possibly fresh) store, writes the shared
// content's id to `id_file`, puts 50 entries and reads each back.
int child_main(const StoreOptions& o, int n, const std::string& id_file, bool tolerate_eviction) {
    auto store = Store::open(o);
    if (!store) return 10;
    const std::string shared_text = "shared by every process";
    auto shared = store->put(shared_text);
    if (!shared && !(tolerate_eviction && shared.error().code == StoreErrc::not_found)) return 11;
    spit(id_file, shared ? *shared : store->id_for(shared_text));
    for (int i = 0; i < 50; ++i) {
        const std::string content =
            "child " + std::to_string(n) + " entry " + std::to_string(i) + "\n" +
            std::string(static_cast<std::size_t>(i * 37 % 900), static_cast<char>('a' + n));
        auto id = store->put(content);
        // Under tiny quotas another process's sweep may take the entry before the put returns:
        // the put then says so instead of handing out an id for bytes that are gone.
        if (!id && tolerate_eviction && id.error().code == StoreErrc::not_found) continue;
        if (!id) return 12;
        auto back = store->read_all(*id);
        if (back) {
            if (*back != content) return 13;
        } else if (!tolerate_eviction || back.error().code != StoreErrc::not_found) {
            return 14;
        }
    }
    return 0;
}

void run_children(const StoreOptions& o, const TempDir& tmp, bool tolerate_eviction) {
    std::vector<pid_t> pids;
    for (int n = 0; n < 4; ++n) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0)
            ::_exit(child_main(o, n, tmp / ("id." + std::to_string(n)), tolerate_eviction));
        pids.push_back(pid);
    }
    for (const pid_t pid : pids) {
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFEXITED(status));
        EXPECT_EQ(WEXITSTATUS(status), 0);
    }
    // All four raced to create the key and must have agreed on it.
    const std::string id0 = slurp(tmp / "id.0");
    EXPECT_TRUE(valid_id(id0));
    for (int n = 1; n < 4; ++n) EXPECT_EQ(slurp(tmp / ("id." + std::to_string(n))), id0);
}

} // namespace

TEST(StoreConcurrency, SeveralProcessesShareOneStore) {
    TempDir tmp;
    auto o = options_for(tmp / "store");
    run_children(o, tmp, false);
    Store store = open_ok(o);
    const auto data = entry_files(tmp / "store", ".data");
    EXPECT_EQ(data.size(), 201u);
    for (const auto& name : data) {
        auto all = store.read_all(name.substr(0, 35));
        EXPECT_TRUE(all) << name << ": " << all.error().message;
    }
    for (const auto& e : fs::directory_iterator(tmp / "store"))
        EXPECT_FALSE(e.path().filename().string().starts_with("tmp.")) << e.path();
}

TEST(StoreConcurrency, SeveralProcessesStayWithinQuota) {
    TempDir tmp;
    auto o = options_for(tmp / "store");
    o.max_entries = 40;
    o.max_total_bytes = 20000;
    run_children(o, tmp, true);
    Store store = open_ok(o);
    const auto data = entry_files(tmp / "store", ".data");
    EXPECT_LE(data.size(), 40u);
    std::uint64_t bytes = 0;
    for (const auto& name : data) {
        auto all = store.read_all(name.substr(0, 35));
        ASSERT_TRUE(all) << name << ": " << all.error().message;
        bytes += all->size();
    }
    EXPECT_LE(bytes, 20000u);
}
