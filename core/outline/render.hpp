#pragma once
// Text a model reads: the outline lines, and a symbol's slice in its three forms.

#include "core/outline/outline.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace sutra::core::outline {

/// One line per symbol, indented two spaces per depth: `kind qualified first-last  signature`.
std::string outline_lines(const Outline& outline);

/// The symbol's exact bytes from the file.
std::string_view symbol_text(std::string_view text, const Symbol& symbol);

/// The declaration only: the bytes before the body, trailing whitespace dropped (the whole
/// symbol when it has no body).
std::string signature_text(std::string_view text, const Symbol& symbol);

/// The symbol with the bodies of its functions folded (folded_body in language.hpp): a
/// function keeps its signature; a class, struct or impl keeps its members, each method
/// folded; a JSON key keeps its key. Text outside the folded bodies is the file's, byte for
/// byte, so the result parses where the symbol did.
std::string compact_text(std::string_view text, const Outline& outline, std::size_t index);

/// True when compact_text folds this symbol's body: functions, methods and constructors with
/// a block body (not a JavaScript arrow's expression), JSON keys holding an object or array.
bool folds_body(std::string_view text, const Symbol& symbol, Language language);

} // namespace sutra::core::outline
