#pragma once
// Long runs of identical lines, condensed for the text rewrite. A million blank lines, or one line
// printed a million times, would otherwise cost the planner a million entries in each of its
// per-line arrays and passes, though every copy is decided alike. Condensed, such a run keeps its
// first k_run_edge copies, one line that stands for the copies in between (its "weight"), and
// its last k_run_edge copies: the planner folds, selects and marks the run as before, and every
// range it names maps back exactly, because the standing line's byte range is all its copies.

#include "core/rewrite/lines.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace sutra::core {

/// Copies kept before and after the line that stands for the middle of a run.
inline constexpr std::size_t k_run_edge = 4;
/// Runs shorter than this stay as they are: only long runs change the planner's work.
inline constexpr std::size_t k_run_min = 32;

struct CondensedLines {
    /// The lines, addressed by byte offsets of the original: a standing line's range is its
    /// copies, all of them.
    LineIndex index;
    /// first[i]: the zero-based original line that line i starts at; first.back() is the
    /// original's line count. Empty when no run was condensed: line i is original line i.
    std::vector<std::uint64_t> first;

    bool condensed() const { return !first.empty(); }
    /// The original's line count.
    std::uint64_t original_lines() const { return first.empty() ? index.count() : first.back(); }
    /// How many original lines line i stands for.
    std::uint64_t weight(std::size_t i) const {
        return first.empty() ? 1 : first[i + 1] - first[i];
    }
};

/// The lines of `bytes`, long runs condensed, in one pass: when runs are found the full index
/// is never built (a million blank lines cost a few entries, not a million).
CondensedLines index_condensed(std::string_view bytes);

/// The same, from a full index of `bytes` (as restore has one): the same lines, the same runs.
CondensedLines condense_runs(std::string_view bytes, const LineIndex& lines);

} // namespace sutra::core
