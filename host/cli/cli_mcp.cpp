// `sutra mcp`: its command line. The server itself is host/mcp/server.cpp.

#include "core/compress.hpp"
#include "host/cli/cli.hpp"
#include "host/mcp/server.hpp"
#include "host/mcp/tools.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace sutra::host {
namespace {

bool valid_tool_name(std::string_view name) {
    if (name.empty() || name.size() > 128) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return false;
    return true;
}

bool parse_groups(const std::string& list, std::vector<std::string>& out) {
    out.clear();
    std::size_t start = 0;
    while (start <= list.size()) {
        auto end = list.find(',', start);
        if (end == std::string::npos) end = list.size();
        const std::string name = list.substr(start, end - start);
        bool known = name == "all";
        for (const char* g : mcp::k_tool_groups) known = known || name == g;
        if (!known) return false;
        if (name == "all")
            out.assign(std::begin(mcp::k_tool_groups), std::end(mcp::k_tool_groups));
        else if (std::find(out.begin(), out.end(), name) == out.end())
            out.push_back(name);
        start = end + 1;
    }
    return !out.empty();
}

constexpr const char* k_usage = "usage: sutra mcp [--restore-tool NAME] [--namespace NS] "
                                "[--text-only] [--tools LIST] [--allow-read DIR]...\n"
                                "  serve sutra's tools over MCP on stdio (newline-delimited "
                                "JSON-RPC)\n"
                                "  --restore-tool NAME  how markers name the restore tool "
                                "(default sutra_restore;\n"
                                "                       e.g. mcp__sutra__sutra_restore on Claude "
                                "Code)\n"
                                "  --namespace NS       store namespace for calls that name none\n"
                                "  --text-only          no outputSchema or structuredContent (for "
                                "clients that\n"
                                "                       show the model structuredContent, not the "
                                "text: Claude Code)\n"
                                "  --tools LIST         comma-separated groups to serve: restore, "
                                "compress, stats\n"
                                "                       (the default), files (outline, symbol, "
                                "read), exec, or all\n"
                                "  --allow-read DIR     one more folder the file tools may read "
                                "(they always may\n"
                                "                       read the folder the host starts the server "
                                "in)\n";

} // namespace

int cmd_mcp(const Args& args) {
    mcp::ServerOptions options;
    bool text_only = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool has_value = i + 1 < args.size();
        if (a == "-h" || a == "--help") {
            std::fputs(k_usage, stdout);
            return 0;
        }
        if (a == "--restore-tool") {
            if (!has_value || !valid_tool_name(args[i + 1])) {
                print_error("--restore-tool takes a tool name of 1-128 [A-Za-z0-9_.-]");
                return 2;
            }
            options.restore_tool = args[++i];
        } else if (const auto ns_read = read_namespace_option(args, i, options.store_namespace);
                   ns_read != OptionRead::not_mine) {
            if (ns_read == OptionRead::bad) return 2;
        } else if (a == "--text-only") {
            text_only = true;
        } else if (a == "--tools") {
            if (!has_value || !parse_groups(args[i + 1], options.groups)) {
                print_error("--tools takes a comma-separated list of restore, compress, stats, "
                            "files, exec, or all");
                return 2;
            }
            ++i;
        } else if (a == "--allow-read") {
            char real[PATH_MAX];
            if (!has_value || ::realpath(args[i + 1].c_str(), real) == nullptr) {
                print_error("--allow-read takes an existing folder");
                return 2;
            }
            options.file_roots.emplace_back(real);
            ++i;
        } else {
            print_error("mcp: unknown option '" + a + "'");
            std::fputs(k_usage, stderr);
            return 2;
        }
    }
    if (char cwd[PATH_MAX]; ::realpath(".", cwd) != nullptr) options.file_roots.emplace_back(cwd);
    return mcp::serve_stdio(std::move(options), text_only);
}

} // namespace sutra::host
