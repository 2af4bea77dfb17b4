#pragma once
// The `sutra` command-line tool: one function per subcommand. Each takes the arguments after
// the subcommand name and returns the process exit status. Errors are printed to stderr as
// `sutra: error: <what>`; nothing but the command's product goes to stdout.

#include "core/request.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace sutra::core {
struct Config;
}

namespace sutra::host {

using Args = std::vector<std::string>;

int cmd_compress(const Args& args);
int cmd_exec(const Args& args);
int cmd_restore(const Args& args);
int cmd_stats(const Args& args);
int cmd_statusline(const Args& args);
int cmd_config(const Args& args);
int cmd_mcp(const Args& args);
int cmd_tokens(const Args& args);
int cmd_detect(const Args& args);
int cmd_install(const Args& args);
int cmd_uninstall(const Args& args);
int cmd_doctor(const Args& args);
int cmd_trust(const Args& args);

/// Prints one stderr warning when the configuration found a project `.sutra.toml` but ignored
/// it (cli_trust.cpp); compress and exec call it with the configuration they loaded.
void warn_if_project_ignored(const core::Config& config);
int cmd_outline(const Args& args);
int cmd_symbol(const Args& args);
int cmd_read(const Args& args);

/// Prints `sutra: error: MESSAGE` to stderr.
void print_error(const std::string& message);

/// FILE opened for reading, or standard input for "" and "-"; -1 (the error printed) when it
/// cannot be opened.
int open_input(const std::string& file);

/// What a view-shaping option did with args[i].
enum class OptionRead { not_mine, read, bad };

/// Reads the options `compress` and `exec` share, `--mode MODE` and `--mcp-tool NAME` (markers
/// then name that MCP tool instead of the `sutra restore` command). On `read`, `i` is at the
/// option's value; on `bad` the error has been printed.
OptionRead read_view_option(const Args& args,
                            std::size_t& i,
                            std::optional<core::Mode>& mode,
                            core::RestoreRoute& route);

/// Reads `--namespace NS` (a store namespace: 1-64 of [A-Za-z0-9_.-], not "." or ".."), which
/// compress, exec, restore and mcp share. Returns as read_view_option does.
OptionRead read_namespace_option(const Args& args, std::size_t& i, std::string& store_namespace);

} // namespace sutra::host
