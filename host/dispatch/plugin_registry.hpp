#pragma once
// The adapter registry and loader behind `sutra-host` and `sutra install`.
//
// Lifecycle. Registries are read in order: the one installed with the program
// (<prefix>/share/sutra/adapters.toml, modules in <prefix>/lib/sutra/plugins/), then the user's
// ($XDG_DATA_HOME/sutra/adapters.toml, modules in $XDG_DATA_HOME/sutra/plugins/); a user entry
// replaces a system entry of the same name. A module is loaded only when asked for, with
// RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE: missing symbols fail at load time, and the code stays
// mapped for the life of the process, so nothing a module returned can outlive its text. The
// registry owns every library handle. A registry entry that is broken (a bad name, no module)
// is reported and skipped while the file's other entries stand; a module that is missing,
// untrusted, of the wrong ABI or without the entry symbol is reported (with the loader's own
// text) and skipped; nothing here throws.

#include "plugins/abi/plugin_abi.h"

#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::host {

/// Where registries and plugin folders live.
struct RegistryLocations {
    std::string system_registry; ///< adapters.toml installed with the program
    std::string system_plugins;  ///< its modules folder
    std::string user_registry;   ///< $XDG_DATA_HOME/sutra/adapters.toml
    std::string user_plugins;    ///< $XDG_DATA_HOME/sutra/plugins
};

/// Resolves the locations from the running executable (build tree or installed bin/) and
/// XDG_DATA_HOME (default ~/.local/share).
RegistryLocations default_locations();

/// One `[adapters.NAME]` table.
struct RegistryEntry {
    std::string name;
    std::string module; ///< absolute path of the module
    std::string description;
    std::string registry; ///< the file that declared it
};

/// One registry file, read entry by entry: the entries that are valid, and a problem for each
/// one that is not ("FILE:LINE: why"), which is skipped while the others stand.
struct RegistryFile {
    std::vector<RegistryEntry> entries;
    std::vector<std::string> problems;
};

/// Reads one registry file's text; relative `module` paths resolve against `plugins_dir`. Only a
/// file that is not TOML, or whose `adapters` is not a table, is an error as a whole; a broken
/// entry is a problem beside the others. Messages name the file (and line when known).
/// Implemented with toml++ (registry_file.cpp).
std::expected<RegistryFile, std::string> read_registry_file(const std::string& text,
                                                            const std::string& path,
                                                            const std::string& plugins_dir);

/// The strict reading of the same text: every entry valid, or the first problem as the error.
std::expected<std::vector<RegistryEntry>, std::string>
parse_registry(const std::string& text, const std::string& path, const std::string& plugins_dir);

/// Ok when `path` is owned by the current user or root and is not writable by group or
/// others; else says why. Symlinks are followed (the target is what gets loaded).
std::expected<void, std::string> check_trusted(const std::string& path);

/// The minor revision of ABI version 1 this dispatcher speaks: 1 added host_features.
inline constexpr unsigned k_abi_minor = 1;

/// What this dispatcher understands, as handed to a module's host_features (plugin_abi.h).
std::string host_features_json();

/// A loaded module. Calls never throw; std::nullopt means the module failed (NULL return).
class Plugin {
public:
    explicit Plugin(const sutra_plugin_v1* descriptor, std::string path)
        : m_descriptor(descriptor), m_path(std::move(path)) {}

    enum class Op { decode, install, uninstall, detect, doctor };
    std::optional<std::string> call(Op op, std::string_view json) const;
    std::optional<std::string> encode(std::string_view payload, std::string_view result) const;

    std::string name() const;
    const std::string& path() const { return m_path; }
    std::uint32_t abi_version() const { return m_descriptor->abi_version; }

private:
    std::optional<std::string> take(char* text) const;
    const sutra_plugin_v1* m_descriptor;
    std::string m_path;
};

class PluginRegistry {
public:
    /// Reads both registries; problems are collected in problems().
    explicit PluginRegistry(const RegistryLocations& locations);
    ~PluginRegistry();
    PluginRegistry(const PluginRegistry&) = delete;
    PluginRegistry& operator=(const PluginRegistry&) = delete;

    /// Effective entries, sorted by name.
    const std::vector<RegistryEntry>& entries() const { return m_entries; }
    /// Registry-level problems ("plugin registry FILE: why", for a whole file or one broken
    /// entry, which is skipped), in the order found.
    const std::vector<std::string>& problems() const { return m_problems; }
    const RegistryEntry* find(std::string_view name) const;

    /// Loads (once) and returns the named adapter, or the reason it cannot be used.
    std::expected<const Plugin*, std::string> load(std::string_view name);

private:
    void read_registry(const std::string& path, const std::string& plugins_dir);
    struct Loaded;
    std::vector<RegistryEntry> m_entries;
    std::vector<std::string> m_problems;
    std::vector<std::unique_ptr<Loaded>> m_loaded;
};

} // namespace sutra::host
