// The options several subcommands share: --mode and --mcp-tool (compress, exec) and --namespace
// (compress, exec, restore, mcp). One reader each, so every command checks them alike.

#include "core/compress.hpp"
#include "core/request.hpp"
#include "host/cli/cli.hpp"

#include <optional>
#include <string>

namespace sutra::host {

OptionRead read_view_option(const Args& args,
                            std::size_t& i,
                            std::optional<core::Mode>& mode,
                            core::RestoreRoute& route) {
    const std::string& a = args[i];
    if (a != "--mode" && a != "--mcp-tool") return OptionRead::not_mine;
    if (i + 1 >= args.size()) {
        print_error(a + " needs a value");
        return OptionRead::bad;
    }
    const std::string& v = args[++i];
    if (a == "--mode") {
        const auto m = core::parse_mode(v);
        if (!m) {
            print_error("--mode takes auto, concise, normal, verbose or full");
            return OptionRead::bad;
        }
        mode = *m;
    } else {
        route.kind = core::RestoreRoute::Kind::mcp;
        route.tool = v;
    }
    return OptionRead::read;
}

OptionRead read_namespace_option(const Args& args, std::size_t& i, std::string& store_namespace) {
    if (args[i] != "--namespace") return OptionRead::not_mine;
    if (i + 1 >= args.size() || !core::valid_namespace(args[i + 1])) {
        print_error("--namespace takes 1-64 of [A-Za-z0-9_.-], not \".\" or \"..\"");
        return OptionRead::bad;
    }
    store_namespace = args[++i];
    return OptionRead::read;
}

} // namespace sutra::host
