// `sutra read FILE --lines A-B[,C-D...] | --bytes A-B [--max-bytes N]`: the exact bytes of a
// file's lines, a bounded page at a time like a restore (docs/outline.md). The ranges follow the
// one rule of core/ranges.hpp; lines asked for twice are answered once, in file order. run_read
// is shared with the MCP tool sutra_read (host/mcp/tool_files.cpp).

#include "core/config.hpp"
#include "core/outline/source_text.hpp"
#include "core/posix_io.hpp"
#include "core/ranges.hpp"
#include "core/utf8.hpp"
#include "host/cli/cli.hpp"
#include "host/cli/outline_commands.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <unistd.h>

namespace sutra::host {
namespace {

constexpr const char* k_read_usage =
    "usage: sutra read FILE (--lines A-B[,C-D...] | --bytes A-B) [--max-bytes N]\n"
    "  the exact bytes of those lines (one-based, inclusive) or bytes (zero-based, end\n"
    "  exclusive), a page of at most N bytes (default restore.max_bytes, 8192) at a time\n";

CommandResult failure(int status, std::string message) {
    return CommandResult{status, "", std::move(message) + "\n", "", {}};
}

std::optional<std::uint64_t> parse_u64(std::string_view s) {
    std::uint64_t value = 0;
    if (s.empty() || s.size() > 19) return std::nullopt;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return value;
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

int cmd_read(const Args& args) {
    ReadRequest request;
    std::optional<std::string> path;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i];
        if (a == "-h" || a == "--help") return std::fputs(k_read_usage, stdout), 0;
        std::optional<std::string> value; // --name=value or --name value
        if (const auto eq = a.find('='); a.starts_with("--") && eq != std::string::npos) {
            value = a.substr(eq + 1);
            a.resize(eq);
        }
        const bool takes_value = a == "--lines" || a == "--bytes" || a == "--max-bytes";
        if (takes_value && !value) {
            if (i + 1 >= args.size()) {
                print_error("read: " + a + " needs a value");
                return 2;
            }
            value = args[++i];
        }
        if (a == "--lines") {
            // Repeated --lines add up, as one comma list.
            request.lines += (request.lines.empty() ? "" : ",") + *value;
        } else if (a == "--bytes") {
            request.bytes = *value;
        } else if (a == "--max-bytes") {
            const auto n = parse_u64(*value);
            if (!n || *n == 0 || *n > core::k_restore_hard_cap) {
                print_error("read: --max-bytes takes 1 to 65536");
                return 2;
            }
            request.max_bytes = *n;
            request.max_bytes_given = true;
        } else if (a.size() > 1 && a[0] == '-') {
            print_error("read: unknown option '" + a + "'");
            std::fputs(k_read_usage, stderr);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            print_error("read takes one FILE");
            std::fputs(k_read_usage, stderr);
            return 2;
        }
    }
    if (!path || (request.lines.empty() && request.bytes.empty())) {
        print_error(path ? "read needs --lines A-B or --bytes A-B" : "read takes one FILE");
        std::fputs(k_read_usage, stderr);
        return 2;
    }
    request.path = *path;
    if (!request.max_bytes_given) {
        // The same default page as a restore's.
        auto config = core::load_config();
        if (!config) {
            print_error(config.error());
            return 2;
        }
        request.max_bytes = config->restore_max_bytes;
    }
    const CommandResult r = run_read(request);
    if (r.status != 0) {
        std::string err = r.err;
        if (err.ends_with('\n')) err.pop_back();
        print_error(err);
        return r.status;
    }
    const bool ok = core::write_all(STDOUT_FILENO, r.out);
    if (!r.note.empty()) core::write_all(STDERR_FILENO, r.note);
    return ok ? 0 : 1;
}

} // namespace sutra::host
