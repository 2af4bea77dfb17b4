// The tree-sitter side of the outline: parse, run the language's query, collect error lines.
// Everything that touches the tree-sitter C API is in this file.

#include "core/outline/c_family.hpp"
#include "core/outline/extract.hpp"
#include "core/outline/outline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <tree_sitter/api.h>

extern "C" {
const TSLanguage* tree_sitter_python(void);
const TSLanguage* tree_sitter_javascript(void);
const TSLanguage* tree_sitter_typescript(void);
const TSLanguage* tree_sitter_tsx(void);
const TSLanguage* tree_sitter_rust(void);
const TSLanguage* tree_sitter_go(void);
const TSLanguage* tree_sitter_c(void);
const TSLanguage* tree_sitter_cpp(void);
const TSLanguage* tree_sitter_java(void);
const TSLanguage* tree_sitter_bash(void);
const TSLanguage* tree_sitter_json(void);
}

namespace sutra::core::outline {

// Generated from queries/*.scm (core/outline/CMakeLists.txt).
extern const std::string_view k_query_python;
extern const std::string_view k_query_javascript;
extern const std::string_view k_query_typescript;
extern const std::string_view k_query_rust;
extern const std::string_view k_query_go;
extern const std::string_view k_query_c;
extern const std::string_view k_query_cpp;
extern const std::string_view k_query_java;
extern const std::string_view k_query_bash;
extern const std::string_view k_query_json;

namespace {

constexpr std::size_t k_language_count = 11;

const TSLanguage* grammar(Language language) {
    switch (language) {
    case Language::python:
        return tree_sitter_python();
    case Language::javascript:
        return tree_sitter_javascript();
    case Language::typescript:
        return tree_sitter_typescript();
    case Language::tsx:
        return tree_sitter_tsx();
    case Language::rust:
        return tree_sitter_rust();
    case Language::go:
        return tree_sitter_go();
    case Language::c:
        return tree_sitter_c();
    case Language::cpp:
        return tree_sitter_cpp();
    case Language::java:
        return tree_sitter_java();
    case Language::bash:
        return tree_sitter_bash();
    case Language::json:
        return tree_sitter_json();
    }
    return nullptr;
}

std::string_view query_source(Language language) {
    switch (language) {
    case Language::python:
        return k_query_python;
    case Language::javascript:
        return k_query_javascript;
    case Language::typescript:
    case Language::tsx:
        return k_query_typescript;
    case Language::rust:
        return k_query_rust;
    case Language::go:
        return k_query_go;
    case Language::c:
        return k_query_c;
    case Language::cpp:
        return k_query_cpp;
    case Language::java:
        return k_query_java;
    case Language::bash:
        return k_query_bash;
    case Language::json:
        return k_query_json;
    }
    return {};
}

struct ParserDeleter {
    void operator()(TSParser* p) const { ts_parser_delete(p); }
};
struct TreeDeleter {
    void operator()(TSTree* t) const { ts_tree_delete(t); }
};
struct CursorDeleter {
    void operator()(TSQueryCursor* c) const { ts_query_cursor_delete(c); }
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

// Compiled once per language and process, on first use; kept for the process's life.
struct CompiledQuery {
    TSQuery* query = nullptr;
    std::string error;
};

const CompiledQuery& compiled_query(Language language) {
    static std::array<std::once_flag, k_language_count> once;
    static std::array<CompiledQuery, k_language_count> queries;
    const auto i = static_cast<std::size_t>(language);
    std::call_once(once[i], [&] {
        const std::string_view source = query_source(language);
        std::uint32_t offset = 0;
        TSQueryError type = TSQueryErrorNone;
        TSQuery* q = ts_query_new(grammar(language), source.data(),
                                  static_cast<std::uint32_t>(source.size()), &offset, &type);
        if (!q) {
            queries[i].error = fmt::format("the {} outline query does not compile (error {} at "
                                           "byte {})",
                                           language_name(language), static_cast<int>(type), offset);
            return;
        }
        // The queries use no predicates (#match? and friends would need evaluating here).
        for (std::uint32_t p = 0; p < ts_query_pattern_count(q); ++p) {
            std::uint32_t steps = 0;
            ts_query_predicates_for_pattern(q, p, &steps);
            if (steps > 0) {
                queries[i].error = fmt::format("the {} outline query uses a predicate (pattern {})",
                                               language_name(language), p);
                ts_query_delete(q);
                return;
            }
        }
        queries[i].query = q;
    });
    return queries[i];
}

std::expected<TreePtr, std::string> parse(std::string_view text, Language language) {
    std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
    if (!ts_parser_set_language(parser.get(), grammar(language)))
        return std::unexpected(fmt::format("the {} grammar does not load into this tree-sitter "
                                           "runtime (ABI mismatch)",
                                           language_name(language)));
    TreePtr tree(ts_parser_parse_string(parser.get(), nullptr, text.data(),
                                        static_cast<std::uint32_t>(text.size())));
    if (!tree) return std::unexpected(std::string("the parser gave up on this file"));
    return tree;
}

// Start lines of ERROR and MISSING nodes, descending only where has_error says one is below.
std::vector<std::size_t> error_lines(TSNode root, std::size_t limit) {
    std::vector<std::size_t> lines;
    if (!ts_node_has_error(root)) return lines;
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    bool done = false;
    while (!done && lines.size() < limit) {
        const TSNode node = ts_tree_cursor_current_node(&cursor);
        if (ts_node_is_error(node) || ts_node_is_missing(node)) {
            const std::size_t line = ts_node_start_point(node).row + 1;
            if (lines.empty() || lines.back() != line) lines.push_back(line);
        } else if (ts_node_has_error(node) && ts_tree_cursor_goto_first_child(&cursor)) {
            continue;
        }
        while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
            if (!ts_tree_cursor_goto_parent(&cursor)) {
                done = true;
                break;
            }
        }
    }
    ts_tree_cursor_delete(&cursor);
    // A missing-token node has no width, so the parse may still report an error with none
    // found above it (rare); say line 1 rather than claim a clean parse.
    if (lines.empty()) lines.push_back(ts_node_start_point(root).row + 1);
    return lines;
}

// ERROR and MISSING nodes in the tree: how broken a parse is.
std::size_t error_count(TSNode root) {
    if (!ts_node_has_error(root)) return 0;
    std::size_t count = 0;
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    while (true) {
        const TSNode node = ts_tree_cursor_current_node(&cursor);
        // Errors inside errors count too: a root ERROR with a few broken spots inside is
        // better than one with many.
        if (ts_node_is_error(node) || ts_node_is_missing(node)) ++count;
        if (ts_node_has_error(node) && ts_tree_cursor_goto_first_child(&cursor)) continue;
        bool moved = false;
        while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor)))
            if (!ts_tree_cursor_goto_parent(&cursor)) break;
        if (!moved) break;
    }
    ts_tree_cursor_delete(&cursor);
    return std::max<std::size_t>(count, 1);
}

// The parse to outline from. C and C++ files that do not parse as written are parsed again
// with their annotation macros blanked, then also with only the first branch of each
// preprocessor condition (c_family.hpp). A blanked text has the same bytes at the same
// offsets elsewhere, so its tree's ranges hold for the original text. The parse with the
// fewest errors wins; the earlier one on a tie.
std::expected<TreePtr, std::string> best_parse(std::string_view text, Language language) {
    auto tree = parse(text, language);
    if (!tree || (language != Language::c && language != Language::cpp)) return tree;
    std::size_t errors = error_count(ts_tree_root_node(tree->get()));
    for (const bool first_branches : {false, true}) {
        if (errors == 0) break;
        const std::string masked = mask_annotation_macros(text, first_branches);
        if (masked == text) continue;
        auto retry = parse(masked, language);
        if (!retry) continue;
        const std::size_t retry_errors = error_count(ts_tree_root_node(retry->get()));
        if (retry_errors >= errors) continue;
        errors = retry_errors;
        tree = std::move(retry);
    }
    return tree;
}

ByteSpan span_of(TSNode node) {
    return {ts_node_start_byte(node), ts_node_end_byte(node)};
}

} // namespace

bool outline_available() {
    return true;
}

std::expected<std::vector<std::size_t>, std::string>
parse_error_lines(std::string_view text, Language language, std::size_t limit) {
    if (text.size() > UINT32_MAX) return std::unexpected(std::string("input too large"));
    auto tree = best_parse(text, language);
    if (!tree) return std::unexpected(tree.error());
    return error_lines(ts_tree_root_node(tree->get()), limit);
}

std::expected<Outline, std::string> outline_source(std::string_view text, Language language) {
    if (text.size() > UINT32_MAX) return std::unexpected(std::string("input too large"));
    const CompiledQuery& compiled = compiled_query(language);
    if (!compiled.query) return std::unexpected(compiled.error);
    auto tree = best_parse(text, language);
    if (!tree) return std::unexpected(tree.error());
    const TSNode root = ts_tree_root_node(tree->get());

    std::unique_ptr<TSQueryCursor, CursorDeleter> cursor(ts_query_cursor_new());
    ts_query_cursor_exec(cursor.get(), compiled.query, root);
    std::vector<RawSymbol> raw;
    TSQueryMatch match;
    while (ts_query_cursor_next_match(cursor.get(), &match)) {
        RawSymbol r;
        bool has_definition = false, has_name = false;
        r.pattern = match.pattern_index;
        for (std::uint16_t c = 0; c < match.capture_count; ++c) {
            const TSQueryCapture& capture = match.captures[c];
            std::uint32_t length = 0;
            const char* name_ptr =
                ts_query_capture_name_for_id(compiled.query, capture.index, &length);
            const std::string_view name(name_ptr, length);
            if (name.starts_with("definition.")) {
                r.kind = name.substr(std::string_view("definition.").size());
                r.range = span_of(capture.node);
                has_definition = true;
            } else if (name == "name") {
                // A name made of several nodes (Go `const a, b = ...`) is taken from the first.
                if (!has_name) r.name = span_of(capture.node);
                has_name = true;
            } else if (name == "body") {
                r.body = span_of(capture.node);
            } else if (name == "receiver") {
                r.receiver = span_of(capture.node);
            }
        }
        if (has_definition && has_name && r.name.end > r.name.begin) raw.push_back(r);
    }
    return build_outline(text, language, std::move(raw), error_lines(root, 20));
}

} // namespace sutra::core::outline
