#pragma once
// A deliberately small shell lexer: enough of bash's grammar to find every word, operator and
// redirection of a command line, and to refuse what it cannot read with confidence. It never
// runs or expands anything. The Bash route (bash_route.cpp) reads command words with it, and the
// permission guard (permission_guard.cpp) reads every word a permission rule could match.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::plugins::claude {

struct ShellToken {
    enum class Kind { word, separator, open, close, background, redirect, heredoc };
    Kind kind = Kind::word;
    std::string text;    ///< the token as written (quotes kept)
    bool literal = true; ///< no quoting, expansion or substitution in it
    std::size_t end = 0; ///< the offset just past the token in the command
};

/// A command line read into tokens, with the text bash reads as data: here-document bodies and
/// comments (a permission rule's words may stand there, and bash may run a body).
struct ShellLex {
    std::vector<ShellToken> tokens;
    std::vector<std::string_view> data; ///< here-document bodies and comments, as written
};

/// Reads `command`; an error names what could not be read (an unterminated quote, a command
/// over 64 KiB, a NUL byte, an empty command).
std::optional<std::string> lex_shell(std::string_view command, ShellLex& out);

/// A word as bash would see it after quote removal, and whether it holds anything bash expands
/// at run time (a parameter, a command or process substitution, arithmetic: `$`, a backquote
/// outside single quotes), whose value the text cannot tell.
struct WordValue {
    std::string text;
    bool expands = false;
};
WordValue word_value(std::string_view raw);

/// `NAME=…` or `NAME+=…`.
bool is_assignment(std::string_view word);

} // namespace sutra::plugins::claude
