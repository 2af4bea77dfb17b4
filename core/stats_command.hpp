#pragma once
// The program name of a command line, the only part of a command the stats log may hold: the
// arguments, paths and output can carry secrets (tokens, hosts, file names), the program name
// is what a per-command savings table needs.

#include <string>
#include <string_view>

namespace sutra::core {

/// The program a command line runs, as its file name: `FOO=1 sudo -u ci /usr/bin/python3 -m
/// pytest -x` gives `python3`. Leading variable assignments, leading `cd DIR &&` steps and the
/// wrappers `sudo`, `doas`, `env`, `timeout`, `nice`, `nohup`, `time`, `command`, `exec`,
/// `stdbuf` are skipped. Empty for an empty line; `(other)` when the program is not a plain
/// name (a variable, a quoted oddity, over 64 bytes).
std::string command_name(std::string_view command_line);

/// A program name as command_name gives it (1-64 of [A-Za-z0-9._+-], not starting with `-`);
/// the report checks names read back from the log with it.
bool plain_command_name(std::string_view name);

} // namespace sutra::core
