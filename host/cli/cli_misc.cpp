// `sutra stats`, `sutra statusline`, `sutra config` and the shared error printer.
#include "core/config.hpp"
#include "core/stats.hpp"
#include "host/cli/cli.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <unistd.h>

namespace sutra::host {

namespace {

constexpr const char* k_stats_usage =
    "usage: sutra stats [--json | --csv] [--session ID] [--daily | --weekly]\n";
constexpr const char* k_statusline_usage =
    "usage: sutra statusline   (reads Claude Code's status line JSON on stdin)\n";
// The status line's input: the host's session JSON, small.
constexpr std::size_t k_statusline_max_input = 1u << 20;
constexpr const char* k_config_usage = "usage: sutra config\n";

void write_stdout(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

} // namespace

int open_input(const std::string& file) {
    if (file.empty() || file == "-") return STDIN_FILENO;
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) print_error(file + ": " + std::strerror(errno));
    return fd;
}

void print_error(const std::string& message) {
    std::string line = "sutra: error: " + message + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
}

int cmd_stats(const Args& args) {
    core::StatsQuery query;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--json") {
            query.format = core::StatsQuery::Format::json;
        } else if (arg == "--csv") {
            query.format = core::StatsQuery::Format::csv;
        } else if (arg == "--daily") {
            query.period = core::StatsQuery::Period::day;
        } else if (arg == "--weekly") {
            query.period = core::StatsQuery::Period::week;
        } else if (arg == "--session" && i + 1 < args.size()) {
            query.session = args[++i];
            if (!core::valid_session_id(query.session)) {
                print_error("stats: a session id is 1-128 of [A-Za-z0-9._:-]");
                return 2;
            }
        } else if (arg == "-h" || arg == "--help") {
            write_stdout(k_stats_usage);
            return 0;
        } else {
            print_error("stats: unknown option '" + arg + "'");
            std::fputs(k_stats_usage, stderr);
            return 2;
        }
    }
    auto config = core::load_config();
    if (!config) {
        print_error(config.error());
        return 2;
    }
    try {
        write_stdout(core::stats_report(*config, query));
    } catch (const std::exception& e) {
        print_error(std::string("stats: ") + e.what());
        return 1;
    }
    return 0;
}

// Claude Code runs the statusLine command after each turn with the session's JSON on stdin
// ({"session_id": …, …}); it shows the first line printed. Anything unexpected prints a line
// that says so, never an error: a status line has no one to read stderr.
int cmd_statusline(const Args& args) {
    for (const std::string& arg : args) {
        if (arg == "-h" || arg == "--help") {
            write_stdout(k_statusline_usage);
            return 0;
        }
        print_error("statusline: unknown option '" + arg + "'");
        return 2;
    }
    std::string input;
    char buf[16384];
    ssize_t n;
    while (input.size() <= k_statusline_max_input &&
           (n = ::read(STDIN_FILENO, buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        input.append(buf, static_cast<std::size_t>(n));
    }
    const auto doc = nlohmann::json::parse(input, nullptr, false);
    const std::string session =
        doc.is_object() && doc.contains("session_id") && doc["session_id"].is_string()
            ? doc["session_id"].get<std::string>()
            : std::string();
    auto config = core::load_config();
    write_stdout((config ? core::statusline_text(*config, session) : "sutra: config error") + "\n");
    return 0;
}

int cmd_config(const Args& args) {
    for (const std::string& arg : args) {
        if (arg == "-h" || arg == "--help") {
            write_stdout(k_config_usage);
            return 0;
        }
        print_error("config: unknown option '" + arg + "'");
        std::fputs(k_config_usage, stderr);
        return 2;
    }
    auto config = core::load_config();
    if (!config) {
        print_error(config.error());
        return 2;
    }
    write_stdout(core::describe_config(*config));
    return 0;
}

} // namespace sutra::host
