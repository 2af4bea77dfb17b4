// `sutra stats`, `sutra config` and the shared error printer.
#include "core/config.hpp"
#include "core/stats.hpp"
#include "host/cli/cli.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <unistd.h>

namespace sutra::host {

namespace {

constexpr const char* k_stats_usage = "usage: sutra stats [--json]\n";
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
    bool json = false;
    for (const std::string& arg : args) {
        if (arg == "--json") {
            json = true;
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
        write_stdout(core::stats_report(*config, json));
    } catch (const std::exception& e) {
        print_error(std::string("stats: ") + e.what());
        return 1;
    }
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
