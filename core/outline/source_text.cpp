// Bounded file reads and line numbers (source_text.hpp).

#include "core/outline/source_text.hpp"

#include "core/util/posix_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace sutra::core::outline {

std::expected<std::string, std::string> read_source_file(const std::string& path,
                                                         const std::vector<std::string>& within) {
    // A path the user or an MCP call names: core/util/read_file.hpp's rule (never blocks on a FIFO,
    // reads nothing but a regular file, bounded).
    auto text = read_regular_file(path, k_max_source_bytes, Links::follow, within);
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
        case FileProblem::outside:
        case FileProblem::refused:
            return std::unexpected(e.message);
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

std::size_t line_of(const LineIndex& lines, std::size_t offset) {
    if (lines.count() == 0) return 1;
    // starts[i] <= offset < starts[i + 1] on line i (zero-based).
    const auto it = std::upper_bound(lines.starts.begin(), lines.starts.end() - 1,
                                     static_cast<std::uint64_t>(offset));
    const auto index = static_cast<std::size_t>(it - lines.starts.begin());
    return std::clamp<std::size_t>(index, 1, lines.count());
}

} // namespace sutra::core::outline
