#pragma once
// The core's entry point: eligibility, shape, rewrite, storage, markers, never-worse, fail-open.

#include "core/config.hpp"
#include "core/request.hpp"
#include "core/stats.hpp"

#include <string_view>

namespace sutra::core {

/// Compresses one tool result. Never throws and never loses a byte: on any failure, or when a
/// view would not be meaningfully smaller, or when the original cannot be stored, the response
/// says `rewritten = false` and the original is what the host should keep. A lossy view is
/// only returned once the original is in the store (or when the user turned retention off).
/// The same bytes and configuration give the same view in any process.
Response compress(const Request& request, const Config& config) noexcept;

/// A rewrite's stats record whose exact token counts are still to be made. Counting maps an 11 MB
/// rank table and reads the original and the view (about 3 ms for a 60 kB output), so a caller
/// that answers a waiting host (the hook) counts after its answer is out, with log_counted.
struct StatsLater {
    RewriteRecord record;
    HostCut cut;
    bool due = false; ///< set by compress when the record awaits its counts; else it is logged
};

/// As compress, but a record that would be counted is left in `later` (due = true) instead of
/// being counted and logged; every other record is logged as by compress.
Response compress(const Request& request, const Config& config, StatsLater& later) noexcept;

/// Counts the original's and the view's o200k tokens into `later`'s record and logs it. The
/// texts are the request's output and the response's view that `later` came with.
void log_counted(const StatsLater& later,
                 std::string_view original,
                 std::string_view view,
                 const Config& config) noexcept;

/// log_counted in a detached child (core/util/detach.hpp), for a process that exits next and
/// whose caller waits for its exit, not for the count: the hook and `sutra exec`. The child
/// holds the stats log's pending lock (hold_stats_pending) until its record is written, so a
/// report made after this process exited still has it. Counts here, before returning, when the
/// lock or the child cannot be had. Nothing when `later.due` is false.
void log_counted_after_exit(const StatsLater& later,
                            std::string_view original,
                            std::string_view view,
                            const Config& config) noexcept;

/// What the host should show: the view when rewritten, else the original itself.
inline std::string_view view_of(const Response& response, std::string_view original) {
    return response.rewritten ? std::string_view(response.view) : original;
}

/// The mode a request runs in: its own, else the configured one; `auto` becomes `normal` for a
/// failing or unknown exit status and `concise` for a successful one.
Mode effective_mode(const Request& request, const Config& config);

/// True for a store namespace we accept: 1-64 of [A-Za-z0-9_.-], not "." or "..".
bool valid_namespace(std::string_view name);

} // namespace sutra::core
