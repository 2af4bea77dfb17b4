#include "core/config.hpp"
#include "core/config_settings.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>
#include <string>

namespace sutra::core {
namespace {

using Env = std::map<std::string, std::string>;
using ::testing::HasSubstr;

const std::string k_path = "/tmp/sutra-test/config.toml";

Config load_ok(const std::string& text, const Env& env = {}) {
    auto config = load_config_from(text, k_path, env);
    EXPECT_TRUE(config.has_value()) << (config ? "" : config.error());
    return config.value_or(Config{});
}

std::string load_error(const std::string& text, const Env& env = {}) {
    auto config = load_config_from(text, k_path, env);
    EXPECT_FALSE(config.has_value()) << "expected an error for:\n" << text;
    return config ? std::string{} : config.error();
}

// Sets or unsets a variable for one scope and puts the old value back.
class ScopedEnv {
public:
    ScopedEnv(const char* name, std::optional<std::string> value) : m_name(name) {
        if (const char* old = std::getenv(name)) m_old = old;
        if (value)
            ::setenv(name, value->c_str(), 1);
        else
            ::unsetenv(name);
    }
    ~ScopedEnv() {
        if (m_old)
            ::setenv(m_name, m_old->c_str(), 1);
        else
            ::unsetenv(m_name);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* m_name;
    std::optional<std::string> m_old;
};

TEST(ConfigTest, DefaultsWhenFileEmptyAndNoEnv) {
    Config c = load_ok("");
    Config d;
    EXPECT_EQ(c.mode, Mode::automatic);
    EXPECT_EQ(c.min_bytes, d.min_bytes);
    EXPECT_EQ(c.min_lines, d.min_lines);
    EXPECT_EQ(c.max_view_bytes, d.max_view_bytes);
    EXPECT_EQ(c.max_input_bytes, d.max_input_bytes);
    EXPECT_EQ(c.min_saving_percent, d.min_saving_percent);
    EXPECT_TRUE(c.keep_patterns.empty());
    EXPECT_TRUE(c.store_enabled);
    EXPECT_TRUE(c.store_dir.empty());
    EXPECT_EQ(c.max_entry_bytes, d.max_entry_bytes);
    EXPECT_EQ(c.max_total_bytes, d.max_total_bytes);
    EXPECT_EQ(c.max_entries, d.max_entries);
    EXPECT_EQ(c.ttl_seconds, d.ttl_seconds);
    EXPECT_FALSE(c.fsync);
    EXPECT_EQ(c.restore_max_bytes, d.restore_max_bytes);
    EXPECT_TRUE(c.stats_enabled);
    EXPECT_EQ(c.stats_max_bytes, d.stats_max_bytes);
    EXPECT_EQ(c.config_path, k_path);
}

TEST(ConfigTest, EverySettingHasADefaultSource) {
    Config c = load_ok("");
    const char* names[] = {"compress.mode",
                           "compress.min_bytes",
                           "compress.min_lines",
                           "compress.max_view_bytes",
                           "compress.max_input_bytes",
                           "compress.min_saving_percent",
                           "compress.keep_patterns",
                           "store.enabled",
                           "store.dir",
                           "store.max_entry_bytes",
                           "store.max_total_bytes",
                           "store.max_entries",
                           "store.ttl_seconds",
                           "store.fsync",
                           "restore.max_bytes",
                           "stats.enabled",
                           "stats.max_bytes",
                           "stats.count_tokens"};
    EXPECT_EQ(c.sources.size(), std::size(names));
    for (const char* name : names) {
        ASSERT_TRUE(c.sources.contains(name)) << name;
        EXPECT_EQ(c.sources.at(name), "default") << name;
    }
}

TEST(ConfigTest, FileOverridesDefaultsWithLineSources) {
    const std::string text = "# comment\n"
                             "[compress]\n"
                             "mode = \"verbose\"\n"
                             "min_bytes = 100\n"
                             "min_lines = 5\n"
                             "max_view_bytes = 4096\n"
                             "max_input_bytes = 1000000\n"
                             "min_saving_percent = 25\n"
                             "keep_patterns = [\"FATAL\", \"panic\"]\n"
                             "\n"
                             "[store]\n"
                             "enabled = false\n"
                             "dir = \"/var/tmp/sutra-store\"\n"
                             "max_entry_bytes = 1024\n"
                             "max_total_bytes = 2048\n"
                             "max_entries = 7\n"
                             "ttl_seconds = 60\n"
                             "fsync = true\n"
                             "[restore]\n"
                             "max_bytes = 65536\n"
                             "[stats]\n"
                             "enabled = false\n"
                             "max_bytes = 999\n";
    Config c = load_ok(text);
    EXPECT_EQ(c.mode, Mode::verbose);
    EXPECT_EQ(c.min_bytes, 100u);
    EXPECT_EQ(c.min_lines, 5u);
    EXPECT_EQ(c.max_view_bytes, 4096u);
    EXPECT_EQ(c.max_input_bytes, 1000000u);
    EXPECT_EQ(c.min_saving_percent, 25u);
    EXPECT_EQ(c.keep_patterns, (std::vector<std::string>{"FATAL", "panic"}));
    EXPECT_FALSE(c.store_enabled);
    EXPECT_EQ(c.store_dir, "/var/tmp/sutra-store");
    EXPECT_EQ(c.max_entry_bytes, 1024u);
    EXPECT_EQ(c.max_total_bytes, 2048u);
    EXPECT_EQ(c.max_entries, 7u);
    EXPECT_EQ(c.ttl_seconds, 60);
    EXPECT_TRUE(c.fsync);
    EXPECT_EQ(c.restore_max_bytes, 65536u);
    EXPECT_FALSE(c.stats_enabled);
    EXPECT_EQ(c.stats_max_bytes, 999u);

    EXPECT_EQ(c.sources.at("compress.mode"), k_path + ":3");
    EXPECT_EQ(c.sources.at("compress.min_bytes"), k_path + ":4");
    EXPECT_EQ(c.sources.at("compress.keep_patterns"), k_path + ":9");
    EXPECT_EQ(c.sources.at("store.enabled"), k_path + ":12");
    EXPECT_EQ(c.sources.at("store.fsync"), k_path + ":18");
    EXPECT_EQ(c.sources.at("restore.max_bytes"), k_path + ":20");
    EXPECT_EQ(c.sources.at("stats.max_bytes"), k_path + ":23");
}

TEST(ConfigTest, UntouchedSettingsKeepDefaultSource) {
    Config c = load_ok("[compress]\nmin_bytes = 10\n");
    EXPECT_EQ(c.sources.at("compress.min_bytes"), k_path + ":2");
    EXPECT_EQ(c.sources.at("compress.min_lines"), "default");
    EXPECT_EQ(c.sources.at("store.dir"), "default");
}

TEST(ConfigTest, DottedAndInlineTablesWork) {
    Config c = load_ok("compress.min_lines = 3\nstore = { ttl_seconds = 5 }\n");
    EXPECT_EQ(c.min_lines, 3u);
    EXPECT_EQ(c.ttl_seconds, 5);
    EXPECT_EQ(c.sources.at("compress.min_lines"), k_path + ":1");
    EXPECT_EQ(c.sources.at("store.ttl_seconds"), k_path + ":2");
}

TEST(ConfigTest, EnvOverridesFile) {
    const std::string text = "[compress]\n"
                             "mode = \"verbose\"\n"
                             "min_bytes = 100\n"
                             "max_view_bytes = 4096\n"
                             "[store]\n"
                             "enabled = true\n"
                             "dir = \"/from/file\"\n"
                             "ttl_seconds = 60\n"
                             "[restore]\n"
                             "max_bytes = 100\n"
                             "[stats]\n"
                             "enabled = true\n";
    Env env{{"SUTRA_MODE", "concise"},          {"SUTRA_STORE", "off"},
            {"SUTRA_HOME", "/from/env"},        {"SUTRA_MIN_BYTES", "7"},
            {"SUTRA_MAX_VIEW_BYTES", "9000"},   {"SUTRA_TTL_SECONDS", "3600"},
            {"SUTRA_RESTORE_MAX_BYTES", "200"}, {"SUTRA_STATS", "0"}};
    Config c = load_ok(text, env);
    EXPECT_EQ(c.mode, Mode::concise);
    EXPECT_FALSE(c.store_enabled);
    EXPECT_EQ(c.store_dir, "/from/env");
    EXPECT_EQ(c.min_bytes, 7u);
    EXPECT_EQ(c.max_view_bytes, 9000u);
    EXPECT_EQ(c.ttl_seconds, 3600);
    EXPECT_EQ(c.restore_max_bytes, 200u);
    EXPECT_FALSE(c.stats_enabled);
    EXPECT_EQ(c.sources.at("compress.mode"), "env SUTRA_MODE");
    EXPECT_EQ(c.sources.at("store.enabled"), "env SUTRA_STORE");
    EXPECT_EQ(c.sources.at("store.dir"), "env SUTRA_HOME");
    EXPECT_EQ(c.sources.at("compress.min_bytes"), "env SUTRA_MIN_BYTES");
    EXPECT_EQ(c.sources.at("compress.max_view_bytes"), "env SUTRA_MAX_VIEW_BYTES");
    EXPECT_EQ(c.sources.at("store.ttl_seconds"), "env SUTRA_TTL_SECONDS");
    EXPECT_EQ(c.sources.at("restore.max_bytes"), "env SUTRA_RESTORE_MAX_BYTES");
    EXPECT_EQ(c.sources.at("stats.enabled"), "env SUTRA_STATS");
}

TEST(ConfigTest, StoreEnvSwitch) {
    for (const char* off : {"0", "false", "off", "OFF"})
        EXPECT_FALSE(load_ok("", {{"SUTRA_STORE", off}}).store_enabled) << off;
    for (const char* on : {"1", "true", "on"})
        EXPECT_TRUE(load_ok("[store]\nenabled = false\n", {{"SUTRA_STORE", on}}).store_enabled)
            << on;
    EXPECT_THAT(load_error("", {{"SUTRA_STORE", "maybe"}}), HasSubstr("SUTRA_STORE"));
}

TEST(ConfigTest, StatsEnvSwitch) {
    EXPECT_FALSE(load_ok("", {{"SUTRA_STATS", "0"}}).stats_enabled);
    EXPECT_TRUE(load_ok("[stats]\nenabled = false\n", {{"SUTRA_STATS", "1"}}).stats_enabled);
}

TEST(ConfigTest, KeepEnvAppendsToFile) {
    Config c = load_ok("[compress]\nkeep_patterns = [\"FATAL\"]\n",
                       {{"SUTRA_KEEP", "panic, OOM,,segfault"}});
    EXPECT_EQ(c.keep_patterns, (std::vector<std::string>{"FATAL", "panic", "OOM", "segfault"}));
    EXPECT_EQ(c.sources.at("compress.keep_patterns"), k_path + ":2, env SUTRA_KEEP");

    Config only_env = load_ok("", {{"SUTRA_KEEP", "alpha"}});
    EXPECT_EQ(only_env.keep_patterns, (std::vector<std::string>{"alpha"}));
    EXPECT_EQ(only_env.sources.at("compress.keep_patterns"), "env SUTRA_KEEP");

    EXPECT_THAT(load_error("", {{"SUTRA_KEEP", "ok," + std::string(101, 'x')}}),
                HasSubstr("SUTRA_KEEP"));
}

TEST(ConfigTest, EmptyEnvValuesCountAsUnset) {
    Config c =
        load_ok("[compress]\nmin_bytes = 5\n", {{"SUTRA_MIN_BYTES", ""}, {"SUTRA_MODE", ""}});
    EXPECT_EQ(c.min_bytes, 5u);
    EXPECT_EQ(c.mode, Mode::automatic);
}

TEST(ConfigTest, BadEnvValuesNameTheVariable) {
    struct Case {
        const char* name;
        const char* value;
    };
    for (Case bad : {Case{"SUTRA_MODE", "loud"}, Case{"SUTRA_MIN_BYTES", "12kb"},
                     Case{"SUTRA_MIN_BYTES", "-1"}, Case{"SUTRA_MAX_VIEW_BYTES", "x"},
                     Case{"SUTRA_TTL_SECONDS", "99999999999999999999999"},
                     Case{"SUTRA_RESTORE_MAX_BYTES", "65537"}, Case{"SUTRA_RESTORE_MAX_BYTES", "0"},
                     Case{"SUTRA_STATS", "2"}, Case{"SUTRA_HOME", "relative/dir"}}) {
        std::string error = load_error("", {{bad.name, bad.value}});
        EXPECT_THAT(error, HasSubstr(bad.name)) << bad.value;
    }
}

// The line an error points at must be the offending one, not the section header.
TEST(ConfigTest, WrongTypesAreErrorsWithLine) {
    struct Case {
        std::string body; // appended after line 1 "[section]", so the bad value is on line 2
        std::string section;
    };
    const Case cases[] = {
        {"mode = 3", "compress"},        {"min_bytes = \"2048\"", "compress"},
        {"min_lines = 2.5", "compress"}, {"keep_patterns = \"FATAL\"", "compress"},
        {"enabled = \"yes\"", "store"},  {"dir = 5", "store"},
        {"fsync = 1", "store"},          {"ttl_seconds = 1979-05-27", "store"},
        {"max_bytes = true", "restore"}, {"enabled = 0", "stats"},
    };
    for (const Case& c : cases) {
        std::string text = "[" + c.section + "]\n" + c.body + "\n";
        std::string error = load_error(text);
        EXPECT_THAT(error, HasSubstr(k_path + ":2: ")) << text;
        EXPECT_THAT(error, HasSubstr("must be")) << text;
    }
}

TEST(ConfigTest, KeepPatternElementErrorsPointAtTheElement) {
    std::string error = load_error("[compress]\nkeep_patterns = [\n  \"ok\",\n  42,\n]\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":4: "));
    EXPECT_THAT(error, HasSubstr("strings"));

    error = load_error("[compress]\nkeep_patterns = [\n  \"\",\n]\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":3: "));

    error = load_error("[compress]\nkeep_patterns = [\"" + std::string(101, 'k') + "\"]\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":2: "));
    EXPECT_NO_FATAL_FAILURE(
        load_ok("[compress]\nkeep_patterns = [\"" + std::string(100, 'k') + "\"]\n"));
}

TEST(ConfigTest, OutOfRangeValuesAreErrorsWithLine) {
    const std::pair<std::string, std::string> cases[] = {
        {"[compress]", "min_saving_percent = 91"},
        {"[compress]", "min_saving_percent = -1"},
        {"[compress]", "min_bytes = -1"},
        {"[compress]", "max_view_bytes = 0"},
        {"[compress]", "mode = \"loud\""},
        {"[store]", "max_entries = -5"},
        {"[store]", "ttl_seconds = -1"},
        {"[store]", "dir = \"relative/path\""},
        {"[store]", "dir = \"\""},
        {"[restore]", "max_bytes = 0"},
        {"[restore]", "max_bytes = 65537"},
        {"[stats]", "max_bytes = -100"},
    };
    for (const auto& [header, line] : cases) {
        // Three lines of padding so the bad value is on line 5.
        std::string text = "# a\n\n" + header + "\n# b\n" + line + "\n";
        std::string error = load_error(text);
        EXPECT_THAT(error, HasSubstr(k_path + ":5: ")) << text;
    }
    EXPECT_NO_FATAL_FAILURE(load_ok("[compress]\nmin_saving_percent = 90\nmin_bytes = 0\n"));
    EXPECT_NO_FATAL_FAILURE(load_ok("[restore]\nmax_bytes = 1\n"));
}

// The setting table drives the file, the environment and `sutra config` alike: every integer
// setting takes its bounds and refuses one past them, from the file and from its variable, and
// the value read is the value `sutra config` prints.
TEST(ConfigTest, EveryIntegerSettingTakesItsRangeFromTheFileAndItsVariable) {
    int integers = 0;
    for (const detail::SettingInfo& s : detail::settings()) {
        if (s.type != detail::SettingType::integer) continue;
        ++integers;
        const std::string name(s.name);
        const auto dot = name.find('.');
        const auto toml = [&](std::int64_t v) {
            return "[" + name.substr(0, dot) + "]\n" + name.substr(dot + 1) + " = " +
                   std::to_string(v) + "\n";
        };
        // The store must hold its largest entry: raise its total when the entry grows.
        const std::string together =
            name == "store.max_entry_bytes" ? "[store]\nmax_total_bytes = 1099511627776\n" : "";
        for (const std::int64_t v : {s.min, s.max}) {
            // The store must hold its largest entry: the other of the pair is set to allow it.
            std::string text = toml(v);
            if (name == "store.max_entry_bytes")
                text = "[store]\nmax_entry_bytes = " + std::to_string(v) +
                       "\nmax_total_bytes = 1099511627776\n";
            if (name == "store.max_total_bytes")
                text =
                    "[store]\nmax_total_bytes = " + std::to_string(v) + "\nmax_entry_bytes = 1\n";
            const Config c = load_ok(text);
            EXPECT_THAT(describe_config(c), HasSubstr(name + " = " + std::to_string(v) + "  #"))
                << name;
        }
        EXPECT_THAT(load_error(toml(s.max + 1)), HasSubstr(name)) << name;
        if (s.min > 0) {
            EXPECT_THAT(load_error(toml(s.min - 1)), HasSubstr(name)) << name;
        }
        if (!s.env.empty()) {
            const std::string var(s.env);
            EXPECT_THAT(load_error("", {{var, std::to_string(s.max + 1)}}), HasSubstr(var));
            if (name != "store.max_entry_bytes" && name != "store.max_total_bytes") {
                const Config c = load_ok("", {{var, std::to_string(s.max)}});
                EXPECT_EQ(c.sources.at(name), "env " + var);
                EXPECT_THAT(describe_config(c), HasSubstr(name + " = " + std::to_string(s.max)));
            }
        }
    }
    EXPECT_GE(integers, 10);
}

TEST(ConfigTest, UnknownKeysAndSectionsAreErrors) {
    std::string error = load_error("[compress]\nmin_bytes = 1\nmin_byte = 2\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":3: "));
    EXPECT_THAT(error, HasSubstr("compress.min_byte"));

    error = load_error("\n[compres]\nmode = \"auto\"\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":2: "));
    EXPECT_THAT(error, HasSubstr("compres"));

    error = load_error("mode = \"auto\"\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":1: "));
    EXPECT_THAT(error, HasSubstr("mode"));

    error = load_error("[store.nested]\nx = 1\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":1: "));

    error = load_error("compress = 5\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":1: "));
}

TEST(ConfigTest, EarliestErrorInTheFileIsReported) {
    // toml++ keeps keys sorted; the message must still point at the first bad line.
    std::string error = load_error("[store]\nttl_seconds = -1\n[compress]\nmin_bytes = -1\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":2: "));
    EXPECT_THAT(error, HasSubstr("store.ttl_seconds"));

    error = load_error("[compress]\nzzz = 1\naaa = 2\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":2: "));
    EXPECT_THAT(error, HasSubstr("compress.zzz"));
}

TEST(ConfigTest, SyntaxErrorsGiveLineAndColumn) {
    std::string error = load_error("[compress]\nmin_bytes = 10\nmode = \"auto\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":3:"));

    error = load_error("[compress]\n\nmin_bytes = = 3\n");
    EXPECT_THAT(error, ::testing::StartsWith(k_path + ":3:"));
    // PATH:LINE:COL: description
    EXPECT_THAT(error, ::testing::MatchesRegex(".*:3:[0-9]+: .+"));

    error = load_error("[compress]\nmin_bytes = 1\nmin_bytes = 2\n");
    EXPECT_THAT(error, HasSubstr(k_path + ":3:"));
}

TEST(ConfigTest, ResolveStoreDirPrecedence) {
    ScopedEnv home("HOME", "/home/tester");
    ScopedEnv state("XDG_STATE_HOME", std::nullopt);
    Config c;
    EXPECT_EQ(resolve_store_dir(c), "/home/tester/.local/state/sutra");
    {
        ScopedEnv xdg("XDG_STATE_HOME", "/xdg/state");
        EXPECT_EQ(resolve_store_dir(c), "/xdg/state/sutra");
        {
            // Relative XDG values are ignored, as the XDG spec asks.
            ScopedEnv relative("XDG_STATE_HOME", "relative");
            EXPECT_EQ(resolve_store_dir(c), "/home/tester/.local/state/sutra");
        }
        c.store_dir = "/explicit/store";
        EXPECT_EQ(resolve_store_dir(c), "/explicit/store");
    }
    Config from_env = load_ok("[store]\ndir = \"/from/file\"\n", {{"SUTRA_HOME", "/from/env"}});
    EXPECT_EQ(resolve_store_dir(from_env), "/from/env");
    Config from_file = load_ok("[store]\ndir = \"/from/file\"\n");
    EXPECT_EQ(resolve_store_dir(from_file), "/from/file");
}

TEST(ConfigTest, ResolveStoreDirWithoutHomeUsesPasswd) {
    ScopedEnv home("HOME", std::nullopt);
    ScopedEnv state("XDG_STATE_HOME", std::nullopt);
    std::string dir = resolve_store_dir(Config{});
    EXPECT_TRUE(dir.starts_with("/")) << dir;
    EXPECT_TRUE(dir.ends_with("/.local/state/sutra")) << dir;
}

TEST(ConfigTest, TildeInStoreDirExpands) {
    Config c = load_ok("[store]\ndir = \"~/sutra-store\"\n", {{"HOME", "/home/tilde"}});
    EXPECT_EQ(c.store_dir, "/home/tilde/sutra-store");
}

TEST(ConfigTest, DescribeListsEverySettingWithSource) {
    Config c = load_ok("[compress]\nmode = \"full\"\nkeep_patterns = [\"a\\\"b\"]\n",
                       {{"SUTRA_MIN_BYTES", "77"}, {"SUTRA_HOME", "/store/here"}});
    std::string text = describe_config(c);
    EXPECT_THAT(text, HasSubstr("compress.mode = \"full\"  # " + k_path + ":2\n"));
    EXPECT_THAT(text, HasSubstr("compress.keep_patterns = [\"a\\\"b\"]  # " + k_path + ":3\n"));
    EXPECT_THAT(text, HasSubstr("compress.min_bytes = 77  # env SUTRA_MIN_BYTES\n"));
    EXPECT_THAT(text, HasSubstr("store.enabled = true  # default\n"));
    EXPECT_THAT(text, HasSubstr("store.ttl_seconds = 604800  # default\n"));
    EXPECT_THAT(text, HasSubstr("config file = " + k_path + " (not found)\n"));
    EXPECT_THAT(text, HasSubstr("store dir = /store/here\n"));
    // Fixed order: compress before store before restore before stats.
    auto pos = [&](const char* s) { return text.find(s); };
    EXPECT_LT(pos("compress.mode"), pos("compress.min_bytes"));
    EXPECT_LT(pos("compress.keep_patterns"), pos("store.enabled"));
    EXPECT_LT(pos("store.fsync"), pos("restore.max_bytes"));
    EXPECT_LT(pos("restore.max_bytes"), pos("stats.enabled"));
    EXPECT_LT(pos("stats.max_bytes"), pos("config file ="));
    // 18 settings + config file + store dir.
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 20);
}

TEST(ConfigTest, LoadConfigReadsSutraConfigFile) {
    char dir_template[] = "/tmp/sutra-config-test-XXXXXX";
    ASSERT_NE(::mkdtemp(dir_template), nullptr);
    std::string dir = dir_template;
    std::string path = dir + "/config.toml";
    {
        FILE* f = std::fopen(path.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs("[compress]\nmin_lines = 42\n", f);
        std::fclose(f);
    }
    {
        ScopedEnv config_env("SUTRA_CONFIG", path);
        ScopedEnv min_bytes("SUTRA_MIN_BYTES", "11");
        auto c = load_config();
        ASSERT_TRUE(c.has_value()) << c.error();
        EXPECT_EQ(c->config_path, path);
        EXPECT_EQ(c->min_lines, 42u);
        EXPECT_EQ(c->sources.at("compress.min_lines"), path + ":2");
        EXPECT_EQ(c->min_bytes, 11u);
        EXPECT_THAT(describe_config(*c), HasSubstr("config file = " + path + " (found)"));
    }
    {
        // A missing file is fine; the path is still reported.
        ScopedEnv config_env("SUTRA_CONFIG", dir + "/missing.toml");
        auto c = load_config();
        ASSERT_TRUE(c.has_value()) << c.error();
        EXPECT_EQ(c->config_path, dir + "/missing.toml");
    }
    {
        // A directory is not a config file.
        ScopedEnv config_env("SUTRA_CONFIG", dir);
        auto c = load_config();
        ASSERT_FALSE(c.has_value());
        EXPECT_THAT(c.error(), HasSubstr(dir));
    }
    {
        // Oversized files are refused rather than read without bound.
        std::string big = dir + "/big.toml";
        FILE* f = std::fopen(big.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::string line(1023, '#');
        line += "\n";
        for (int i = 0; i < 1025; ++i) std::fputs(line.c_str(), f);
        std::fclose(f);
        ScopedEnv config_env("SUTRA_CONFIG", big);
        auto c = load_config();
        ASSERT_FALSE(c.has_value());
        EXPECT_THAT(c.error(), HasSubstr("1 MiB"));
        std::remove(big.c_str());
    }
    std::remove(path.c_str());
    ::rmdir(dir.c_str());
}

TEST(ConfigTest, ConfigPathFromXdgThenHome) {
    ScopedEnv config_env("SUTRA_CONFIG", std::nullopt);
    ScopedEnv home("HOME", "/nonexistent-home");
    {
        ScopedEnv xdg("XDG_CONFIG_HOME", "/nonexistent-xdg");
        auto c = load_config();
        ASSERT_TRUE(c.has_value()) << c.error();
        EXPECT_EQ(c->config_path, "/nonexistent-xdg/sutra/config.toml");
    }
    ScopedEnv xdg("XDG_CONFIG_HOME", std::nullopt);
    auto c = load_config();
    ASSERT_TRUE(c.has_value()) << c.error();
    EXPECT_EQ(c->config_path, "/nonexistent-home/.config/sutra/config.toml");
}

// The shipped example must stay valid: as is, and with every setting uncommented.
TEST(ConfigTest, ShippedExampleConfigParses) {
    std::ifstream in(std::string(SUTRA_SOURCE_DIR) + "/config/config.toml");
    ASSERT_TRUE(in.good());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Config as_is = load_ok(text);
    for (const auto& [name, source] : as_is.sources) EXPECT_EQ(source, "default") << name;

    std::string uncommented =
        std::regex_replace(text, std::regex("^# ([a-z_]+ = )", std::regex::multiline), "$1");
    Config all = load_ok(uncommented, {{"HOME", "/home/example"}});
    Config d;
    int from_file = 0;
    for (const auto& [name, source] : all.sources) from_file += source != "default";
    EXPECT_EQ(from_file, 17);
    EXPECT_EQ(all.mode, d.mode);
    EXPECT_EQ(all.min_bytes, d.min_bytes);
    EXPECT_EQ(all.min_lines, d.min_lines);
    EXPECT_EQ(all.max_view_bytes, d.max_view_bytes);
    EXPECT_EQ(all.max_input_bytes, d.max_input_bytes);
    EXPECT_EQ(all.min_saving_percent, d.min_saving_percent);
    EXPECT_EQ(all.store_dir, "/home/example/.local/state/sutra");
    EXPECT_EQ(all.max_entry_bytes, d.max_entry_bytes);
    EXPECT_EQ(all.max_total_bytes, d.max_total_bytes);
    EXPECT_EQ(all.max_entries, d.max_entries);
    EXPECT_EQ(all.ttl_seconds, d.ttl_seconds);
    EXPECT_EQ(all.restore_max_bytes, d.restore_max_bytes);
    EXPECT_EQ(all.stats_max_bytes, d.stats_max_bytes);
}

} // namespace
} // namespace sutra::core
