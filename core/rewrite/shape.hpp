#pragma once
// Shape detection from the bytes themselves (a tool name alone never decides): diffs and
// patches, JSON documents, tracebacks, test-runner and build logs, and plain text.

#include "core/request.hpp"

#include <string_view>

namespace sutra::core {

/// True when the bytes hold a unified diff, a `git diff`/`git show`/`git log -p` patch or a
/// format-patch mail anywhere in them. Such output is never rewritten.
bool contains_diff(std::string_view bytes);

/// Where a JSON document (an object or array, running to the end) starts after a few lines of
/// text, such as a warning on stderr before a tool's JSON; npos when there is none. The text is
/// at most k_json_after_text_lines lines and smaller than the document.
std::size_t json_after_text(std::string_view bytes);

inline constexpr std::size_t k_json_after_text_lines = 64;

/// The shape of the bytes. `command` may tip a tie between log kinds, never more.
Shape detect_shape(std::string_view bytes, std::string_view command = {});

/// True when `command` prints a source or configuration file as it is (`cat src/a.py`,
/// `head -n 80 x.cpp`, `sed -n 1,40p config.toml`): its lines are never folded as similar.
bool shows_file_contents(std::string_view command);

} // namespace sutra::core
