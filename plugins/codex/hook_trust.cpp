// See hook_trust.hpp.

#include "plugins/codex/hook_trust.hpp"

#include "plugins/common/hook_settings.hpp"

#include <filesystem>
#include <vector>

namespace sutra::plugins::codex {

namespace {

using nlohmann::json;

std::string text_of(const json& h, const char* key) {
    const auto v = h.find(key);
    return v != h.end() && v->is_string() ? v->get<std::string>() : std::string();
}

// Codex may spell the path of hooks.json otherwise (a symlinked CODEX_HOME).
bool same_file(const std::string& a, const std::string& b) {
    if (a == b) return true;
    std::error_code ec;
    return !a.empty() && std::filesystem::equivalent(a, b, ec) && !ec;
}

} // namespace

HookTrust
judge_hooks_list(const json& result, const std::string& hooks_path, const std::string& command) {
    std::vector<json> ours; // sutra's command, exactly
    std::string other;      // another sutra-host command for Codex in that file
    const auto data = result.find("data");
    if (data != result.end() && data->is_array()) {
        for (const auto& cwd : *data) {
            if (!cwd.is_object() || !cwd.contains("hooks") || !cwd["hooks"].is_array()) continue;
            for (const auto& h : cwd["hooks"]) {
                if (!h.is_object() || text_of(h, "eventName") != "postToolUse" ||
                    !same_file(text_of(h, "sourcePath"), hooks_path))
                    continue;
                const std::string c = text_of(h, "command");
                if (c == command)
                    ours.push_back(h);
                else if (common::is_our_command(c, "codex"))
                    other = c;
            }
        }
    }
    if (ours.empty()) {
        if (!other.empty())
            return {false, "another command",
                    "Codex runs another sutra-host command from " + hooks_path + " (" + other +
                        "), not " + command};
        return {false, "not listed",
                "Codex's hooks/list does not list sutra's hook in " + hooks_path +
                    " (hooks turned off in config.toml, or a hooks.json Codex cannot read)"};
    }
    // One entry that runs is enough; else the first tells why.
    for (const auto& h : ours)
        if (text_of(h, "trustStatus") == "trusted" && h.value("enabled", false) == true)
            return {true, "trusted", "Codex reports sutra's hook trusted and enabled"};
    const json& h = ours.front();
    const std::string status = text_of(h, "trustStatus");
    const std::string key = text_of(h, "key");
    const std::string named = "Codex reports sutra's hook (" + key + ") ";
    if (status != "trusted") {
        const std::string meaning = status == "modified"    ? " (changed since it was trusted)"
                                    : status == "untrusted" ? " (never trusted)"
                                                            : "";
        return {false, status.empty() ? "unknown" : status,
                named + (status.empty() ? "without a trust status" : status + meaning) +
                    " and does not run it"};
    }
    return {false, "disabled", named + "disabled (enabled = false) and does not run it"};
}

HookTrust check_hook_trust(const std::string& codex_home,
                           const std::string& command,
                           std::chrono::milliseconds timeout) {
    const std::string program = find_codex();
    if (program.empty())
        return {false, "no codex",
                "no codex program to ask whether it trusts sutra's hook (`codex` in PATH, or "
                "SUTRA_CODEX_BIN)"};
    const auto result = list_hooks(program, codex_home, timeout);
    if (!result)
        return {false, "no answer",
                "could not ask Codex whether it trusts sutra's hook: " + result.error()};
    return judge_hooks_list(*result, codex_home + "/hooks.json", command);
}

} // namespace sutra::plugins::codex
