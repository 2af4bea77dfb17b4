#pragma once
// Rules over several lines of a diagnostic: the line that ends a Python traceback, the place
// below an error that is that error's, the line an indented error sits under. They raise the
// levels the one-line rules gave (core/rewrite/diagnostic_lines.hpp) and say which lines belong
// together; the text planner (core/rewrite/text_rewrite.cpp) selects and builds with that.

#include "core/rewrite/classify.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace sutra::core {

/// The lines the rules read: line i's text as shown (terminal escapes removed; a line standing
/// for a run of copies reads as one copy). A plain function and its owner, so the planner's
/// own accessor serves without a copy of every line.
struct LineTexts {
    std::size_t count = 0;
    const void* owner = nullptr;
    std::string_view (*text_of)(const void* owner, std::size_t i) = nullptr;
    std::string_view operator()(std::size_t i) const { return text_of(owner, i); }
};

/// Which lines belong together. The vectors are per line; the three of indices are empty when
/// no line has one, and hold -1 for lines without one.
struct Blocks {
    std::vector<bool> location_line;    ///< the place of an error above it
    std::vector<std::int32_t> location; ///< an error's place below it
    std::vector<std::int32_t> parent;   ///< the line an indented error sits under
    std::vector<std::int32_t> heading;  ///< its paragraph's first line, naming the place

    std::int32_t location_of(std::size_t i) const { return location.empty() ? -1 : location[i]; }
    std::int32_t parent_of(std::size_t i) const { return parent.empty() ? -1 : parent[i]; }
    std::int32_t heading_of(std::size_t i) const { return heading.empty() ? -1 : heading[i]; }
};

/// Whether a critical line announces its message on the line right below: it ends with a colon
/// (Rust's `thread 'x' panicked at src/lib.rs:9:5:`).
bool announces_message(std::string_view line);

/// Whether `next`, right below a line at indentation `depth` that announced its message, is that
/// message: text no deeper than it, not a place or a ruler. The streaming planner of `sutra exec`
/// (core/exec/exec_stream.cpp) applies it line by line too.
bool is_announced_message(std::size_t depth, std::string_view next);

/// Whether `line`, below an error at indentation `depth` (or below another of its details), is
/// a detail of it: flush with it, under a label in capitals that is no level or verdict of its
/// own (psql's `DETAIL:  Key (id)=(5) already exists.`, `HINT:  …`, `LINE 1: …`). The streaming
/// planner applies it line by line too.
bool is_error_detail(std::size_t depth, std::string_view line);
/// How many lines of details an error may have below it (psql: `DETAIL:`, `HINT:`, `CONTEXT:`).
inline constexpr std::size_t k_error_detail_lines = 4;

/// A stack frame in the program's own code: `at NAME (path/file.js:12:5)`, vitest's `❯ path:L:C`,
/// ava's `› path:L:C`, rspec's `# ./spec/a_spec.rb:11:in …`, Go's place alone under its function;
/// not one in a runtime, a toolchain or a dependency (`node:internal/…`, `/rustc/…`,
/// `java.base/…`, `/usr/…`, `node_modules/`, Ruby's gems, JUnit's and hamcrest's own frames).
bool is_program_frame(std::string_view line);

/// Applies the rules to `levels` (one per line, from line_level) and returns the blocks.
Blocks find_blocks(const LineTexts& lines, std::vector<Level>& levels);

} // namespace sutra::core
