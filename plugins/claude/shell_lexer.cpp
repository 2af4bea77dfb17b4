// See shell_lexer.hpp. The grammar read here is bash's, cut down to what locating words needs.

#include "plugins/claude/shell_lexer.hpp"

#include <array>

namespace sutra::plugins::claude {

namespace {

bool is_name_char(char c, bool first) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
}

bool is_assignment_word(std::string_view w) {
    std::size_t i = 0;
    while (i < w.size() && is_name_char(w[i], i == 0)) ++i;
    return i > 0 && i < w.size() &&
           (w[i] == '=' || (w[i] == '+' && i + 1 < w.size() && w[i + 1] == '='));
}

using Token = ShellToken;

class Lexer {
public:
    explicit Lexer(std::string_view s) : s_(s) {}

    /// All tokens, or an error saying what could not be read.
    std::optional<std::string> run(std::vector<Token>& out, std::vector<std::string_view>& data) {
        data_.clear();
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == ' ' || c == '\t') {
                ++i_;
            } else if (c == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {
                i_ += 2; // a line continuation
            } else if (c == '#') {
                const std::size_t from = i_;
                while (i_ < s_.size() && s_[i_] != '\n') ++i_;
                data_.push_back(s_.substr(from, i_ - from));
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
        data = std::move(data_);
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
                       is_assignment_word(s_.substr(start, i_ + 1 - start))) {
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
            const std::size_t from = i_;
            while (i_ < s_.size()) {
                auto nl = s_.find('\n', i_);
                if (nl == std::string_view::npos) nl = s_.size();
                std::string_view line = s_.substr(i_, nl - i_);
                while (!line.empty() && line.front() == '\t') line.remove_prefix(1);
                i_ = nl < s_.size() ? nl + 1 : nl;
                if (line == delim) {
                    data_.push_back(s_.substr(from, i_ - from));
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
    std::vector<std::string_view> data_;
};

} // namespace

std::optional<std::string> lex_shell(std::string_view command, ShellLex& out) {
    out.tokens.clear();
    out.data.clear();
    if (command.find_first_not_of(" \t\n") == std::string_view::npos) return "an empty command";
    if (command.size() > 64 * 1024) return "a command over 64 KiB";
    if (command.find('\0') != std::string_view::npos) return "a NUL byte in the command";
    if (auto e = Lexer(command).run(out.tokens, out.data)) return "cannot read the command: " + *e;
    return std::nullopt;
}

bool is_assignment(std::string_view word) {
    return is_assignment_word(word);
}

WordValue word_value(std::string_view raw) {
    WordValue v;
    std::string& t = v.text;
    t.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c == '\\') {
            if (i + 1 < raw.size() && raw[i + 1] != '\n') t += raw[i + 1];
            ++i; // a backslash-newline is a line continuation: both go
        } else if (c == '\'') {
            const auto close = raw.find('\'', i + 1);
            const auto stop = close == std::string_view::npos ? raw.size() : close;
            t.append(raw.substr(i + 1, stop - i - 1));
            i = stop;
        } else if (c == '"') {
            for (++i; i < raw.size() && raw[i] != '"'; ++i) {
                if (raw[i] == '$' || raw[i] == '`') v.expands = true;
                if (raw[i] == '\\' && i + 1 < raw.size() &&
                    std::string_view("$`\"\\\n").find(raw[i + 1]) != std::string_view::npos) {
                    if (raw[i + 1] != '\n') t += raw[i + 1];
                    ++i;
                    continue;
                }
                t += raw[i];
            }
        } else {
            // `$…` (a parameter, `$(…)`, `$((…))`, `$'…'`), a backquote, `<(…)` or `>(…)`.
            if (c == '$' || c == '`' ||
                ((c == '<' || c == '>') && i + 1 < raw.size() && raw[i + 1] == '('))
                v.expands = true;
            t += c;
        }
    }
    return v;
}

} // namespace sutra::plugins::claude
