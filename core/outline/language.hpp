#pragma once
// The languages `sutra outline` knows: names, file extensions, shebangs, and how a folded body
// is written in each so that a compact slice still parses.

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sutra::core::outline {

enum class Language { python, javascript, typescript, tsx, rust, go, c, cpp, java, bash, json };

/// Every language, in the order help texts list them.
std::span<const Language> all_languages();

/// "python", "javascript", ..., "json".
std::string_view language_name(Language language);

/// A name from language_name(), or a common alias (py, js, ts, rs, c++, sh, ...).
std::optional<Language> parse_language(std::string_view name);

/// From the file name's extension, else (no extension) from a "#!" first line naming bash,
/// sh or python. `head` is the file's text (its first 256 KiB are enough): a `.h` file is C++
/// when its code uses C++ (looks_like_cpp in c_family.hpp), else C. nullopt when neither
/// the extension nor the `#!` line tells.
std::optional<Language> detect_language(std::string_view path, std::string_view head);

/// "python (.py .pyi), javascript (.js .mjs .cjs .jsx), ...", for error messages.
std::string supported_languages();

/// The replacement for a function body elided from a compact slice, in the language's own
/// syntax so the slice still parses: `...  # [sutra: body elided, lines A-B]` in Python,
/// `{ /* [sutra: body elided, lines A-B] */ }` in the C family, and so on. `body` is the
/// elided text (JSON needs to know whether it was an object or an array).
std::string folded_body(Language language,
                        std::string_view body,
                        std::size_t first_line,
                        std::size_t last_line);

} // namespace sutra::core::outline
