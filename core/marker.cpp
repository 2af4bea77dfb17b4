#include "core/marker.hpp"

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
    if (route.kind == RestoreRoute::Kind::mcp) {
        std::string out = fmt::format("{}(id=\"{}\", mode=\"{}\"", route.tool, call.id, call.mode);
        if (!full) out += fmt::format(", start={}, end={}", call.start, call.end);
        if (call.max_bytes) out += fmt::format(", max_bytes={}", *call.max_bytes);
        if (!route.store_namespace.empty())
            out += fmt::format(", namespace=\"{}\"", route.store_namespace);
        return out + ")";
    }
    std::string out = route.program + " restore ";
    if (!route.store_namespace.empty()) out += "--namespace " + route.store_namespace + " ";
    out += call.id;
    out +=
        full ? std::string(" --full") : fmt::format(" --{} {}-{}", call.mode, call.start, call.end);
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

std::string marker_text(const Elision& e, const MarkerContext& c) {
    std::string where;
    if (e.first_line > 0 && e.last_line > e.first_line)
        where = fmt::format("lines {}-{}, bytes {}-{}", e.first_line, e.last_line, e.begin, e.end);
    else if (e.first_line > 0)
        where = fmt::format("line {}, bytes {}-{}", e.first_line, e.begin, e.end);
    else
        where = fmt::format("bytes {}-{}", e.begin, e.end);
    std::string tail;
    if (c.id || !c.store_disabled) {
        tail =
            fmt::format("retained {}; restore: {}", format_ttl(c.ttl_seconds), restore_call(e, c));
    } else {
        tail = "not retained (store off); re-run the command narrower to see them";
    }
    return fmt::format("[sutra: {} ({}); {}; {}]", what(e), to_string(e.reason), where, tail);
}

std::string short_marker_text(const Elision& e, const MarkerContext& c) {
    if (!c.id && c.store_disabled) return marker_text(e, c);
    const std::string range = by_lines(e) ? fmt::format("lines {}-{}", e.first_line, e.last_line)
                                          : fmt::format("bytes {}-{}", e.begin, e.end);
    if (e.reason == Reason::large_output) return fmt::format("[sutra: {}]", range);
    if (e.reason == Reason::similar_lines)
        return fmt::format("[sutra: {} similar lines, {}]", e.last_line - e.first_line + 1, range);
    return fmt::format("[sutra: {}, {}]", what(e), range);
}

namespace {

std::string with_later_note(std::string full) {
    if (!full.empty() && full.back() == ']') full.insert(full.size() - 1, k_later_markers_note);
    return full;
}

} // namespace

std::vector<std::string> text_marker_texts(const std::vector<Elision>& elisions,
                                           const MarkerContext& context) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < elisions.size(); ++i) {
        if (i > 0)
            out.push_back(short_marker_text(elisions[i], context));
        else if (elisions.size() > 1 && (context.id || !context.store_disabled))
            out.push_back(with_later_note(marker_text(elisions[i], context)));
        else
            out.push_back(marker_text(elisions[i], context));
    }
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
    return fmt::format("[sutra: {} removed from the lines shown; retained {}; restore: {}]", what,
                       format_ttl(c.ttl_seconds), call);
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
    std::size_t text_markers = 0;
    for (const auto& p : plan.pieces) {
        size += p.text.size() + (p.elision >= 0 ? 200 : 0);
        if (p.elision >= 0 && p.json == Piece::Json::none) ++text_markers;
    }
    std::string out;
    out.reserve(size);
    std::size_t text_marker = 0;
    const bool retained = context.id || !context.store_disabled;
    for (const auto& p : plan.pieces) {
        if (p.elision == k_cleanup_note) {
            out += cleanup_note(context, p.text);
            out += '\n';
            continue;
        }
        if (p.elision < 0) {
            out += p.text;
            continue;
        }
        const Elision& e = plan.elisions[static_cast<std::size_t>(p.elision)];
        std::string m;
        if (p.json != Piece::Json::none)
            m = marker_text(e, context);
        else if (text_marker++ > 0)
            m = short_marker_text(e, context);
        else if (text_markers > 1 && retained)
            m = with_later_note(marker_text(e, context));
        else
            m = marker_text(e, context);
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
