#pragma once
// The streaming view of an output too large to hold (`sutra exec` past its in-memory window).
// Bytes arrive in chunks; the planner keeps, in bounded memory, what the view may show:
//  - a head (the first lines, within a share of the mode's budget),
//  - groups around critical lines (the core's key words and --keep patterns) with their
//    context and continuation blocks, in a reservoir of twice the ceiling: when it fills, every
//    other group is let go (the first always stays, and the latest), so what is kept is spread
//    evenly over the output however long it runs,
//  - the first notable lines (warnings and the like), within half the ceiling,
//  - a tail ring (where verdicts are).
// At the end the view is chosen signal first, as the core does (docs/contract.md rule 5): every
// critical line kept, then their context and the notable lines, then the head and tail; when
// that is over the ceiling, the head and tail shrink first, then the notable lines and the
// context go, and only then are critical lines
// thinned, evenly, with one closing line that counts the rest. The last line with text always
// stays. Everything else is elided, and each elided stretch becomes one core marker naming its
// exact byte and line range in the original (the first retained one in full, the later ones by
// range: docs/contract.md's marker economy). Long lines keep their first two thirds and last
// third of the mode's line bound, as in the core. Memory is bounded by the mode's budget and
// ceiling, whatever the output's size; no process code lives here.

#include "core/rewrite/classify.hpp"
#include "core/rewrite/marker.hpp"
#include "core/rewrite/text_rewrite.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

/// Which prefix of the stream the store holds, and why it stops there.
struct StreamRetention {
    std::uint64_t retained = 0; ///< the entry holds bytes [0, retained) of the output
    /// Said in each marker of a range at or past `retained`, after "not retained: ".
    std::string why_not;
};

struct StreamView {
    std::string view;
    std::vector<Elision> elisions;
    std::vector<bool> retained; ///< per elision: can its restore call return it?
    std::vector<std::string> rules;
    std::uint64_t key_lines_elided = 0; ///< critical lines that ended up inside markers
};

/// The marker of a range the store does not hold: the core's marker up to its retention part,
/// then "not retained: WHY".
std::string unretained_marker(const Elision& elision, const std::string& why);

class StreamPlanner {
public:
    /// `keys` must outlive the planner. `options` are the core's text options for the mode.
    StreamPlanner(const KeyMatcher& keys, const TextOptions& options);

    /// Takes the next bytes of the output.
    void feed(std::string_view bytes);

    /// The store stops at byte `offset` (the per-entry quota, or a write error): call before
    /// feeding the bytes at that offset, so the planner can name the line it falls in.
    void retention_stops_at(std::uint64_t offset);

    /// End of the output: a last line without a newline still counts.
    void finish();

    /// The view under `context` (the real id, route and TTL, or store off). Call after finish.
    StreamView render(const MarkerContext& context, const StreamRetention& retention) const;

    std::uint64_t bytes() const { return m_offset; }
    std::uint64_t lines() const { return m_lines; }

    /// A line as the view may show it: its raw bytes when short, else the two ends it keeps.
    struct Line {
        std::uint64_t begin = 0;
        std::uint64_t end = 0;
        std::uint64_t number = 0; ///< one-based
        std::string head;         ///< the whole line when short; the kept start when long
        std::string tail;         ///< long lines only: the kept end
        std::uint64_t shown = 0;  ///< bytes it costs in the view
        bool critical = false;
        bool error = false; ///< critical and an error report (not a warning or a verdict)
        bool notable = false;
        bool is_long() const { return !tail.empty() || head.size() < end - begin; }
    };

    /// The last lines, oldest first, in recycled slots: a steady stream allocates nothing.
    class LineRing {
    public:
        /// A slot for the newest line (its old contents are to be overwritten).
        Line& push();
        void pop_oldest();
        std::size_t size() const { return m_count; }
        const Line& operator[](std::size_t i) const {
            return m_slots[(m_first + i) % m_slots.size()];
        }
        const Line& oldest() const { return (*this)[0]; }

    private:
        std::vector<Line> m_slots;
        std::size_t m_first = 0;
        std::size_t m_count = 0;
    };

private:
    struct Group {
        std::vector<Line> lines;
        std::uint64_t bytes = 0;
        std::uint64_t ordinal = 0; ///< how many groups of its kind (error or not) closed before it
        bool sampled = false;      ///< kept by the stride (else only while it is the latest)
        bool has_error = false;    ///< holds an error report: thinned only after the others
    };

    const KeyMatcher& m_keys;
    TextOptions m_opt;
    std::uint64_t m_head_room = 0;
    std::uint64_t m_head_max = 0;
    std::uint64_t m_tail_room = 0;
    std::uint64_t m_tail_max = 0;
    std::uint64_t m_group_cap = 0; ///< the bytes one group may hold
    std::uint64_t m_reservoir = 0; ///< the bytes all kept groups may hold
    std::size_t m_head_keep = 0;   ///< bytes of a line's start kept while it streams
    std::size_t m_tail_keep = 0;   ///< bytes of a long line's end kept

    std::uint64_t m_offset = 0; ///< bytes seen
    std::uint64_t m_lines = 0;  ///< complete lines seen
    // The line being received.
    std::uint64_t m_cur_begin = 0;
    std::string m_cur_head;
    std::string m_cur_tail;
    bool m_cur_long = false;

    // The retention boundary and the line it falls in (0: not met yet).
    std::uint64_t m_stop = UINT64_MAX;
    std::uint64_t m_stop_line = 0;
    std::uint64_t m_stop_line_begin = 0;

    bool m_head_done = false;
    std::uint64_t m_head_bytes = 0;
    std::vector<Line> m_head;

    LineRing m_before; ///< the last few lines, context for a critical line
    Group m_open;      ///< the group being built
    bool m_group_open = false;
    std::size_t m_after = 0; ///< lines since the group's last critical line
    std::string m_last_critical;
    std::vector<Group>
        m_groups; ///< every m_stride-th group (m_error_stride-th with errors), the latest
    std::uint64_t m_groups_bytes = 0;
    std::uint64_t m_group_count = 0;
    std::uint64_t m_stride = 1;
    std::uint64_t m_error_group_count = 0;
    std::uint64_t m_error_stride = 1; ///< groups with errors have a stride of their own
    std::uint64_t m_critical_seen = 0;
    std::vector<Line> m_notable; ///< the first notable lines, within m_notable_cap
    std::uint64_t m_notable_bytes = 0;
    std::uint64_t m_notable_cap = 0;

    LineRing m_tail;
    std::uint64_t m_tail_bytes = 0;

    /// The numbers of the critical lines seen, so each marker can count the ones it holds; past
    /// k_counted_lines of them (8 MiB) later markers go without a count (the closing line still
    /// counts them all).
    std::vector<std::uint64_t> m_critical_numbers;
    bool m_counted_all = true;

    Line m_line;                       ///< the line being looked at (its buffers are reused)
    std::string m_prev_text;           ///< the last short line's text and level: repeats skip the
    Level m_prev_level = Level::none;  ///< classifier
    bool m_announced = false;          ///< the last line was an error that ends with a colon
    std::size_t m_announced_depth = 0; ///< and its indentation
    std::size_t m_details_left = 0;    ///< details an error above may still have below it
    std::size_t m_error_depth = 0;     ///< that error's indentation
    bool m_place_may_follow = false;   ///< the last line was an error that names no place
    bool m_last_error = false;         ///< the last line was an error report (or its own line)

    void take(std::string_view raw_head,
              std::string_view raw_tail,
              std::uint64_t begin,
              std::uint64_t end);
    void
    make_line(std::string_view head, std::string_view tail, std::uint64_t begin, std::uint64_t end);
    void close_group();
    void push_tail(const Line& line);
    /// The view showing exactly `kept` (sorted by line number), without the closing notes.
    StreamView compose(const std::vector<const Line*>& kept,
                       const MarkerContext& context,
                       const StreamRetention& retention,
                       bool& ansi,
                       bool& redraw) const;
};

} // namespace sutra::core
