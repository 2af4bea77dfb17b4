#pragma once
// Helpers for the host tests: an isolated environment (HOME, host config folders, store) and
// the real adapter modules loaded through the registry.

#include "host/dispatch/plugin_registry.hpp"
#include "tests/test_util.hpp"

#include <cstdlib>
#include <map>
#include <optional>
#include <string>

namespace sutra::test {

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
