#pragma once
// Helpers for the host tests: an isolated environment (HOME, host config folders, store) and
// the real adapter modules loaded through the registry.

#include "host/dispatch/plugin_registry.hpp"
#include "tests/test_util.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace sutra::test {

/// What in_child returns when `fn` did not finish before its alarm.
inline constexpr int k_hung = 200;

/// Runs `fn` in a forked child under an alarm: its return value, k_hung when it hung, 100+signal
/// when it crashed. A test of a hang or a crash then fails instead of hanging or dying itself.
inline int in_child(const std::function<int()>& fn, unsigned seconds = 30) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::alarm(seconds);
        ::_exit(fn());
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return WTERMSIG(status) == SIGALRM ? k_hung : 100 + WTERMSIG(status);
}

/// Sets environment variables for one test and restores them afterwards.
class ScopedEnv {
public:
    ScopedEnv() = default;
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;
    ~ScopedEnv() {
        for (const auto& [name, old] : m_saved) {
            if (old)
                ::setenv(name.c_str(), old->c_str(), 1);
            else
                ::unsetenv(name.c_str());
        }
    }
    void set(const std::string& name, const std::optional<std::string>& value) {
        if (!m_saved.contains(name)) {
            const char* old = std::getenv(name.c_str());
            m_saved[name] = old ? std::optional<std::string>(old) : std::nullopt;
        }
        if (value)
            ::setenv(name.c_str(), value->c_str(), 1);
        else
            ::unsetenv(name.c_str());
    }

private:
    std::map<std::string, std::optional<std::string>> m_saved;
};

/// A throwaway HOME with Claude, Codex and sutra pointed inside it.
struct HostSandbox {
    TempDir dir;
    ScopedEnv env;
    HostSandbox() {
        env.set("HOME", dir.path);
        env.set("CLAUDE_CONFIG_DIR", dir.path + "/claude");
        env.set("CODEX_HOME", dir.path + "/codex");
        env.set("XDG_DATA_HOME", dir.path + "/data");
        env.set("XDG_CONFIG_HOME", dir.path + "/config");
        env.set("SUTRA_CONFIG", std::nullopt);
        env.set("SUTRA_HOME", dir.path + "/store");
        env.set("SUTRA_STATS", "0");
        env.set("SUTRA_MODE", std::nullopt);
        env.set("SUTRA_MIN_BYTES", std::nullopt);
    }
    /// Locations with the build tree's registry and no user registry.
    host::RegistryLocations build_tree() const {
        host::RegistryLocations l;
        l.system_registry = std::string(SUTRA_PLUGIN_DIR) + "/../../../share/sutra/adapters.toml";
        l.system_plugins = SUTRA_PLUGIN_DIR;
        return l;
    }
};

} // namespace sutra::test
