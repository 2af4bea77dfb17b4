// A deliberately small shell lexer: enough of bash's grammar to find every command word of a
// command line, and to refuse what it cannot read with confidence. It never has to run or expand
// anything; a refusal only means the command runs unwrapped, as it would without sutra.

#include "plugins/claude/bash_route.hpp"

#include "plugins/common/shell_words.hpp"

#include <array>
#include <cstdint>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace sutra::plugins::claude {

namespace {

// Builtins that run the same in a child shell. cd, pushd and popd are handled apart.
constexpr std::array k_builtins = {
    ".",      ":",       "[",       "alias",    "bg",       "bind",    "break",     "builtin",
    "caller", "command", "compgen", "complete", "continue", "declare", "dirs",      "disown",
    "echo",   "enable",  "eval",    "exec",     "exit",     "export",  "false",     "fc",
    "fg",     "getopts", "hash",    "help",     "history",  "jobs",    "kill",      "let",
    "local",  "logout",  "mapfile", "printf",   "pwd",      "read",    "readarray", "readonly",
    "return", "set",     "shift",   "shopt",    "source",   "suspend", "test",      "times",
    "trap",   "true",    "type",    "typeset",  "ulimit",   "umask",   "unalias",   "unset",
    "wait"};

// Keywords after which the next word is again a command.
constexpr std::array k_lead_keywords = {"if",    "then",  "else", "elif", "do",
                                        "while", "until", "!",    "time", "{"};
// Keywords whose following words are not commands (a list, a pattern, a name or a test).
constexpr std::array k_other_keywords = {"fi",     "done",     "esac", "}",  "for",    "case",
                                         "select", "function", "[[",   "]]", "coproc", "in"};

template <std::size_t N> bool among(const std::array<const char*, N>& set, std::string_view w) {
    for (const char* s : set)
        if (w == s) return true;
    return false;
}

bool is_name_char(char c, bool first) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
}

bool is_assignment(std::string_view w) {
    std::size_t i = 0;
    while (i < w.size() && is_name_char(w[i], i == 0)) ++i;
    return i > 0 && i < w.size() &&
           (w[i] == '=' || (w[i] == '+' && i + 1 < w.size() && w[i + 1] == '='));
}

struct Token {
    enum class Kind { word, separator, open, close, background, redirect, heredoc };
    Kind kind = Kind::word;
    std::string text;    ///< the word as written (quotes kept)
    bool literal = true; ///< no quoting, expansion or substitution in it
    std::size_t end = 0; ///< the offset just past the token in the command
};

class Lexer {
public:
    explicit Lexer(std::string_view s) : s_(s) {}

    /// All tokens, or an error saying what could not be read.
    std::optional<std::string> run(std::vector<Token>& out) {
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == ' ' || c == '\t') {
                ++i_;
            } else if (c == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {
                i_ += 2; // a line continuation
            } else if (c == '#') {
                while (i_ < s_.size() && s_[i_] != '\n') ++i_;
            } else if (c == '\n') {
                ++i_;
                out.push_back({Token::Kind::separator, "\n", true, i_});
                if (auto e = skip_heredoc_bodies()) return e;
            } else if (auto op = operator_at()) {
                if (op->kind == Token::Kind::heredoc) {
                    auto e = heredoc_delimiter();
                    if (e) return e;
                }
                op->end = i_;
                out.push_back(*op);
            } else {
                Token w;
                if (auto e = word(w)) return e;
                w.end = i_;
                out.push_back(std::move(w));
            }
        }
        if (!pending_.empty()) return "an unterminated here-document";
        return std::nullopt;
    }

private:
    std::optional<Token> operator_at() {
        const std::string_view rest = s_.substr(i_);
        auto take = [&](std::size_t n, Token::Kind k) {
            Token t{k, std::string(rest.substr(0, n)), true, 0};
            i_ += n;
            return t;
        };
        // Redirections, with an optional file-descriptor number in front.
        std::size_t d = 0;
        while (d < rest.size() && rest[d] >= '0' && rest[d] <= '9') ++d;
        const std::string_view r = rest.substr(d);
        if (r.starts_with("<<<")) return take(d + 3, Token::Kind::redirect);
        if (r.starts_with("<<-")) return take(d + 3, Token::Kind::heredoc);
        if (r.starts_with("<<")) return take(d + 2, Token::Kind::heredoc);
        if (d == 0 && (r.starts_with("<(") || r.starts_with(">("))) return std::nullopt; // a word
        for (const char* op : {"&>>", "&>", ">>", ">&", "<&", ">|", "<>", ">", "<"})
            if ((d == 0 || op[0] != '&') && r.starts_with(op))
                return take(d + std::string_view(op).size(), Token::Kind::redirect);
        if (d > 0) return std::nullopt; // digits that start a word
        for (const char* op : {"&&", "||", ";;&", ";;", ";&", "|&", ";", "|"})
            if (rest.starts_with(op))
                return take(std::string_view(op).size(), Token::Kind::separator);
        if (rest.starts_with("&")) return take(1, Token::Kind::background);
        if (rest.starts_with("(")) return take(1, Token::Kind::open);
        if (rest.starts_with(")")) return take(1, Token::Kind::close);
        return std::nullopt;
    }

    static bool ends_word(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' ||
               c == ')' || c == '<' || c == '>';
    }

    // Skips a balanced $( … ), ${ … }, <( … ) or ` … ` starting at i_ (just past the opener).
    std::optional<std::string> skip_nested(char open, char close) {
        int depth = 1;
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\\') {
                i_ += 2;
                continue;
            }
            if (c == '\'' && open != '`') {
                const auto end = s_.find('\'', i_ + 1);
                if (end == std::string_view::npos) return "an unterminated quote";
                i_ = end + 1;
                continue;
            }
            if (c == '"' && open != '`') {
                for (++i_; i_ < s_.size() && s_[i_] != '"'; ++i_)
                    if (s_[i_] == '\\') ++i_;
                if (i_ >= s_.size()) return "an unterminated quote";
                ++i_;
                continue;
            }
            if (c == close && (open == close || --depth == 0)) {
                ++i_;
                return std::nullopt;
            }
            if (c == open && open != close) ++depth;
            ++i_;
        }
        return "an unterminated substitution";
    }

    std::optional<std::string> word(Token& w) {
        const std::size_t start = i_;
        while (i_ < s_.size() && !ends_word(s_[i_])) {
            const char c = s_[i_];
            if (c == '\\') {
                w.literal = false;
                i_ += 2;
            } else if (c == '\'') {
                w.literal = false;
                const auto end = s_.find('\'', i_ + 1);
                if (end == std::string_view::npos) return "an unterminated quote";
                i_ = end + 1;
            } else if (c == '"') {
                w.literal = false;
                ++i_;
                while (i_ < s_.size() && s_[i_] != '"') {
                    if (s_[i_] == '\\')
                        ++i_;
                    else if (s_[i_] == '`') {
                        ++i_;
                        if (auto e = skip_nested('`', '`')) return e;
                        continue;
                    } else if (s_.substr(i_).starts_with("$(")) {
                        i_ += 2;
                        if (auto e = skip_nested('(', ')')) return e;
                        continue;
                    }
                    ++i_;
                }
                if (i_ >= s_.size()) return "an unterminated quote";
                ++i_;
            } else if (c == '`') {
                w.literal = false;
                ++i_;
                if (auto e = skip_nested('`', '`')) return e;
            } else if (c == '$' && i_ + 1 < s_.size() && (s_[i_ + 1] == '(' || s_[i_ + 1] == '{')) {
                w.literal = false;
                const char open = s_[i_ + 1];
                i_ += 2;
                if (auto e = skip_nested(open, open == '(' ? ')' : '}')) return e;
            } else if (c == '$') {
                w.literal = false;
                ++i_;
            } else if (c == '=' && i_ + 1 < s_.size() && s_[i_ + 1] == '(' &&
                       is_assignment(s_.substr(start, i_ + 1 - start))) {
                i_ += 2; // an array assignment: NAME=( … )
                if (auto e = skip_nested('(', ')')) return e;
            } else {
                ++i_;
            }
        }
        if (i_ == start) {
            // A process substitution that starts the word (ends_word stopped at '<' or '>').
            if (i_ + 1 < s_.size() && s_[i_ + 1] == '(') {
                w.literal = false;
                i_ += 2;
                if (auto e = skip_nested('(', ')')) return e;
            } else {
                return std::string("an unexpected '") + s_[i_] + "'";
            }
        }
        w.text = std::string(s_.substr(start, i_ - start));
        return std::nullopt;
    }

    std::optional<std::string> heredoc_delimiter() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
        Token w;
        if (i_ >= s_.size()) return "a here-document without a delimiter";
        if (auto e = word(w)) return e;
        std::string delim;
        for (char c : w.text)
            if (c != '\'' && c != '"' && c != '\\') delim += c;
        if (delim.empty()) return "a here-document without a delimiter";
        pending_.push_back(delim);
        return std::nullopt;
    }

    // Here-document bodies start after the line that opened them; their lines are data.
    std::optional<std::string> skip_heredoc_bodies() {
        for (const std::string& delim : pending_) {
            bool closed = false;
            while (i_ < s_.size()) {
                auto nl = s_.find('\n', i_);
                if (nl == std::string_view::npos) nl = s_.size();
                std::string_view line = s_.substr(i_, nl - i_);
                while (!line.empty() && line.front() == '\t') line.remove_prefix(1);
                i_ = nl < s_.size() ? nl + 1 : nl;
                if (line == delim) {
                    closed = true;
                    break;
                }
            }
            if (!closed) return "an unterminated here-document";
        }
        pending_.clear();
        return std::nullopt;
    }

    std::string_view s_;
    std::size_t i_ = 0;
    std::vector<std::string> pending_;
};

std::optional<std::string> read_tokens(std::string_view command, std::vector<Token>& tokens) {
    if (command.find_first_not_of(" \t\n") == std::string_view::npos) return "an empty command";
    if (command.size() > 64 * 1024) return "a command over 64 KiB";
    if (command.find('\0') != std::string_view::npos) return "a NUL byte in the command";
    if (auto e = Lexer(command).run(tokens)) return "cannot read the command: " + *e;
    return std::nullopt;
}

// A word `cd` may take in the kept part: any word but one that runs a command substitution,
// which would run in the host's shell before the rest (it would anyway, but the rule keeps the
// kept part to plain directory changes a reader can check at a glance).
bool plain_cd_word(const Token& t) {
    return t.kind == Token::Kind::word && t.text.find('`') == std::string::npos &&
           t.text.find("$(") == std::string::npos && t.text.find("<(") == std::string::npos &&
           t.text.find(">(") == std::string::npos;
}

// The offset where the leading `cd WORDS &&` segments end (0: none). Each segment is the literal
// word `cd`, plain words, then `&&`; anything else (an assignment, a redirection, `;`, `||`)
// ends the kept part there.
std::size_t leading_cds(const std::vector<Token>& tokens) {
    std::size_t kept = 0, i = 0;
    while (i < tokens.size() && tokens[i].kind == Token::Kind::word && tokens[i].literal &&
           tokens[i].text == "cd") {
        std::size_t j = i + 1;
        while (j < tokens.size() && plain_cd_word(tokens[j])) ++j;
        if (j >= tokens.size() || tokens[j].kind != Token::Kind::separator ||
            tokens[j].text != "&&")
            break;
        kept = tokens[j].end;
        i = j + 1;
    }
    return kept;
}

std::optional<std::string>
refusal(std::string_view command, const ProgramLookup& on_path, bool after_cd);

} // namespace

RoutePlan plan_route(std::string_view command, const ProgramLookup& on_path) {
    RoutePlan plan;
    std::vector<Token> tokens;
    if (auto e = read_tokens(command, tokens)) {
        plan.refusal = *e;
        return plan;
    }
    const std::size_t kept = leading_cds(tokens);
    if (kept == 0) {
        if (auto why = route_refusal(command, on_path))
            plan.refusal = *why;
        else
            plan.route = Route{std::string(), std::string(command)};
        return plan;
    }
    // `cd A && X` runs X only when the cd succeeded, and so does `cd A && sutra exec 'X'` as long
    // as X is one list of `&&`: with `;`, `||`, a newline or `&` in it, part of X would run (or
    // not) by the status of the cd in the original but not in the split (`cd A && x || y`).
    // Inside a `( … )` subshell any list is one element of the rest; a `)` without its `(`
    // (a case pattern) leaves the depth unknown, and is refused.
    int depth = 0;
    for (const Token& t : tokens) {
        if (t.end <= kept) continue;
        if (t.kind == Token::Kind::open) ++depth;
        if (t.kind == Token::Kind::close && --depth < 0) {
            plan.refusal = "it changes the working directory (cd) and then runs more than one "
                           "list (a case pattern), which a split could not keep";
            return plan;
        }
        if (t.kind == Token::Kind::background ||
            (depth == 0 && t.kind == Token::Kind::separator && t.text != "&&" && t.text != "|" &&
             t.text != "|&")) {
            plan.refusal = "it changes the working directory (cd) and then runs more than one "
                           "&&-joined list ('" +
                           (t.text == "\n" ? std::string("a newline") : t.text) +
                           "'), which a split could not keep";
            return plan;
        }
    }
    std::size_t start = kept; // the blanks after `&&` stay with the kept part
    while (start < command.size() && (command[start] == ' ' || command[start] == '\t')) ++start;
    const std::string_view rest = command.substr(start);
    if (rest.find_first_not_of(" \t\n") == std::string_view::npos) {
        plan.refusal = "only directory changes, nothing to run";
        return plan;
    }
    if (auto why = refusal(rest, on_path, true)) {
        plan.refusal = *why;
        return plan;
    }
    plan.route = Route{std::string(command.substr(0, start)), std::string(rest)};
    return plan;
}

std::optional<std::string> route_refusal(std::string_view command, const ProgramLookup& on_path) {
    return refusal(command, on_path, false);
}

namespace {

std::optional<std::string>
refusal(std::string_view command, const ProgramLookup& on_path, bool after_cd) {
    std::vector<Token> tokens;
    if (auto e = read_tokens(command, tokens)) return *e;

    bool at_command = true; // the next word names a command
    bool after_redirect = false;
    int subshells = 0;      // depth of ( … ): a cd inside one does not move the host's shell
    int cases = 0;          // open `case … esac` blocks
    bool case_word = false; // between `case` and its `in`
    bool pattern = false;   // reading a case pattern, up to its ')'
    for (const Token& t : tokens) {
        if (pattern) { // words, '|' and '(' of a case pattern are not commands
            if (t.kind == Token::Kind::close) {
                pattern = false;
                at_command = true;
            } else if (t.kind == Token::Kind::word && t.text == "esac") {
                pattern = false;
                --cases;
            }
            continue;
        }
        switch (t.kind) {
        case Token::Kind::separator:
            at_command = true;
            after_redirect = false;
            if (cases > 0 && (t.text.starts_with(";;") || t.text == ";&")) pattern = true;
            continue;
        case Token::Kind::background:
            return "it starts a background job ('&'), which would keep the output open";
        case Token::Kind::open:
            ++subshells;
            at_command = true;
            continue;
        case Token::Kind::close:
            --subshells;
            at_command = true; // `case` patterns end with ')' and a command follows
            continue;
        case Token::Kind::redirect:
        case Token::Kind::heredoc:
            after_redirect = true;
            continue;
        case Token::Kind::word:
            break;
        }
        if (after_redirect) { // the redirection's target, not a command
            after_redirect = false;
            continue;
        }
        if (case_word && t.literal && t.text == "in") {
            case_word = false;
            pattern = true;
            continue;
        }
        if (!at_command) continue;
        const std::string& w = t.text;
        if (t.literal && is_assignment(w)) continue;
        if (!t.literal && is_assignment(w.substr(0, w.find_first_of("'\"$`\\")))) continue;
        if (t.literal && among(k_lead_keywords, w)) continue;
        at_command = false;
        if (t.literal && w == "case") {
            ++cases;
            case_word = true;
        }
        if (t.literal && w == "esac") --cases;
        if (t.literal && among(k_other_keywords, w)) continue;
        if (!t.literal) return "a command name computed at run time (" + w + ")";
        const std::string_view base = std::string_view(w).substr(w.rfind('/') + 1);
        if (base == "sutra") return "it runs sutra itself (a restore must reach the model exactly)";
        if (w == "cd" || w == "pushd" || w == "popd") {
            if (subshells > 0) continue;
            return "it changes the working directory (" + w + "), which must persist";
        }
        // After a kept `cd`, a shell that ends early (exit, exec) would in the original never
        // reach the host's record of the directory; in the child it would.
        if (after_cd && subshells == 0 &&
            (w == "exit" || w == "exec" || w == "return" || w == "logout"))
            return "it ends the shell (" + w + ") after a cd, which a split could not keep";
        if (among(k_builtins, w) || w.find('/') != std::string::npos) continue;
        if (!on_path(w)) return "'" + w + "' is not a program on PATH (a function or alias?)";
    }
    return std::nullopt;
}

} // namespace

std::string wrap_command(const Wrapper& w, std::string_view command) {
    std::string out = common::shell_word(w.sutra) + " exec --shell " + common::shell_word(w.shell) +
                      " --max-view-bytes " + std::to_string(w.max_view_bytes) + " --no-status-line";
    if (!w.mcp_tool.empty()) out += " --mcp-tool " + common::shell_word(w.mcp_tool);
    // Always quoted, so the line reaches the shell exactly as the model wrote it.
    std::string quoted = "'";
    for (char c : command) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + " --sh " + quoted + "'";
}

std::string wrap_route(const Wrapper& w, const Route& route) {
    return route.keep + wrap_command(w, route.run);
}

bool program_on_path(std::string_view name, std::string_view path_variable) {
    if (name.empty() || name.find('/') != std::string_view::npos) return false;
    std::size_t start = 0;
    while (start <= path_variable.size()) {
        auto end = path_variable.find(':', start);
        if (end == std::string_view::npos) end = path_variable.size();
        std::string dir(path_variable.substr(start, end - start));
        if (dir.empty()) dir = "."; // an empty PATH entry means the working directory
        const std::string candidate = dir + "/" + std::string(name);
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
            ::access(candidate.c_str(), X_OK) == 0)
            return true;
        start = end + 1;
    }
    return false;
}

} // namespace sutra::plugins::claude
