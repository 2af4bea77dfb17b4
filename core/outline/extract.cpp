// From raw query matches to an Outline (extract.hpp).
//
// The query gives one match per definition it recognises, with the definition's node, its name
// node and, where the grammar has one, its body node. Several patterns may recognise the same
// definition (a decorated Python function matches both as `decorated_definition` and as the
// `function_definition` inside it; a C++ template as `template_declaration` and as the
// function inside): a name node belongs to one symbol only, so matches sharing a name node
// collapse into the widest one. Syntax-tree nodes either nest or are disjoint, so sorting by
// (begin, -end) and keeping a stack of open symbols gives every symbol its parent.

#include "core/outline/extract.hpp"

#include "core/outline/source_text.hpp"
#include "core/util/utf8.hpp"

#include <algorithm>
#include <map>

namespace sutra::core::outline {
namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_type_like(std::string_view kind) {
    return kind == "class" || kind == "struct" || kind == "interface" || kind == "trait" ||
           kind == "impl" || kind == "enum" || kind == "union";
}

bool is_function_like(std::string_view kind) {
    return kind == "function" || kind == "method" || kind == "constructor";
}

std::string_view slice(std::string_view text, ByteSpan span) {
    return text.substr(span.begin, span.end - span.begin);
}

// The name as it appears in qualified names: C++ `A::b` -> `A.b`, quotes dropped (TypeScript
// `declare module "x"`); an impl or a receiver type
// without generic arguments or pointer marks (`impl<T> Foo<T>` -> `Foo`, `(s *List[T])` -> `List`).
std::string plain_name(std::string_view name, bool strip_generics) {
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name.compare(i, 2, "::") == 0) {
            out += '.';
            ++i;
        } else if (is_space(name[i])) {
            // Kept between two words: `operator bool`, `operator new`.
            const bool word_after = i + 1 < name.size() && is_word_char(name[i + 1]);
            if (!out.empty() && is_word_char(out.back()) && word_after) out += ' ';
        } else if (name[i] != '"' && name[i] != '\'') {
            out += name[i];
        }
    }
    if (strip_generics) out = out.substr(0, out.find_first_of("<["));
    return out;
}

// Go receiver "(s *Server)" -> "Server".
std::string receiver_type(std::string_view receiver) {
    std::string_view r = receiver;
    while (!r.empty() && (r.front() == '(' || is_space(r.front()))) r.remove_prefix(1);
    while (!r.empty() && (r.back() == ')' || is_space(r.back()))) r.remove_suffix(1);
    // The type is the last word, unless generics hold spaces: cut those first.
    r = r.substr(0, r.find('['));
    const std::size_t space = r.find_last_of(" \t\n");
    if (space != std::string_view::npos) r.remove_prefix(space + 1);
    while (!r.empty() && r.front() == '*') r.remove_prefix(1);
    return std::string(r);
}

// Python's block starts at its first statement, so comments after the `:` precede it:
// `def load(dir):  # why` loses the `# why`. A `#` counts only at a line start or after `:`.
std::string_view without_python_comments(std::string_view decl) {
    while (true) {
        while (!decl.empty() && is_space(decl.back())) decl.remove_suffix(1);
        const std::size_t line = decl.rfind('\n') + 1; // 0 when there is no newline
        const std::size_t hash = decl.find('#', line);
        if (hash == std::string_view::npos) return decl;
        std::size_t before = hash;
        while (before > line && is_space(decl[before - 1])) --before;
        if (before != line && decl[before - 1] != ':') return decl;
        decl = decl.substr(0, hash);
    }
}

// The name as listed: whitespace runs collapsed to one space (a name node may span lines:
// `operator\n()`), and a C++ class template specialisation named without its arguments
// (`_Asan<allocator<_Up> >` is `_Asan`; the signature keeps them).
// `text` with each run of blanks (newlines included) as one space and none at either end,
// stopping once the result is longer than `limit` bytes.
std::string collapse_spaces(std::string_view text, std::size_t limit) {
    std::string out;
    out.reserve(std::min(text.size(), limit == std::string::npos ? text.size() : limit + 4));
    bool pending_space = false;
    for (char c : text) {
        if (is_space(c)) {
            pending_space = !out.empty();
            continue;
        }
        if (pending_space) out += ' ';
        pending_space = false;
        out += c;
        if (out.size() > limit) break;
    }
    return out;
}

std::string display_name(std::string_view name, std::string_view kind, Language language) {
    if (language == Language::cpp && is_type_like(kind)) name = name.substr(0, name.find('<'));
    // A conversion operator's node holds its parameters: `operator bool() const` is
    // `operator bool`.
    if (language == Language::cpp && name.find("operator ") != std::string_view::npos)
        name = name.substr(0, name.find('(', name.find("operator ")));
    return collapse_spaces(name, std::string::npos);
}

// Names and signatures go into JSON, which takes UTF-8 only: a byte that does not begin a
// well-formed sequence (a Latin-1 comment in a signature) becomes U+FFFD.
std::string as_utf8(std::string text) {
    std::size_t bad = first_invalid_utf8(text);
    if (bad == text.size()) return text;
    std::string out;
    std::string_view rest = text;
    while (bad < rest.size()) {
        out.append(rest.substr(0, bad));
        out += "\xEF\xBF\xBD";
        rest.remove_prefix(bad + 1);
        bad = first_invalid_utf8(rest);
    }
    out.append(rest);
    return out;
}

std::string declaration_of(std::string_view text, const Symbol& s, Language language) {
    if (!s.body_begin) return normalise_signature(text.substr(s.begin, s.end - s.begin));
    std::string_view decl = text.substr(s.begin, *s.body_begin - s.begin);
    if (language == Language::python) decl = without_python_comments(decl);
    std::string sig = normalise_signature(decl);
    // A type definition's name may follow its body (C `typedef struct {...} Name;`).
    if (s.kind == "type") {
        const std::string tail = normalise_signature(text.substr(s.body_end, s.end - s.body_end));
        return sig + " {…}" + (tail.empty() || tail.front() == ';' ? "" : " ") + tail;
    }
    if (language == Language::json) {
        const char open = text[*s.body_begin];
        if (open == '{') return sig + ": {…}";
        if (open == '[') return sig + ": […]";
        return normalise_signature(text.substr(s.begin, s.end - s.begin));
    }
    return sig;
}

// Go's type, var and const specs leave out their keyword. A lone spec (`type T struct{...}`)
// starts at it, so its slice is the whole declaration; a spec inside a `( ... )` group has
// none right before it and stays as it is.
std::size_t with_go_keyword(std::string_view text, const RawSymbol& r) {
    std::string_view keyword;
    if (r.kind == "constant")
        keyword = "const";
    else if (r.kind == "variable")
        keyword = "var";
    else if (r.kind == "type" || r.kind == "struct" || r.kind == "interface")
        keyword = "type";
    else
        return r.range.begin;
    std::size_t at = r.range.begin;
    while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t')) --at;
    if (at == r.range.begin || at < keyword.size() ||
        text.substr(at - keyword.size(), keyword.size()) != keyword)
        return r.range.begin;
    at -= keyword.size();
    const bool word_start = at == 0 || is_space(text[at - 1]) || text[at - 1] == ';';
    return word_start ? at : r.range.begin;
}

} // namespace

std::string normalise_signature(std::string_view declaration) {
    std::string out = collapse_spaces(declaration, k_signature_chars + 4);
    while (!out.empty() && (out.back() == '{' || out.back() == ':' || out.back() == ' ')) {
        // `::` ends a C++ name, not a block opener.
        if (out.back() == ':' && out.size() >= 2 && out[out.size() - 2] == ':') break;
        out.pop_back();
    }
    if (out.size() > k_signature_chars) {
        out.resize(utf8_floor(out, k_signature_chars - 3));
        out += "…";
    }
    return out;
}

Outline build_outline(std::string_view text,
                      Language language,
                      std::vector<RawSymbol> raw,
                      std::vector<std::size_t> error_lines) {
    // One symbol per name node: the widest definition around it, earlier pattern on a tie.
    std::map<std::size_t, RawSymbol> by_name;
    for (RawSymbol& r : raw) {
        auto [it, inserted] = by_name.try_emplace(r.name.begin, r);
        if (inserted) continue;
        RawSymbol& kept = it->second;
        const std::size_t kept_size = kept.range.end - kept.range.begin;
        const std::size_t size = r.range.end - r.range.begin;
        if (size > kept_size || (size == kept_size && r.pattern < kept.pattern)) {
            // The wider node keeps the body and receiver the narrower one found.
            if (!r.body) r.body = kept.body;
            if (!r.receiver) r.receiver = kept.receiver;
            kept = r;
        } else {
            if (!kept.body) kept.body = r.body;
            if (!kept.receiver) kept.receiver = r.receiver;
        }
    }
    if (language == Language::go)
        for (auto& [_, r] : by_name) r.range.begin = with_go_keyword(text, r);
    std::vector<RawSymbol> sorted;
    sorted.reserve(by_name.size());
    for (auto& [_, r] : by_name) sorted.push_back(std::move(r));
    std::ranges::sort(sorted, [](const RawSymbol& a, const RawSymbol& b) {
        if (a.range.begin != b.range.begin) return a.range.begin < b.range.begin;
        if (a.range.end != b.range.end) return a.range.end > b.range.end;
        return a.name.begin < b.name.begin;
    });

    const LineIndex lines = index_lines(text);
    Outline outline;
    outline.language = language;
    outline.line_count = lines.count();
    outline.error_lines = std::move(error_lines);
    std::vector<std::size_t> open; // indexes of the symbols enclosing the current one
    for (const RawSymbol& r : sorted) {
        while (!open.empty() && r.range.end > outline.symbols[open.back()].end) open.pop_back();
        Symbol s;
        s.kind = std::string(r.kind);
        s.name = as_utf8(display_name(slice(text, r.name), s.kind, language));
        s.begin = r.range.begin;
        s.end = r.range.end;
        s.first_line = line_of(lines, s.begin);
        s.last_line = line_of(lines, s.end > s.begin ? s.end - 1 : s.end);
        if (r.body && r.body->end > r.body->begin) {
            s.body_begin = r.body->begin;
            s.body_end = r.body->end;
            s.body_first_line = line_of(lines, r.body->begin);
            s.body_last_line = line_of(lines, r.body->end - 1);
        }
        std::string own = plain_name(s.name, s.kind == "impl");
        if (r.receiver) {
            const std::string type = receiver_type(slice(text, *r.receiver));
            if (!type.empty()) own = type + "." + own;
        }
        if (!open.empty()) {
            const Symbol& parent = outline.symbols[open.back()];
            // A declaration inside a function body is a local, not part of the outline.
            if (s.kind == "declaration" && is_function_like(parent.kind)) continue;
            s.parent = open.back();
            s.depth = parent.depth + 1;
            s.qualified = parent.qualified + "." + own;
            if (s.kind == "function" && is_type_like(parent.kind)) s.kind = "method";
        } else {
            s.qualified = std::move(own);
        }
        if (s.kind == "function" && r.receiver) s.kind = "method";
        s.signature = as_utf8(declaration_of(text, s, language));
        s.qualified = as_utf8(std::move(s.qualified));
        open.push_back(outline.symbols.size());
        outline.symbols.push_back(std::move(s));
    }
    return outline;
}

} // namespace sutra::core::outline
