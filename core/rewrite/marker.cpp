#include "core/rewrite/marker.hpp"

#include <fmt/core.h>

namespace sutra::core {
namespace {

std::string format_ttl(std::int64_t seconds) {
    if (seconds > 0 && seconds % 86400 == 0) return fmt::format("{}d", seconds / 86400);
    if (seconds > 0 && seconds % 3600 == 0) return fmt::format("{}h", seconds / 3600);
    return fmt::format("{}s", seconds);
}

// Line-aligned elisions are restored by line range, which reads naturally to a model; ranges
// inside a line (long lines, JSON strings and arrays) by byte range.
bool by_lines(const Elision& e) {
    switch (e.reason) {
    case Reason::repeated_lines:
    case Reason::similar_lines:
    case Reason::large_output:
    case Reason::outside_outline:
        return e.first_line > 0;
    default:
        return false;
    }
}

std::string what(const Elision& e) {
    const std::uint64_t lines = e.last_line >= e.first_line ? e.last_line - e.first_line + 1 : 0;
    switch (e.reason) {
    case Reason::repeated_lines:
        if (e.period > 1)
            return fmt::format("the {} lines above repeat {} more times", e.period, e.items);
        return fmt::format("the line above repeats {} more times", e.items);
    case Reason::similar_lines:
        return fmt::format("{} similar lines elided", lines);
    case Reason::large_output:
        if (e.keys > 0) return fmt::format("{} lines elided, {} with errors", lines, e.keys);
        return fmt::format("{} lines elided", lines);
    case Reason::outside_outline:
        return fmt::format("{} lines elided", lines);
    case Reason::long_line:
        return fmt::format("{} bytes of line {} elided", e.end - e.begin, e.first_line);
    case Reason::long_string:
        return fmt::format("{} bytes of this string elided", e.end - e.begin);
    case Reason::array_items:
    case Reason::object_members: {
        // Errors that did not fit the ceiling are counted, so the reader knows to restore them.
        const char* kind = e.reason == Reason::array_items ? "array items" : "object members";
        if (e.keys > 0) return fmt::format("{} {} elided, {} with errors", e.items, kind, e.keys);
        return fmt::format("{} {} elided", e.items, kind);
    }
    }
    return "bytes elided";
}

} // namespace

std::string spell_restore(const RestoreRoute& route, const RestoreCall& call) {
    const bool full = call.mode == "full";
    // The critical listing covers the whole original unless a line window is named.
    const bool critical = call.mode == "critical";
    const bool ranged = !full && !(critical && call.start == 0);
    if (route.kind == RestoreRoute::Kind::mcp) {
        std::string out = fmt::format("{}(id=\"{}\", mode=\"{}\"", route.tool, call.id, call.mode);
        if (ranged) out += fmt::format(", start={}, end={}", call.start, call.end);
        if (call.max_bytes) out += fmt::format(", max_bytes={}", *call.max_bytes);
        if (!route.store_namespace.empty())
            out += fmt::format(", namespace=\"{}\"", route.store_namespace);
        return out + ")";
    }
    std::string out = route.program + " restore ";
    if (!route.store_namespace.empty()) out += "--namespace " + route.store_namespace + " ";
    out += call.id;
    if (critical)
        out += ranged ? fmt::format(" --critical --lines {}-{}", call.start, call.end)
                      : std::string(" --critical");
    else
        out += full ? std::string(" --full")
                    : fmt::format(" --{} {}-{}", call.mode, call.start, call.end);
    if (call.max_bytes) out += fmt::format(" --max-bytes {}", *call.max_bytes);
    return out;
}

std::string restore_call(const Elision& e, const MarkerContext& c) {
    const std::string id = c.id.value_or(k_placeholder_id);
    const bool lines = by_lines(e);
    RestoreCall call;
    call.id = id;
    call.mode = lines ? "lines" : "bytes";
    call.start = lines ? e.first_line : e.begin;
    call.end = lines ? e.last_line : e.end;
    return spell_restore(c.route, call);
}

bool range_retained(const Elision& e, const MarkerContext& c) {
    return (c.id || !c.store_disabled) && e.end <= c.retained_end;
}

std::string marker_text(const Elision& e, const MarkerContext& c) {
    std::string where;
    if (e.first_line > 0 && e.last_line > e.first_line)
        where = fmt::format("lines {}-{}, bytes {}-{}", e.first_line, e.last_line, e.begin, e.end);
    else if (e.first_line > 0)
        where = fmt::format("line {}, bytes {}-{}", e.first_line, e.begin, e.end);
    else
        where = fmt::format("bytes {}-{}", e.begin, e.end);
    std::string tail;
    if (range_retained(e, c)) {
        tail =
            fmt::format("retained {}; restore: {}", format_ttl(c.ttl_seconds), restore_call(e, c));
    } else if (c.id || !c.store_disabled) {
        tail = "not retained: " + c.not_retained_why;
    } else {
        tail = "not retained (store off); re-run the command narrower to see them";
    }
    return fmt::format("[sutra: {} ({}); {}; {}]", what(e), to_string(e.reason), where, tail);
}

std::string short_marker_text(const Elision& e, const MarkerContext& c) {
    if (!range_retained(e, c)) return marker_text(e, c);
    const std::string range = by_lines(e) ? fmt::format("lines {}-{}", e.first_line, e.last_line)
                                          : fmt::format("bytes {}-{}", e.begin, e.end);
    if (e.reason == Reason::outside_outline) return fmt::format("[sutra: {}]", range);
    if (e.reason == Reason::large_output) {
        if (e.keys > 0) return fmt::format("[sutra: {}, {} with errors]", range, e.keys);
        return fmt::format("[sutra: {}]", range);
    }
    if (e.reason == Reason::similar_lines)
        return fmt::format("[sutra: {} similar lines, {}]", e.last_line - e.first_line + 1, range);
    // Members cut from error records come one marker per record: the shortest form pays most.
    if (e.reason == Reason::object_members) {
        if (e.keys > 0) return fmt::format("[sutra: {}, {} with errors]", range, e.keys);
        return fmt::format("[sutra: {}]", range);
    }
    return fmt::format("[sutra: {}, {}]", what(e), range);
}

namespace {

std::string with_later_note(std::string full) {
    if (!full.empty() && full.back() == ']') full.insert(full.size() - 1, k_later_markers_note);
    return full;
}

// Chooses each text marker's form: the first retained one spells the restore call (and, when
// more retained ones follow, says how they read); later retained ones name only their range; a
// range that is not retained always says so in full.
class TextMarkerForms {
public:
    TextMarkerForms(std::size_t retained_markers, const MarkerContext& context)
        : m_retained(retained_markers), m_context(context) {}

    std::string next(const Elision& e) {
        if (!range_retained(e, m_context)) return marker_text(e, m_context);
        if (m_anchored) return short_marker_text(e, m_context);
        m_anchored = true;
        std::string full = marker_text(e, m_context);
        return m_retained > 1 ? with_later_note(std::move(full)) : full;
    }

private:
    std::size_t m_retained;
    const MarkerContext& m_context;
    bool m_anchored = false;
};

} // namespace

std::vector<std::string> text_marker_texts(const std::vector<Elision>& elisions,
                                           const MarkerContext& context) {
    std::size_t retained = 0;
    for (const auto& e : elisions) retained += range_retained(e, context) ? 1 : 0;
    TextMarkerForms forms(retained, context);
    std::vector<std::string> out;
    for (const auto& e : elisions) out.push_back(forms.next(e));
    return out;
}

std::string cleanup_note(const MarkerContext& c, std::string_view what) {
    const std::string id = c.id.value_or(k_placeholder_id);
    if (!c.id && c.store_disabled)
        return fmt::format("[sutra: {} removed from the lines shown; original not retained "
                           "(store off)]",
                           what);
    RestoreCall full;
    full.id = id;
    const std::string call = spell_restore(c.route, full);
    if (c.retained_end != UINT64_MAX)
        return fmt::format("[sutra: {} removed from the lines shown; bytes 0-{} retained {}; "
                           "restore: {}]",
                           what, c.retained_end, format_ttl(c.ttl_seconds), call);
    return fmt::format("[sutra: {} removed from the lines shown; retained {}; restore: {}]", what,
                       format_ttl(c.ttl_seconds), call);
}

std::string critical_note(const MarkerContext& c, std::uint64_t hidden, std::uint64_t total) {
    const std::string head = fmt::format(
        "[sutra: {} of the {} lines with errors are inside the markers above (\"with errors\")",
        hidden, total);
    if (!c.id && c.store_disabled) return head + "; original not retained (store off)]";
    const std::string id = c.id.value_or(k_placeholder_id);
    RestoreCall list;
    list.id = id;
    list.mode = "critical";
    std::string out =
        head + "; list all " + std::to_string(total) + ": " + spell_restore(c.route, list);
    if (c.retained_end != UINT64_MAX)
        out += fmt::format(" (those in bytes 0-{}, the part retained)", c.retained_end);
    return out + "]";
}

std::string json_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 8);
    for (char ch : text) {
        const auto u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (u < 0x20) {
            out += fmt::format("\\u{:04x}", u);
        } else {
            out += ch;
        }
    }
    return out;
}

std::string render(const Plan& plan, const MarkerContext& context) {
    std::size_t size = 0;
    std::size_t retained_text_markers = 0;
    for (const auto& p : plan.pieces) {
        size += p.text.size() + (p.elision >= 0 ? 200 : 0);
        if (p.elision >= 0 &&
            range_retained(plan.elisions[static_cast<std::size_t>(p.elision)], context))
            ++retained_text_markers;
    }
    std::string out;
    out.reserve(size);
    TextMarkerForms forms(retained_text_markers, context);
    for (const auto& p : plan.pieces) {
        // The notes are lines of their own, even after a last line without a newline.
        if ((p.elision == k_cleanup_note || p.elision == k_critical_note) && !out.empty() &&
            out.back() != '\n')
            out += '\n';
        if (p.elision == k_cleanup_note) {
            out += cleanup_note(context, p.text);
            out += '\n';
            continue;
        }
        if (p.elision == k_critical_note) {
            out += critical_note(context, plan.critical_hidden, plan.critical_total);
            out += '\n';
            continue;
        }
        if (p.elision < 0) {
            out += p.text;
            continue;
        }
        const Elision& e = plan.elisions[static_cast<std::size_t>(p.elision)];
        const std::string m = forms.next(e);
        switch (p.json) {
        case Piece::Json::none:
            out += m;
            if (p.own_line) out += '\n';
            break;
        case Piece::Json::inside_string:
            out += json_escape(m);
            break;
        case Piece::Json::element:
            out += '"';
            out += json_escape(m);
            out += '"';
            break;
        }
    }
    return out;
}

} // namespace sutra::core
