// The configuration, from defaults to the Config every entry point is handed. Order of
// precedence: defaults, then the user's config.toml, then a trusted project .sutra.toml, then the
// environment. One setting table (core/config_settings.cpp, with each integer's range) is what
// the TOML file may set (config_file.cpp, which alone includes toml++), what SUTRA_* variables may
// override (apply_env here), what a trusted project file may set (project_may_set), and what
// `sutra config` prints (describe_config here). The files depend one way: config -> config_file
// -> config_settings -> config_values (the Config struct).

#include "core/config.hpp"

#include "core/config_file.hpp"
#include "core/config_settings.hpp"
#include "core/util/posix_io.hpp"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

extern char** environ;

namespace sutra::core {

namespace {

using detail::SettingInfo;
using detail::SettingType;
using detail::toml_string;

constexpr std::size_t k_max_config_bytes = 1 << 20;

// Settings that are each in range but nonsensical together; checked once every layer is in.
std::string check_together(const Config& c) {
    if (c.max_total_bytes < c.max_entry_bytes) {
        const auto source = [&](const char* name) { return c.sources.at(name); };
        return fmt::format("store.max_total_bytes ({}, {}) must be at least store.max_entry_bytes "
                           "({}, {}): the store must hold the largest entry it accepts",
                           c.max_total_bytes, source("store.max_total_bytes"), c.max_entry_bytes,
                           source("store.max_entry_bytes"));
    }
    return {};
}

std::string env_value(const std::map<std::string, std::string>& env, const std::string& name) {
    auto it = env.find(name);
    return it == env.end() ? std::string{} : it->second;
}

std::string expand_tilde(const std::string& path, const std::string& home_env) {
    if (path == "~" || path.starts_with("~/")) return home_dir(home_env) + path.substr(1);
    return path;
}

// XDG says relative values are invalid and must be ignored.
std::string xdg_dir(const std::string& value) {
    return !value.empty() && value.front() == '/' ? value : std::string{};
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::optional<bool> parse_bool(std::string_view s) {
    std::string v = lower(s);
    if (v == "1" || v == "true" || v == "on" || v == "yes") return true;
    if (v == "0" || v == "false" || v == "off" || v == "no") return false;
    return std::nullopt;
}

std::string describe_value(const Config& c, const SettingInfo& s) {
    if (s.u64 != nullptr) return fmt::format("{}", c.*(s.u64));
    if (s.u32 != nullptr) return fmt::format("{}", c.*(s.u32));
    if (s.i64 != nullptr) return fmt::format("{}", c.*(s.i64));
    if (s.flag != nullptr) return fmt::format("{}", c.*(s.flag));
    if (s.name == "compress.mode") return toml_string(to_string(c.mode));
    if (s.name == "store.dir") return toml_string(c.store_dir);
    if (s.name == "compress.keep_patterns") {
        std::string out = "[";
        for (std::size_t i = 0; i < c.keep_patterns.size(); ++i) {
            if (i > 0) out += ", ";
            out += toml_string(c.keep_patterns[i]);
        }
        return out + "]";
    }
    return "?";
}

std::string apply_env_setting(Config& config, const SettingInfo& s, const std::string& value) {
    switch (s.type) {
    case SettingType::integer: {
        std::int64_t n = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec == std::errc::result_out_of_range) return fmt::format("{} is too large", value);
        if (ec != std::errc{} || end != value.data() + value.size())
            return fmt::format("expected an integer, got '{}'", value);
        return detail::set_integer(config, s.name, n);
    }
    case SettingType::boolean: {
        std::optional<bool> b = parse_bool(value);
        if (!b) return fmt::format("expected 0/1, false/true or off/on, got '{}'", value);
        return detail::set_boolean(config, s.name, *b);
    }
    case SettingType::string:
        return detail::set_string(config, s.name, value);
    case SettingType::string_array:
        break;
    }
    return "unsupported setting";
}

std::string apply_env(Config& config, const std::map<std::string, std::string>& env) {
    // An empty variable counts as unset, as with the XDG variables.
    for (const SettingInfo& s : detail::settings()) {
        if (s.env.empty() || s.type == SettingType::string_array) continue;
        std::string value = env_value(env, std::string(s.env));
        if (value.empty()) continue;
        std::string error = apply_env_setting(config, s, value);
        if (!error.empty()) return fmt::format("env {}: {}", s.env, error);
        config.sources[std::string(s.name)] = fmt::format("env {}", s.env);
    }

    std::string keep = env_value(env, "SUTRA_KEEP");
    bool appended = false;
    for (std::size_t pos = 0; pos <= keep.size() && !keep.empty();) {
        std::size_t comma = keep.find(',', pos);
        if (comma == std::string::npos) comma = keep.size();
        std::string item = keep.substr(pos, comma - pos);
        pos = comma + 1;
        // Spaces after commas are for readability, not part of the pattern.
        auto first = item.find_first_not_of(" \t");
        if (first == std::string::npos) continue;
        item = item.substr(first, item.find_last_not_of(" \t") - first + 1);
        std::string error = detail::check_keep_pattern(item);
        if (!error.empty()) return fmt::format("env SUTRA_KEEP: {}", error);
        config.keep_patterns.push_back(std::move(item));
        appended = true;
    }
    if (appended) {
        std::string& source = config.sources["compress.keep_patterns"];
        source = source == "default" ? "env SUTRA_KEEP" : source + ", env SUTRA_KEEP";
    }
    return {};
}

// Bounded read of the user's file (core/util/read_file.hpp); a missing file is an empty config.
std::expected<std::string, std::string> read_config_file(const std::string& path) {
    auto text = read_regular_file(path, k_max_config_bytes);
    if (text) return std::move(*text);
    const FileError& e = text.error();
    if (e.problem == FileProblem::absent) return std::string{};
    if (e.problem == FileProblem::too_large) return std::unexpected(path + ": larger than 1 MiB");
    return std::unexpected(e.message);
}

std::string config_file_path(const std::map<std::string, std::string>& env) {
    std::string explicit_path = env_value(env, "SUTRA_CONFIG");
    if (!explicit_path.empty()) return explicit_path;
    std::string xdg = xdg_dir(env_value(env, "XDG_CONFIG_HOME"));
    if (!xdg.empty()) return xdg + "/sutra/config.toml";
    std::string home = home_dir(env_value(env, "HOME"));
    if (home.empty()) return {};
    return home + "/.config/sutra/config.toml";
}

std::map<std::string, std::string> process_env() {
    std::map<std::string, std::string> env;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        std::string_view entry(*e);
        auto eq = entry.find('=');
        if (eq == std::string_view::npos) continue;
        env.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
    }
    return env;
}

} // namespace

namespace {

// The layers in order; `project` (when not null) holds a project file already found and
// checked, applied only when trusted.
std::expected<Config, std::string> load_layers(const std::string& toml_text,
                                               const std::string& path,
                                               ProjectRules* project,
                                               const std::map<std::string, std::string>& env) {
    Config config;
    config.config_path = path;
    for (const SettingInfo& s : detail::settings()) config.sources[std::string(s.name)] = "default";

    std::string error = detail::apply_toml(config, toml_text, path);
    if (!error.empty()) return std::unexpected(error);
    if (project != nullptr) {
        if (project->state == ProjectState::applied) {
            // A broken or overreaching project file is ignored as a whole, never half-applied.
            error = detail::apply_project_toml(config, project->text, project->path);
            if (!error.empty()) {
                project->state = ProjectState::invalid;
                project->reason = error;
            }
        }
        config.project = *project;
        config.project.text.clear();
    }
    error = apply_env(config, env);
    if (!error.empty()) return std::unexpected(error);
    error = check_together(config);
    if (!error.empty()) return std::unexpected(error);

    // Store an absolute path so every consumer sees the same directory.
    config.store_dir = expand_tilde(config.store_dir, env_value(env, "HOME"));
    return config;
}

std::string current_dir() {
    std::string buf(4096, '\0');
    if (::getcwd(buf.data(), buf.size()) == nullptr) return {};
    return buf.c_str();
}

} // namespace

std::expected<Config, std::string> load_config_from(const std::string& toml_text,
                                                    const std::string& path,
                                                    const std::map<std::string, std::string>& env) {
    return load_layers(toml_text, path, nullptr, env);
}

std::expected<Config, std::string> load_config_in(const std::string& cwd,
                                                  const std::map<std::string, std::string>& env) {
    std::string path = config_file_path(env);
    std::string text;
    if (!path.empty()) {
        auto read = read_config_file(path);
        if (!read) return std::unexpected(read.error());
        text = std::move(*read);
    }
    ProjectRules project = resolve_project_rules(cwd, env);
    return load_layers(text, path, &project, env);
}

std::expected<Config, std::string> load_config() {
    return load_config_in(current_dir(), process_env());
}

std::string resolve_store_dir(const Config& config) {
    const char* home = std::getenv("HOME");
    std::string home_env = home != nullptr ? home : "";
    if (!config.store_dir.empty()) return expand_tilde(config.store_dir, home_env);
    const char* state = std::getenv("XDG_STATE_HOME");
    std::string xdg = xdg_dir(state != nullptr ? state : "");
    if (!xdg.empty()) return xdg + "/sutra";
    return home_dir(home_env) + "/.local/state/sutra";
}

std::string describe_config(const Config& config) {
    std::string out;
    for (const SettingInfo& s : detail::settings()) {
        auto it = config.sources.find(std::string(s.name));
        std::string_view source = "default";
        if (it != config.sources.end()) source = it->second;
        out += fmt::format("{} = {}  # {}\n", s.name, describe_value(config, s), source);
    }
    if (config.config_path.empty()) {
        out += "config file = (none)\n";
    } else {
        struct stat st {};
        bool found = ::stat(config.config_path.c_str(), &st) == 0;
        out += fmt::format("config file = {} ({})\n", config.config_path,
                           found ? "found" : "not found");
    }
    if (config.project.state != ProjectState::none)
        out += fmt::format("project file = {} ({})\n", config.project.path,
                           describe_project_state(config.project));
    out += fmt::format("store dir = {}\n", resolve_store_dir(config));
    return out;
}

} // namespace sutra::core
