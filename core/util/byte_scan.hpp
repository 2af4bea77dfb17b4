#pragma once
// Scanning a text 16 bytes at a time for line ends, line starts and blank bytes. A memchr call
// per line costs a few nanoseconds of set-up however short the line, which was most of the work
// on a million blank lines; a compare and a bit mask per 16 bytes costs the same on any line
// length.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sutra::core {

/// Calls f(pos) with the offset of each '\n' in `s`, in order, while f returns true. Returns
/// false when f stopped it.
template <class F> bool for_each_newline(std::string_view s, F&& f) {
    const char* p = s.data();
    const std::size_t n = s.size();
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i newline = _mm_set1_epi8('\n');
    for (; i + 16 <= n; i += 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        auto mask = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, newline)));
        for (; mask != 0; mask &= mask - 1)
            if (!f(i + static_cast<std::size_t>(__builtin_ctz(mask)))) return false;
    }
#endif
    for (; i < n; ++i)
        if (p[i] == '\n' && !f(i)) return false;
    return true;
}

/// Calls f(begin) with the offset of each line start (0, and each offset after a '\n') whose
/// first byte is one of `firsts` (1-4 bytes), in order, while f returns true. Returns false when
/// f stopped it. Other lines cost nothing but the scan.
template <class F>
bool for_each_line_starting_with(std::string_view s, std::string_view firsts, F&& f) {
    const char* p = s.data();
    const std::size_t n = s.size();
    const auto wanted = [&](char c) { return firsts.find(c) != std::string_view::npos; };
    if (n > 0 && wanted(p[0]) && !f(std::size_t{0})) return false;
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i newline = _mm_set1_epi8('\n');
    __m128i first[4];
    for (std::size_t k = 0; k < 4; ++k)
        first[k] = _mm_set1_epi8(firsts[std::min(k, firsts.size() - 1)]);
    // A newline at i + k whose next byte, at i + k + 1, is wanted.
    for (; i + 17 <= n; i += 16) {
        const __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 1));
        const __m128i starts = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(next, first[0]), _mm_cmpeq_epi8(next, first[1])),
            _mm_or_si128(_mm_cmpeq_epi8(next, first[2]), _mm_cmpeq_epi8(next, first[3])));
        auto mask = static_cast<std::uint32_t>(
            _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(here, newline), starts)));
        for (; mask != 0; mask &= mask - 1)
            if (!f(i + static_cast<std::size_t>(__builtin_ctz(mask)) + 1)) return false;
    }
#endif
    for (; i + 1 < n; ++i)
        if (p[i] == '\n' && wanted(p[i + 1]) && !f(i + 1)) return false;
    return true;
}

/// The offset of the first byte of `s` that is not a space, tab, CR or LF (or its size).
inline std::size_t skip_blank(std::string_view s) {
    const char* p = s.data();
    const std::size_t n = s.size();
    std::size_t i = 0;
#if defined(__SSE2__)
    for (; i + 16 <= n; i += 16) {
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const __m128i blank = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')),
                                                        _mm_cmpeq_epi8(c, _mm_set1_epi8('\t'))),
                                           _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8('\r')),
                                                        _mm_cmpeq_epi8(c, _mm_set1_epi8('\n'))));
        const auto mask = static_cast<std::uint32_t>(_mm_movemask_epi8(blank));
        if (mask != 0xFFFF) return i + static_cast<std::size_t>(__builtin_ctz(~mask));
    }
#endif
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) ++i;
    return i;
}

/// The first offset at or after `from` where `s` differs from itself `period` bytes back
/// (period <= from), or its size: where a text that repeats with that period stops repeating.
inline std::size_t first_mismatch(std::string_view s, std::size_t from, std::size_t period) {
    const char* p = s.data();
    const std::size_t n = s.size();
    std::size_t i = from;
#if defined(__SSE2__)
    for (; i + 16 <= n; i += 16) {
        const __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const __m128i back = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i - period));
        const auto same = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(here, back)));
        if (same != 0xFFFF) return i + static_cast<std::size_t>(__builtin_ctz(~same));
    }
#endif
    while (i < n && p[i] == p[i - period]) ++i;
    return i;
}

/// How many '\n' `s` holds.
inline std::size_t count_newlines(std::string_view s) {
    const char* p = s.data();
    const std::size_t n = s.size();
    std::size_t i = 0, count = 0;
#if defined(__SSE2__)
    const __m128i newline = _mm_set1_epi8('\n');
    for (; i + 16 <= n; i += 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        count += static_cast<std::size_t>(__builtin_popcount(
            static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, newline)))));
    }
#endif
    for (; i < n; ++i) count += p[i] == '\n' ? 1 : 0;
    return count;
}

} // namespace sutra::core
