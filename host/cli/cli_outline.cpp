// `sutra outline FILE`, `sutra symbol FILE NAME` (docs/outline.md); `sutra read` is cli_read.cpp.
// The answers come from the core (core/outline/file_commands.hpp); these parse the command line
// and print them.

#include "core/outline/file_commands.hpp"
#include "host/cli/cli.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <expected>

namespace sutra::host {
namespace {

using namespace core::outline;

constexpr const char* k_outline_usage =
    "usage: sutra outline FILE [--json] [--lang NAME]\n"
    "  one line per symbol (kind, qualified name, line range, signature), nested by indent\n";
constexpr const char* k_symbol_usage =
    "usage: sutra symbol FILE NAME [--kind KIND] [--line N] [--compact | --signature] "
    "[--lang NAME]\n"
    "  the exact bytes of one symbol; NAME may be qualified (Class.method or Class::method)\n"
    "  --compact   function bodies folded behind a comment, so it still parses\n"
    "  --signature the declaration only\n";
std::expected<std::size_t, std::string> parse_count(const std::string& text) {
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0)
        return std::unexpected("'" + text + "' is not a line number (1 or more)");
    return value;
}

// Prints a result the way every command does.
int emit(const CommandResult& r) {
    std::fwrite(r.out.data(), 1, r.out.size(), stdout);
    std::fflush(stdout);
    std::string_view err = r.err;
    while (!err.empty()) {
        const std::size_t nl = err.find('\n');
        const std::string_view line = err.substr(0, nl);
        // Indented lines continue the message above them (candidates, closest names).
        const bool continuation = line.starts_with(' ') || line.empty();
        const bool warning = line.starts_with("warning: ");
        std::string text = continuation ? std::string(line)
                           : warning    ? "sutra: " + std::string(line)
                                        : "sutra: error: " + std::string(line);
        text += '\n';
        std::fwrite(text.data(), 1, text.size(), stderr);
        if (nl == std::string_view::npos) break;
        err.remove_prefix(nl + 1);
    }
    return r.status;
}

// Splits arguments into positionals and options; `with_value` names options taking one.
struct Parsed {
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> options;
};

std::expected<Parsed, std::string> split_args(const Args& args,
                                              std::initializer_list<std::string_view> with_value,
                                              std::initializer_list<std::string_view> flags) {
    Parsed p;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i];
        if (a.size() < 2 || a[0] != '-') {
            p.positional.push_back(a);
            continue;
        }
        std::string value;
        bool has_value = false;
        if (const auto eq = a.find('='); eq != std::string::npos && a.starts_with("--")) {
            value = a.substr(eq + 1);
            a.resize(eq);
            has_value = true;
        }
        if (std::ranges::find(with_value, a) != with_value.end()) {
            if (!has_value) {
                if (i + 1 >= args.size()) return std::unexpected(a + " needs a value");
                value = args[++i];
            }
            p.options.emplace_back(a, value);
        } else if (std::ranges::find(flags, a) != flags.end() && !has_value) {
            p.options.emplace_back(a, "");
        } else {
            return std::unexpected("unknown option '" + a + "'");
        }
    }
    return p;
}

bool wants_help(const Args& args) {
    return std::ranges::any_of(args,
                               [](const std::string& a) { return a == "-h" || a == "--help"; });
}

} // namespace

int cmd_outline(const Args& args) {
    if (wants_help(args)) return std::fputs(k_outline_usage, stdout), 0;
    auto parsed = split_args(args, {"--lang"}, {"--json"});
    if (!parsed || parsed->positional.size() != 1) {
        print_error(parsed ? "outline takes one FILE" : "outline: " + parsed.error());
        std::fputs(k_outline_usage, stderr);
        return 2;
    }
    OutlineRequest request;
    request.path = parsed->positional[0];
    for (const auto& [name, value] : parsed->options) {
        if (name == "--json") request.json = true;
        if (name == "--lang") request.language = value;
    }
    return emit(run_outline(request));
}

int cmd_symbol(const Args& args) {
    if (wants_help(args)) return std::fputs(k_symbol_usage, stdout), 0;
    auto parsed = split_args(args, {"--kind", "--line", "--lang"}, {"--compact", "--signature"});
    if (!parsed || parsed->positional.size() != 2) {
        print_error(parsed ? "symbol takes FILE and NAME" : "symbol: " + parsed.error());
        std::fputs(k_symbol_usage, stderr);
        return 2;
    }
    SymbolRequest request;
    request.path = parsed->positional[0];
    request.name = parsed->positional[1];
    int forms = 0;
    for (const auto& [name, value] : parsed->options) {
        if (name == "--kind") request.kind = value;
        if (name == "--lang") request.language = value;
        if (name == "--compact") request.form = SymbolRequest::Form::compact, ++forms;
        if (name == "--signature") request.form = SymbolRequest::Form::signature, ++forms;
        if (name == "--line") {
            auto line = parse_count(value);
            if (!line) {
                print_error("symbol: --line: " + line.error());
                return 2;
            }
            request.line = *line;
        }
    }
    if (forms > 1) {
        print_error("symbol: --compact and --signature exclude each other");
        return 2;
    }
    return emit(run_symbol(request));
}

} // namespace sutra::host
