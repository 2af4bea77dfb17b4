#pragma once
// The line-based rewrite for logs, test runs, builds, tracebacks and plain text.

#include "core/rewrite/classify.hpp"
#include "core/rewrite/line_runs.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/marker.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace sutra::core {

struct TextOptions {
    std::uint64_t budget_bytes = 8192; ///< for everything but critical lines and their context
    std::uint64_t ceiling = 65536;     ///< no view is larger, critical lines included
    std::size_t context_before = 3;    ///< plain lines kept before a critical line
    std::size_t context_after = 4;     ///< plain lines kept after one
    std::size_t max_block = 40;        ///< continuation lines (frames, carets) kept after one
    std::size_t head_lines = 5;        ///< always kept at the start …
    std::size_t tail_lines = 10;       ///< … and at the end, where the verdict is
    std::size_t max_line_bytes = 2048; ///< longer lines lose their middle
    /// Runs of repeated or similar lines fold. Off for a file's own contents (source code,
    /// configuration): similar lines of code are each meant, and only a large middle is elided.
    bool folds = true;
    /// The context a successful run's own error reports get (a memory checker's findings over a
    /// passing test binary): a failing run's, not the lean one its exit status chose. Set when
    /// the mode came from the exit status; the budget for other lines stays as it is.
    struct ErrorContext {
        std::size_t before = 0, after = 0, max_block = 0, max_line_bytes = 0;
    };
    std::optional<ErrorContext> on_errors;
    MarkerContext measure; ///< placeholder context for measuring markers
};

/// The options for an effective mode (never Mode::automatic) under a hard ceiling.
TextOptions text_options(Mode mode, std::uint64_t ceiling);

/// Plans the view of a text-like output. The plan always covers every line: each is kept
/// (perhaps cleaned of escapes, perhaps with its middle elided) or inside exactly one marker.
/// `lines` are index_condensed(bytes): long runs of identical lines are planned condensed.
Plan rewrite_text(std::string_view bytes,
                  const CondensedLines& lines,
                  Shape shape,
                  const KeyMatcher& keys,
                  const TextOptions& options);

/// The lines (zero-based) the rewrite treats as errors, in order: the key-word lines after the
/// rewrite's own rules (a traceback's last line, a located warning, a compiler's notes demoted,
/// a line said word for word before counted once). `sutra restore ID --critical` lists these.
std::vector<std::size_t>
critical_lines(std::string_view bytes, const LineIndex& lines, const KeyMatcher& keys);

} // namespace sutra::core
