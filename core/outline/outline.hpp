#pragma once
// The symbols of a source file, from its tree-sitter parse: what `sutra outline` lists and
// `sutra symbol` slices. docs/outline.md describes the kinds per language.
//
// A symbol's byte range is the grammar's node for the definition: it includes what the grammar
// puts inside that node (Python decorators, Java annotations and modifiers, a C++ template
// header, Rust's `pub`), and never the comments before it. Ranges nest: a symbol lies wholly
// inside its parent or after it.

#include "core/outline/language.hpp"
#include "core/request.hpp"
#include "core/rewrite/lines.hpp"

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::core::outline {

struct Symbol {
    /// function, method, constructor, declaration, class, struct, union, enum, interface,
    /// trait, impl, namespace, module, type, macro, constant, variable, key.
    std::string kind;
    /// The name as written (a C++ out-of-class definition keeps its `Class::` prefix).
    std::string name;
    /// The enclosing symbols' names and this one, joined with '.': `Greeter.greet`. A Go
    /// method is qualified by its receiver's type; C++ `A::b` becomes `A.b`.
    std::string qualified;
    std::size_t begin = 0; ///< bytes [begin, end) of the definition
    std::size_t end = 0;
    std::size_t first_line = 0; ///< one-based, inclusive
    std::size_t last_line = 0;
    /// The part after the declaration (a block, a member list), when the grammar has one.
    std::optional<std::size_t> body_begin;
    std::size_t body_end = 0;
    std::size_t body_first_line = 0;
    std::size_t body_last_line = 0;
    /// The declaration without its body, whitespace collapsed, at most k_signature_chars.
    std::string signature;
    std::size_t depth = 0;             ///< 0 for top-level symbols
    std::optional<std::size_t> parent; ///< index into Outline::symbols
};

/// Signatures longer than this are cut (on a UTF-8 boundary) and end with "…".
constexpr std::size_t k_signature_chars = 200;

struct Outline {
    Language language = Language::python;
    /// In file order; a parent comes before its children.
    std::vector<Symbol> symbols;
    /// One-based lines where the parser found an error or a missing token (at most 20).
    /// Not empty means the outline is partial: symbols inside broken code may be missing.
    std::vector<std::size_t> error_lines;
    std::size_t line_count = 0;

    bool partial() const { return !error_lines.empty(); }
};

/// False when this build has no tree-sitter (npm could not be reached at configure time).
bool outline_available();

/// The outline of `text` in `language`. Errors only when the outline cannot be made at all
/// (no tree-sitter in this build, a grammar that does not load); a file with syntax errors
/// gives a partial outline instead.
std::expected<Outline, std::string> outline_source(std::string_view text, Language language);

/// The one-based lines of the parse errors in `text` (empty when it parses cleanly), at
/// most `limit`. Tests use it to check that compact slices still parse.
std::expected<std::vector<std::size_t>, std::string>
parse_error_lines(std::string_view text, Language language, std::size_t limit = 20);

/// The lines where the symbols of a printed file start, with their depth: the outline a
/// compressed view shows of a file past the view ceiling (core/rewrite/printed_file.hpp; it fits
/// core::Outliner). `name` is the file's name as the command gave it, which tells the language
/// (else a `#!` line). Empty when the language is unknown or the outline cannot be made.
std::vector<OutlineLine> printed_file_outline(std::string_view text, std::string_view name);

/// Collapses whitespace runs to one space, trims, drops a trailing `{` or `:`, and cuts the
/// result to k_signature_chars.
std::string normalise_signature(std::string_view declaration);

} // namespace sutra::core::outline
