// Attacks, each a test: links planted at every store path, hostile ids, host-persisted output
// that points somewhere it should not (outside its folder, through a symlink, a FIFO, a device,
// a hard link), registries and plugin folders others can change, and modules that crash at load.
// Anything that could block runs in a child with an alarm, so a hang fails instead of stalling.

#include "core/compress.hpp"
#include "core/store/store.hpp"
#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <functional>
#include <random>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::TempDir;
using test::write_file;

using test::in_child;
using test::k_hung;

std::string build_log(int lines = 400) {
    std::string out;
    for (int i = 0; i < lines; ++i)
        out += "[INFO] compiling module_" + std::to_string(i % 7) + ".cpp ... ok\n";
    return out + "error: the one line that matters\n";
}

core::StoreOptions store_in(const std::string& dir) {
    core::StoreOptions o;
    o.dir = dir;
    return o;
}

// ---- the store ------------------------------------------------------------------------------

TEST(AttackStore, HardlinksPlantedAtEntryNamesAreReplacedNotWrittenThrough) {
    TempDir tmp;
    const std::string dir = tmp.path + "/store";
    auto store = core::Store::open(store_in(dir));
    ASSERT_TRUE(store);
    const std::string victim = tmp.path + "/victim";
    for (const char* ext : {".data", ".meta"}) {
        write_file(victim, "precious");
        const std::string content = std::string("tool output ") + ext;
        const std::string planted = dir + "/" + store->id_for(content) + ext;
        ASSERT_EQ(::link(victim.c_str(), planted.c_str()), 0);
        auto id = store->put(content);
        ASSERT_TRUE(id) << id.error().message;
        EXPECT_EQ(test::read_file(victim), "precious") << ext;
        EXPECT_EQ(*store->read_all(*id), content);
        struct stat st {};
        ASSERT_EQ(::stat(victim.c_str(), &st), 0);
        EXPECT_EQ(st.st_nlink, 1u) << "the planted name still points at the victim";
        fs::remove(victim);
    }
    // A hard link at the exact temp name: O_EXCL refuses it, the victim is untouched.
    write_file(victim, "precious");
    auto hooked = store_in(dir);
    hooked.test.temp_suffix = [] { return std::string("00000000000000aa"); };
    auto hooked_store = core::Store::open(hooked);
    ASSERT_TRUE(hooked_store);
    const std::string content = "temp name attack";
    const std::string temp = dir + "/tmp." + store->id_for(content) + ".00000000000000aa";
    ASSERT_EQ(::link(victim.c_str(), temp.c_str()), 0);
    auto put = hooked_store->put(content);
    EXPECT_FALSE(put);
    EXPECT_EQ(test::read_file(victim), "precious");
}

TEST(AttackStore, KeyAndStampLinksAndFifosNeitherLeakNorHang) {
    TempDir tmp;
    const std::string dir = tmp.path + "/store";
    {
        auto store = core::Store::open(store_in(dir));
        ASSERT_TRUE(store);
    }
    // A key swapped for a symlink to a file the attacker chose is refused, not used.
    const std::string victim = tmp.path + "/victim";
    write_file(victim, std::string(32, 'k'));
    fs::rename(dir + "/key", dir + "/key.orig");
    fs::create_symlink(victim, dir + "/key");
    auto refused = core::Store::open(store_in(dir));
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, core::StoreErrc::unsafe);
    fs::remove(dir + "/key");
    fs::rename(dir + "/key.orig", dir + "/key");
    // A FIFO at the key, and at the sweep stamp: nothing blocks.
    fs::rename(dir + "/key", dir + "/key.orig");
    ASSERT_EQ(::mkfifo((dir + "/key").c_str(), 0600), 0);
    EXPECT_EQ(in_child([&] { return core::Store::open(store_in(dir)) ? 1 : 0; }), 0);
    fs::remove(dir + "/key");
    fs::rename(dir + "/key.orig", dir + "/key");
    fs::remove(dir + "/sweep.stamp");
    ASSERT_EQ(::mkfifo((dir + "/sweep.stamp").c_str(), 0600), 0);
    EXPECT_EQ(in_child([&] {
                  auto s = core::Store::open(store_in(dir));
                  if (!s) return 1;
                  s->sweep();
                  auto id = s->put("stamp is a fifo");
                  return id && *s->read_all(*id) == "stamp is a fifo" ? 0 : 2;
              }),
              0);
    // A symlink at the stamp is removed, never followed.
    fs::remove(dir + "/sweep.stamp");
    fs::create_symlink(victim, dir + "/sweep.stamp");
    auto store = core::Store::open(store_in(dir));
    ASSERT_TRUE(store);
    store->sweep();
    EXPECT_EQ(test::read_file(victim), std::string(32, 'k'));
    // The byte ledger beside it: a symlink is neither appended to nor truncated through, and a
    // FIFO blocks nothing.
    fs::remove(dir + "/sweep.ledger");
    fs::create_symlink(victim, dir + "/sweep.ledger");
    ASSERT_TRUE(store->put("ledger is a link"));
    store->sweep();
    ASSERT_TRUE(store->put("ledger is a link, again"));
    EXPECT_EQ(test::read_file(victim), std::string(32, 'k'));
    fs::remove(dir + "/sweep.ledger");
    ASSERT_EQ(::mkfifo((dir + "/sweep.ledger").c_str(), 0600), 0);
    EXPECT_EQ(in_child([&] {
                  auto s = core::Store::open(store_in(dir));
                  if (!s) return 1;
                  auto id = s->put("ledger is a fifo");
                  s->sweep();
                  return id && *s->read_all(*id) == "ledger is a fifo" ? 0 : 2;
              }),
              0);
}

TEST(AttackStore, StatsLogLinksAndFifosAreNotWrittenThrough) {
    TempDir tmp;
    core::Config config = test::test_config(tmp.path);
    config.stats_enabled = true;
    const std::string input = build_log(); // Request::output is a view: keep the bytes alive
    core::Request req;
    req.output = input;
    ASSERT_TRUE(core::compress(req, config).rewritten); // creates the store and the log
    const std::string log = config.store_dir + "/stats.jsonl";
    ASSERT_TRUE(fs::exists(log));
    const std::string victim = tmp.path + "/victim";
    auto reset = [&] {
        fs::remove(log);
        write_file(victim, "precious");
    };
    reset();
    fs::create_symlink(victim, log);
    const core::Response r = core::compress(req, config);
    EXPECT_TRUE(r.rewritten) << r.passthrough;
    EXPECT_EQ(test::read_file(victim), "precious");
    reset();
    ASSERT_EQ(::link(victim.c_str(), log.c_str()), 0);
    EXPECT_TRUE(core::compress(req, config).rewritten);
    EXPECT_EQ(test::read_file(victim), "precious");
    reset();
    ASSERT_EQ(::mkfifo(log.c_str(), 0600), 0);
    EXPECT_EQ(in_child([&] { return core::compress(req, config).rewritten ? 0 : 1; }), 0);
}

TEST(AttackStore, HostileIdsAreRefusedByRestore) {
    test::HostSandbox box;
    TempDir tmp;
    auto store = core::Store::open(store_in(box.dir.path + "/store"));
    ASSERT_TRUE(store);
    write_file(tmp.path + "/x", "outside");
    std::string nul_id = "su_0123456789abcdef0123456789abcdef";
    nul_id[12] = '\0';
    const std::vector<std::string> ids = {
        std::string("su_") + std::string(100000, 'a'),
        "su_\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
        "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
        "su_\xef\xbc\x90" + std::string(29, '0'),
        "su_../../../../" + tmp.path + "/x",
        "su_0123456789abcdef0123456789abcde\n",
        " su_0123456789abcdef0123456789abcdef",
        nul_id,
    };
    for (const std::string& id : ids) {
        for (auto r : {store->read_all(id), store->read(id, 0, 100)}) {
            ASSERT_FALSE(r);
            EXPECT_EQ(r.error().code, core::StoreErrc::bad_id);
        }
        auto info = store->info(id);
        ASSERT_FALSE(info);
        EXPECT_EQ(info.error().code, core::StoreErrc::bad_id);
    }
    // Through the CLI (argv cannot hold a NUL): a clean error, never a crash or a read.
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
        write_file(tmp.path + "/id", ids[i]);
        int status = -1;
        const std::string out = test::run_command(std::string(SUTRA_BINARY) + " restore \"$(cat '" +
                                                      tmp.path + "/id')\" 2>/dev/null",
                                                  &status);
        EXPECT_NE(status, 0) << i;
        EXPECT_LT(status, 128) << "crashed on id " << i;
        EXPECT_EQ(out.find("outside"), std::string::npos);
    }
}

// ---- host-persisted output ------------------------------------------------------------------

struct PersistedFolder {
    TempDir tmp;
    std::string dir = tmp.path + "/tool-results";
    std::string text = build_log();
    PersistedFolder() {
        fs::create_directories(dir);
        write_file(dir + "/ok.txt", text);
        write_file(dir + "/tool_ok", text);
        write_file(tmp.path + "/outside.txt", text);
    }
};

// The two namings the adapters state: Claude Code's `<id>.txt`, OpenCode's `tool_<id>`.
PersistedName naming_of(std::string_view label) {
    return label == "opencode-tool" ? PersistedName{"tool_", ""} : PersistedName{};
}

// Each case must be refused with a reason, in a child that must not hang.
void expect_refused(const std::string& path,
                    std::uint64_t size,
                    const std::string& allowed,
                    const char* naming,
                    const char* reason) {
    const int rc = in_child([&] {
        auto r = read_persisted_output(path, size, allowed, 64ull << 20, naming_of(naming));
        if (r) return 1;
        return r.error().find(reason) != std::string::npos ? 0 : 2;
    });
    EXPECT_EQ(rc, 0) << path << " (" << naming << "): 1 = read, 2 = other reason (" <<
        [&] {
            auto r = read_persisted_output(path, size, allowed, 64ull << 20, naming_of(naming));
            return r ? std::string("read") : r.error();
        }() << "), " << k_hung
                     << " = hung";
}

class AttackPersisted : public ::testing::TestWithParam<const char*> {};

TEST_P(AttackPersisted, EveryPlantedFileIsRefusedWithoutBlocking) {
    const std::string naming = GetParam();
    const bool oc = naming == "opencode-tool";
    PersistedFolder p;
    auto name = [&](const std::string& stem) { return oc ? "tool_" + stem : stem + ".txt"; };
    const auto n = p.text.size();
    const char* nm = naming.c_str();
    // The honest file reads.
    auto ok =
        read_persisted_output(p.dir + "/" + name("ok"), n, p.dir, 64ull << 20, naming_of(naming));
    ASSERT_TRUE(ok) << ok.error();
    EXPECT_EQ(*ok, p.text);
    // Outside the folder, and devices named directly.
    expect_refused(p.tmp.path + "/outside.txt", n, p.dir, nm, "not");
    expect_refused("/dev/zero", n, p.dir, nm, "not");
    expect_refused("/dev/urandom", n, p.dir, nm, "not");
    // Size mismatch either way.
    expect_refused(p.dir + "/" + name("ok"), n - 1, p.dir, nm, "differs");
    expect_refused(p.dir + "/" + name("ok"), n + 1, p.dir, nm, "differs");
    // A symlink to a device, a FIFO, a device node.
    fs::create_symlink("/dev/zero", p.dir + "/" + name("zero"));
    expect_refused(p.dir + "/" + name("zero"), n, p.dir, nm, "not a regular file");
    fs::create_symlink("/dev/urandom", p.dir + "/" + name("random"));
    expect_refused(p.dir + "/" + name("random"), n, p.dir, nm, "not a regular file");
    ASSERT_EQ(::mkfifo((p.dir + "/" + name("fifo")).c_str(), 0600), 0);
    expect_refused(p.dir + "/" + name("fifo"), n, p.dir, nm, "not a regular file");
    if (::mknod((p.dir + "/" + name("dev")).c_str(), S_IFCHR | 0600, makedev(1, 5)) == 0)
        expect_refused(p.dir + "/" + name("dev"), n, p.dir, nm, "not a regular file");
    // A hard link to a file elsewhere.
    ASSERT_EQ(::link((p.tmp.path + "/outside.txt").c_str(), (p.dir + "/" + name("hl")).c_str()), 0);
    expect_refused(p.dir + "/" + name("hl"), n, p.dir, nm, "hard links");
    // The folder reached through a symlink.
    fs::create_directories(p.tmp.path + "/elsewhere");
    write_file(p.tmp.path + "/elsewhere/" + name("x"), p.text);
    fs::create_symlink(p.tmp.path + "/elsewhere", p.tmp.path + "/linked");
    expect_refused(p.tmp.path + "/linked/" + name("x"), n, p.tmp.path + "/linked", nm, "symlink");
    // Another user's file or folder (root only: chown).
    if (::geteuid() == 0) {
        write_file(p.dir + "/" + name("theirs"), p.text);
        ASSERT_EQ(::chown((p.dir + "/" + name("theirs")).c_str(), 65534, 65534), 0);
        expect_refused(p.dir + "/" + name("theirs"), n, p.dir, nm, "owned by another user");
        ASSERT_EQ(::chown(p.dir.c_str(), 65534, 65534), 0);
        expect_refused(p.dir + "/" + name("ok"), n, p.dir, nm, "folder is owned by another user");
    }
}

INSTANTIATE_TEST_SUITE_P(Naming, AttackPersisted, ::testing::Values("txt", "opencode-tool"));

// The whole Claude hook path with a FIFO as persistedOutputPath: passes through, promptly.
TEST(AttackPersistedHook, ClaudeFifoPassesThroughWithoutBlocking) {
    test::HostSandbox box;
    PluginRegistry registry{box.build_tree()};
    const std::string results = box.dir.path + "/claude/projects/-tmp-proj/63c7aa/tool-results";
    fs::create_directories(results);
    ASSERT_EQ(::mkfifo((results + "/fifo.txt").c_str(), 0600), 0);
    json payload = {{"session_id", "63c7aa"},
                    {"transcript_path", "/nowhere/63c7aa.jsonl"},
                    {"cwd", "/tmp/proj"},
                    {"hook_event_name", "PostToolUse"},
                    {"tool_name", "Bash"},
                    {"tool_input", {{"command", "make"}}},
                    {"tool_response",
                     {{"stdout", build_log()},
                      {"stderr", ""},
                      {"interrupted", false},
                      {"isImage", false},
                      {"persistedOutputPath", results + "/fifo.txt"},
                      {"persistedOutputSize", 100000}}}};
    EXPECT_EQ(in_child([&] {
                  auto p = registry.load("claude");
                  if (!p) return 3;
                  std::string why;
                  const std::string out = run_hook(**p, payload.dump(), why);
                  return out.empty() && why.find("not a regular file") != std::string::npos ? 0 : 1;
              }),
              0);
}

// ---- registries, plugin folders, modules ----------------------------------------------------

struct Registry {
    TempDir dir;
    RegistryLocations locations;
    explicit Registry(const std::string& toml) {
        fs::create_directories(dir.path + "/plugins");
        ::chmod(dir.path.c_str(), 0755);
        write_file(dir.path + "/adapters.toml", toml);
        locations.user_registry = dir.path + "/adapters.toml";
        locations.user_plugins = dir.path + "/plugins";
    }
};

std::string entry(const std::string& name, const std::string& module) {
    return "[adapters." + name + "]\nmodule = \"" + module + "\"\n";
}

TEST(AttackRegistry, OtherWritableOrForeignRegistryAndPluginsAreRefused) {
    const std::string claude = std::string(SUTRA_PLUGIN_DIR) + "/libsutra_claude.so";
    {
        Registry r(entry("x", claude));
        ::chmod(r.locations.user_registry.c_str(), 0646);
        PluginRegistry registry(r.locations);
        EXPECT_TRUE(registry.entries().empty());
        ASSERT_EQ(registry.problems().size(), 1u);
        EXPECT_NE(registry.problems()[0].find("writable by others"), std::string::npos);
    }
    {
        Registry r(entry("mine", "libsutra_claude.so"));
        fs::copy_file(claude, r.dir.path + "/plugins/libsutra_claude.so");
        ::chmod((r.dir.path + "/plugins").c_str(), 0757);
        PluginRegistry registry(r.locations);
        auto p = registry.load("mine");
        ASSERT_FALSE(p);
        EXPECT_NE(p.error().find("writable by others"), std::string::npos) << p.error();
        // A module file writable by others, in a safe folder.
        ::chmod((r.dir.path + "/plugins").c_str(), 0755);
        ::chmod((r.dir.path + "/plugins/libsutra_claude.so").c_str(), 0757);
        PluginRegistry again(r.locations);
        p = again.load("mine");
        ASSERT_FALSE(p);
        EXPECT_NE(p.error().find("writable by others"), std::string::npos) << p.error();
    }
    if (::geteuid() != 0) GTEST_SKIP() << "chown to another user needs root";
    {
        Registry r(entry("x", claude));
        ASSERT_EQ(::chown(r.locations.user_registry.c_str(), 65534, 65534), 0);
        PluginRegistry registry(r.locations);
        EXPECT_TRUE(registry.entries().empty());
        ASSERT_EQ(registry.problems().size(), 1u);
        EXPECT_NE(registry.problems()[0].find("owned by uid 65534"), std::string::npos);
    }
    {
        Registry r(entry("mine", "libsutra_claude.so"));
        fs::copy_file(claude, r.dir.path + "/plugins/libsutra_claude.so");
        ASSERT_EQ(::chown((r.dir.path + "/plugins").c_str(), 65534, 65534), 0);
        PluginRegistry registry(r.locations);
        auto p = registry.load("mine");
        ASSERT_FALSE(p);
        EXPECT_NE(p.error().find("owned by uid 65534"), std::string::npos) << p.error();
        ASSERT_EQ(::chown((r.dir.path + "/plugins").c_str(), 0, 0), 0);
        ASSERT_EQ(::chown((r.dir.path + "/plugins/libsutra_claude.so").c_str(), 65534, 65534), 0);
        PluginRegistry again(r.locations);
        p = again.load("mine");
        ASSERT_FALSE(p);
        EXPECT_NE(p.error().find("owned by uid 65534"), std::string::npos) << p.error();
    }
}

// sutra-host with a user registry under XDG_DATA_HOME listing the given modules.
std::string sutra_host(const TempDir& data,
                       const std::string& args,
                       int* status,
                       const std::string& stdin_text = "{}") {
    write_file(data.path + "/in.json", stdin_text);
    return test::run_command("env HOME='" + data.path + "' XDG_DATA_HOME='" + data.path +
                                 "' SUTRA_HOME='" + data.path + "/store' SUTRA_STATS=0 " +
                                 SUTRA_HOST_BINARY + " " + args + " < '" + data.path +
                                 "/in.json' 2>/dev/null",
                             status);
}

TEST(AttackModules, CrashAtLoadFailsOpenAndListReportsIt) {
    TempDir data;
    ::chmod(data.path.c_str(), 0755);
    fs::create_directories(data.path + "/sutra/plugins");
    const std::string dir = SUTRA_TEST_PLUGIN_DIR;
    write_file(data.path + "/sutra/adapters.toml",
               entry("crash", dir + "/libsutra_test_abort_at_load.so") +
                   entry("bad_abi", dir + "/libsutra_test_bad_abi.so") +
                   entry("undefined", dir + "/libsutra_test_undefined.so") +
                   entry("no_entry", dir + "/libsutra_test_no_entry.so"));
    // The hook: status 0 and no output, whatever the module does.
    for (const char* name : {"crash", "bad_abi", "undefined", "no_entry"}) {
        int status = -1;
        const std::string payload =
            json{{"tool_name", "Bash"}, {"tool_response", {{"stdout", build_log()}}}}.dump();
        EXPECT_EQ(sutra_host(data, std::string("--adapter ") + name, &status, payload), "") << name;
        EXPECT_EQ(status, 0) << name;
    }
    // --list names each broken module, the crashing one included, and exits 1 (not a signal).
    int status = -1;
    const std::string out = sutra_host(data, "--list", &status);
    EXPECT_EQ(status, 1) << out;
    EXPECT_NE(out.find("crash"), std::string::npos) << out;
    EXPECT_NE(out.find("crashed while loading"), std::string::npos) << out;
    EXPECT_NE(out.find("ABI version 99"), std::string::npos) << out;
    EXPECT_NE(out.find("undefined symbol"), std::string::npos) << out;
    EXPECT_NE(out.find("missing symbol sutra_plugin_entry"), std::string::npos) << out;
}

} // namespace
} // namespace sutra::host
