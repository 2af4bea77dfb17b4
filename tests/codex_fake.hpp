#pragma once
// A fake `codex` for the Codex trust tests: a shell script that plays `codex app-server`,
// answering initialize and then hooks/list with a canned answer, and records what it was given
// (CODEX_HOME, its working folder, the request lines). SUTRA_CODEX_BIN points the module at it.

#include "tests/host_test_util.hpp"
#include "tests/test_util.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace sutra::test {

class FakeCodex {
public:
    /// How the fake behaves: answer (the canned hooks/list line, then exit), hang (never answers;
    /// a `sleep` child stays in its group), flood (endless output), quit (exits at once).
    enum class Mode { answer, hang, flood, quit };

    FakeCodex(ScopedEnv& env, const std::string& dir) : m_dir(dir) {
        std::filesystem::create_directories(dir);
        write_file(program(), R"sh(#!/bin/sh
dir=$(dirname "$0")
[ "$1" = app-server ] || exit 2
echo "$CODEX_HOME" >"$dir/codex_home"
pwd >"$dir/cwd"
echo x >>"$dir/calls"
case "$(cat "$dir/mode")" in
hang) sleep 600 & echo $! >"$dir/sleep_pid"; wait; exit 0 ;;
flood) while :; do echo '{"method":"configWarning","params":{"summary":"xxxxxxxxxxxxxxxx"}}'; done ;;
quit) exit 0 ;;
esac
while IFS= read -r line; do
    printf '%s\n' "$line" >>"$dir/requests"
    case "$line" in
    *'"id":1,'*) echo '{"id":1,"result":{"userAgent":"fake/0.171.0","codexHome":"x"}}' ;;
    *'"id":2,'*)
        echo '{"method":"configWarning","params":{"summary":"no bubblewrap"}}'
        cat "$dir/answer"
        exit 0 ;;
    esac
done
)sh");
        std::filesystem::permissions(program(), std::filesystem::perms::owner_all);
        set_mode(Mode::answer);
        set_answer("{}");
        env.set("SUTRA_CODEX_BIN", program());
    }

    std::string program() const { return m_dir + "/codex"; }
    std::string dir() const { return m_dir; }

    void set_mode(Mode m) {
        const char* names[] = {"answer", "hang", "flood", "quit"};
        write_file(m_dir + "/mode", std::string(names[static_cast<int>(m)]) + "\n");
    }
    /// The line printed after the hooks/list request, as it is (garbage too).
    void set_answer(const std::string& line) { write_file(m_dir + "/answer", line + "\n"); }

    /// A hooks/list answer listing one PostToolUse hook of `hooks_path`, as Codex 0.171.0 does.
    void list_hook(const std::string& hooks_path,
                   const std::string& command,
                   const std::string& trust_status,
                   bool enabled = true) {
        const nlohmann::json hook = {{"key", hooks_path + ":post_tool_use:0:0"},
                                     {"eventName", "postToolUse"},
                                     {"handlerType", "command"},
                                     {"command", command},
                                     {"matcher", "Bash"},
                                     {"sourcePath", hooks_path},
                                     {"source", "user"},
                                     {"enabled", enabled},
                                     {"currentHash", "sha256:d770"},
                                     {"trustStatus", trust_status}};
        set_answer(nlohmann::json{{"id", 2},
                                  {"result",
                                   {{"data",
                                     {{{"cwd", "/"},
                                       {"hooks", {hook}},
                                       {"warnings", nlohmann::json::array()},
                                       {"errors", nlohmann::json::array()}}}}}}}
                       .dump());
    }

    /// How many times the fake was started.
    int calls() const {
        const std::string path = m_dir + "/calls";
        if (!std::filesystem::exists(path)) return 0;
        const std::string text = read_file(path);
        int n = 0;
        for (char c : text) n += c == '\n' ? 1 : 0;
        return n;
    }

private:
    std::string m_dir;
};

} // namespace sutra::test
