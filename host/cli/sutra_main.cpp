// `sutra`: the command-line front end of the core. Dispatches to one function per subcommand.

#include "host/cli/cli.hpp"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace {

const char* const k_usage =
    "usage: sutra <command> [options]\n"
    "\n"
    "  compress [FILE] [--tool NAME] [--command CMD] [--exit-code N] [--mode MODE] [--json]\n"
    "      print the compressed view of FILE (or standard input)\n"
    "  exec [--mode MODE] [--keep PATTERN]... [--json] (-- CMD [ARGS...] | --sh 'LINE')\n"
    "      run a command (stdout and stderr as one stream) and print the view of its output;\n"
    "      its exit status passes through\n"
    "  restore ID [--bytes A-B | --lines A-B | --search TEXT | --full | --all] [--max-bytes N]\n"
    "      print bytes of a stored original (bytes A-B: zero-based, half-open; lines: one-based)\n"
    "  restore ID --critical [--lines A-B]   list the original's error lines as LINE:text\n"
    "  compress, exec and restore take --namespace NS: the store namespace the original goes to\n"
    "      or comes from (markers name it)\n"
    "  stats [--json | --csv] [--session ID] [--daily | --weekly]\n"
    "                      savings per tool, shape and command (one session's, or per day or\n"
    "                      ISO week), restores by outcome\n"
    "  statusline          one line of this session's savings, for Claude Code's statusLine\n"
    "  config              the effective settings and where each came from\n"
    "  trust [PATH] [--list | --revoke]   apply a project's .sutra.toml (ignored until trusted)\n"
    "  mcp                 serve sutra's tools over MCP (stdio)\n"
    "  tokens [FILE] [--encoding o200k|cl100k]   count tokens exactly\n"
    "  detect              which agent hosts are present and hooked\n"
    "  install [--client NAME] [--dry-run] [--wrap-bash | --no-wrap-bash] [--raise-output-cap]\n"
    "          [--mcp-files] [--mcp-exec]\n"
    "                      add sutra's hook to a host (backs files up); Claude Code also routes\n"
    "                      Bash through `sutra exec` (covering failing commands) wherever that\n"
    "                      changes no permission outcome; --wrap-bash: wherever the permission\n"
    "                      guard allows (a command some allow rule covered may then be asked);\n"
    "                      --no-wrap-bash: never; --statusline: Claude Code's status line shows\n"
    "                      the session's savings (only where it has none);\n"
    "                      --raise-output-cap: Codex lets whole outputs reach the (trusted) hook;\n"
    "                      the MCP server offers restore, compress and stats, and with\n"
    "                      --mcp-files outline/symbol/read (project folder), --mcp-exec exec\n"
    "  uninstall [--client NAME] [--dry-run]   remove it (restores the original bytes)\n"
    "  doctor              run a sample through each installed hook\n"
    "  outline FILE [--json]   the symbols of a source file, one line each\n"
    "  symbol FILE NAME [--kind K] [--compact | --signature]   one symbol's exact bytes\n"
    "  read FILE --lines A-B[,C-D]   exact bytes of line ranges (one-based, inclusive)\n"
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
        if (command == "trust") return sutra::host::cmd_trust(args);
        if (command == "exec") return sutra::host::cmd_exec(args);
        if (command == "restore") return sutra::host::cmd_restore(args);
        if (command == "stats") return sutra::host::cmd_stats(args);
        if (command == "statusline") return sutra::host::cmd_statusline(args);
        if (command == "config") return sutra::host::cmd_config(args);
        if (command == "mcp") return sutra::host::cmd_mcp(args);
        if (command == "tokens") return sutra::host::cmd_tokens(args);
        if (command == "detect") return sutra::host::cmd_detect(args);
        if (command == "install") return sutra::host::cmd_install(args);
        if (command == "uninstall") return sutra::host::cmd_uninstall(args);
        if (command == "doctor") return sutra::host::cmd_doctor(args);
        if (command == "outline") return sutra::host::cmd_outline(args);
        if (command == "symbol") return sutra::host::cmd_symbol(args);
        if (command == "read") return sutra::host::cmd_read(args);
        sutra::host::print_error("unknown command '" + command + "'");
        std::fputs(k_usage, stderr);
        return 2;
    } catch (const std::exception& e) {
        sutra::host::print_error(e.what());
        return 1;
    }
}
