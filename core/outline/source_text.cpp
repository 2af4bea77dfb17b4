// Bounded file reads and line ranges (source_text.hpp).

#include "core/outline/source_text.hpp"

#include "core/posix_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace sutra::core::outline {
namespace {

std::expected<std::size_t, std::string> parse_number(std::string_view s, std::string_view part) {
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size())
        return std::unexpected(
            fmt::format("line range '{}' is not A-B with one-based line numbers", part));
    return value;
}

} // namespace

std::expected<std::string, std::string> read_source_file(const std::string& path) {
    // A path the user or an MCP call names: core/posix_io.hpp's rule (never blocks on a FIFO,
    // reads nothing but a regular file, bounded).
    auto text = read_regular_file(path, k_max_source_bytes);
    if (!text) {
        const FileError& e = text.error();
        switch (e.problem) {
        case FileProblem::not_regular:
            return std::unexpected(fmt::format("{}: not a regular file", path));
        case FileProblem::too_large:
            if (e.size != 0)
                return std::unexpected(fmt::format("{}: {} bytes, larger than the {} MiB limit",
                                                   path, e.size, k_max_source_bytes >> 20));
            return std::unexpected(
                fmt::format("{}: larger than the {} MiB limit", path, k_max_source_bytes >> 20));
        case FileProblem::absent:
        case FileProblem::io:
            return std::unexpected(fmt::format("{}: {}", path, std::strerror(e.err)));
        }
        return std::unexpected(e.message);
    }
    if (const auto nul = text->find('\0'); nul != std::string::npos)
        return std::unexpected(
            fmt::format("{}: binary file (NUL byte at offset {}), not source text", path, nul));
    return std::move(*text);
}

std::expected<std::vector<LineRange>, std::string> parse_line_ranges(std::string_view spec) {
    std::vector<LineRange> ranges;
    if (spec.empty()) return std::unexpected(std::string("--lines needs A-B[,C-D...]"));
    std::size_t pos = 0;
    while (pos <= spec.size()) {
        const std::size_t comma = std::min(spec.find(',', pos), spec.size());
        const std::string_view part = spec.substr(pos, comma - pos);
        const std::size_t dash = part.find('-');
        auto first = parse_number(part.substr(0, dash), part);
        if (!first) return std::unexpected(first.error());
        auto last =
            dash == std::string_view::npos ? first : parse_number(part.substr(dash + 1), part);
        if (!last) return std::unexpected(last.error());
        if (*first == 0)
            return std::unexpected(fmt::format("line range '{}': lines start at 1", part));
        if (*last < *first)
            return std::unexpected(fmt::format("line range '{}' ends before it starts", part));
        ranges.push_back({*first, *last});
        pos = comma + 1;
    }
    return ranges;
}

std::expected<std::string, std::string>
read_lines(std::string_view text, const LineIndex& lines, const std::vector<LineRange>& ranges) {
    std::string out;
    for (const LineRange& r : ranges) {
        if (r.first == 0 || r.last < r.first)
            return std::unexpected(fmt::format("line range {}-{} is not valid", r.first, r.last));
        if (r.last > lines.count())
            return std::unexpected(fmt::format("line range {}-{} is past the end: the file has {} "
                                               "line{}",
                                               r.first, r.last, lines.count(),
                                               lines.count() == 1 ? "" : "s"));
        const auto begin = lines.begin(r.first - 1);
        const auto end = lines.end(r.last - 1);
        out.append(text.substr(begin, end - begin));
    }
    return out;
}

std::size_t line_of(const LineIndex& lines, std::size_t offset) {
    if (lines.count() == 0) return 1;
    // starts[i] <= offset < starts[i + 1] on line i (zero-based).
    const auto it = std::upper_bound(lines.starts.begin(), lines.starts.end() - 1,
                                     static_cast<std::uint64_t>(offset));
    const auto index = static_cast<std::size_t>(it - lines.starts.begin());
    return std::clamp<std::size_t>(index, 1, lines.count());
}

} // namespace sutra::core::outline
