// C and C++ text before tree-sitter sees it (c_family.hpp). A small lexer that knows comments,
// string and character literals (raw strings too), numbers with digit separators and
// preprocessor lines is enough: both jobs look at a token and its neighbours only.

#include "core/outline/c_family.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace sutra::core::outline {
namespace {

enum class Kind : std::uint8_t { identifier, number, literal, punct, directive };

struct Token {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    Kind kind = Kind::punct;
    bool first_on_line = false; ///< nothing but whitespace and comments before it on its line
};

bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80;
}

bool is_ident_char(char c) {
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// The end of a quoted literal starting at `pos` (the quote), escapes honoured; an unclosed
// one ends at its line end.
std::size_t quoted_end(std::string_view text, std::size_t pos) {
    const char quote = text[pos];
    std::size_t i = pos + 1;
    while (i < text.size() && text[i] != quote && text[i] != '\n') i += text[i] == '\\' ? 2 : 1;
    return std::min(text.size(), i + 1);
}

// R"delim( ... )delim" starting at the quote.
std::size_t raw_string_end(std::string_view text, std::size_t quote) {
    const std::size_t open = text.find('(', quote);
    if (open == std::string_view::npos || open - quote > 17) return quoted_end(text, quote);
    const std::string close = ")" + std::string(text.substr(quote + 1, open - quote - 1)) + "\"";
    const std::size_t end = text.find(close, open);
    return end == std::string_view::npos ? text.size() : end + close.size();
}

std::vector<Token> tokenize(std::string_view text) {
    std::vector<Token> tokens;
    std::size_t i = 0;
    bool line_start = true;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '\n') {
            line_start = true;
            ++i;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' ||
            (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n')) {
            i += c == '\\' ? 2 : 1;
            continue;
        }
        if (text.compare(i, 2, "//") == 0) {
            i = std::min(text.size(), text.find('\n', i));
            continue;
        }
        if (text.compare(i, 2, "/*") == 0) {
            const std::size_t end = text.find("*/", i + 2);
            const std::size_t stop = end == std::string_view::npos ? text.size() : end + 2;
            if (text.substr(i, stop - i).find('\n') != std::string_view::npos) line_start = true;
            i = stop;
            continue;
        }
        Token t;
        t.begin = static_cast<std::uint32_t>(i);
        t.first_on_line = line_start;
        line_start = false;
        if (c == '#' && t.first_on_line) {
            // To the line end, through backslash continuations.
            std::size_t j = i;
            while (j < text.size() && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
            t.kind = Kind::directive;
            i = std::min(j, text.size());
        } else if (is_ident_start(c)) {
            std::size_t j = i;
            while (j < text.size() && is_ident_char(text[j])) ++j;
            const std::string_view word = text.substr(i, j - i);
            if (j < text.size() && text[j] == '"' && word.ends_with('R') && word.size() <= 3) {
                t.kind = Kind::literal;
                i = raw_string_end(text, j);
            } else if (j < text.size() && (text[j] == '"' || text[j] == '\'') &&
                       (word == "u8" || word == "u" || word == "U" || word == "L")) {
                t.kind = Kind::literal;
                i = quoted_end(text, j);
            } else {
                t.kind = Kind::identifier;
                i = j;
            }
        } else if (is_digit(c) || (c == '.' && i + 1 < text.size() && is_digit(text[i + 1]))) {
            std::size_t j = i + 1;
            while (j < text.size()) {
                const char d = text[j];
                const char before = text[j - 1];
                if (is_ident_char(d) || d == '.' ||
                    (d == '\'' && j + 1 < text.size() && is_ident_char(text[j + 1])) ||
                    ((d == '+' || d == '-') &&
                     (before == 'e' || before == 'E' || before == 'p' || before == 'P')))
                    ++j;
                else
                    break;
            }
            t.kind = Kind::number;
            i = j;
        } else if (c == '"' || c == '\'') {
            t.kind = Kind::literal;
            i = quoted_end(text, i);
        } else {
            t.kind = Kind::punct;
            const std::string_view two = text.substr(i, 2);
            i += (two == "::" || two == "->" || two == "&&" || two == "<<") ? 2 : 1;
        }
        t.end = static_cast<std::uint32_t>(i);
        tokens.push_back(t);
    }
    return tokens;
}

class Tokens {
public:
    explicit Tokens(std::string_view text) : text_(text), tokens_(tokenize(text)) {}

    std::size_t size() const { return tokens_.size(); }
    const Token& operator[](std::size_t i) const { return tokens_[i]; }
    std::string_view text(std::size_t i) const {
        return i < tokens_.size()
                   ? text_.substr(tokens_[i].begin, tokens_[i].end - tokens_[i].begin)
                   : std::string_view();
    }
    bool is(std::size_t i, std::string_view s) const { return i < size() && text(i) == s; }
    bool is_identifier(std::size_t i) const {
        return i < size() && tokens_[i].kind == Kind::identifier;
    }

private:
    std::string_view text_;
    std::vector<Token> tokens_;
};

bool is_macro_name(std::string_view word) {
    std::size_t i = 0;
    while (i < word.size() && word[i] == '_') ++i;
    if (i == word.size() || !(word[i] >= 'A' && word[i] <= 'Z') || word.size() < 2) return false;
    for (; i < word.size(); ++i)
        if (!((word[i] >= 'A' && word[i] <= 'Z') || is_digit(word[i]) || word[i] == '_'))
            return false;
    return true;
}

bool is_class_key(std::string_view word) {
    return word == "class" || word == "struct" || word == "union";
}

// Words that may follow a function's parameter list before its body or `;`.
bool is_declarator_suffix(std::string_view word) {
    return word == "const" || word == "volatile" || word == "override" || word == "final" ||
           word == "noexcept" || word == "mutable";
}

// Words whose parenthesised part is not a parameter list (`if (x) FOO;` is a statement).
bool is_control_word(std::string_view word) {
    static constexpr std::array<std::string_view, 14> words = {
        "if",     "while", "for",      "switch",   "return",  "sizeof",    "alignof",
        "typeof", "catch", "decltype", "_Alignof", "defined", "co_return", "co_await"};
    for (std::string_view w : words)
        if (word == w) return true;
    return false;
}

struct Masker {
    const Tokens& tokens;
    std::vector<std::size_t> match; ///< for '(' its ')' and back; npos when unbalanced
    std::vector<bool> blanked;

    Masker(const Tokens& t, bool first_branches)
        : tokens(t), match(t.size(), npos), blanked(t.size(), false) {
        if (first_branches) keep_first_branches();
        std::vector<std::size_t> open;
        for (std::size_t i = 0; i < t.size(); ++i) {
            if (t[i].kind != Kind::punct || blanked[i]) continue;
            if (t.is(i, "(")) {
                open.push_back(i);
            } else if (t.is(i, ")") && !open.empty()) {
                match[i] = open.back();
                match[open.back()] = i;
                open.pop_back();
            } else if ((t.is(i, "{") || t.is(i, "}") || t.is(i, ";")) && !open.empty()) {
                open.clear(); // parentheses never span these in declarations: resynchronise
            }
        }
    }

    // A preprocessor condition that splits a declaration (`inline #if A int #else void
    // #endif f()`, or `struct S #if X : Base #endif {`) leaves neither branch parseable: such
    // a condition's directives go with every `#elif`/`#else` branch, leaving the first
    // version. A condition around whole declarations is kept as it is (the grammar knows it).
    void keep_first_branches() {
        struct Open {
            std::vector<std::size_t> directives; // #if, #elif..., #else
            bool split = false;
        };
        std::vector<Open> open;
        // Declarations and statements end at these; anything else continues into the next.
        auto boundary = [this](std::size_t i) {
            if (i == npos) return true;
            const std::string_view t = tokens.text(i);
            return t == ";" || t == "{" || t == "}" || t == ":" || t == ",";
        };
        auto last_code = [this](std::size_t i) { // nearest non-directive token before i
            while (i-- > 0)
                if (tokens[i].kind != Kind::directive) return i;
            return npos;
        };
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            if (tokens[i].kind != Kind::directive) continue;
            std::string_view d = tokens.text(i).substr(1);
            while (!d.empty() && (d.front() == ' ' || d.front() == '\t')) d.remove_prefix(1);
            const bool opens = d.starts_with("if"), ends = d.starts_with("endif");
            const bool branches = d.starts_with("el");
            if (opens) {
                open.push_back({{i}, !boundary(last_code(i))});
                continue;
            }
            if ((!branches && !ends) || open.empty()) continue;
            Open& o = open.back();
            // The branch that ends here must end a declaration, unless it is empty.
            const std::size_t last = last_code(i);
            if (last != npos && last > o.directives.back() && !boundary(last)) o.split = true;
            if (branches) {
                o.directives.push_back(i);
                continue;
            }
            // `#if A if (x) {...} #else if (y) {...} #endif else {...}`: the statement goes on.
            std::size_t next = i + 1;
            while (next < tokens.size() && tokens[next].kind == Kind::directive) ++next;
            if (tokens.is(next, "else") || tokens.is(next, "catch")) o.split = true;
            if (o.split) {
                for (std::size_t d_i : o.directives) blanked[d_i] = true;
                blanked[i] = true;
                const std::size_t later = o.directives.size() > 1 ? o.directives[1] : i;
                for (std::size_t k = later; k < i; ++k) blanked[k] = true;
            }
            open.pop_back();
        }
    }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    // The nearest token before i that is not blanked (npos at the start).
    std::size_t previous(std::size_t i) const {
        while (i > 0) {
            --i;
            if (!blanked[i]) return i;
        }
        return npos;
    }

    // `)` closing a parameter list (its `(` follows a name or another `)`), possibly followed
    // by suffix words: where trailing annotations go.
    bool ends_declarator(std::size_t p) const {
        while (p != npos && tokens.is_identifier(p) && is_declarator_suffix(tokens.text(p)))
            p = previous(p);
        if (p == npos || !tokens.is(p, ")") || match[p] == npos) return false;
        const std::size_t before = previous(match[p]);
        if (before == npos) return false;
        if (tokens.is(before, ")")) return true;
        if (tokens.is_identifier(before)) return !is_control_word(tokens.text(before));
        // operator++(), operator->(), operator<=>(): the symbol follows `operator`.
        std::size_t k = before;
        for (int steps = 0; steps < 3 && k != npos && tokens[k].kind == Kind::punct; ++steps)
            k = previous(k);
        return k != npos && tokens.is(k, "operator");
    }

    bool should_blank(std::size_t i, std::size_t after, bool has_args) const {
        const std::size_t p = previous(i);
        const std::string_view prev = p == npos ? std::string_view() : tokens.text(p);
        const std::string_view next = tokens.text(after);
        const bool next_is_name = tokens.is_identifier(after);
        const std::string_view word = tokens.text(i);
        // class GTEST_API_ Foo {   class Foo FOO_FINAL {
        if (is_class_key(prev)) {
            const std::string_view then = tokens.text(after + 1);
            return next_is_name && (then == "{" || then == ":" || then == "final" || then == "<");
        }
        if (p != npos && tokens.is_identifier(p) && p > 0) {
            const std::size_t pp = previous(p);
            const std::string_view key = pp == npos ? std::string_view() : tokens.text(pp);
            if ((key == "namespace" && next == "{") ||
                (is_class_key(key) && (next == "{" || next == ":" || next == "final")))
                return true;
        }
        if (prev == "::" || prev == "." || prev == "->" || prev == "enum") return false;
        // GTEST_API_ void f();  _GLIBCXX20_CONSTEXPR vector();
        if (next_is_name && (has_args || word.find('_') != std::string_view::npos)) return true;
        // void f() const GTEST_LOCK_EXCLUDED_(mu) {
        if ((next == "{" || next == ";" || next == ":" || next == "=" || next == "->") &&
            ends_declarator(p))
            return true;
        // _GLIBCXX_BEGIN_NAMESPACE_VERSION alone on its line between declarations.
        const bool alone =
            tokens[i].first_on_line && (after >= tokens.size() || tokens[after].first_on_line);
        const bool between = p == npos || prev == ";" || prev == "{" || prev == "}" ||
                             prev == ":" || tokens[p].kind == Kind::directive;
        const bool next_starts = after >= tokens.size() || next_is_name ||
                                 tokens[after].kind == Kind::directive || next == "}" ||
                                 next == "~" || next == "[";
        return alone && between && next_starts;
    }

    void run() {
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            if (blanked[i] || !tokens.is_identifier(i) || !is_macro_name(tokens.text(i))) continue;
            std::size_t after = i + 1;
            const bool has_args = tokens.is(after, "(") && !tokens[after].first_on_line;
            if (has_args) {
                if (match[after] == npos) continue;
                after = match[after] + 1;
            }
            if (!should_blank(i, after, has_args)) continue;
            for (std::size_t k = i; k < after; ++k) blanked[k] = true;
            i = after - 1;
        }
    }
};

} // namespace

std::string mask_annotation_macros(std::string_view text, bool first_branches) {
    std::string out(text);
    if (text.size() > UINT32_MAX) return out;
    const Tokens tokens(text);
    Masker masker(tokens, first_branches);
    masker.run();
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (!masker.blanked[i]) continue;
        // The whole stretch up to the next token, so comments inside an argument list go too;
        // line ends stay, so lines keep their numbers.
        const std::size_t end =
            i + 1 < tokens.size() && masker.blanked[i + 1] ? tokens[i + 1].begin : tokens[i].end;
        for (std::size_t b = tokens[i].begin; b < end; ++b)
            if (out[b] != '\n') out[b] = ' ';
    }
    return out;
}

bool looks_like_cpp(std::string_view text) {
    const Tokens tokens(text.substr(0, std::size_t{256} << 10));
    // The preprocessor conditions open around the current token: +1 for a C++-only branch
    // (`#ifdef __cplusplus`), -1 for a C-only one (`#ifndef __cplusplus`), 0 otherwise.
    std::vector<int> conditions;
    int attribute_depth = 0; // inside [[ ... ]]
    auto cpp_only = [&conditions] {
        for (int c : conditions)
            if (c > 0) return true;
        return false;
    };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string_view t = tokens.text(i);
        if (tokens[i].kind == Kind::directive) {
            std::size_t k = 1;
            while (k < t.size() && (t[k] == ' ' || t[k] == '\t')) ++k;
            const std::string_view d = t.substr(k);
            const std::size_t at = d.find("__cplusplus");
            const bool names_cpp = at != std::string_view::npos;
            bool negated = d.starts_with("ifndef");
            if (names_cpp) {
                // `!defined(__cplusplus)`, `! __cplusplus`
                std::string_view before = d.substr(0, at);
                while (!before.empty() &&
                       (before.back() == ' ' || before.back() == '(' || before.back() == '\t'))
                    before.remove_suffix(1);
                if (before.ends_with("defined")) before.remove_suffix(7);
                while (!before.empty() && (before.back() == ' ' || before.back() == '\t'))
                    before.remove_suffix(1);
                negated = negated || before.ends_with('!');
            }
            if (d.starts_with("if"))
                conditions.push_back(names_cpp ? (negated ? -1 : 1) : 0);
            else if ((d.starts_with("else") || d.starts_with("elif")) && !conditions.empty())
                conditions.back() = -conditions.back();
            else if (d.starts_with("endif") && !conditions.empty())
                conditions.pop_back();
            continue;
        }
        if (cpp_only()) continue;
        if (t == "[" && tokens.is(i + 1, "[")) ++attribute_depth;
        if (t == "]" && tokens.is(i + 1, "]") && attribute_depth > 0) --attribute_depth;
        const std::string_view next = tokens.text(i + 1);
        if (t == "::" && attribute_depth == 0 && (tokens.is_identifier(i + 1) || next == "~"))
            return true;
        if (tokens[i].kind != Kind::identifier) continue;
        if (t == "namespace" && (tokens.is_identifier(i + 1) || next == "{")) return true;
        if (t == "template" && next == "<") return true;
        if ((t == "public" || t == "private" || t == "protected") && next == ":") return true;
        if (t == "class" && tokens.is_identifier(i + 1)) {
            const std::string_view then = tokens.text(i + 2);
            if (then == "{" || then == ":" || then == ";" || then == "<" || then == "final")
                return true;
        }
        if (t == "typename" || t == "nullptr" || t == "constexpr" || t == "consteval" ||
            t == "constinit" || t == "virtual" || t == "noexcept" || t == "decltype")
            return true;
        if (t == "operator" && i + 1 < tokens.size() && tokens[i + 1].kind == Kind::punct)
            return true;
    }
    return false;
}

} // namespace sutra::core::outline
