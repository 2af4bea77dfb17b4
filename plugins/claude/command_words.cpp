// See command_words.hpp.

#include "plugins/claude/command_words.hpp"

#include "plugins/claude/shell_lexer.hpp"

#include <algorithm>

namespace sutra::plugins::claude {

namespace {

// Where a word is cut into pieces: blanks, shell operators, quotes, braces, commas and `=`.
bool is_cut(char c) {
    return std::string_view(" \t\r\n;&|()<>'\"`{},=").find(c) != std::string_view::npos;
}

void add_pieces(std::vector<std::string>& out, std::string_view text) {
    std::string cur;
    auto flush = [&] {
        if (!cur.empty()) out.push_back(folded(cur));
        cur.clear();
    };
    for (char c : text) {
        if (is_cut(c))
            flush();
        else
            cur += c;
    }
    flush();
}

} // namespace

std::string folded(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string_view base_name(std::string_view path) {
    const auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::optional<std::string> command_words(std::string_view command, CommandWords& out) {
    out = CommandWords{};
    ShellLex lex;
    if (auto e = lex_shell(command, lex)) return e;
    bool after_cd = false;
    for (const ShellToken& t : lex.tokens) {
        if (t.kind != ShellToken::Kind::word) {
            if (after_cd) out.cd_targets.push_back("~"); // `cd;` or `cd >x`: the home folder
            after_cd = false;
            continue;
        }
        const WordValue v = word_value(t.text);
        if (v.expands) out.expands = true;
        if (after_cd) {
            after_cd = false;
            const bool option = v.text.starts_with("-") && v.text != "-";
            if (option) {
                after_cd = true; // `cd -P DIR`
            } else {
                out.cd_targets.push_back(v.expands || v.text == "-" ? "~" : folded(v.text));
            }
        }
        const std::string word = folded(v.text);
        if (t.literal && (word == "cd" || word == "pushd")) after_cd = true;
        out.pieces.push_back(word); // whole, so that a program with `=` or `,` in it still shows
        add_pieces(out.pieces, v.text);
    }
    if (after_cd) out.cd_targets.push_back("~");
    for (std::string_view d : lex.data) {
        if (d.find('$') != std::string_view::npos || d.find('`') != std::string_view::npos)
            out.expands = true;
        add_pieces(out.pieces, d);
    }
    // Each piece's last path part too, so `names_program` and the path checks see `git` in
    // `/usr/bin/git` and `.bashrc` in `~/.bashrc` without re-splitting.
    const std::size_t n = out.pieces.size();
    for (std::size_t i = 0; i < n; ++i) {
        const std::string_view base = base_name(out.pieces[i]);
        if (!base.empty() && base.size() != out.pieces[i].size()) out.pieces.emplace_back(base);
    }
    std::sort(out.pieces.begin(), out.pieces.end());
    out.pieces.erase(std::unique(out.pieces.begin(), out.pieces.end()), out.pieces.end());
    return std::nullopt;
}

bool names_program(const std::vector<std::string>& pieces, std::string_view program) {
    const std::string full = folded(program);
    const std::string base(base_name(full));
    for (const std::string& p : pieces)
        if (p.starts_with(full) || base_name(p).starts_with(base)) return true;
    return false;
}

} // namespace sutra::plugins::claude
