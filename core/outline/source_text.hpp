#pragma once
// Reading a source file for `sutra outline`, `symbol` and `read`: bounded and text only. Line
// ranges (`sutra read`) follow the rules every command shares, in core/rewrite/ranges.hpp.

#include "core/rewrite/lines.hpp"

#include <cstddef>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core::outline {

/// Files larger than this are refused rather than read: an outline of a 16 MiB file is not
/// something a model should be handed, and it bounds memory.
constexpr std::size_t k_max_source_bytes = std::size_t{16} << 20;

/// The whole file. Errors (messages name the file as given): it cannot be opened or is not a
/// regular file, it is larger than k_max_source_bytes, or it holds a NUL byte (binary). With
/// `within`, the file as opened must lie under one of those folders (core/util/posix_io.hpp).
std::expected<std::string, std::string>
read_source_file(const std::string& path, const std::vector<std::string>& within = {});

/// The one-based line holding byte `offset` (offsets at or past the end give the last line).
std::size_t line_of(const LineIndex& lines, std::size_t offset);

} // namespace sutra::core::outline
