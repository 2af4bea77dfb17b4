// `sutra`: the command-line front end of the core. Dispatches to one function per subcommand.

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "host/cli.hpp"

namespace {

const char* const k_usage =
    "usage: sutra <command> [options]\n"
    "\n"
    "  compress [FILE] [--tool NAME] [--command CMD] [--exit-code N] [--mode MODE] [--json]\n"
    "      print the compressed view of FILE (or standard input)\n"
    "  restore ID [--bytes A-B | --lines A-B | --search TEXT | --full | --all] [--max-bytes N]\n"
    "      print bytes of a stored original (bytes A-B: zero-based, half-open; lines: one-based)\n"
    "  stats [--json]      savings per tool and shape, restores by outcome\n"
    "  config              the effective settings and where each came from\n"
    "  --version           the version\n";

} // namespace

int main(int argc, char** argv) {
    try {
        if (argc < 2) {
            std::fputs(k_usage, stderr);
            return 2;
        }
        const std::string command = argv[1];
        const sutra::host::Args args(argv + 2, argv + argc);
        if (command == "--version" || command == "version") {
            std::printf("sutra %s\n", SUTRA_VERSION);
            return 0;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            std::fputs(k_usage, stdout);
            return 0;
        }
        if (command == "compress") return sutra::host::cmd_compress(args);
        if (command == "restore") return sutra::host::cmd_restore(args);
        if (command == "stats") return sutra::host::cmd_stats(args);
        if (command == "config") return sutra::host::cmd_config(args);
        sutra::host::print_error("unknown command '" + command + "'");
        std::fputs(k_usage, stderr);
        return 2;
    } catch (const std::exception& e) {
        sutra::host::print_error(e.what());
        return 1;
    }
}
