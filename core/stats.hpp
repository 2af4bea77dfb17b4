#pragma once
// The JSONL stats log: one record per rewrite or restore, never tool output. Lives beside the
// store (stats.jsonl), 0600, opened O_NOFOLLOW, rotated to stats.jsonl.1 past a size.

#include "core/config.hpp"
#include "core/util/posix_io.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

struct RewriteRecord {
    std::string host;
    std::string tool;
    /// The command line that produced the output; only its program name (command_name in
    /// core/stats_command.hpp) is logged, never an argument.
    std::string command_line;
    std::string shape;
    std::string outcome; ///< "rewritten" or "passthrough:<reason>"
    std::uint64_t bytes_in = 0;
    std::uint64_t bytes_out = 0;
    std::uint64_t lines_in = 0;
    std::uint64_t lines_out = 0;
    std::vector<std::string> rules;
    std::uint64_t micros = 0;
    /// Exact o200k_base counts of the original and of what the model read; absent when not
    /// counted (a pass-through, token counting off or unavailable, an original over the cap).
    std::optional<std::uint64_t> tokens_in;
    std::optional<std::uint64_t> tokens_out;
    std::string session; ///< the host's session id; logged when valid_session_id holds
    /// What the host would have shown of the original without sutra (core/host_cut.hpp), in
    /// bytes and, when tokens are counted, o200k tokens; absent: the raw output.
    std::optional<std::uint64_t> host_bytes;
    std::optional<std::uint64_t> host_tokens;
};

/// A session id the stats log keeps: 1-128 of [A-Za-z0-9._:-] (every host's ids are such).
bool valid_session_id(std::string_view id);

/// What `sutra stats` reports: everything, one session, or rows per day or per ISO week.
struct StatsQuery {
    std::string session; ///< only this session's records; "" for all
    enum class Period { none, day, week } period = Period::none;
    enum class Format { text, json, csv } format = Format::text;
};

/// The `sutra stats` report for a query (see stats_report below for the unfiltered form).
std::string stats_report(const Config& config, const StatsQuery& query);

/// The text report and the JSON one from one read of the log, for a caller that gives both
/// (the MCP tool `sutra_stats`: a text block and structuredContent).
struct StatsReports {
    std::string text;
    nlohmann::json json;
};
StatsReports stats_reports(const Config& config, const StatsQuery& query);

/// The one line Claude Code's status line shows: this session's tokens saved and share.
std::string statusline_text(const Config& config, std::string_view session);

/// Appends a rewrite record. Never throws; a failure to log is ignored.
void log_rewrite(const Config& config, const RewriteRecord& record) noexcept;

/// A hold on the stats log for a record still being counted after its call answered (the hook
/// counts in a detached child, host/dispatch/sutra_host_main.cpp). Readers of the log wait for
/// every hold to go (at most k_stats_pending_wait_ms), so a report made once a call has returned
/// includes that call. A shared flock on `stats.pending` beside the log, released when the last
/// descriptor to it closes: a child that inherits it keeps it after its parent exits. Not ok
/// when the lock cannot be taken at once (the caller then counts before it answers).
UniqueFd hold_stats_pending(const Config& config) noexcept;
inline constexpr int k_stats_pending_wait_ms = 3000;

/// Appends a restore record ("ok", "expired", "not_found", "corrupt", "bad_range", …).
void log_restore(const Config& config, std::string_view outcome) noexcept;

/// The `sutra stats` report: savings per tool, per shape and per command as tables with bars, and
/// restores by outcome; or one JSON object when `json` is set (the per-command rows as a
/// `commands` array of {command, calls, bytes_in, bytes_out, tokens_in, tokens_out}).
std::string stats_report(const Config& config, bool json);

} // namespace sutra::core
