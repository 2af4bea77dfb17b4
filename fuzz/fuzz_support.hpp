#pragma once
// Shared by the fuzz targets: one private temporary directory per process (store, config and
// host folders all point into it), invariant checks that abort with a message (libFuzzer then
// saves the input), and a way to run a stdio front end in-process on given bytes.

#include "core/config.hpp"
#include "core/request.hpp"
#include "core/store/store_options.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::fuzz {

/// The process's private directory (created 0700 on first call, removed at exit). The first
/// call also points HOME, SUTRA_HOME, XDG_*, CLAUDE_CONFIG_DIR and CODEX_HOME into it and turns
/// stats off, so no target touches the user's files.
const std::string& work_dir();

/// Defaults with the store in work_dir(), stats off, and eligibility thresholds low enough that
/// small fuzz inputs reach the rewrites.
core::Config small_config();

/// Store options for small_config()'s store.
core::StoreOptions store_options();

/// Prints "invariant failed: WHAT" (and a clipped DETAIL) to the real standard error and aborts.
[[noreturn]] void fail(std::string_view what, std::string_view detail = {});

#define SUTRA_FUZZ_CHECK(cond, detail)                                                             \
    do {                                                                                           \
        if (!(cond)) ::sutra::fuzz::fail(#cond, (detail));                                         \
    } while (0)

/// Checks every promise of one compress call on `input`: not rewritten means the view is the
/// original; rewritten means the original is stored whole, every elision restores to exactly its
/// bytes, the view is never larger than allowed, a text view is the cleaned original with each
/// range replaced by its marker, and a JSON view parses with the same top-level type and keys.
void check_response(std::string_view input,
                    const core::Response& response,
                    const core::Config& config);

/// Runs `body` with standard input reading `input` and standard output captured (returned);
/// standard error goes to a file in work_dir(). Sanitizer reports still reach the real stderr.
std::string with_stdio(std::string_view input, const std::function<void()>& body);

/// Splits on `separator` (an empty trailing piece is kept).
std::vector<std::string> split(std::string_view bytes, char separator);

} // namespace sutra::fuzz
