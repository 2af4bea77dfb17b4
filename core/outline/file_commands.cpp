// See file_commands.hpp: `sutra outline`, `sutra symbol` and `sutra read` without their command
// lines (host/cli/ parses those and prints the answers).

#include "core/outline/file_commands.hpp"

#include "core/config.hpp"
#include "core/outline/lookup.hpp"
#include "core/outline/outline.hpp"
#include "core/outline/render.hpp"
#include "core/outline/source_text.hpp"
#include "core/rewrite/ranges.hpp"
#include "core/tokenizer/tokenizer.hpp"
#include "core/util/posix_io.hpp"
#include "core/util/utf8.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace sutra::core::outline {
namespace {

namespace ol = core::outline;
using Json = nlohmann::ordered_json;

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

std::optional<std::pair<std::uint64_t, std::uint64_t>> parse_byte_range(std::string_view s) {
    const std::size_t dash = s.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    const auto a = parse_u64(s.substr(0, dash));
    const auto b = parse_u64(s.substr(dash + 1));
    if (!a || !b) return std::nullopt;
    return std::pair{*a, *b};
}

// A path as a shell word: bare when it is plainly safe, else single-quoted.
std::string shell_word(const std::string& s) {
    const bool plain = !s.empty() && std::ranges::all_of(s, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '/' || c == '.' || c == '_' || c == '-' || c == '+' || c == ',';
    });
    if (plain) return s;
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The next call, in the caller's dialect: `sutra read FILE --lines A-B` or
// `TOOL(path="FILE", lines="A-B")`.
std::string
spell_read(const ReadRequest& request, std::string_view kind, const std::string& range) {
    if (request.tool.empty()) {
        std::string call =
            fmt::format("sutra read {} --{} {}", shell_word(request.path), kind, range);
        if (request.max_bytes_given) call += fmt::format(" --max-bytes {}", request.max_bytes);
        return call;
    }
    std::string call = fmt::format("{}(path={}, {}=\"{}\"", request.tool,
                                   nlohmann::json(request.path).dump(), kind, range);
    if (request.max_bytes_given) call += fmt::format(", max_bytes={}", request.max_bytes);
    return call + ")";
}

// The largest cut of `bytes` at most `bound` long on a character boundary; a bound under one
// character cuts the bytes exactly, so a page never holds nothing nor outgrows its bound.
std::size_t page_cut(std::string_view bytes, std::uint64_t bound) {
    if (bytes.size() <= bound) return bytes.size();
    const std::size_t cut = core::utf8_floor(bytes, static_cast<std::size_t>(bound));
    return cut == 0 ? static_cast<std::size_t>(bound) : cut;
}

} // namespace

std::optional<std::uint64_t> parse_u64(std::string_view s) {
    std::uint64_t value = 0;
    if (s.empty() || s.size() > 19) return std::nullopt;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return value;
}

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

CommandResult run_read(const ReadRequest& request, ReadPage* page_out) {
    if (request.lines.empty() == request.bytes.empty())
        return failure(2, "read takes --lines A-B[,C-D...] or --bytes A-B");
    std::vector<core::LineSpan> spans;
    std::pair<std::uint64_t, std::uint64_t> asked_bytes;
    if (!request.lines.empty()) {
        auto parsed = core::parse_line_spans(request.lines);
        if (!parsed) return failure(2, parsed.error());
        spans = std::move(*parsed);
    } else {
        const auto parsed = parse_byte_range(request.bytes);
        if (!parsed)
            return failure(2, fmt::format("'{}' is not a byte range: give A-B (zero-based, end "
                                          "exclusive), e.g. 0-4096",
                                          request.bytes.substr(0, 40)));
        asked_bytes = *parsed;
    }
    auto text = core::outline::read_source_file(request.path, request.within);
    if (!text) return failure(1, text.error());
    const std::uint64_t max_bytes =
        std::clamp<std::uint64_t>(request.max_bytes, 1, core::k_restore_hard_cap);
    const core::LineIndex index = core::index_lines(*text);
    ReadPage page;
    page.total_lines = index.count();
    page.total_bytes = text->size();
    CommandResult r;

    if (!request.bytes.empty()) {
        const auto range =
            core::check_byte_range(asked_bytes.first, asked_bytes.second, text->size());
        if (!range) return failure(1, request.path + ": " + range.error());
        const std::string_view want =
            std::string_view(*text).substr(range->first, range->second - range->first);
        const std::size_t cut = page_cut(want, max_bytes);
        r.out.assign(want.substr(0, cut));
        if (cut < want.size()) {
            page.next_bytes = std::pair{range->first + cut, range->second};
            r.note = fmt::format(
                "bytes {}-{} of {}\nnext: {}\n", range->first, range->first + cut, text->size(),
                spell_read(request, "bytes",
                           fmt::format("{}-{}", page.next_bytes->first, page.next_bytes->second)));
        }
    } else {
        for (core::LineSpan& span : spans) {
            const auto checked = core::check_line_span(span, index.count());
            if (!checked) return failure(1, request.path + ": " + checked.error());
            span = *checked;
        }
        core::LinePage lines =
            core::page_line_spans(*text, index, core::merge_line_spans(spans), max_bytes);
        r.out = std::move(lines.text);
        page.next_lines = core::format_line_spans(lines.next);
        page.rest = lines.rest;
        page.rest_line = lines.rest_line;
        if (lines.rest) {
            r.note = fmt::format(
                "line {} is longer than the page: its first {} bytes, of {}\n"
                "rest of line {}: {}\n",
                lines.rest_line, r.out.size(),
                lines.rest->second - lines.rest->first + r.out.size(), lines.rest_line,
                spell_read(request, "bytes",
                           fmt::format("{}-{}", lines.rest->first, lines.rest->second)));
        } else if (!lines.next.empty()) {
            r.note = fmt::format("lines {} of {} ({} bytes; a page holds at most {})\n",
                                 core::format_line_spans(lines.shown), index.count(), r.out.size(),
                                 max_bytes);
        }
        if (!lines.next.empty())
            r.note += "next: " + spell_read(request, "lines", page.next_lines) + "\n";
    }
    if (page_out) *page_out = std::move(page);
    return r;
}

} // namespace sutra::core::outline
