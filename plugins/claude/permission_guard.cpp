// See permission_guard.hpp: a rule's program against the command's words, and against the
// wrapper's own.

#include "plugins/claude/permission_guard.hpp"

#include "plugins/claude/command_words.hpp"
#include "plugins/claude/shell_lexer.hpp"

#include <algorithm>
#include <array>

namespace sutra::plugins::claude {

namespace {

// Tools whose rules name files; Claude Code may apply them to the paths a shell command reads.
constexpr std::array k_file_tools = {"read",         "edit", "write", "multiedit",
                                     "notebookedit", "glob", "grep",  "ls"};

bool is_file_tool(std::string_view tool) {
    return std::find(k_file_tools.begin(), k_file_tools.end(), tool) != k_file_tools.end();
}

// The program a Bash rule names, folded: the first word of its pattern that is not an
// assignment, quotes removed, cut at its first wildcard. Empty when the rule could name any
// program (`*`, `:*`, `* --force`).
std::string rule_program(std::string_view pattern) {
    if (pattern.ends_with(":*")) pattern.remove_suffix(2);
    std::vector<std::string> words;
    std::string cur;
    for (char c : pattern) {
        if (c == ' ' || c == '\t' || c == '\n') {
            if (!cur.empty()) words.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) words.push_back(cur);
    std::size_t k = 0;
    while (k + 1 < words.size() && is_assignment(words[k])) ++k;
    if (words.empty()) return {};
    std::string program = folded(word_value(words[k]).text);
    const auto wild = program.find_first_of("*?[");
    if (wild != std::string::npos) program.resize(wild);
    return program;
}

// The last literal piece of a file pattern's path, or of its folder when the name is all
// wildcard (`secrets/**` gives "secrets", `*.pem` gives ".pem", `**` gives "").
std::string file_fragment(std::string_view pattern) {
    std::vector<std::string> pieces;
    std::string cur;
    auto flush = [&] {
        if (!cur.empty() && cur != "." && cur != ".." && cur != "~") pieces.push_back(cur);
        cur.clear();
    };
    for (char c : pattern) {
        if (std::string_view("/*?[]{},").find(c) != std::string_view::npos)
            flush();
        else
            cur += c;
    }
    flush();
    return pieces.empty() ? std::string() : folded(pieces.back());
}

// The text as a matcher would read it: quotes and backslashes gone, blanks folded, case folded.
std::string flat(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '\'' || c == '"' || c == '\\') continue;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (!out.empty() && out.back() != ' ') out += ' ';
            continue;
        }
        out += c;
    }
    return folded(out);
}

std::string shown(const PermissionRule& r) {
    return r.tool + (r.pattern.empty() ? "" : "(" + r.pattern + ")") + " in " + r.source;
}

} // namespace

std::optional<std::string> permission_refusal(std::string_view command,
                                              const PermissionRules& rules,
                                              const GuardContext& ctx) {
    if (!rules.doubts.empty())
        return "the permission rules cannot all be read (" + rules.doubts.front() + ")";
    CommandWords words;
    if (auto e = command_words(command, words)) return "the guard cannot read it: " + *e;
    std::vector<std::string> wrapper;
    for (const std::string& w : ctx.wrapper_words) {
        wrapper.push_back(folded(w));
        wrapper.emplace_back(base_name(wrapper.back()));
    }
    const std::string text = flat(command);
    const std::string where = flat(ctx.cwd);
    using K = PermissionRule::Kind;
    for (const PermissionRule& rule : rules.rules) {
        const std::string tool = folded(rule.tool);
        if (tool == "bash") {
            if (rule.whole_tool) {
                if (rule.kind == K::allow) continue; // every command, wrapped or not
                return "the rule " + shown(rule) + " covers every command";
            }
            const std::string program = rule_program(rule.pattern);
            if (program.empty())
                return "the rule " + shown(rule) + " could match any command, the wrapper too";
            if (names_program(wrapper, program))
                return "the rule " + shown(rule) + " could match the wrapper itself";
            if (rule.kind == K::allow) continue;
            if (words.expands)
                return "it holds an expansion, which could be any word of the rule " + shown(rule);
            if (names_program(words.pieces, program))
                return "the rule " + shown(rule) + " could match it";
        } else if (is_file_tool(tool) && rule.kind != K::allow) {
            if (rule.whole_tool) return "the rule " + shown(rule) + " covers every file";
            const std::string fragment = file_fragment(rule.pattern);
            if (fragment.empty()) return "the rule " + shown(rule) + " could match any file";
            if (text.find(fragment) != std::string::npos ||
                where.find(fragment) != std::string::npos)
                return "the rule " + shown(rule) + " could match it";
        }
    }
    return host_check_refusal(command, ctx);
}

} // namespace sutra::plugins::claude
