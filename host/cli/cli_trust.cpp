// `sutra trust`: record, list and revoke trust in a project's `.sutra.toml` (core/trust.hpp).

#include "core/config.hpp"
#include "core/config_file.hpp"
#include "core/trust.hpp"
#include "host/cli/cli.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

extern char** environ;

namespace sutra::host {

namespace {

const char* const k_trust_usage =
    "usage: sutra trust [PATH]            trust the project file (PATH: a .sutra.toml or its\n"
    "                                     folder; default: the one found from here upwards)\n"
    "       sutra trust --list            the trusted project files and whether they changed\n"
    "       sutra trust --revoke [PATH]   forget a trust\n";

std::map<std::string, std::string> environment() {
    std::map<std::string, std::string> env;
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string entry(*e);
        const auto eq = entry.find('=');
        if (eq != std::string::npos) env.emplace(entry.substr(0, eq), entry.substr(eq + 1));
    }
    return env;
}

std::string working_dir() {
    std::string buf(4096, '\0');
    return ::getcwd(buf.data(), buf.size()) != nullptr ? std::string(buf.c_str()) : std::string{};
}

std::string home(const std::map<std::string, std::string>& env) {
    const auto it = env.find("HOME");
    return it == env.end() ? std::string{} : it->second;
}

// The project file a PATH argument names: a folder means its .sutra.toml.
std::string project_path_for(const std::string& arg,
                             const std::map<std::string, std::string>& env) {
    if (arg.empty()) return core::find_project_file(working_dir(), home(env));
    std::string path = arg.front() == '/' ? arg : working_dir() + "/" + arg;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        path += std::string("/") + core::k_project_file_name;
    return path;
}

void write_out(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
}

int trust(const std::string& arg, const std::map<std::string, std::string>& env) {
    const std::string path = project_path_for(arg, env);
    if (path.empty()) {
        print_error(fmt::format("trust: no {} found from here up to your home folder",
                                core::k_project_file_name));
        return 1;
    }
    core::ProjectRules rules = core::inspect_project_file(path);
    if (rules.state == core::ProjectState::refused) {
        print_error(fmt::format("trust: {}: {}", rules.path, rules.reason));
        return 1;
    }
    // Trusting a file that would be ignored anyway helps nobody: say what is wrong now.
    core::Config scratch;
    const std::string error = core::detail::apply_project_toml(scratch, rules.text, rules.path);
    if (!error.empty()) {
        print_error("trust: " + error);
        return 1;
    }
    const std::string file = core::trust_file_path(env);
    auto entries = core::read_trusts(file);
    if (!entries) {
        print_error("trust: " + entries.error());
        return 1;
    }
    std::erase_if(*entries, [&](const core::TrustEntry& e) { return e.path == rules.path; });
    entries->push_back(core::TrustEntry{rules.path, rules.hash});
    if (auto written = core::write_trusts(file, *entries); !written) {
        print_error("trust: " + written.error());
        return 1;
    }
    write_out(fmt::format("trusted {} ({})\n", rules.path, rules.hash));
    return 0;
}

int list(const std::map<std::string, std::string>& env) {
    auto entries = core::read_trusts(core::trust_file_path(env));
    if (!entries) {
        print_error("trust: " + entries.error());
        return 1;
    }
    if (entries->empty()) write_out("no trusted project files\n");
    for (const core::TrustEntry& e : *entries) {
        const core::ProjectRules now = core::inspect_project_file(e.path);
        std::string state = "trusted";
        if (now.state == core::ProjectState::refused)
            state = "ignored: " + now.reason;
        else if (now.hash != e.hash)
            state = "changed since trusted: ignored";
        write_out(fmt::format("{}  {}  ({})\n", e.path, e.hash, state));
    }
    return 0;
}

int revoke(const std::string& arg, const std::map<std::string, std::string>& env) {
    const std::string path = project_path_for(arg, env);
    const std::string file = core::trust_file_path(env);
    auto entries = core::read_trusts(file);
    if (!entries) {
        print_error("trust: " + entries.error());
        return 1;
    }
    // Match the canonical path, and the literal one for a file that is gone.
    const std::string canonical = path.empty() ? path : core::inspect_project_file(path).path;
    const auto before = entries->size();
    std::erase_if(*entries, [&](const core::TrustEntry& e) {
        return !path.empty() && (e.path == canonical || e.path == path);
    });
    if (entries->size() == before) {
        print_error(fmt::format("trust: {} is not trusted", path.empty() ? "(none found)" : path));
        return 1;
    }
    if (auto written = core::write_trusts(file, *entries); !written) {
        print_error("trust: " + written.error());
        return 1;
    }
    write_out(fmt::format("revoked {}\n", canonical));
    return 0;
}

} // namespace

int cmd_trust(const Args& args) {
    const auto env = environment();
    std::vector<std::string> positional;
    bool want_list = false;
    bool want_revoke = false;
    for (const std::string& arg : args) {
        if (arg == "-h" || arg == "--help") {
            write_out(k_trust_usage);
            return 0;
        }
        if (arg == "--list") {
            want_list = true;
        } else if (arg == "--revoke") {
            want_revoke = true;
        } else if (arg.starts_with("-")) {
            print_error("trust: unknown option '" + arg + "'");
            std::fputs(k_trust_usage, stderr);
            return 2;
        } else {
            positional.push_back(arg);
        }
    }
    if (positional.size() > 1 || (want_list && (want_revoke || !positional.empty()))) {
        std::fputs(k_trust_usage, stderr);
        return 2;
    }
    const std::string arg = positional.empty() ? std::string{} : positional.front();
    if (want_list) return list(env);
    if (want_revoke) return revoke(arg, env);
    return trust(arg, env);
}

void warn_if_project_ignored(const core::Config& config) {
    const core::ProjectRules& p = config.project;
    if (p.state == core::ProjectState::none || p.state == core::ProjectState::applied) return;
    const std::string line = fmt::format("sutra: warning: project file {} {}\n", p.path,
                                         core::describe_project_state(p));
    std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace sutra::host
