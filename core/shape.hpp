#pragma once
// Shape detection from the bytes themselves (a tool name alone never decides): diffs and
// patches, JSON documents, tracebacks, test-runner and build logs, and plain text.

#include <string_view>

#include "core/request.hpp"

namespace sutra::core {

/// True when the bytes hold a unified diff, a `git diff`/`git show`/`git log -p` patch or a
/// format-patch mail anywhere in them. Such output is never rewritten.
bool contains_diff(std::string_view bytes);

/// The shape of the bytes. `command` may tip a tie between log kinds, never more.
Shape detect_shape(std::string_view bytes, std::string_view command = {});

} // namespace sutra::core
