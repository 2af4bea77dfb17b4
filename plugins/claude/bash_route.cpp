// Whether a command keeps its meaning under `sutra exec`, read with the shell lexer
// (shell_lexer.hpp); a refusal only means the command runs unwrapped, as it would without sutra.

#include "plugins/claude/bash_route.hpp"

#include "plugins/claude/shell_lexer.hpp"
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

using Token = ShellToken;

// True when an expansion in `text` changes the shell's state as it expands: an assignment
// (`${X:=v}`, `${X=v}`, `$((X=1))`, `$((X++))`) or a command or process substitution. In the
// kept part it would act in the host's shell, and the wrapped rest would not see it
// (`cd ${D:=dir} && ls "$D"`).
bool expansion_with_side_effect(std::string_view text) {
    if (text.find('`') != std::string_view::npos || text.find("$(") != std::string_view::npos ||
        text.find("$[") != std::string_view::npos || text.find("<(") != std::string_view::npos ||
        text.find(">(") != std::string_view::npos)
        return true; // `$((…))` is found as `$(`: arithmetic may assign
    for (std::size_t at = text.find("${"); at != std::string_view::npos;
         at = text.find("${", at + 2)) {
        const auto close = text.find('}', at);
        const std::string_view inner = text.substr(
            at + 2, close == std::string_view::npos ? std::string_view::npos : close - at - 2);
        if (inner.find('=') != std::string_view::npos) return true;
    }
    return false;
}

// A word `cd` may take in the kept part: any word whose expansions change nothing.
bool plain_cd_word(const Token& t) {
    return t.kind == Token::Kind::word && !expansion_with_side_effect(t.text);
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
    ShellLex lex;
    if (auto e = lex_shell(command, lex)) {
        plan.refusal = *e;
        return plan;
    }
    const std::vector<Token>& tokens = lex.tokens;
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
    ShellLex lex;
    if (auto e = lex_shell(command, lex)) return *e;
    const std::vector<Token>& tokens = lex.tokens;

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

// What Claude Code 2.1.332 shows the model of a command's output without sutra, for the stats
// log's honest figure (core/host_cut.hpp; docs/configuration.md): a failing command's first
// 30,000 characters cut to about 10,000 as head and tail; a succeeding one whole up to 30,000
// characters, past that a preview of its first 2 KB.
constexpr const char* k_host_cut_on_failure = "10000:5000:5000:30000";
constexpr const char* k_host_cut_on_success = "30000:2048:0";

std::string wrap_command(const Wrapper& w, std::string_view command) {
    std::string out =
        common::shell_word(w.sutra) + " exec --shell " + common::shell_word(w.shell) +
        " --max-view-bytes " + std::to_string(w.max_view_bytes) + " --max-view-bytes-on-success " +
        std::to_string(w.max_view_bytes_on_success) + " --no-status-line" + " --host-cut " +
        k_host_cut_on_failure + " --host-cut-on-success " + k_host_cut_on_success;
    if (!w.mcp_tool.empty()) out += " --mcp-tool " + common::shell_word(w.mcp_tool);
    if (!w.session.empty()) out += " --session " + common::shell_word(w.session);
    // Always quoted, so the line reaches the shell exactly as the model wrote it.
    std::string quoted = "'";
    for (char c : command) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + " --sh " + quoted + "'";
}

std::vector<std::string> wrapper_words(const Wrapper& w) {
    std::vector<std::string> out{w.sutra,
                                 "exec",
                                 "--shell",
                                 w.shell,
                                 "--max-view-bytes",
                                 std::to_string(w.max_view_bytes),
                                 "--max-view-bytes-on-success",
                                 std::to_string(w.max_view_bytes_on_success),
                                 "--no-status-line",
                                 "--host-cut",
                                 k_host_cut_on_failure,
                                 "--host-cut-on-success",
                                 k_host_cut_on_success,
                                 "--sh"};
    if (!w.mcp_tool.empty()) {
        out.push_back("--mcp-tool");
        out.push_back(w.mcp_tool);
    }
    if (!w.session.empty()) {
        out.push_back("--session");
        out.push_back(w.session);
    }
    return out;
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
