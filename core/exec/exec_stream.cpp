#include "core/exec/exec_stream.hpp"

#include "core/rewrite/block_rules.hpp"
#include "core/rewrite/diagnostic_lines.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/places.hpp"
#include "core/util/utf8.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>

namespace sutra::core {
namespace {

// What one marker line costs at most in the view, counted with each group and long line so the
// view stays under the ceiling whatever the output.
constexpr std::uint64_t k_marker_cost = 320;
// Room kept for the closing notes.
constexpr std::uint64_t k_note_room = 1024;
// Critical line numbers remembered for the markers' counts (8 MiB).
constexpr std::size_t k_counted_lines = std::size_t{1} << 20;

/// Copies a line into a recycled slot, reusing its buffers.
void copy_line(StreamPlanner::Line& to, const StreamPlanner::Line& from) {
    to.begin = from.begin;
    to.end = from.end;
    to.number = from.number;
    to.head.assign(from.head);
    to.tail.assign(from.tail);
    to.shown = from.shown;
    to.critical = from.critical;
    to.error = from.error;
    to.notable = from.notable;
}

std::string cleaned(std::string_view raw, Noise& noise) {
    return has_noise(raw) ? clean_line(raw, noise) : std::string(raw);
}

} // namespace

std::string unretained_marker(const Elision& e, const std::string& why) {
    MarkerContext off;
    off.store_disabled = true;
    std::string m = marker_text(e, off);
    const std::string_view suffix =
        "not retained (store off); re-run the command narrower to see them]";
    if (m.ends_with(suffix)) m.resize(m.size() - suffix.size());
    return m + "not retained: " + why + "]";
}

StreamPlanner::StreamPlanner(const KeyMatcher& keys, const TextOptions& options)
    : m_keys(keys), m_opt(options) {
    const std::uint64_t ceiling = std::max<std::uint64_t>(m_opt.ceiling, 8192);
    const std::uint64_t budget = std::min(m_opt.budget_bytes, ceiling / 2);
    m_head_room = budget / 4;
    m_head_max = budget / 2;
    m_tail_room = budget / 2;
    m_tail_max = budget * 3 / 4;
    // A view never shows more than the ceiling: twice that of groups leaves room to choose.
    m_group_cap = ceiling / 4;
    m_notable_cap = ceiling / 2;
    m_reservoir = 2 * ceiling;
    m_opt.max_line_bytes = std::max<std::size_t>(m_opt.max_line_bytes, 16);
    m_head_keep = m_opt.max_line_bytes * 2 / 3 + 1;
    m_tail_keep = m_opt.max_line_bytes / 3;
}

void StreamPlanner::retention_stops_at(std::uint64_t offset) {
    if (m_stop == UINT64_MAX && offset >= m_offset) m_stop = offset;
}

void StreamPlanner::feed(std::string_view bytes) {
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        const void* nl = std::memchr(bytes.data() + pos, '\n', bytes.size() - pos);
        const std::size_t end =
            nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - bytes.data()) + 1
               : bytes.size();
        const std::string_view seg = bytes.substr(pos, end - pos);
        const bool line_started = m_offset > m_cur_begin;
        // Name the line the retention boundary falls in, once.
        if (m_stop != UINT64_MAX && m_stop_line == 0 && m_stop >= m_offset &&
            m_stop < m_offset + seg.size()) {
            m_stop_line = m_lines + 1;
            m_stop_line_begin = m_cur_begin;
        }
        if (!line_started && nl) {
            // The common case: a whole line inside one chunk, looked at in place.
            m_offset += seg.size();
            take(seg, seg, m_cur_begin, m_offset);
            m_cur_begin = m_offset;
        } else {
            // A line spanning chunks: keep its start and its end, never the whole of it.
            const std::size_t head_cap = m_opt.max_line_bytes + 1;
            if (m_cur_head.size() < head_cap)
                m_cur_head.append(seg.substr(0, head_cap - m_cur_head.size()));
            if (seg.size() >= m_tail_keep) {
                m_cur_tail.assign(seg.substr(seg.size() - m_tail_keep));
            } else {
                m_cur_tail.append(seg);
                if (m_cur_tail.size() > 2 * m_tail_keep)
                    m_cur_tail.erase(0, m_cur_tail.size() - m_tail_keep);
            }
            m_offset += seg.size();
            if (nl) {
                take(m_cur_head, m_cur_tail, m_cur_begin, m_offset);
                m_cur_begin = m_offset;
                m_cur_head.clear();
                m_cur_tail.clear();
            }
        }
        pos = end;
    }
}

void StreamPlanner::finish() {
    if (m_offset > m_cur_begin) {
        take(m_cur_head, m_cur_tail, m_cur_begin, m_offset);
        m_cur_begin = m_offset;
        m_cur_head.clear();
        m_cur_tail.clear();
    }
    close_group();
}

void StreamPlanner::make_line(std::string_view head,
                              std::string_view tail,
                              std::uint64_t begin,
                              std::uint64_t end) {
    Line& line = m_line;
    line.begin = begin;
    line.end = end;
    line.number = m_lines;
    line.critical = false;
    line.notable = false;
    const std::uint64_t size = end - begin;
    if (size <= m_opt.max_line_bytes) {
        line.head.assign(head.substr(0, static_cast<std::size_t>(size)));
        line.tail.clear();
        line.shown = size;
    } else {
        line.head.assign(head.substr(0, m_head_keep));
        line.tail.assign(tail.substr(tail.size() - std::min(tail.size(), m_tail_keep)));
        line.shown = m_head_keep + m_tail_keep + k_marker_cost;
    }
}

StreamPlanner::Line& StreamPlanner::LineRing::push() {
    if (m_count < m_slots.size()) return m_slots[(m_first + m_count++) % m_slots.size()];
    // Full: grow by one slot at the logical end, keeping the order.
    const std::size_t at = m_first == 0 ? m_slots.size() : m_first;
    m_slots.insert(m_slots.begin() + static_cast<std::ptrdiff_t>(at), Line{});
    if (m_first != 0) ++m_first;
    ++m_count;
    return m_slots[at];
}

void StreamPlanner::LineRing::pop_oldest() {
    m_first = (m_first + 1) % m_slots.size();
    --m_count;
}

void StreamPlanner::take(std::string_view raw_head,
                         std::string_view raw_tail,
                         std::uint64_t begin,
                         std::uint64_t end) {
    ++m_lines;
    make_line(raw_head, raw_tail, begin, end);
    Line& line = m_line;
    // Most lines carry no terminal noise and are looked at in place; a run of repeats is
    // classified once.
    std::string joined;
    std::string_view text = line.head;
    if (!line.tail.empty() || has_noise(line.head)) {
        Noise noise;
        joined = cleaned(line.head, noise);
        if (!line.tail.empty()) joined += cleaned(line.tail, noise);
        text = joined;
        const Level level = line_level(m_keys, text);
        line.critical = level == Level::critical;
        line.notable = level == Level::notable;
    } else if (text == m_prev_text) {
        line.critical = m_prev_level == Level::critical;
        line.notable = m_prev_level == Level::notable;
    } else {
        m_prev_level = line_level(m_keys, text);
        line.critical = m_prev_level == Level::critical;
        line.notable = m_prev_level == Level::notable;
        m_prev_text.assign(text);
    }
    // A line that is the error's above it (core/rewrite/block_rules) is critical, and an error
    // report if that one is: the message it announced with its colon, ...
    bool owned = false;
    const auto own = [&] {
        if (line.critical) return;
        line.critical = owned = true;
        line.notable = false;
    };
    if (m_announced && is_announced_message(m_announced_depth, text)) own();
    // ... its place right below it, deeper (rustc's `  --> src/main.rs:2:19` under
    // `error[E0308]: mismatched types`), which tells a hundred identical headers apart, ...
    if (m_place_may_follow && indent_of(text) > m_error_depth && is_file_place(text)) own();
    // ... and its details (`DETAIL:  Key (id)=(5) already exists.`).
    const bool detail = m_details_left > 0 && is_error_detail(m_error_depth, text);
    if (detail) own();
    m_details_left = detail ? m_details_left - 1 : line.critical ? k_error_detail_lines : 0;
    if (line.critical && !detail) m_error_depth = indent_of(text);
    m_place_may_follow = line.critical && !detail && !is_file_place(text);
    m_announced = line.critical && announces_message(text);
    if (m_announced) m_announced_depth = indent_of(text);
    // Errors come before warnings when not all fit (the text planner's rule too).
    line.error = line.critical && (owned ? m_last_error : is_error_report(m_keys, text));
    m_last_error = line.error;
    if (line.critical) {
        ++m_critical_seen;
        if (m_critical_numbers.size() < k_counted_lines)
            m_critical_numbers.push_back(line.number);
        else
            m_counted_all = false;
    }

    if (!m_head_done) {
        const bool fits =
            (m_lines <= m_opt.head_lines && m_head_bytes + line.shown <= m_head_max) ||
            m_head_bytes + line.shown <= m_head_room;
        if (fits) {
            m_head_bytes += line.shown;
            if (line.critical) {
                // Lines after a critical line in the head are its context.
                m_last_critical = text;
                m_group_open = true;
                m_after = 0;
            }
            m_head.push_back(line);
            push_tail(line);
            return;
        }
        m_head_done = true;
    }

    // Notable lines (warnings and the like) while their share lasts: shown when room is left.
    if (line.notable && m_notable_bytes + line.shown <= m_notable_cap) {
        m_notable_bytes += line.shown;
        m_notable.push_back(line);
    }
    const std::uint64_t group_cap = m_group_cap;
    // A critical line just like the last one shown adds nothing: it stays inside a marker.
    const bool fresh = line.critical && text != m_last_critical;
    if (fresh) {
        m_last_critical = text;
        // Errors and warnings go in groups of their own, which are thinned apart.
        if (!m_group_open || m_open.bytes + line.shown > group_cap ||
            (!m_open.lines.empty() && m_open.has_error != line.error)) {
            close_group();
            m_group_open = true;
            for (std::size_t i = 0; i < m_before.size(); ++i) {
                m_open.lines.push_back(m_before[i]);
                m_open.bytes += m_before[i].shown;
            }
        }
        m_open.lines.push_back(line);
        m_open.bytes += line.shown;
        m_open.has_error |= line.error;
        m_after = 0;
    } else if (m_group_open) {
        ++m_after;
        const bool context =
            m_after <= m_opt.context_after || (m_after <= m_opt.max_block && is_continuation(text));
        if (context && m_open.bytes + line.shown <= group_cap) {
            m_open.lines.push_back(line);
            m_open.bytes += line.shown;
        } else {
            close_group();
        }
    }
    if (m_opt.context_before > 0) {
        if (m_before.size() >= m_opt.context_before) m_before.pop_oldest();
        copy_line(m_before.push(), line);
    }
    push_tail(line);
}

void StreamPlanner::close_group() {
    m_group_open = false;
    m_after = 0;
    if (m_open.lines.empty()) return;
    Group g = std::move(m_open);
    m_open = Group{};
    g.bytes += k_marker_cost;
    g.ordinal = g.has_error ? m_error_group_count++ : m_group_count++;
    g.sampled = g.ordinal % (g.has_error ? m_error_stride : m_stride) == 0;
    // The latest group stays only until the next one comes, unless the stride keeps it.
    if (!m_groups.empty() && !m_groups.back().sampled) {
        m_groups_bytes -= m_groups.back().bytes;
        m_groups.pop_back();
    }
    m_groups_bytes += g.bytes;
    m_groups.push_back(std::move(g));
    // Full: keep every other one of the sampled groups (the first always), and the latest.
    // Groups without an error are thinned first: a build's twenty thousand warnings never
    // crowd out its three errors. Errors are thinned only when no other group can give way.
    while (m_groups_bytes > m_reservoir && m_groups.size() > 2) {
        bool others_give = false, errors_give = false;
        for (std::size_t i = 0; i + 1 < m_groups.size(); ++i)
            (m_groups[i].has_error ? errors_give : others_give) |= m_groups[i].ordinal > 0;
        if (!others_give && !errors_give) break;
        (others_give ? m_stride : m_error_stride) *= 2;
        std::vector<Group> kept;
        m_groups_bytes = 0;
        for (std::size_t i = 0; i < m_groups.size(); ++i) {
            Group& each = m_groups[i];
            each.sampled = each.ordinal % (each.has_error ? m_error_stride : m_stride) == 0;
            if (!each.sampled && i + 1 < m_groups.size()) continue;
            m_groups_bytes += each.bytes;
            kept.push_back(std::move(each));
        }
        m_groups = std::move(kept);
    }
}

void StreamPlanner::push_tail(const Line& line) {
    copy_line(m_tail.push(), line);
    m_tail_bytes += line.shown;
    // The tail is the longest run of last lines within its room (a minimum count of lines may
    // use more), always at least the last line.
    while (m_tail.size() > 1) {
        const bool fits = (m_tail.size() <= m_opt.tail_lines && m_tail_bytes <= m_tail_max) ||
                          m_tail_bytes <= m_tail_room;
        if (fits) break;
        m_tail_bytes -= m_tail.oldest().shown;
        m_tail.pop_oldest();
    }
}

StreamView StreamPlanner::render(const MarkerContext& context,
                                 const StreamRetention& retention) const {
    // The candidates, by priority: the last line with text (the verdict), critical lines,
    // their context, the head and the tail.
    std::vector<const Line*> critical, around, notable;
    for (const Line& l : m_notable) notable.push_back(&l);
    for (const Line& l : m_head)
        if (l.critical) critical.push_back(&l);
    for (const Group& g : m_groups)
        for (const Line& l : g.lines) (l.critical ? critical : around).push_back(&l);
    for (std::size_t i = 0; i < m_tail.size(); ++i)
        if (m_tail[i].critical) critical.push_back(&m_tail[i]);
    const auto by_number = [](const Line* a, const Line* b) { return a->number < b->number; };
    const auto same_number = [](const Line* a, const Line* b) { return a->number == b->number; };
    std::sort(critical.begin(), critical.end(), by_number);
    critical.erase(std::unique(critical.begin(), critical.end(), same_number), critical.end());
    std::vector<const Line*> errors, others;
    for (const Line* l : critical) (l->error ? errors : others).push_back(l);
    const auto spread = [](const std::vector<const Line*>& from, std::size_t count,
                           std::vector<const Line*>& to) {
        const std::size_t n = from.size();
        for (std::size_t k = 0; k < count; ++k)
            to.push_back(from[count == 1 ? 0 : k * (n - 1) / (count - 1)]);
    };
    const Line* last = nullptr;
    for (std::size_t i = m_tail.size(); i > 0 && !last; --i)
        if (!is_blank(m_tail[i - 1].head)) last = &m_tail[i - 1];
    if (!last && m_tail.size() > 0) last = &m_tail[m_tail.size() - 1];

    // Critical lines were let go on the way (the reservoir thinned): no other line may take
    // room they could have had, so the view starts from them alone.
    const bool thinned = m_stride > 1 || m_error_stride > 1;
    std::uint64_t head_room = 0, tail_room = 0;
    if (!thinned) {
        for (const Line& l : m_head) head_room += l.shown;
        for (std::size_t i = 0; i < m_tail.size(); ++i) tail_room += m_tail[i].shown;
    }
    bool with_context = !thinned, with_notable = !thinned;
    std::size_t count = critical.size();
    const std::uint64_t ceiling = std::max<std::uint64_t>(m_opt.ceiling, 8192);
    const std::uint64_t limit = ceiling - k_note_room;

    StreamView out;
    bool ansi = false, redraw = false;
    for (int attempt = 0; attempt < 64; ++attempt) {
        std::vector<const Line*> kept;
        if (last) kept.push_back(last);
        // As many critical lines as fit, errors first, each kind spread evenly (the first and
        // the last among them).
        // Once errors were let go on the way, no warning takes room they could have had.
        const std::size_t from_errors = std::min(count, errors.size());
        spread(errors, from_errors, kept);
        spread(others, m_error_stride > 1 ? 0 : count - from_errors, kept);
        if (with_context) kept.insert(kept.end(), around.begin(), around.end());
        if (with_notable) kept.insert(kept.end(), notable.begin(), notable.end());
        std::uint64_t used = 0;
        for (const Line& l : m_head) {
            if (used + l.shown > head_room) break;
            used += l.shown;
            kept.push_back(&l);
        }
        used = 0;
        for (std::size_t i = m_tail.size(); i > 0; --i) {
            const Line& l = m_tail[i - 1];
            if (used + l.shown > tail_room) break;
            used += l.shown;
            kept.push_back(&l);
        }
        std::sort(kept.begin(), kept.end(), by_number);
        kept.erase(std::unique(kept.begin(), kept.end(), same_number), kept.end());
        ansi = redraw = false;
        out = compose(kept, context, retention, ansi, redraw);
        const std::uint64_t size = out.view.size();
        if (size <= limit) break;
        // Over the ceiling: the head and the tail shrink first, then the notable lines and the
        // context go, and only then are critical lines thinned.
        if (head_room + tail_room > 0) {
            head_room = head_room < 256 ? 0 : head_room / 2;
            tail_room = tail_room < 256 ? 0 : tail_room / 2;
        } else if (with_notable && !notable.empty()) {
            with_notable = false;
        } else if (with_context) {
            with_context = false;
        } else if (count > 1) {
            const auto fitting =
                static_cast<std::size_t>(static_cast<double>(count) * static_cast<double>(limit) /
                                         static_cast<double>(size));
            count = std::clamp<std::size_t>(fitting, 1, count - 1);
        } else {
            break;
        }
    }

    // The notes go on lines of their own, even after a last line without a newline.
    const bool notes = out.key_lines_elided > 0 || ansi || redraw;
    if (notes && !out.view.empty() && out.view.back() != '\n') out.view += '\n';
    if (out.key_lines_elided > 0) {
        const bool searchable = context.id.has_value();
        std::string call;
        if (searchable) {
            // The error lines (the configuration's key words) are listed by one call; a --keep
            // pattern's lines by a search.
            RestoreCall list;
            list.id = *context.id;
            list.mode = "critical";
            call = "; list the errors: " + spell_restore(context.route, list);
            call += context.route.kind == RestoreRoute::Kind::mcp
                        ? fmt::format(", others: {}(id=\"{}\", mode=\"search\", query=TEXT)",
                                      context.route.tool, *context.id)
                        : fmt::format(", others: {} restore {} --search TEXT",
                                      context.route.program, *context.id);
        }
        out.view += fmt::format("[sutra: {} more lines with key words (errors, failures, your "
                                "keep patterns) are inside the elided ranges{}]\n",
                                out.key_lines_elided, call);
    }
    if (ansi || redraw) {
        out.view += cleanup_note(context, ansi && redraw ? "terminal escapes and "
                                                           "progress redraws"
                                          : ansi         ? "terminal escapes"
                                                         : "progress redraws");
        out.view += '\n';
    }
    return out;
}

StreamView StreamPlanner::compose(const std::vector<const Line*>& kept,
                                  const MarkerContext& context,
                                  const StreamRetention& retention,
                                  bool& ansi,
                                  bool& redraw) const {
    StreamView out;
    Noise noise;
    bool large = false, long_line = false;
    const std::uint64_t stop = retention.retained;
    // Markers are spliced in at the end, once it is known how many are retained: those spell
    // the restore call once (the first in full, the later ones by range: the contract's marker
    // economy); a marker for bytes not retained is always whole.
    std::vector<std::size_t> marker_at;
    std::vector<bool> marker_own_line;
    const auto marker = [&](const Elision& e, bool retained, bool own_line) {
        out.elisions.push_back(e);
        out.retained.push_back(retained);
        marker_at.push_back(out.view.size());
        marker_own_line.push_back(own_line);
    };
    // An elided run of whole lines, split where retention stops.
    const auto gap = [&](std::uint64_t b, std::uint64_t e, std::uint64_t first,
                         std::uint64_t last) {
        large = true;
        Elision el;
        el.reason = Reason::large_output;
        el.begin = b, el.end = e, el.first_line = first, el.last_line = last;
        // The critical lines inside, so the reader knows which range holds errors (when every
        // one up to this range was remembered).
        const auto& nums = m_critical_numbers;
        if (m_counted_all || (!nums.empty() && last <= nums.back()))
            el.keys = static_cast<std::uint64_t>(std::upper_bound(nums.begin(), nums.end(), last) -
                                                 std::lower_bound(nums.begin(), nums.end(), first));
        if (e <= stop) return marker(el, true, true);
        if (b >= stop || stop != m_stop || m_stop_line < first || m_stop_line > last)
            return marker(el, false, true);
        Elision kept_part = el, lost = el;
        kept_part.end = stop;
        kept_part.last_line = m_stop_line_begin == stop ? m_stop_line - 1 : m_stop_line;
        lost.begin = stop;
        lost.first_line = m_stop_line;
        if (kept_part.begin < kept_part.end && kept_part.last_line >= kept_part.first_line)
            marker(kept_part, true, true);
        else
            lost = el;
        marker(lost, false, true);
    };

    std::uint64_t prev_end = 0, prev_number = 0, critical_shown = 0;
    for (const Line* l : kept) {
        if (l->number > prev_number + 1) gap(prev_end, l->begin, prev_number + 1, l->number - 1);
        if (!l->is_long()) {
            out.view += cleaned(l->head, noise);
        } else {
            long_line = true;
            const std::size_t head_cut = utf8_floor(l->head, m_opt.max_line_bytes * 2 / 3);
            const std::size_t tail_cut = utf8_ceil(l->tail, 0);
            out.view += cleaned(std::string_view(l->head).substr(0, head_cut), noise);
            Elision el;
            el.reason = Reason::long_line;
            el.begin = l->begin + head_cut;
            el.end = l->end - (l->tail.size() - tail_cut);
            el.first_line = el.last_line = l->number;
            if (el.end <= stop) {
                marker(el, true, false);
            } else if (el.begin >= stop) {
                marker(el, false, false);
            } else {
                Elision lost = el;
                el.end = stop;
                lost.begin = stop;
                marker(el, true, false);
                marker(lost, false, false);
            }
            out.view += cleaned(std::string_view(l->tail).substr(tail_cut), noise);
        }
        if (l->critical) ++critical_shown;
        prev_end = l->end;
        prev_number = l->number;
    }
    if (prev_number < m_lines) gap(prev_end, m_offset, prev_number + 1, m_lines);
    out.key_lines_elided = m_critical_seen - critical_shown;

    out.rules.push_back("stream");
    if (noise.ansi) out.rules.push_back("ansi");
    if (noise.redraw) out.rules.push_back("redraw");
    if (long_line) out.rules.push_back("long-line");
    if (large) out.rules.push_back("budget");

    ansi = noise.ansi;
    redraw = noise.redraw;

    std::vector<Elision> retained_ones;
    for (std::size_t i = 0; i < out.elisions.size(); ++i)
        if (out.retained[i]) retained_ones.push_back(out.elisions[i]);
    const std::vector<std::string> texts = text_marker_texts(retained_ones, context);
    std::string view;
    view.reserve(out.view.size() + 200 * out.elisions.size());
    std::size_t from = 0, next_retained = 0;
    for (std::size_t i = 0; i < out.elisions.size(); ++i) {
        view.append(out.view, from, marker_at[i] - from);
        from = marker_at[i];
        view += out.retained[i] ? texts[next_retained++]
                                : unretained_marker(out.elisions[i], retention.why_not);
        if (marker_own_line[i]) view += '\n';
    }
    view.append(out.view, from, std::string::npos);
    out.view = std::move(view);
    return out;
}

} // namespace sutra::core
