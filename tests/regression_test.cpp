// Regression tests: each input a fuzz target (fuzz/) or an attack found is replayed here, in the
// normal suite, with the input committed under tests/data/regress/. Each test says what failed.

#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace sutra {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

// A persisted-output path naming a FIFO must be refused by lstat before any open (an open of a
// FIFO without a writer would block the hook), and a device node likewise.
TEST(Regression, PersistedOutputRefusesFifoAndDevice) {
    TempDir tmp;
    const std::string results = tmp.path + "/tool-results";
    fs::create_directories(results);
    const std::string fifo = results + "/fifo.txt";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto r = host::read_persisted_output(fifo, 0, results);
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().find("not a regular file"), std::string::npos) << r.error();
    r = host::read_persisted_output(fifo, 5, results, 64, host::PersistedName{});
    EXPECT_FALSE(r.has_value());

    if (::geteuid() == 0) { // creating a device node needs root (CI runs as root)
        const std::string dev = results + "/zero.txt";
        ASSERT_EQ(::mknod(dev.c_str(), S_IFCHR | 0600, ::makedev(1, 5)), 0); // like /dev/zero
        r = host::read_persisted_output(dev, 0, results);
        ASSERT_FALSE(r.has_value());
        EXPECT_NE(r.error().find("not a regular file"), std::string::npos) << r.error();
    }
    // A symlink to a device outside the folder is refused too.
    const std::string link = results + "/null.txt";
    fs::create_symlink("/dev/null", link);
    r = host::read_persisted_output(link, 0, results);
    EXPECT_FALSE(r.has_value());
}

std::string regress_file(const std::string& name) {
    return test::read_file(std::string(SUTRA_SOURCE_DIR) + "/tests/data/regress/" + name);
}

// fuzz_adapter_*: each module read a key its payload (or the result text) might lack through
// nlohmann's const operator[], which is undefined behaviour (an assertion in debug builds, so
// the ASan pass of CI aborts here). Claude: tool_response without stdout; Codex: a result
// without "view"; OpenCode: an MCP text block without "text"; Hermes: a terminal envelope
// without "output". Each must now pass (decode) or print nothing (encode, the whole hook).
TEST(Regression, AdapterPayloadsMissingAKeyPassThrough) {
    test::HostSandbox box;
    host::PluginRegistry registry{box.build_tree()};
    for (const char* adapter : {"claude", "codex", "opencode", "hermes"}) {
        SCOPED_TRACE(adapter);
        auto plugin = registry.load(adapter);
        ASSERT_TRUE(plugin.has_value()) << plugin.error();
        const std::string payload =
            regress_file(std::string("adapter_") + adapter + "_missing_key.json");
        const auto decoded = (*plugin)->call(host::Plugin::Op::decode, payload);
        ASSERT_TRUE(decoded.has_value());
        const auto d = nlohmann::json::parse(*decoded, nullptr, false);
        ASSERT_TRUE(d.is_object()) << *decoded;
        EXPECT_EQ(d.value("action", std::string()), "pass") << *decoded;
        // The payload itself as the result text: no "view" key.
        const auto encoded = (*plugin)->encode(payload, payload);
        EXPECT_TRUE(!encoded || encoded->empty()) << *encoded;
        std::string why;
        EXPECT_EQ(host::run_hook(**plugin, payload, why), "") << why;
    }
}

} // namespace
} // namespace sutra
