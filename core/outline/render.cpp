// Outline lines and symbol slices (render.hpp).

#include "core/outline/render.hpp"

#include <fmt/format.h>

namespace sutra::core::outline {

std::string outline_lines(const Outline& outline) {
    std::string out;
    for (const Symbol& s : outline.symbols) {
        out.append(2 * s.depth, ' ');
        out += fmt::format("{} {} {}-{}", s.kind, s.qualified, s.first_line, s.last_line);
        if (!s.signature.empty()) out += "  " + s.signature;
        out += '\n';
    }
    return out;
}

std::string_view symbol_text(std::string_view text, const Symbol& symbol) {
    return text.substr(symbol.begin, symbol.end - symbol.begin);
}

std::string signature_text(std::string_view text, const Symbol& symbol) {
    const std::size_t end = symbol.body_begin ? *symbol.body_begin : symbol.end;
    std::string_view decl = text.substr(symbol.begin, end - symbol.begin);
    while (!decl.empty() && (decl.back() == ' ' || decl.back() == '\t' || decl.back() == '\n' ||
                             decl.back() == '\r'))
        decl.remove_suffix(1);
    return std::string(decl);
}

bool folds_body(std::string_view text, const Symbol& symbol, Language language) {
    if (!symbol.body_begin) return false;
    const char open = text[*symbol.body_begin];
    switch (language) {
    case Language::json:
        return open == '{' || open == '[';
    case Language::python:
    case Language::bash:
        return symbol.kind == "function" || symbol.kind == "method";
    default:
        return (symbol.kind == "function" || symbol.kind == "method" ||
                symbol.kind == "constructor") &&
               open == '{';
    }
}

std::string compact_text(std::string_view text, const Outline& outline, std::size_t index) {
    const Symbol& root = outline.symbols.at(index);
    std::string out;
    std::size_t pos = root.begin; // text[root.begin, pos) is already in `out`
    // The symbol and its descendants follow it in file order; fold each outermost body.
    for (std::size_t j = index; j < outline.symbols.size(); ++j) {
        const Symbol& s = outline.symbols[j];
        if (s.begin >= root.end) break;
        if (!folds_body(text, s, outline.language) || *s.body_begin < pos || s.body_end > root.end)
            continue;
        out.append(text.substr(pos, *s.body_begin - pos));
        out += folded_body(outline.language, text.substr(*s.body_begin, s.body_end - *s.body_begin),
                           s.body_first_line, s.body_last_line);
        pos = s.body_end;
    }
    out.append(text.substr(pos, root.end - pos));
    return out;
}

} // namespace sutra::core::outline
