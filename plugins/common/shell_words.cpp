// See shell_words.hpp.

#include "plugins/common/shell_words.hpp"

#include <cctype>
#include <optional>

namespace sutra::plugins::common {

std::string shell_word(const std::string& word) {
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789/._-+:=@") == std::string::npos)
        return word;
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string command_line(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + shell_word(w);
    return out;
}

std::string sutra_subcommand(const std::string& command) {
    std::size_t i = 0;
    auto next_word = [&]() -> std::optional<std::string> {
        i = command.find_first_not_of(" \t\n", i);
        if (i == std::string::npos) return std::nullopt;
        std::string word;
        while (i < command.size() && !std::isspace(static_cast<unsigned char>(command[i]))) {
            if (command[i] == '\'') {
                const auto end = command.find('\'', i + 1);
                if (end == std::string::npos) return std::nullopt;
                word += command.substr(i + 1, end - i - 1);
                i = end + 1;
            } else {
                word += command[i++];
            }
        }
        return word;
    };
    auto word = next_word();
    while (word && word->find('=') != std::string::npos &&
           word->find('/') > word->find('=')) // NAME=value
        word = next_word();
    if (!word) return {};
    const auto slash = word->rfind('/');
    if ((slash == std::string::npos ? *word : word->substr(slash + 1)) != "sutra") return {};
    return next_word().value_or(std::string());
}

bool is_restore_command(const std::string& command) {
    return sutra_subcommand(command) == "restore";
}

} // namespace sutra::plugins::common
