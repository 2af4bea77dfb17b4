// command_name (core/stats_command.hpp): a small shell-word reader for the first simple command
// of a line, enough to find its program behind assignments and wrappers. It never needs to be a
// full shell parser: anything it cannot read plainly is `(other)`, never an argument.
#include "core/stats_command.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace sutra::core {

namespace {

constexpr std::size_t k_max_name_bytes = 64;
constexpr std::string_view k_other = "(other)";

struct SimpleCommand {
    std::vector<std::string> words;
    std::string_view op;   ///< the operator that ended it ("&&", ";", "|", …); empty at the end
    std::string_view rest; ///< the line after that operator
};

bool is_operator_char(char c) {
    return c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<' || c == '>' ||
           c == '\n';
}

bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

/// Words of the first simple command, quotes removed (their contents kept as one word).
SimpleCommand first_command(std::string_view line) {
    SimpleCommand cmd;
    std::string word;
    bool in_word = false;
    std::size_t i = 0;
    const auto end_word = [&] {
        if (in_word) cmd.words.push_back(word);
        word.clear();
        in_word = false;
    };
    while (i < line.size()) {
        const char c = line[i];
        if (is_blank(c)) {
            end_word();
            ++i;
        } else if (is_operator_char(c)) {
            end_word();
            std::size_t len = 1;
            if (i + 1 < line.size() && (c == '&' || c == '|') && line[i + 1] == c) len = 2;
            cmd.op = line.substr(i, len);
            cmd.rest = line.substr(i + len);
            return cmd;
        } else if (c == '\'' || c == '"') {
            const std::size_t close = line.find(c, i + 1);
            const std::size_t stop = close == std::string_view::npos ? line.size() : close;
            word.append(line.substr(i + 1, stop - i - 1));
            in_word = true;
            i = stop == line.size() ? stop : stop + 1;
        } else if (c == '\\' && i + 1 < line.size()) {
            word += line[i + 1];
            in_word = true;
            i += 2;
        } else {
            word += c;
            in_word = true;
            ++i;
        }
    }
    end_word();
    return cmd;
}

bool is_assignment(std::string_view w) {
    const std::size_t eq = w.find('=');
    if (eq == std::string_view::npos || eq == 0) return false;
    if (!(std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_')) return false;
    return std::all_of(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(eq), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

std::string_view base_name(std::string_view w) {
    const std::size_t slash = w.rfind('/');
    return slash == std::string_view::npos ? w : w.substr(slash + 1);
}

bool one_of(std::string_view w, std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), w) != names.end();
}

/// Index of the first word after a wrapper's options at `i` (the wrapper's own word already
/// skipped). `with_value` lists the short options that take the next word as their value.
std::size_t skip_options(const std::vector<std::string>& words,
                         std::size_t i,
                         std::initializer_list<std::string_view> with_value,
                         bool skip_assignments) {
    while (i < words.size()) {
        const std::string& w = words[i];
        if (w == "--") return i + 1;
        if (skip_assignments && is_assignment(w)) {
            ++i;
        } else if (w.size() > 1 && w[0] == '-') {
            i += one_of(w, with_value) ? 2 : 1;
        } else {
            break;
        }
    }
    return i;
}

/// The program of one simple command's words, past assignments and wrappers; empty when none.
std::string_view program_of(const std::vector<std::string>& words) {
    std::size_t i = 0;
    while (i < words.size()) {
        const std::string& w = words[i];
        if (is_assignment(w) || one_of(w, {"!", "{", "then", "do", "else"})) {
            ++i;
            continue;
        }
        const std::string_view name = base_name(w);
        if (one_of(name, {"sudo", "doas"})) {
            i = skip_options(words, i + 1, {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"},
                             false);
        } else if (name == "env") {
            i = skip_options(words, i + 1, {"-u", "-C", "-S"}, true);
        } else if (name == "timeout") {
            i = skip_options(words, i + 1, {"-s", "-k"}, false);
            ++i; // the duration
        } else if (name == "nice") {
            i = skip_options(words, i + 1, {"-n"}, false);
        } else if (name == "stdbuf") {
            i = skip_options(words, i + 1, {"-i", "-o", "-e"}, false);
        } else if (one_of(name, {"nohup", "time", "command", "exec", "builtin"})) {
            i = skip_options(words, i + 1, {}, false);
        } else {
            return name;
        }
    }
    return {};
}

} // namespace

bool plain_command_name(std::string_view name) {
    if (name.empty() || name.size() > k_max_name_bytes || name[0] == '-') return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '+' || c == '-';
    });
}

std::string command_name(std::string_view line) {
    // Leading directory changes (`cd DIR && make`) and empty steps (`(make)`) say nothing about
    // what ran; the first other simple command does. A bounded number of steps, for safety.
    for (int step = 0; step < 16 && !line.empty(); ++step) {
        const SimpleCommand cmd = first_command(line);
        const std::string_view program = program_of(cmd.words);
        const bool changes_dir = one_of(program, {"cd", "pushd", "popd"});
        if (!program.empty() && !changes_dir)
            return plain_command_name(program) ? std::string(program) : std::string(k_other);
        if (cmd.op.empty()) return changes_dir ? std::string(program) : std::string();
        line = cmd.rest;
    }
    return std::string();
}

} // namespace sutra::core
