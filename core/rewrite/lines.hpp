#pragma once
// The line model every text rewrite works on. Lines are split after each '\n' (a last line
// without one still counts), numbered from 1, and addressed by byte offsets in the original, so
// any run of elided lines maps to one exact byte range.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core {

struct LineIndex {
    /// starts[i] is the offset of line i (zero-based); starts.back() is the input size.
    std::vector<std::uint64_t> starts;

    std::size_t count() const { return starts.empty() ? 0 : starts.size() - 1; }
    std::uint64_t begin(std::size_t i) const { return starts[i]; }
    std::uint64_t end(std::size_t i) const { return starts[i + 1]; }
};

LineIndex index_lines(std::string_view bytes);

/// Asks the kernel for transparent huge pages on a large buffer before it is filled: a 100 MB
/// input's per-line arrays then fault in 2 MiB at a time, not 4 KiB (about 7,000 faults, a
/// sixth of the rewrite's time on the development machine). Small buffers are left alone.
void advise_huge_pages(const void* data, std::size_t bytes) noexcept;

/// v.reserve(n), with huge pages advised for what it reserved.
template <class T> void reserve_huge(std::vector<T>& v, std::size_t n) {
    v.reserve(n);
    advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

/// What terminal noise a line holds.
struct Noise {
    bool ansi = false;   ///< ESC sequences (CSI, OSC, charset selects, …)
    bool redraw = false; ///< carriage returns that redraw the line (progress bars)
};

/// True when the line (with its '\n') has an ESC byte, or a '\r' other than a CRLF ending.
bool has_noise(std::string_view line);

/// The line as a terminal would leave it: escape sequences removed (a sequence cut off at the end
/// is removed too), and of the segments separated by carriage returns the last non-empty one.
/// A trailing "\r\n" or "\n" is kept as it was. Records what was removed in `noise`.
std::string clean_line(std::string_view line, Noise& noise);

} // namespace sutra::core
