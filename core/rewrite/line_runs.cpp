// Runs of identical lines, condensed (line_runs.hpp).

#include "core/rewrite/line_runs.hpp"

#include "core/util/byte_scan.hpp"

#include <cstring>
#include <numeric>

namespace sutra::core {
namespace {

// Takes the lines in order and keeps, of each run of k_run_min or more identical lines, its
// edges and one standing line. The lines of a run all have one size, so the ones held back while
// the run grows are found again by arithmetic when it ends.
class Condenser {
public:
    Condenser(std::string_view bytes, std::size_t lines) : m_bytes(bytes) {
        reserve_huge(m_out.index.starts, lines + 2);
    }

    void line(std::uint64_t begin, std::uint64_t end) {
        const std::uint64_t size = end - begin;
        if (m_run_length > 0 && size == m_run_size && same_bytes(begin, m_run_begin, size)) {
            if (++m_run_length <= k_run_edge + 1) push(begin, m_lines);
        } else {
            close_run();
            m_run_begin = begin;
            m_run_first = m_lines;
            m_run_size = size;
            m_run_length = 1;
            push(begin, m_lines);
        }
        ++m_lines;
    }

    /// The last two lines taken are the same: a run is under way.
    bool repeating() const { return m_run_length >= 2; }
    std::uint64_t run_line_size() const { return m_run_size; }

    /// `count` more copies of the current run's line, taken at once.
    void extend(std::uint64_t count) {
        for (; count > 0 && m_run_length <= k_run_edge; --count) {
            push(m_run_begin + m_run_length * m_run_size, m_lines);
            ++m_run_length;
            ++m_lines;
        }
        m_run_length += count;
        m_lines += count;
    }

    CondensedLines finish() {
        close_run();
        m_out.index.starts.push_back(m_bytes.size());
        if (!m_out.first.empty()) m_out.first.push_back(m_lines);
        return std::move(m_out);
    }

private:
    std::string_view m_bytes;
    CondensedLines m_out;
    std::uint64_t m_lines = 0;      // original lines taken
    std::uint64_t m_run_begin = 0;  // the current run: its first line's offset,
    std::uint64_t m_run_first = 0;  // that line's number (zero-based),
    std::uint64_t m_run_size = 0;   // the bytes of each of its lines,
    std::uint64_t m_run_length = 0; // and how many lines it has so far

    bool same_bytes(std::uint64_t a, std::uint64_t b, std::uint64_t size) const {
        const char* x = m_bytes.data() + a;
        const char* y = m_bytes.data() + b;
        // Short lines by hand: a memcmp call costs more than comparing a blank line.
        if (size > 16) return std::memcmp(x, y, size) == 0;
        for (std::uint64_t k = 0; k < size; ++k)
            if (x[k] != y[k]) return false;
        return true;
    }

    void push(std::uint64_t begin, std::uint64_t original) {
        m_out.index.starts.push_back(begin);
        if (!m_out.first.empty()) m_out.first.push_back(original);
    }

    // The lines of the run held back past its first k_run_edge + 1: its last k_run_edge when the
    // run is long (the line before them stands for the middle), else all of them.
    void close_run() {
        if (m_run_length <= k_run_edge + 1) return;
        std::uint64_t from = k_run_edge + 1;
        if (m_run_length >= k_run_min) {
            if (m_out.first.empty()) {
                // The first run condensed: every line so far is its own.
                reserve_huge(m_out.first, m_out.index.starts.capacity());
                m_out.first.resize(m_out.index.starts.size());
                std::iota(m_out.first.begin(), m_out.first.end(), std::uint64_t{0});
            }
            from = m_run_length - k_run_edge;
        }
        for (std::uint64_t m = from; m < m_run_length; ++m)
            push(m_run_begin + m * m_run_size, m_run_first + m);
        m_run_length = 0;
    }
};

} // namespace

CondensedLines index_condensed(std::string_view bytes) {
    if (bytes.empty()) return CondensedLines{index_lines(bytes), {}};
    Condenser c(bytes, count_newlines(bytes));
    std::uint64_t begin = 0;
    while (begin < bytes.size()) {
        // Line by line until two in a row are the same.
        const std::uint64_t base = begin;
        const bool to_the_end = for_each_newline(bytes.substr(base), [&](std::size_t newline) {
            c.line(begin, base + newline + 1);
            begin = base + newline + 1;
            return !c.repeating();
        });
        if (to_the_end) break;
        // Then the copies that follow, by comparing the bytes with those one line back: the
        // text repeats with the line's period as long as the copies last.
        const std::uint64_t size = c.run_line_size();
        const std::uint64_t copies = (first_mismatch(bytes, begin, size) - begin) / size;
        c.extend(copies);
        begin += copies * size;
    }
    if (begin < bytes.size()) c.line(begin, bytes.size());
    return c.finish();
}

CondensedLines condense_runs(std::string_view bytes, const LineIndex& lines) {
    if (lines.count() == 0) return CondensedLines{lines, {}};
    Condenser c(bytes, lines.count());
    for (std::size_t i = 0; i < lines.count(); ++i) c.line(lines.begin(i), lines.end(i));
    return c.finish();
}

} // namespace sutra::core
