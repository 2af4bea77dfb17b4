// See places.hpp.

#include "core/rewrite/places.hpp"

#include <cstddef>

namespace sutra::core {
namespace {

bool is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}
bool is_space(unsigned char c) {
    return c == ' ' || c == '\t';
}
bool is_digit_at(std::string_view l, std::size_t i) {
    return i < l.size() && is_digit(static_cast<unsigned char>(l[i]));
}

std::string_view strip_ending(std::string_view line) {
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    return line;
}

// `  12:5  …`: blanks, LINE:COL, a blank.
bool is_row_position(std::string_view l) {
    std::size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    if (i == 0 || !is_digit_at(l, i)) return false;
    while (is_digit_at(l, i)) ++i;
    if (i >= l.size() || l[i] != ':' || !is_digit_at(l, i + 1)) return false;
    ++i;
    while (is_digit_at(l, i)) ++i;
    return i < l.size() && (l[i] == ' ' || l[i] == '\t');
}

// After `name.ext(DIGITS` at d: `, DIGITS)` then a blank and a capitalised label with its
// colon (Nim's `(8, 7) Hint:`, `(14, 19) Error:`).
bool spaced_pair_before_label(std::string_view line, std::size_t d) {
    if (line.substr(d, 2) != ", ") return false;
    std::size_t e = d + 2;
    const std::size_t digits = e;
    while (e < line.size() && is_digit(static_cast<unsigned char>(line[e]))) ++e;
    if (e == digits || line.substr(e, 2) != ") ") return false;
    e += 2;
    if (e >= line.size() || line[e] < 'A' || line[e] > 'Z') return false;
    const std::size_t word = e;
    while (e < line.size() &&
           ((line[e] >= 'a' && line[e] <= 'z') || (line[e] >= 'A' && line[e] <= 'Z')))
        ++e;
    return e - word >= 3 && e < line.size() && line[e] == ':';
}

} // namespace

bool is_file_place(std::string_view line) {
    line = strip_ending(line);
    if (line.size() > 600) line = line.substr(0, 600);
    // Python's `File "x.py", line 3`, OCaml's `File "m1.ml", lines 3-4, characters 2-19:`.
    if (line.find("File \"") != std::string_view::npos &&
        (line.find("\", line ") != std::string_view::npos ||
         line.find("\", lines ") != std::string_view::npos))
        return true;
    // name.ext:DIGITS, or name.ext(DIGITS,DIGITS) (tsc) and name.ext(DIGITS): (MSVC), or Nim's
    // name.ext(DIGITS, DIGITS) before a label (`bad.nim(8, 7) Hint: …`); a call such as
    // `x.toBe(6);` or `m.add(7, 14)` in a code excerpt is not one.
    for (std::size_t i = 1; i + 1 < line.size(); ++i) {
        const char c = line[i];
        if ((c != ':' && c != '(') || !is_digit(static_cast<unsigned char>(line[i + 1]))) continue;
        if (c == '(') {
            std::size_t d = i + 1;
            while (d < line.size() && is_digit(static_cast<unsigned char>(line[d]))) ++d;
            if (!(d + 1 < line.size() && line[d] == ',' &&
                  is_digit(static_cast<unsigned char>(line[d + 1]))) &&
                !(d + 1 < line.size() && line[d] == ')' && line[d + 1] == ':') &&
                !spaced_pair_before_label(line, d))
                continue;
        }
        // Walk back over the file name; it must have an extension.
        std::size_t k = i;
        bool dot = false;
        while (k > 0) {
            const auto p = static_cast<unsigned char>(line[k - 1]);
            if (p == '.') dot = true;
            if (is_space(p) || p == '(' || p == '"' || p == '\'' || p == '[' || p == '<') break;
            --k;
        }
        if (dot && k < i && line[i - 1] != '.') return true;
    }
    return false;
}

bool names_place(std::string_view l) {
    if (is_row_position(l)) return true;
    for (std::size_t i = 0; i + 2 < l.size(); ++i) {
        if ((l[i] == ':' || l[i] == '(') && i > 0 && l[i - 1] != ' ' && is_digit_at(l, i + 1)) {
            std::size_t j = i + 1;
            while (is_digit_at(l, j)) ++j;
            if (j < l.size() && ((l[i] == ':' && l[j] == ':') ||
                                 (l[i] == '(' && l[j] == ',' && is_digit_at(l, j + 1)) ||
                                 (l[i] == '(' && spaced_pair_before_label(l, j))))
                return true;
        }
        if (l[i] == 'l' && l.substr(i, 5) == "line " && is_digit_at(l, i + 5)) return true;
    }
    return false;
}

bool names_file_line(std::string_view l) {
    if (l.size() > 600) l = l.substr(0, 600);
    // The file first, the line in words later: perlcritic's `lib/Shop/Cart03.pm: Code before
    // warnings are enabled at line 5, column 1. …`.
    if (const std::size_t colon = l.find(": ");
        colon != std::string_view::npos && colon > 0 &&
        l.substr(0, colon).find(' ') == std::string_view::npos &&
        names_file_name(l.substr(0, colon)))
        for (std::size_t at = l.find(" line ", colon); at != std::string_view::npos;
             at = l.find(" line ", at + 1))
            if (is_digit_at(l, at + 6)) return true;
    for (std::size_t at = l.find("line "); at != std::string_view::npos;
         at = l.find("line ", at + 1)) {
        if (at < 2 || l[at - 1] != ' ' || !is_digit_at(l, at + 5)) continue;
        // The word before `line` (or before `on line`) is the file's name.
        std::size_t end = at - 1;
        std::size_t begin = l.rfind(' ', end - 1);
        begin = begin == std::string_view::npos ? 0 : begin + 1;
        if (l.substr(begin, end - begin) == "on" && begin > 1) {
            end = begin - 1;
            begin = l.rfind(' ', end - 1);
            begin = begin == std::string_view::npos ? 0 : begin + 1;
        }
        if (names_file_name(l.substr(begin, end - begin))) return true;
    }
    return false;
}

bool names_file_name(std::string_view l) {
    auto is_alnum = [](unsigned char c) {
        return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
    };
    if (l.size() > 600) l = l.substr(0, 600);
    for (std::size_t i = 0; i < l.size();) {
        while (i < l.size() && is_space(static_cast<unsigned char>(l[i]))) ++i;
        std::size_t b = i;
        while (i < l.size() && !is_space(static_cast<unsigned char>(l[i]))) ++i;
        std::size_t e = i;
        // Quotes, brackets and punctuation around the name are not part of it.
        while (b < e && !is_alnum(static_cast<unsigned char>(l[b])) && l[b] != '/' && l[b] != '.')
            ++b;
        while (e > b && !is_alnum(static_cast<unsigned char>(l[e - 1]))) --e;
        const std::string_view w = l.substr(b, e - b);
        const std::size_t dot = w.rfind('.');
        if (dot == std::string_view::npos || dot == 0 || dot + 1 >= w.size() ||
            w.size() - dot - 1 > 10 || w[dot - 1] == '/' || w[dot - 1] == '.')
            continue;
        const auto first = static_cast<unsigned char>(w[dot + 1]);
        if (is_digit(first) || !is_alnum(first)) continue;
        bool ext = true;
        for (std::size_t k = dot + 1; k < w.size(); ++k)
            ext = ext && is_alnum(static_cast<unsigned char>(w[k]));
        if (ext) return true;
    }
    return false;
}

} // namespace sutra::core
