#pragma once
// A rewrite is planned as pieces: runs of kept text and markers. Rendering turns each marker into
// one line of text naming why, how much, where, whether the original is retained, and the exact
// restore call in the host's dialect. Planning and rendering are split so the planner can
// measure a view before the original is stored, and store only when the view is worth it.

#include "core/request.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

struct Piece {
    std::string text; ///< kept bytes (already cleaned), or empty for a marker
    /// Index into Plan::elisions when this piece is a marker; k_cleanup_note for the one line
    /// saying terminal noise was removed from the lines shown.
    int elision = -1;
    /// JSON only: the marker sits inside a JSON string (escape it) or is a whole array element
    /// (escape it and quote it).
    enum class Json { none, inside_string, element } json = Json::none;
    /// Text markers only: the marker occupies a line of its own (a newline follows it).
    bool own_line = true;
};

inline constexpr int k_cleanup_note = -2;
/// The line saying how many error lines the view could not show, with the call listing them all.
inline constexpr int k_critical_note = -3;

struct Plan {
    Shape shape = Shape::text;
    std::vector<Piece> pieces;
    std::vector<Elision> elisions;
    std::vector<std::string> rules;
    std::uint64_t critical_total = 0;  ///< text: the output's error lines (critical_lines)
    std::uint64_t critical_hidden = 0; ///< text: of those, the ones inside markers
};

struct MarkerContext {
    std::optional<std::string> id; ///< set when the original is retained
    std::int64_t ttl_seconds = 0;
    RestoreRoute route;
    bool store_disabled = false; ///< retention turned off by the user (SUTRA_STORE=0)
    /// The entry under `id` holds bytes [0, retained_end) of the original: an output past the
    /// store's per-entry quota is still viewed, and a marker of a range reaching past this says
    /// "not retained: " + `not_retained_why` instead of a restore call.
    std::uint64_t retained_end = UINT64_MAX;
    std::string not_retained_why;
};

/// Whether the restore call of this range can return it (retention on, range inside the entry).
bool range_retained(const Elision& elision, const MarkerContext& context);

/// A placeholder id of the real length, for measuring a view before storing.
inline const std::string k_placeholder_id = "su_00000000000000000000000000000000";

/// One marker's text, without brackets' surroundings (no newline, no JSON escaping): what was
/// elided, why, where, whether it is retained and the exact restore call.
std::string marker_text(const Elision& elision, const MarkerContext& context);

/// Marker economy. A view with several markers (text or JSON) spells the restore call once: its
/// first retained marker is the full one, ending with k_later_markers_note, and every later
/// retained marker names only its range (`[sutra: lines 38-41]`, `[sutra: lines 2-90, 3 with
/// errors]`, `[sutra: 398 similar lines, lines 2-399]`, `[sutra: 2000 bytes of line 7 elided,
/// bytes 100-2100]`, `[sutra: 40 array items elided, bytes 900-5100]`). The restore call of a later
/// marker is the first one's with that range: mode lines or bytes, the same id and dialect.
/// docs/contract.md states the rule. A marker for output that is not retained stays whole.
std::string short_marker_text(const Elision& elision, const MarkerContext& context);

/// What the first of several text markers adds after its restore call.
inline constexpr const char* k_later_markers_note =
    "; each later marker: the same call with its range";

/// The text of each marker, in order, as render() writes them (full, then short).
std::vector<std::string> text_marker_texts(const std::vector<Elision>& elisions,
                                           const MarkerContext& context);

/// The restore call for a range, in the route's dialect.
std::string restore_call(const Elision& elision, const MarkerContext& context);

/// One restore call: `mode` is "bytes" (start-end zero-based, end exclusive), "lines" (one-based,
/// inclusive), "full", or "critical" (the error lines, within lines start-end when start > 0).
struct RestoreCall {
    std::string_view id;
    std::string_view mode = "full";
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    std::optional<std::uint64_t> max_bytes; ///< named only when the caller chose it
};

/// Every restore call sutra prints (markers, notes, next-page hints) is spelled here:
/// `sutra restore [--namespace NS] ID --lines A-B` or `TOOL(id="ID", mode="lines", start=A,
/// end=B)`.
std::string spell_restore(const RestoreRoute& route, const RestoreCall& call);

/// The line that says escapes and redraws were removed from the lines shown, and how to get
/// the original whole.
/// `what` names the noise ("terminal escapes", "progress redraws", or both).
std::string cleanup_note(const MarkerContext& context, std::string_view what);

/// The k_critical_note line: `hidden` of `total` error lines are inside markers, and the call
/// that lists all of them (`sutra restore ID --critical`) in the route's dialect.
std::string critical_note(const MarkerContext& context, std::uint64_t hidden, std::uint64_t total);

/// The view: kept pieces verbatim, markers rendered (escaped inside JSON).
std::string render(const Plan& plan, const MarkerContext& context);

/// `"`-quoting and escaping of ASCII marker text for JSON.
std::string json_escape(std::string_view text);

} // namespace sutra::core
