// `sutra outline FILE`, `sutra symbol FILE NAME` (docs/outline.md); `sutra read` is cli_read.cpp.
//
// The run_* functions do the work and return text (outline_commands.hpp); the cmd_* functions
// parse the command line and print it.

#include "core/outline/lookup.hpp"
#include "core/outline/outline.hpp"
#include "core/outline/render.hpp"
#include "core/outline/source_text.hpp"
#include "core/tokenizer/tokenizer.hpp"
#include "host/cli/cli.hpp"
#include "host/cli/outline_commands.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdio>

namespace sutra::host {
namespace {

namespace ol = core::outline;
using Json = nlohmann::ordered_json;

constexpr const char* k_outline_usage =
    "usage: sutra outline FILE [--json] [--lang NAME]\n"
    "  one line per symbol (kind, qualified name, line range, signature), nested by indent\n";
constexpr const char* k_symbol_usage =
    "usage: sutra symbol FILE NAME [--kind KIND] [--line N] [--compact | --signature] "
    "[--lang NAME]\n"
    "  the exact bytes of one symbol; NAME may be qualified (Class.method or Class::method)\n"
    "  --compact   function bodies folded behind a comment, so it still parses\n"
    "  --signature the declaration only\n";
// How many symbols a "no such symbol" error shows of the outline.
constexpr std::size_t k_short_outline = 20;

CommandResult failure(int status, std::string message) {
    return CommandResult{status, "", std::move(message) + "\n", "", {}};
}

struct Loaded {
    std::string text;
    ol::Language language = ol::Language::python;
};

std::expected<Loaded, CommandResult>
load(const std::string& path, const std::string& forced, const std::vector<std::string>& within) {
    Loaded loaded;
    if (!forced.empty()) {
        const auto language = ol::parse_language(forced);
        if (!language)
            return std::unexpected(failure(2, fmt::format("unknown language '{}'; supported: {}",
                                                          forced, ol::supported_languages())));
        loaded.language = *language;
    }
    auto text = ol::read_source_file(path, within);
    if (!text) return std::unexpected(failure(1, text.error()));
    loaded.text = std::move(*text);
    if (forced.empty()) {
        const auto language = ol::detect_language(path, loaded.text);
        if (!language)
            return std::unexpected(failure(
                1, fmt::format("{}: unknown language (by extension or #! line); supported: {}; "
                               "or name one with --lang",
                               path, ol::supported_languages())));
        loaded.language = *language;
    }
    return loaded;
}

std::string join_lines(const std::vector<std::size_t>& lines) {
    std::string out;
    for (std::size_t line : lines) out += (out.empty() ? "" : ", ") + std::to_string(line);
    return out;
}

std::string partial_warning(const std::string& path, const ol::Outline& outline) {
    return fmt::format("warning: {}: syntax errors at line{} {}; the outline is partial (symbols "
                       "in or after broken code may be missing or cut short)\n",
                       path, outline.error_lines.size() == 1 ? "" : "s",
                       join_lines(outline.error_lines));
}

std::optional<std::size_t> count_tokens(std::string_view text) {
    namespace tok = core::tokenizer;
    if (!tok::load(tok::Encoding::o200k)) return std::nullopt;
    auto n = tok::count_tokens(text, tok::Encoding::o200k);
    return n ? std::optional<std::size_t>(*n) : std::nullopt;
}

std::expected<ol::Outline, CommandResult> outline_of(const Loaded& loaded) {
    auto outline = ol::outline_source(loaded.text, loaded.language);
    if (!outline) return std::unexpected(failure(1, outline.error()));
    return std::move(*outline);
}

std::string candidate_lines(const ol::Outline& outline, const std::vector<std::size_t>& indexes) {
    std::string out;
    for (std::size_t i : indexes) {
        const ol::Symbol& s = outline.symbols[i];
        out += fmt::format("  {} {} {}-{}  {}\n", s.kind, s.qualified, s.first_line, s.last_line,
                           s.signature);
    }
    return out;
}

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

CommandResult run_outline(const OutlineRequest& request) {
    auto loaded = load(request.path, request.language, request.within);
    if (!loaded) return loaded.error();
    auto outline = outline_of(*loaded);
    if (!outline) return outline.error();
    const std::string body = ol::outline_lines(*outline);
    // Both counts or neither (no rank data in this build); plain values keep GCC 12's
    // -Wmaybe-uninitialized quiet about optionals here.
    const auto counted_file = count_tokens(loaded->text);
    const auto counted_outline = counted_file ? count_tokens(body) : std::nullopt;
    const bool have_tokens = counted_file.has_value() && counted_outline.has_value();
    const std::size_t file_tokens = counted_file.value_or(0);
    const std::size_t outline_tokens = counted_outline.value_or(0);

    CommandResult r;
    if (outline->partial()) {
        r.status = k_status_partial;
        r.err = partial_warning(request.path, *outline);
    }
    if (request.json || request.both) {
        Json symbols = Json::array();
        for (const ol::Symbol& s : outline->symbols) {
            symbols.push_back(Json{{"kind", s.kind},
                                   {"name", s.name},
                                   {"qualified_name", s.qualified},
                                   {"first_line", s.first_line},
                                   {"last_line", s.last_line},
                                   {"begin", s.begin},
                                   {"end", s.end},
                                   {"depth", s.depth},
                                   {"signature", s.signature}});
        }
        Json j{{"file", request.path},
               {"language", std::string(ol::language_name(loaded->language))},
               {"lines", outline->line_count},
               {"bytes", loaded->text.size()},
               {"tokens", have_tokens ? Json(file_tokens) : Json(nullptr)},
               {"outline_bytes", body.size()},
               {"outline_tokens", have_tokens ? Json(outline_tokens) : Json(nullptr)},
               {"partial", outline->partial()},
               {"error_lines", outline->error_lines},
               {"symbols", std::move(symbols)}};
        if (!request.both) {
            r.out = j.dump() + "\n";
            return r;
        }
        r.structured = std::move(j);
    }
    const std::size_t n = outline->symbols.size();
    std::string header =
        fmt::format("# {}: {}, {} symbol{}, {} lines; outline {} of {} bytes", request.path,
                    ol::language_name(loaded->language), n, n == 1 ? "" : "s", outline->line_count,
                    body.size(), loaded->text.size());
    if (have_tokens)
        header += fmt::format(", {} of {} tokens (o200k)", outline_tokens, file_tokens);
    if (outline->partial())
        header +=
            fmt::format("; PARTIAL: syntax errors at lines {}", join_lines(outline->error_lines));
    r.out = header + "\n" + body;
    return r;
}

CommandResult run_symbol(const SymbolRequest& request) {
    auto loaded = load(request.path, request.language, request.within);
    if (!loaded) return loaded.error();
    auto outline = outline_of(*loaded);
    if (!outline) return outline.error();
    const std::string warning = outline->partial() ? partial_warning(request.path, *outline) : "";

    const ol::SymbolQuery query{request.name, request.kind, request.line};
    const auto found = ol::find_symbols(*outline, query);
    if (found.empty()) {
        std::string err =
            fmt::format("{}: no symbol '{}'{}{}", request.path, request.name,
                        request.kind.empty() ? "" : " of kind " + request.kind,
                        request.line ? fmt::format(" at line {}", *request.line) : "");
        const auto closest = ol::closest_names(*outline, request.name);
        if (!closest.empty()) {
            err += "\n  closest names:";
            for (const std::string& name : closest) err += " " + name;
        }
        std::vector<std::size_t> shown;
        for (std::size_t i = 0; i < outline->symbols.size() && shown.size() < k_short_outline; ++i)
            if (outline->symbols[i].depth <= 1) shown.push_back(i);
        if (!shown.empty()) {
            err += fmt::format("\n  outline ({} of {} symbols; `sutra outline {}` has all):\n",
                               shown.size(), outline->symbols.size(), request.path);
            err += candidate_lines(*outline, shown);
        } else {
            err += "\n  the file has no symbols\n";
        }
        return CommandResult{1, "", warning + err, "", {}};
    }
    if (found.size() > 1) {
        std::string err = fmt::format("{}: '{}' is ambiguous, {} symbols match; pick one with "
                                      "--kind, a qualified name (Class.method) or --line:\n",
                                      request.path, request.name, found.size());
        return CommandResult{1, "", warning + err + candidate_lines(*outline, found), "", {}};
    }
    const std::size_t index = found.front();
    const ol::Symbol& s = outline->symbols[index];
    CommandResult r;
    switch (request.form) {
    case SymbolRequest::Form::verbatim:
        r.out = std::string(ol::symbol_text(loaded->text, s));
        break;
    case SymbolRequest::Form::compact:
        r.out = ol::compact_text(loaded->text, *outline, index);
        break;
    case SymbolRequest::Form::signature:
        r.out = ol::signature_text(loaded->text, s);
        break;
    }
    // The slice ends where the definition does, rarely at a newline: end the output with one.
    if (!r.out.ends_with('\n')) r.out += '\n';
    if (outline->partial()) {
        r.status = k_status_partial;
        r.err = warning;
    }
    return r;
}

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
