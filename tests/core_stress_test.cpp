// The store under stress: many processes against small quotas, `kill -9` in the middle of
// writes, a full disk and a read-only store. Children are forked from the test process; every
// random choice comes from a fixed seed.

#include "core/compress.hpp"
#include "core/store/store.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sutra::core {
namespace {

namespace fs = std::filesystem;

std::string bytes_for(std::uint64_t seed, std::size_t min_size, std::size_t max_size) {
    std::mt19937_64 rng(seed);
    const std::size_t n = min_size + static_cast<std::size_t>(rng() % (max_size - min_size + 1));
    std::string s(n, '\0');
    for (std::size_t i = 0; i < n; i += 8) {
        const std::uint64_t v = rng();
        for (std::size_t k = 0; k < 8 && i + k < n; ++k) s[i + k] = static_cast<char>(v >> (8 * k));
    }
    return s;
}

struct DirState {
    std::uint64_t entries = 0; ///< ids with both files
    std::uint64_t bytes = 0;   ///< their data bytes
    std::vector<std::string> temps, lone_data, lone_meta, ids;
};

DirState look(const std::string& dir) {
    DirState s;
    std::set<std::string> data;
    std::set<std::string> meta;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (name.starts_with("tmp.")) s.temps.push_back(name);
        if (name.size() == 40 && valid_id(name.substr(0, 35))) {
            (name.ends_with(".data") ? data : meta).insert(name.substr(0, 35));
        }
    }
    for (const auto& id : data) {
        if (!meta.contains(id)) {
            s.lone_data.push_back(id);
            continue;
        }
        ++s.entries;
        s.bytes += fs::file_size(dir + "/" + id + ".data");
        s.ids.push_back(id);
    }
    for (const auto& id : meta)
        if (!data.contains(id)) s.lone_meta.push_back(id);
    return s;
}

StoreOptions options_in(const std::string& dir) {
    StoreOptions o;
    o.dir = dir;
    return o;
}

int wait_for(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// ---- 8 processes, hundreds of puts and reads each, small quotas -----------------------------

constexpr int k_writers = 8;
constexpr int k_rounds = 150;

std::string content_of(int child, int i) {
    return bytes_for(static_cast<std::uint64_t>(child) * 100000 + static_cast<std::uint64_t>(i), 1,
                     3000);
}

// Exit codes name the first broken promise.
int writer_main(const StoreOptions& o, int child) {
    auto store = Store::open(o);
    if (!store) return 10;
    std::mt19937 rng(static_cast<unsigned>(child) + 1);
    for (int i = 0; i < k_rounds; ++i) {
        const std::string content = content_of(child, i);
        auto id = store->put(content);
        // Another process's sweep may take a fresh entry before its put returns: the put then
        // says not_found rather than hand out an id for bytes that are gone.
        if (!id && id.error().code != StoreErrc::not_found) return 11;
        if (id && *id != store->id_for(content)) return 12;
        // Read something any process may have written (or evicted) by now.
        const int other = static_cast<int>(rng() % k_writers);
        const int j = static_cast<int>(rng() % static_cast<unsigned>(i + 1));
        const std::string expect = content_of(other, j);
        const std::string other_id = store->id_for(expect);
        auto all = store->read_all(other_id);
        if (all && *all != expect) return 13;
        if (!all && all.error().code != StoreErrc::not_found &&
            all.error().code != StoreErrc::expired)
            return 14;
        const std::uint64_t a = rng() % (expect.size() + 1);
        auto part = store->read(other_id, a, a + 1 + rng() % 700);
        if (part && *part != expect.substr(a, part->size())) return 15;
        if (part && part->size() != std::min<std::uint64_t>(expect.size() - a, part->size()))
            return 16;
        if (!part && part.error().code != StoreErrc::not_found &&
            part.error().code != StoreErrc::expired)
            return 17;
    }
    return 0;
}

TEST(StoreStress, EightProcessesKeepQuotasAndNeverServeWrongBytes) {
    test::TempDir tmp;
    StoreOptions o;
    o.dir = tmp.path + "/store";
    o.max_entries = 40;
    o.max_total_bytes = 48000;
    std::vector<pid_t> pids;
    for (int child = 0; child < k_writers; ++child) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) ::_exit(writer_main(o, child));
        pids.push_back(pid);
    }
    for (std::size_t n = 0; n < pids.size(); ++n) {
        const int status = wait_for(pids[n]);
        ASSERT_TRUE(WIFEXITED(status)) << "child " << n << " died";
        EXPECT_EQ(WEXITSTATUS(status), 0) << "child " << n;
    }
    auto store = Store::open(o);
    ASSERT_TRUE(store);
    // Writers that finished leave no temp files behind.
    EXPECT_TRUE(look(o.dir).temps.empty());
    store->sweep();
    const DirState after = look(o.dir);
    EXPECT_LE(after.entries, o.max_entries);
    EXPECT_LE(after.bytes, o.max_total_bytes);
    EXPECT_TRUE(after.lone_meta.empty());
    EXPECT_GT(after.entries, 0u);
    for (const std::string& id : after.ids) {
        auto all = store->read_all(id);
        EXPECT_TRUE(all) << id << ": " << all.error().message;
    }
}

// ---- kill -9 in the middle of writes --------------------------------------------------------

[[noreturn]] void put_forever(const StoreOptions& o, int round) {
    auto store = Store::open(o);
    if (!store) ::_exit(10);
    for (std::uint64_t k = 0;; ++k) {
        (void)store->put(
            bytes_for(static_cast<std::uint64_t>(round) * 1000 + k, 16 << 10, 384 << 10));
    }
}

TEST(StoreStress, KillNineDuringWritesNeverLeavesAServableHalfEntry) {
    test::TempDir tmp;
    StoreOptions o;
    o.dir = tmp.path + "/store";
    o.max_entries = 12;
    o.max_total_bytes = 2 << 20;
    std::mt19937 rng(2026);
    int killed = 0;
    for (int round = 0; round < 100; ++round) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) put_forever(o, round);
        ::usleep(200 + rng() % 6000);
        ::kill(pid, SIGKILL);
        const int status = wait_for(pid);
        if (WIFSIGNALED(status)) ++killed;
        ASSERT_FALSE(WIFEXITED(status)) << "writer exited with " << WEXITSTATUS(status);

        if (round % 10 != 9) continue;
        // Whatever the kill interrupted, every entry under a final name is whole.
        auto store = Store::open(o);
        ASSERT_TRUE(store) << store.error().message;
        for (const std::string& id : look(o.dir).ids) {
            // No writer is running now, so every entry must read back and verify.
            auto all = store->read_all(id);
            EXPECT_TRUE(all) << id << ": " << all.error().message;
        }
    }
    EXPECT_EQ(killed, 100);

    // A sweep two minutes later (dead writers' temps and orphans are a minute old by then)
    // leaves only whole entries within the quotas.
    StoreOptions later = o;
    later.clock = [] { return static_cast<std::int64_t>(std::time(nullptr)) + 120; };
    auto store = Store::open(later);
    ASSERT_TRUE(store);
    store->sweep();
    const DirState after = look(o.dir);
    EXPECT_TRUE(after.temps.empty())
        << after.temps.size() << " temp files, first " << after.temps.front();
    EXPECT_TRUE(after.lone_data.empty());
    EXPECT_TRUE(after.lone_meta.empty());
    EXPECT_LE(after.entries, o.max_entries);
    EXPECT_LE(after.bytes, o.max_total_bytes);
    for (const std::string& id : after.ids) {
        auto all = store->read_all(id);
        ASSERT_TRUE(all) << id << ": " << all.error().message;
        EXPECT_EQ(store->id_for(*all), id);
    }
    // And it still takes new entries.
    auto id = store->put("after the storm");
    ASSERT_TRUE(id);
    EXPECT_EQ(*store->read_all(*id), "after the storm");
}

// ---- a full disk and a read-only store ------------------------------------------------------

std::string compressible_log() {
    std::mt19937 rng(11);
    std::string log = test::random_log(rng, 6000);
    return log + "error: the one line that matters\n";
}

// No entry and no temp file: the failed write left nothing behind.
void expect_nothing_stored(const std::string& dir) {
    if (!fs::exists(dir)) return;
    const DirState s = look(dir);
    EXPECT_EQ(s.entries, 0u);
    EXPECT_TRUE(s.temps.empty()) << s.temps.front();
    EXPECT_TRUE(s.lone_data.empty());
    EXPECT_TRUE(s.lone_meta.empty());
}

// Runs core::compress in a child under a file-size limit (SIGXFSZ ignored, so writes fail with
// EFBIG). Exit 0: passed through with store-failed; 1: rewritten; 2: another pass-through.
int compress_with_fsize_limit(const Config& config, const std::string& input, rlim_t limit) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::signal(SIGXFSZ, SIG_IGN);
        const struct rlimit rl = {limit, limit};
        if (::setrlimit(RLIMIT_FSIZE, &rl) != 0) ::_exit(3);
        Request req;
        req.output = input;
        const Response r = compress(req, config);
        if (r.rewritten) ::_exit(1);
        ::_exit(r.passthrough.starts_with("store-failed") ? 0 : 2);
    }
    const int status = wait_for(pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

TEST(StoreFullDisk, FileSizeLimitMeansPassThroughAndNoPartialEntry) {
    const std::string input = compressible_log();
    test::TempDir tmp;
    Config config = test::test_config(tmp.path);
    {
        // Without a limit the same input is rewritten: the limit is what makes it pass.
        Request req;
        req.output = input;
        test::TempDir other;
        ASSERT_TRUE(compress(req, test::test_config(other.path)).rewritten);
    }
    for (rlim_t limit : {rlim_t{0}, rlim_t{4096}, rlim_t{input.size() - 1}}) {
        EXPECT_EQ(compress_with_fsize_limit(config, input, limit), 0) << "limit " << limit;
        expect_nothing_stored(config.store_dir);
    }
}

TEST(StoreFullDisk, CliPassesTheOriginalThroughUnderAFileSizeLimit) {
    test::TempDir tmp;
    const std::string input = compressible_log();
    test::write_file(tmp.path + "/in.log", input);
    int status = -1;
    // `ulimit -f` counts 1024-byte blocks in bash; an ignored SIGXFSZ survives exec.
    const std::string env = "env -u SUTRA_CONFIG -u SUTRA_MODE SUTRA_HOME='" + tmp.path +
                            "/store' SUTRA_STATS=0 HOME='" + tmp.path + "' ";
    const std::string out =
        test::run_command("bash -c \"trap '' XFSZ; ulimit -f 4; exec " + env + SUTRA_BINARY +
                              " compress '" + tmp.path + "/in.log'\"",
                          &status);
    EXPECT_EQ(status, 0);
    EXPECT_TRUE(out == input) << "output differs from the original (" << out.size() << " vs "
                              << input.size() << " bytes)";
    const std::string json =
        test::run_command("bash -c \"trap '' XFSZ; ulimit -f 4; exec " + env + SUTRA_BINARY +
                              " compress --json '" + tmp.path + "/in.log'\"",
                          &status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(json.find("\"passthrough\":\"store-failed"), std::string::npos) << json;
    EXPECT_NE(json.find("\"rewritten\":false"), std::string::npos) << json;
    expect_nothing_stored(tmp.path + "/store");
}

// A small tmpfs, when this process may mount one (root in a namespace that allows it).
class TmpfsMount {
public:
    TmpfsMount(const std::string& path, const char* options) : m_path(path) {
        fs::create_directories(path);
        m_ok = ::mount("tmpfs", path.c_str(), "tmpfs", 0, options) == 0;
    }
    ~TmpfsMount() {
        if (m_ok) ::umount2(m_path.c_str(), MNT_DETACH);
    }
    TmpfsMount(const TmpfsMount&) = delete;
    TmpfsMount& operator=(const TmpfsMount&) = delete;
    bool ok() const { return m_ok; }
    bool remount_read_only() {
        return ::mount("tmpfs", m_path.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0;
    }

private:
    std::string m_path;
    bool m_ok = false;
};

TEST(StoreFullDisk, FullTmpfsMeansPassThroughAndTheStoreRecovers) {
    test::TempDir tmp;
    TmpfsMount mnt(tmp.path + "/mnt", "size=1m,mode=0700");
    if (!mnt.ok()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)";
    Config config = test::test_config(tmp.path + "/mnt");
    std::string big;
    while (big.size() < (3u << 20)) big += compressible_log();
    Request req;
    req.output = big;
    Response r = compress(req, config);
    EXPECT_FALSE(r.rewritten);
    EXPECT_TRUE(r.passthrough.starts_with("store-failed")) << r.passthrough;
    expect_nothing_stored(config.store_dir);

    // The CLI too: the original, byte for byte, and status 0.
    test::write_file(tmp.path + "/big.log", big);
    int status = -1;
    const std::string out = test::run_command(
        "env -u SUTRA_CONFIG -u SUTRA_MODE SUTRA_STATS=0 HOME='" + tmp.path + "' SUTRA_HOME='" +
            config.store_dir + "' " + SUTRA_BINARY + " compress '" + tmp.path + "/big.log'",
        &status);
    EXPECT_EQ(status, 0);
    EXPECT_TRUE(out == big) << out.size() << " vs " << big.size();
    expect_nothing_stored(config.store_dir);

    // Something that fits is still stored and restorable.
    const std::string small = compressible_log();
    req.output = small;
    r = compress(req, config);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    auto store = Store::open(options_in(config.store_dir));
    ASSERT_TRUE(store);
    EXPECT_EQ(*store->read_all(*r.id), req.output);
}

TEST(StoreReadOnly, ReadOnlyMountPassesThroughAndOldEntriesStillRead) {
    test::TempDir tmp;
    TmpfsMount mnt(tmp.path + "/mnt", "size=4m,mode=0700");
    if (!mnt.ok()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)";
    Config config = test::test_config(tmp.path + "/mnt");
    const std::string old_log = compressible_log();
    const std::string new_log = old_log + "a different tail\n";
    Request req;
    req.output = old_log;
    const Response first = compress(req, config);
    ASSERT_TRUE(first.rewritten) << first.passthrough;
    ASSERT_TRUE(mnt.remount_read_only());

    req.output = new_log;
    const Response r = compress(req, config);
    EXPECT_FALSE(r.rewritten);
    EXPECT_TRUE(r.passthrough.starts_with("store-failed")) << r.passthrough;
    auto store = Store::open(options_in(config.store_dir));
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(*store->read_all(*first.id), compressible_log());
    EXPECT_FALSE(store->put("new").has_value());
}

// Without mounts: a store that cannot be created because its parent is read-only to us. As
// root, permission bits do not bind, so the child drops to uid 65534 first.
TEST(StoreReadOnly, UnwritableParentPassesThrough) {
    test::TempDir tmp;
    const std::string parent = tmp.path + "/locked";
    fs::create_directories(parent);
    const bool root = ::geteuid() == 0;
    if (root) {
        ASSERT_EQ(::chmod(tmp.path.c_str(), 0755), 0);
        ASSERT_EQ(::chown(parent.c_str(), 65534, 65534), 0);
    }
    ASSERT_EQ(::chmod(parent.c_str(), 0500), 0);
    Config config = test::test_config(parent);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (root && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
        const std::string input = compressible_log();
        Request req;
        req.output = input;
        const Response r = compress(req, config);
        if (r.rewritten) ::_exit(1);
        ::_exit(r.passthrough.starts_with("store-failed") ? 0 : 2);
    }
    const int status = wait_for(pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_FALSE(fs::exists(config.store_dir));
}

} // namespace
} // namespace sutra::core
