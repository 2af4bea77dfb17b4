// The guard is coarser than the host by construction (plugins/claude/permission_guard.hpp):
// over generated commands that put redirections, empty expansions, assignments, quotes,
// wrappers and separators between the words of every rule, whenever a model of Claude Code's
// own matching would match a deny or ask rule, the guard refuses to wrap.
//
// The model follows what the host does before it matches (docs/security.md, observed on
// 2.1.332, and more): the command split into simple commands at `;`, `&&`, `||`, `|`, `&` and
// newlines; in each, quotes removed, redirections with their targets dropped, words that are
// only an expansion dropped (`$X`, `${X}`, `${X:-}`, `$@`), leading assignments dropped, and
// wrappers with their options dropped (env, timeout, xargs, command, builtin, exec, nice, nohup,
// time, sudo); then `P:*` matches the words joined by one space when they are P or begin with
// "P ", and any other pattern is a glob where `*` matches any text. The generator builds each
// command from parts, so the model reads the parts, never the text.

#include "plugins/claude/permission_guard.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>

namespace sutra::host {
namespace {

using plugins::claude::add_settings_rules;
using plugins::claude::GuardContext;
using plugins::claude::permission_refusal;
using plugins::claude::PermissionRules;

const std::vector<std::string> k_programs = {"git",  "rm",      "npm",    "cat",     "curl",
                                             "make", "kubectl", "docker", "python3", "ls"};
const std::vector<std::string> k_args = {"push", "-rf", "run",  "deploy", "x.txt", "origin",
                                         "main", "-f",  "test", "delete", "build", "out"};

// One piece of a simple command: a word the host keeps (its plain value), or noise it drops.
struct Part {
    std::string text;  ///< as written in the command
    std::string value; ///< the word the host matches; empty for noise
};

struct Generator {
    std::mt19937 rng{20261202};
    template <class T> const T& pick(const std::vector<T>& v) { return v[rng() % v.size()]; }
    bool one_in(unsigned n) { return rng() % n == 0; }

    // A word written in one of the spellings bash reads back as `w`.
    std::string spelled(const std::string& w) {
        switch (rng() % 8) {
        case 0:
            return "'" + w + "'";
        case 1:
            return "\"" + w + "\"";
        case 2:
            return w.size() > 1 ? w.substr(0, 1) + "\\" + w.substr(1) : w;
        case 3:
            return w.size() > 1 ? w.substr(0, 1) + "\"" + w.substr(1) + "\"" : w;
        case 4:
            return w.size() > 2 ? w.substr(0, 1) + "''" + w.substr(1) : w;
        default:
            return w;
        }
    }
    // Noise the host drops between words.
    std::string noise() {
        static const std::vector<std::string> redirections = {
            "2>/dev/null", ">out.txt", "<in.txt", "&>log", "2>&1", ">>\"a b\"", "1> x", "< y"};
        static const std::vector<std::string> expansions = {"${X}", "$X", "${X:-}", "$@", "\"$@\""};
        return one_in(3) ? pick(expansions) : pick(redirections);
    }
    std::vector<std::string> wrapper() {
        static const std::vector<std::vector<std::string>> wrappers = {
            {"env", "A=1"},        {"env", "-i"}, {"timeout", "5"},    {"xargs", "-0"}, {"command"},
            {"builtin"},           {"exec"},      {"nice", "-n", "5"}, {"nohup"},       {"time"},
            {"sudo", "-u", "root"}};
        return pick(wrappers);
    }

    // A simple command of `words`, with noise the host drops around and between them.
    std::vector<Part> simple(const std::vector<std::string>& words, bool noisy) {
        std::vector<Part> parts;
        if (one_in(4)) parts.push_back({"FOO=" + spelled("1"), ""});
        if (one_in(4))
            for (const std::string& w : wrapper()) parts.push_back({w, ""});
        for (std::size_t i = 0; i < words.size(); ++i) {
            if (noisy && one_in(2)) parts.push_back({noise(), ""});
            parts.push_back({spelled(words[i]), words[i]});
        }
        if (noisy && one_in(3)) parts.push_back({noise(), ""});
        return parts;
    }
};

std::string text_of(const std::vector<Part>& parts) {
    std::string out;
    for (const Part& p : parts) out += (out.empty() ? "" : " ") + p.text;
    return out;
}

bool glob(std::string_view p, std::string_view s) {
    if (p.empty()) return s.empty();
    if (p[0] == '*') return glob(p.substr(1), s) || (!s.empty() && glob(p, s.substr(1)));
    return !s.empty() && p[0] == s[0] && glob(p.substr(1), s.substr(1));
}

// The host's match of one rule pattern against one simple command's kept words.
bool host_matches(const std::string& pattern, const std::vector<Part>& parts) {
    std::string t;
    for (const Part& p : parts)
        if (!p.value.empty()) t += (t.empty() ? "" : " ") + p.value;
    if (pattern.ends_with(":*")) {
        const std::string prefix = pattern.substr(0, pattern.size() - 2);
        return t == prefix || t.starts_with(prefix + " ");
    }
    return glob(pattern, t);
}

TEST(ClaudeGuardProperty, RefusesWheneverTheHostsNormalisedMatchingCouldMatch) {
    Generator g;
    const std::vector<std::string> seps = {" && ", " || ", "; ", " | ", "\n", " & "};
    const GuardContext ctx{"/w/proj",
                           "/home/u",
                           {"/home/u/.claude"},
                           {"/opt/sutra/bin/sutra", "exec", "--shell", "/bin/bash", "--sh"}};
    int matched = 0, wrapped = 0;
    for (int round = 0; round < 6000; ++round) {
        // A rule: a program, up to two more words, then `:*`, ` *` or nothing.
        std::vector<std::string> rule_words{g.pick(k_programs)};
        const int extra = static_cast<int>(g.rng() % 3);
        for (int k = 0; k < extra; ++k) rule_words.push_back(g.pick(k_args));
        std::string rule;
        for (const auto& w : rule_words) rule += (rule.empty() ? "" : " ") + w;
        switch (g.rng() % 3) {
        case 0:
            rule += ":*";
            break;
        case 1:
            rule += " *";
            break;
        default:
            break;
        }
        // The command: simple commands, one of them often the rule's own words (and more).
        const bool noisy = !g.one_in(3);
        std::string command;
        bool host = false;
        const int subs = 1 + static_cast<int>(g.rng() % 3);
        const int ruled = g.one_in(3) ? -1 : static_cast<int>(g.rng() % subs);
        for (int s = 0; s < subs; ++s) {
            std::vector<std::string> words;
            if (s == ruled) {
                words = rule_words;
                if (g.one_in(2)) words.push_back(g.pick(k_args));
            } else {
                words.push_back(g.pick(k_programs));
                for (int k = static_cast<int>(g.rng() % 3); k > 0; --k)
                    words.push_back(g.pick(k_args));
            }
            const auto parts = g.simple(words, noisy);
            host = host || host_matches(rule, parts);
            command += (s == 0 ? "" : g.pick(seps)) + text_of(parts);
        }
        PermissionRules rules;
        add_settings_rules(
            rules,
            nlohmann::json{
                {"permissions", {{g.one_in(2) ? "deny" : "ask", {"Bash(" + rule + ")"}}}}}
                .dump(),
            "settings.json");
        const auto why = permission_refusal(command, rules, ctx);
        if (host) {
            ++matched;
            EXPECT_TRUE(why.has_value()) << "Bash(" << rule << ") would match: " << command;
        }
        if (!why) ++wrapped;
    }
    // Both sides were exercised: many matches, and many commands still wrapped.
    EXPECT_GT(matched, 2000);
    EXPECT_GT(wrapped, 300);
}

// Allow rules: whatever a rule names, if the host could match it against the wrapped text, the
// guard refuses; over generated allow rules built from the wrapper's own words.
TEST(ClaudeGuardProperty, AnAllowRuleThatCouldMatchTheWrappedTextRefuses) {
    const std::string sutra = "/opt/sutra 1/bin/sutra";
    const GuardContext ctx{"/w/proj",
                           "/home/u",
                           {"/home/u/.claude"},
                           {sutra, "exec", "--shell", "/bin/bash", "--max-view-bytes", "8192",
                            "--no-status-line", "--sh"}};
    // The wrapped text's words as the host reads them, after quote removal.
    const std::string wrapped = sutra + " exec --shell /bin/bash --max-view-bytes 8192 "
                                        "--no-status-line --sh make test";
    std::mt19937 rng(7);
    int matching = 0;
    for (int round = 0; round < 3000; ++round) {
        // A prefix of the wrapped text, cut anywhere, with `:*` or `*` after it, or a glob
        // with a wildcard somewhere in it.
        const std::size_t cut = 1 + rng() % (wrapped.size() - 1);
        std::string pattern = wrapped.substr(0, cut);
        switch (rng() % 3) {
        case 0:
            pattern += ":*";
            break;
        case 1:
            pattern += "*";
            break;
        default:
            pattern.insert(rng() % pattern.size(), "*");
            break;
        }
        const bool host = pattern.ends_with(":*")
                              ? wrapped.starts_with(pattern.substr(0, pattern.size() - 2) + " ")
                              : glob(pattern, wrapped);
        PermissionRules rules;
        add_settings_rules(
            rules, nlohmann::json{{"permissions", {{"allow", {"Bash(" + pattern + ")"}}}}}.dump(),
            "settings.json");
        if (host) {
            ++matching;
            EXPECT_TRUE(permission_refusal("make test", rules, ctx).has_value()) << pattern;
        }
    }
    EXPECT_GT(matching, 1000);
}

} // namespace
} // namespace sutra::host
