// One-based line ranges: parsed, checked, merged and paged by one rule (ranges.hpp).

#include "core/rewrite/ranges.hpp"

#include "core/util/utf8.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace sutra::core {
namespace {

std::optional<std::uint64_t> parse_number(std::string_view s) {
    std::uint64_t value = 0;
    if (s.empty() || s.size() > 19) return std::nullopt;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return value;
}

} // namespace

std::expected<std::vector<LineSpan>, std::string> parse_line_spans(std::string_view spec) {
    std::vector<LineSpan> spans;
    if (spec.empty())
        return std::unexpected(std::string("no line range given: give A-B (one-based, "
                                           "inclusive), e.g. 10-20"));
    std::size_t pos = 0;
    while (pos <= spec.size()) {
        const std::size_t comma = std::min(spec.find(',', pos), spec.size());
        const std::string_view part = spec.substr(pos, comma - pos);
        const std::size_t dash = part.find('-');
        const auto first = parse_number(part.substr(0, dash));
        const auto last =
            dash == std::string_view::npos ? first : parse_number(part.substr(dash + 1));
        if (!first || !last)
            return std::unexpected(fmt::format("'{}' is not a line range: give A-B (one-based, "
                                               "inclusive), e.g. 10-20",
                                               part.substr(0, 40)));
        spans.push_back({*first, *last});
        pos = comma + 1;
    }
    return spans;
}

std::expected<LineSpan, std::string> check_line_span(LineSpan span, std::uint64_t count) {
    if (count == 0) return std::unexpected(std::string("there are no lines: the text is empty"));
    const std::string exist = fmt::format("lines 1-{} exist", count);
    if (span.first == 0)
        return std::unexpected(fmt::format("lines are numbered from 1; {}", exist));
    if (span.first > span.last)
        return std::unexpected(
            fmt::format("lines {}-{} run backwards; {}", span.first, span.last, exist));
    if (span.first > count)
        return std::unexpected(fmt::format("line {} is past the end; {}", span.first, exist));
    span.last = std::min(span.last, count);
    return span;
}

std::expected<std::pair<std::uint64_t, std::uint64_t>, std::string>
check_byte_range(std::uint64_t begin, std::uint64_t end, std::uint64_t size) {
    const auto exist = fmt::format("bytes 0-{} exist (zero-based, end exclusive)", size);
    if (begin > end)
        return std::unexpected(fmt::format("bytes {}-{} run backwards; {}", begin, end, exist));
    if (begin > size)
        return std::unexpected(fmt::format("byte {} is past the end; {}", begin, exist));
    return std::pair{begin, std::min(end, size)};
}

std::vector<LineSpan> merge_line_spans(std::vector<LineSpan> spans) {
    std::sort(spans.begin(), spans.end(),
              [](const LineSpan& a, const LineSpan& b) { return a.first < b.first; });
    std::vector<LineSpan> merged;
    for (const LineSpan& s : spans) {
        if (!merged.empty() && s.first <= merged.back().last + 1)
            merged.back().last = std::max(merged.back().last, s.last);
        else
            merged.push_back(s);
    }
    return merged;
}

std::string format_line_spans(const std::vector<LineSpan>& spans) {
    std::string out;
    for (const LineSpan& s : spans) {
        if (!out.empty()) out += ',';
        out +=
            s.first == s.last ? fmt::format("{}", s.first) : fmt::format("{}-{}", s.first, s.last);
    }
    return out;
}

LinePage page_line_spans(std::string_view text,
                         const LineIndex& lines,
                         const std::vector<LineSpan>& spans,
                         std::uint64_t max_bytes) {
    LinePage page;
    max_bytes = std::max<std::uint64_t>(max_bytes, 1);
    for (std::size_t k = 0; k < spans.size(); ++k) {
        const LineSpan span = spans[k];
        if (!page.next.empty()) {
            page.next.push_back(span);
            continue;
        }
        const std::uint64_t room = max_bytes - page.text.size();
        const std::uint64_t begin = lines.begin(span.first - 1);
        // The lines of this span that fit whole: the last line end within the room.
        const std::uint64_t limit = std::min<std::uint64_t>(begin + room, lines.end(span.last - 1));
        const auto after = std::upper_bound(lines.starts.begin() + span.first,
                                            lines.starts.begin() + span.last + 1, limit);
        const auto whole = static_cast<std::uint64_t>(after - lines.starts.begin()) - span.first;
        if (whole > 0) {
            const std::uint64_t last = span.first + whole - 1;
            page.text.append(text.substr(begin, lines.end(last - 1) - begin));
            page.shown.push_back({span.first, last});
            if (last < span.last) page.next.push_back({last + 1, span.last});
            continue;
        }
        if (!page.text.empty()) {
            page.next.push_back(span);
            continue;
        }
        // The first line alone is longer than the page: its start, and the rest by bytes.
        const std::string_view line = text.substr(begin, lines.end(span.first - 1) - begin);
        std::size_t cut = utf8_floor(line, max_bytes);
        if (cut == 0) cut = max_bytes; // a bound under one character: cut the bytes exactly
        page.text.assign(line.substr(0, cut));
        page.rest = std::pair{begin + cut, begin + line.size()};
        page.rest_line = span.first;
        if (span.first < span.last) page.next.push_back({span.first + 1, span.last});
    }
    return page;
}

} // namespace sutra::core
