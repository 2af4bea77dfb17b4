// The adapter registry and loader: parsing, trust checks, broken modules, and the checked read
// of host-persisted output.

#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "plugins/abi/plugin_sdk.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::host {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using test::write_file;

TEST(HostRegistryTest, ParsesEntriesAndResolvesRelativeModules) {
    const auto r = parse_registry("[adapters.claude]\nmodule = \"libx.so\"\ndescription = \"X\"\n"
                                  "[adapters.abs]\nmodule = \"/opt/y/liby.so\"\n",
                                  "/etc/adapters.toml", "/usr/lib/sutra/plugins");
    ASSERT_TRUE(r.has_value()) << r.error();
    ASSERT_EQ(r->size(), 2u);
    // toml++ keeps tables sorted by key
    EXPECT_EQ((*r)[0].module, "/opt/y/liby.so");
    EXPECT_EQ((*r)[1].name, "claude");
    EXPECT_EQ((*r)[1].module, "/usr/lib/sutra/plugins/libx.so");
    EXPECT_EQ((*r)[1].description, "X");
}

TEST(HostRegistryTest, ErrorsNameFileAndLine) {
    auto bad = parse_registry("[adapters.x\n", "/r.toml", "/p");
    ASSERT_FALSE(bad.has_value());
    EXPECT_NE(bad.error().find("/r.toml:1"), std::string::npos) << bad.error();
    auto no_module = parse_registry("\n[adapters.x]\ndescription = \"d\"\n", "/r.toml", "/p");
    ASSERT_FALSE(no_module.has_value());
    EXPECT_NE(no_module.error().find("needs module"), std::string::npos) << no_module.error();
    auto bad_name = parse_registry("[adapters.\"A B\"]\nmodule = \"m.so\"\n", "/r.toml", "/p");
    ASSERT_FALSE(bad_name.has_value());
}

TEST(HostRegistryTest, TrustRefusesGroupOrOtherWritable) {
    TempDir dir;
    const std::string f = dir.path + "/m.so";
    write_file(f, "x");
    ::chmod(f.c_str(), 0644);
    EXPECT_TRUE(check_trusted(f).has_value());
    ::chmod(f.c_str(), 0664);
    auto g = check_trusted(f);
    ASSERT_FALSE(g.has_value());
    EXPECT_NE(g.error().find("writable by group"), std::string::npos) << g.error();
    ::chmod(f.c_str(), 0646);
    auto o = check_trusted(f);
    ASSERT_FALSE(o.has_value());
    EXPECT_NE(o.error().find("writable by others"), std::string::npos) << o.error();
    EXPECT_FALSE(check_trusted(dir.path + "/missing").has_value());
}

TEST(HostRegistryTest, LoadsTheBuiltAdapters) {
    test::HostSandbox box;
    PluginRegistry registry(box.build_tree());
    EXPECT_TRUE(registry.problems().empty());
    for (const char* name : {"claude", "codex"}) {
        auto p = registry.load(name);
        ASSERT_TRUE(p.has_value()) << p.error();
        EXPECT_EQ((*p)->name(), name);
        EXPECT_EQ((*p)->abi_version(), SUTRA_PLUGIN_ABI_VERSION);
    }
    EXPECT_FALSE(registry.load("nope").has_value());
}

// A user registry in a temp XDG data folder, naming modules by absolute path.
struct UserRegistry {
    TempDir dir;
    RegistryLocations locations;
    explicit UserRegistry(const std::string& toml) {
        fs::create_directories(dir.path + "/plugins");
        write_file(dir.path + "/adapters.toml", toml);
        locations.user_registry = dir.path + "/adapters.toml";
        locations.user_plugins = dir.path + "/plugins";
    }
};

std::string module_entry(const std::string& name, const std::string& path) {
    return "[adapters." + name + "]\nmodule = \"" + path + "\"\n";
}

TEST(HostRegistryTest, BrokenModulesAreReportedAndSkipped) {
    const std::string dir = SUTRA_TEST_PLUGIN_DIR;
    UserRegistry user(
        module_entry("missing", dir + "/libnot_there.so") +
        module_entry("bad_abi", dir + "/libsutra_test_bad_abi.so") +
        module_entry("undefined", dir + "/libsutra_test_undefined.so") +
        module_entry("no_entry", dir + "/libsutra_test_no_entry.so") +
        module_entry("claude", std::string(SUTRA_PLUGIN_DIR) + "/libsutra_claude.so"));
    PluginRegistry registry(user.locations);
    ASSERT_EQ(registry.entries().size(), 5u);
    auto expect_error = [&](const char* name, const char* text) {
        auto p = registry.load(name);
        ASSERT_FALSE(p.has_value()) << name;
        EXPECT_NE(p.error().find(text), std::string::npos) << p.error();
    };
    expect_error("missing", "libnot_there.so"); // stat fails before dlopen
    expect_error("bad_abi", "ABI version 99");
    expect_error("undefined", "undefined symbol: sutra_test_function_that_does_not_exist");
    expect_error("no_entry", "missing symbol sutra_plugin_entry");
    EXPECT_TRUE(registry.load("claude").has_value()); // the good one still loads
}

// A module learns what this dispatcher understands once, before any other call; one built
// before host_features existed (its descriptor ends at free_string) loads and works as before.
TEST(HostRegistryTest, ModulesLearnWhatTheDispatcherUnderstandsAndOlderOnesStillLoad) {
    const std::string dir = SUTRA_TEST_PLUGIN_DIR;
    UserRegistry user(module_entry("features", dir + "/libsutra_test_features.so") +
                      module_entry("v1_0", dir + "/libsutra_test_v1_0.so"));
    PluginRegistry registry(user.locations);
    auto features = registry.load("features");
    ASSERT_TRUE(features.has_value()) << features.error();
    const auto told =
        nlohmann::json::parse((*features)->call(Plugin::Op::decode, "{}").value_or("null"));
    EXPECT_EQ(told["calls"], 1);
    const auto& f = told["features"];
    EXPECT_EQ(f, nlohmann::json::parse(host_features_json()));
    EXPECT_EQ(f["abi_version"], SUTRA_PLUGIN_ABI_VERSION);
    EXPECT_EQ(f["abi_minor"], k_abi_minor);
    const auto names = [&](const char* list) { return f[list].get<std::vector<std::string>>(); };
    for (const char* field : {"output", "session", "context", "host_cut", "read_file.name_prefix"})
        EXPECT_NE(std::ranges::count(names("decode"), field), 0) << field;
    EXPECT_NE(std::ranges::count(names("actions"), "respond"), 0);
    EXPECT_NE(std::ranges::count(names("result"), "context"), 0);
    for (const char* option : {"sutra_program", "bash_route", "raise_output_cap", "mcp_tools"})
        EXPECT_NE(std::ranges::count(names("options"), option), 0) << option;
    // Loaded once, told once.
    EXPECT_EQ(
        nlohmann::json::parse(
            (*registry.load("features"))->call(Plugin::Op::decode, "{}").value_or("null"))["calls"],
        1);

    auto old = registry.load("v1_0");
    ASSERT_TRUE(old.has_value()) << old.error();
    EXPECT_EQ(
        nlohmann::json::parse((*old)->call(Plugin::Op::decode, "{}").value_or("null"))["reason"],
        "a module of version 1.0");
}

// The SDK's reading of that text: a name counts only in its own list.
TEST(HostRegistryTest, TheSdkTellsWhetherTheDispatcherReadsAField) {
    sdk::host_features_text().clear();
    EXPECT_FALSE(sdk::host_understands("decode", "output")); // never told: minor 0
    const std::string text = host_features_json();
    sdk::keep_host_features(text.data(), text.size());
    EXPECT_TRUE(sdk::host_understands("decode", "host_cut"));
    EXPECT_TRUE(sdk::host_understands("actions", "respond"));
    EXPECT_TRUE(sdk::host_understands("options", "profile"));
    EXPECT_FALSE(sdk::host_understands("actions", "host_cut"));
    EXPECT_FALSE(sdk::host_understands("decode", "host"));
    EXPECT_FALSE(sdk::host_understands("decode", "future_field"));
    EXPECT_FALSE(sdk::host_understands("nolist", "output"));
    sdk::host_features_text().clear();
}

TEST(HostRegistryTest, GroupWritablePluginsFolderIsRefused) {
    UserRegistry user("");
    const std::string copy = user.dir.path + "/plugins/libsutra_claude.so";
    fs::copy_file(std::string(SUTRA_PLUGIN_DIR) + "/libsutra_claude.so", copy);
    ::chmod(copy.c_str(), 0755);
    write_file(user.locations.user_registry, module_entry("mine", "libsutra_claude.so"));
    ::chmod((user.dir.path + "/plugins").c_str(), 0775);
    {
        PluginRegistry registry(user.locations);
        auto p = registry.load("mine");
        ASSERT_FALSE(p.has_value());
        EXPECT_NE(p.error().find("writable by group"), std::string::npos) << p.error();
    }
    ::chmod((user.dir.path + "/plugins").c_str(), 0755);
    PluginRegistry registry(user.locations);
    EXPECT_TRUE(registry.load("mine").has_value());
}

TEST(HostRegistryTest, GroupWritableRegistryIsAProblem) {
    UserRegistry user(module_entry("x", "libx.so"));
    ::chmod(user.locations.user_registry.c_str(), 0664);
    PluginRegistry registry(user.locations);
    EXPECT_TRUE(registry.entries().empty());
    ASSERT_EQ(registry.problems().size(), 1u);
    EXPECT_NE(registry.problems()[0].find("writable by group"), std::string::npos);
}

TEST(HostRegistryTest, UserEntryOverridesSystemEntry) {
    test::HostSandbox box;
    UserRegistry user(module_entry("claude", "/somewhere/else.so"));
    RegistryLocations l = box.build_tree();
    l.user_registry = user.locations.user_registry;
    l.user_plugins = user.locations.user_plugins;
    PluginRegistry registry(l);
    ASSERT_NE(registry.find("claude"), nullptr);
    EXPECT_EQ(registry.find("claude")->module, "/somewhere/else.so");
    EXPECT_NE(registry.find("codex"), nullptr);
}

// One broken entry costs only itself: the file's other entries load, and the broken one is a
// problem that names the file and line (sutra-host --list and sutra doctor print problems).
TEST(HostRegistryTest, BrokenEntryIsReportedAndTheOthersLoad) {
    const std::string claude = std::string(SUTRA_PLUGIN_DIR) + "/libsutra_claude.so";
    const std::string codex = std::string(SUTRA_PLUGIN_DIR) + "/libsutra_codex.so";
    const std::string text = module_entry("claude", claude) +
                             "[adapters.nomodule]\ndescription = \"forgot its module\"\n" +
                             "[adapters.\"Bad Name\"]\nmodule = \"x.so\"\n" +
                             module_entry("codex", codex);

    const auto file = read_registry_file(text, "/r.toml", "/p");
    ASSERT_TRUE(file.has_value()) << file.error();
    ASSERT_EQ(file->entries.size(), 2u);
    EXPECT_EQ(file->entries[0].name, "claude");
    EXPECT_EQ(file->entries[1].name, "codex");
    ASSERT_EQ(file->problems.size(), 2u);
    EXPECT_NE(file->problems[0].find("/r.toml:5: adapter name 'Bad Name'"), std::string::npos)
        << file->problems[0];
    EXPECT_NE(file->problems[1].find("/r.toml:3: adapters.nomodule needs module"),
              std::string::npos)
        << file->problems[1];

    UserRegistry user(text);
    PluginRegistry registry(user.locations);
    ASSERT_EQ(registry.entries().size(), 2u);
    EXPECT_EQ(registry.find("nomodule"), nullptr);
    ASSERT_EQ(registry.problems().size(), 2u);
    EXPECT_NE(registry.problems()[1].find("plugin registry " + user.locations.user_registry +
                                          ":3: adapters.nomodule needs module"),
              std::string::npos)
        << registry.problems()[1];
    for (const char* name : {"claude", "codex"}) {
        auto p = registry.load(name);
        ASSERT_TRUE(p.has_value()) << name << ": " << p.error();
        EXPECT_EQ((*p)->name(), name);
    }

    // sutra-host --list shows both problems and both working adapters, and exits 1.
    TempDir data;
    ::chmod(data.path.c_str(), 0755);
    fs::create_directories(data.path + "/sutra/plugins");
    write_file(data.path + "/sutra/adapters.toml", text);
    int status = -1;
    const std::string out =
        test::run_command("env HOME='" + data.path + "' XDG_DATA_HOME='" + data.path + "' " +
                              SUTRA_HOST_BINARY + " --list 2>/dev/null",
                          &status);
    EXPECT_EQ(status, 1) << out;
    EXPECT_NE(out.find("problem: plugin registry"), std::string::npos) << out;
    EXPECT_NE(out.find("adapters.nomodule needs module"), std::string::npos) << out;
    EXPECT_NE(out.find("adapter name 'Bad Name'"), std::string::npos) << out;
    EXPECT_NE(out.find(claude + "  abi 1  ok"), std::string::npos) << out;
    EXPECT_NE(out.find(codex + "  abi 1  ok"), std::string::npos) << out;
}

// The persisted-output read: one success and one failure per check.
struct Persisted {
    TempDir dir;
    std::string results = dir.path + "/tool-results";
    std::string file = results + "/abc.txt";
    std::string text = "line one\nline two\n";
    Persisted() {
        fs::create_directories(results);
        write_file(file, text);
    }
};

TEST(HostPersistedReadTest, ReadsTheFullFile) {
    Persisted p;
    auto r = read_persisted_output(p.file, p.text.size(), p.results);
    ASSERT_TRUE(r.has_value()) << r.error();
    EXPECT_EQ(*r, p.text);
}

TEST(HostPersistedReadTest, EveryFailedCheckRefuses) {
    Persisted p;
    const auto n = p.text.size();
    auto refused = [](const std::expected<std::string, std::string>& r, const char* why) {
        ASSERT_FALSE(r.has_value()) << why;
        EXPECT_NE(r.error().find(why), std::string::npos) << r.error();
    };
    refused(read_persisted_output("tool-results/abc.txt", n, p.results), "absolute");
    refused(read_persisted_output(p.results + "/../tool-results/abc.txt", n, p.results), "..");
    write_file(p.results + "/abc.log", p.text);
    refused(read_persisted_output(p.results + "/abc.log", n, p.results), ".txt");
    fs::create_directories(p.results + "/sub");
    write_file(p.results + "/sub/abc.txt", p.text);
    refused(read_persisted_output(p.results + "/sub/abc.txt", n, p.results), "not directly in");
    write_file(p.dir.path + "/outside.txt", p.text);
    refused(read_persisted_output(p.dir.path + "/outside.txt", n, p.results), "not directly in");
    fs::create_symlink(p.dir.path + "/outside.txt", p.results + "/link.txt");
    refused(read_persisted_output(p.results + "/link.txt", n, p.results), "not a regular file");
    fs::create_directories(p.results + "/dir.txt");
    refused(read_persisted_output(p.results + "/dir.txt", n, p.results), "not a regular file");
    refused(read_persisted_output(p.file, n + 1, p.results), "differs");
    refused(read_persisted_output(p.file, n, p.results, n - 1), "larger than the");
    write_file(p.results + "/bad.txt", "ok\xff\xfe\n");
    refused(read_persisted_output(p.results + "/bad.txt", 5, p.results), "UTF-8");
    refused(read_persisted_output(p.results + "/none.txt", 5, p.results), "No such file");
}

} // namespace
} // namespace sutra::host
