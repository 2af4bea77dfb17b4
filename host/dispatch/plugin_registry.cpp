// Loading adapter modules: trust checks, Boost.DLL with the throwing overloads (so the dlerror
// text reaches the user), ABI checks before any call.

#include "host/dispatch/plugin_registry.hpp"

#include "core/util/posix_io.hpp"

#include <boost/dll/shared_library.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::host {

namespace fs = std::filesystem;

// A registry lists a handful of adapters; anything larger was not written for us.
constexpr std::size_t k_max_registry_bytes = 1u << 20;

RegistryLocations default_locations() {
    RegistryLocations out;
    // Installed: <prefix>/bin/sutra-host. Build tree: <build>/bin/sutra-host and
    // <build>/host/sutra, with the registry and modules staged under <build>/share and <build>/lib
    // the same way.
    const std::string exe = core::executable_dir();
    if (!exe.empty()) {
        const fs::path prefix = fs::path(exe).parent_path();
        out.system_registry = (prefix / "share/sutra/adapters.toml").string();
        out.system_plugins = (prefix / "lib/sutra/plugins").string();
    }
    std::string data;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x != nullptr && x[0] == '/') {
        data = x;
    } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/') {
        data = std::string(home) + "/.local/share";
    }
    if (!data.empty()) {
        out.user_registry = data + "/sutra/adapters.toml";
        out.user_plugins = data + "/sutra/plugins";
    }
    return out;
}

std::expected<void, std::string> check_trusted(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::unexpected(fmt::format("{}: {}", path, std::strerror(errno)));
    if (st.st_uid != ::geteuid() && st.st_uid != 0)
        return std::unexpected(
            fmt::format("{}: refused: owned by uid {}, not by you (uid {}) or root", path,
                        st.st_uid, ::geteuid()));
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
        return std::unexpected(fmt::format(
            "{}: refused: writable by {} (mode {:o}); loading it would run code others can change",
            path, (st.st_mode & S_IWOTH) != 0 ? "others" : "group", st.st_mode & 07777));
    return {};
}

std::string host_features_json() {
    // What this dispatcher reads and sends (plugin_abi.h); a new field within version 1 adds
    // its name here and raises k_abi_minor.
    return fmt::format(
        R"({{"abi_version":{},"abi_minor":{},)"
        R"("decode":["action","output","tool","command","exit_code","namespace","mode",)"
        R"("session","context","host_cut","reason","route","route.kind","route.tool",)"
        R"("read_file","read_file.path","read_file.size","read_file.allowed_dir",)"
        R"("read_file.name_prefix","read_file.name_suffix"],)"
        R"("actions":["compress","pass","respond"],)"
        R"("result":["view","rewritten","id","original_bytes","context"],)"
        R"("options":["host_program","sutra_program","dry_run","bash_route","wrap_bash",)"
        R"("raise_output_cap","statusline","mcp_tools","profile"]}})",
        SUTRA_PLUGIN_ABI_VERSION, k_abi_minor);
}

std::optional<std::string> Plugin::take(char* text) const {
    if (text == nullptr) return std::nullopt;
    std::string out(text);
    m_descriptor->free_string(text);
    return out;
}

std::optional<std::string> Plugin::call(Op op, std::string_view json) const {
    sutra_plugin_call_fn fn = nullptr;
    switch (op) {
    case Op::decode:
        fn = m_descriptor->decode;
        break;
    case Op::install:
        fn = m_descriptor->install;
        break;
    case Op::uninstall:
        fn = m_descriptor->uninstall;
        break;
    case Op::detect:
        fn = m_descriptor->detect;
        break;
    case Op::doctor:
        fn = m_descriptor->doctor;
        break;
    }
    if (fn == nullptr) return std::nullopt;
    return take(fn(json.data(), json.size()));
}

std::optional<std::string> Plugin::encode(std::string_view payload, std::string_view result) const {
    if (m_descriptor->encode == nullptr) return std::nullopt;
    return take(m_descriptor->encode(payload.data(), payload.size(), result.data(), result.size()));
}

std::string Plugin::name() const {
    return m_descriptor->name != nullptr ? m_descriptor->name : "";
}

struct PluginRegistry::Loaded {
    std::string name;
    boost::dll::shared_library library;
    std::unique_ptr<Plugin> plugin; // destroyed before the library (member order)
};

PluginRegistry::PluginRegistry(const RegistryLocations& locations) {
    if (!locations.system_registry.empty())
        read_registry(locations.system_registry, locations.system_plugins);
    if (!locations.user_registry.empty())
        read_registry(locations.user_registry, locations.user_plugins);
    std::sort(m_entries.begin(), m_entries.end(),
              [](const RegistryEntry& a, const RegistryEntry& b) { return a.name < b.name; });
}

PluginRegistry::~PluginRegistry() = default;

void PluginRegistry::read_registry(const std::string& path, const std::string& plugins_dir) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return; // no registry there is normal
    const std::string dir = fs::path(path).parent_path().string();
    for (const std::string& p : {dir, path}) {
        if (auto ok = check_trusted(p); !ok) {
            m_problems.push_back("plugin registry " + ok.error());
            return;
        }
    }
    // A FIFO or a device in its place must neither block nor flood the hook.
    const auto text = core::read_regular_file(path, k_max_registry_bytes);
    if (!text) {
        m_problems.push_back("plugin registry " + text.error().message);
        return;
    }
    auto parsed = read_registry_file(*text, path, plugins_dir);
    if (!parsed) {
        m_problems.push_back("plugin registry " + parsed.error());
        return;
    }
    // A broken entry is reported and skipped; the file's other entries still load.
    for (const std::string& p : parsed->problems) m_problems.push_back("plugin registry " + p);
    for (RegistryEntry& e : parsed->entries) {
        auto same = std::find_if(m_entries.begin(), m_entries.end(),
                                 [&](const RegistryEntry& x) { return x.name == e.name; });
        if (same != m_entries.end())
            *same = std::move(e); // later registry (the user's) wins
        else
            m_entries.push_back(std::move(e));
    }
}

const RegistryEntry* PluginRegistry::find(std::string_view name) const {
    for (const RegistryEntry& e : m_entries)
        if (e.name == name) return &e;
    return nullptr;
}

std::expected<const Plugin*, std::string> PluginRegistry::load(std::string_view name) {
    for (const auto& l : m_loaded)
        if (l->name == name) return l->plugin.get();
    const RegistryEntry* entry = find(name);
    if (entry == nullptr) return std::unexpected(fmt::format("plugin {}: not registered", name));
    auto fail = [&](const std::string& why) {
        return std::unexpected(fmt::format("plugin {}: {}", name, why));
    };
    const std::string dir = fs::path(entry->module).parent_path().string();
    for (const std::string& p : {dir, entry->module})
        if (auto ok = check_trusted(p); !ok) return fail(ok.error());

    auto loaded = std::make_unique<Loaded>();
    loaded->name = std::string(name);
    try {
        const auto mode = static_cast<boost::dll::load_mode::type>(
            boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local | RTLD_NODELETE);
        loaded->library.load(boost::dll::fs::path(entry->module), mode);
        if (!loaded->library.has(SUTRA_PLUGIN_ENTRY_SYMBOL))
            return fail(
                fmt::format("{}: missing symbol {}", entry->module, SUTRA_PLUGIN_ENTRY_SYMBOL));
        auto& entry_fn = loaded->library.get<const sutra_plugin_v1*()>(SUTRA_PLUGIN_ENTRY_SYMBOL);
        const sutra_plugin_v1* d = entry_fn();
        if (d == nullptr)
            return fail(fmt::format("{}: sutra_plugin_entry returned NULL", entry->module));
        if (d->abi_version != SUTRA_PLUGIN_ABI_VERSION)
            return fail(fmt::format("{}: ABI version {} (this sutra-host speaks {})", entry->module,
                                    d->abi_version, SUTRA_PLUGIN_ABI_VERSION));
        if (d->struct_size < SUTRA_PLUGIN_V1_0_SIZE)
            return fail(fmt::format("{}: descriptor of {} bytes, expected at least {}",
                                    entry->module, d->struct_size, SUTRA_PLUGIN_V1_0_SIZE));
        if (d->decode == nullptr || d->encode == nullptr || d->free_string == nullptr)
            return fail(
                fmt::format("{}: descriptor lacks decode/encode/free_string", entry->module));
        // Fields past the module's struct_size are not read: an older module has none.
        if (d->struct_size >= offsetof(sutra_plugin_v1, host_features) + sizeof d->host_features &&
            d->host_features != nullptr) {
            const std::string features = host_features_json();
            d->host_features(features.data(), features.size());
        }
        loaded->plugin = std::make_unique<Plugin>(d, entry->module);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    m_loaded.push_back(std::move(loaded));
    return m_loaded.back()->plugin.get();
}

} // namespace sutra::host
