#pragma once
// Asks Codex itself which hooks it runs: `codex app-server` speaks JSON-RPC over stdio
// (`initialize`, the `initialized` notification, then `hooks/list`), and its answer names each
// hook with Codex's own trust verdict. Only Codex knows how it hashes a hook and which
// config.toml tables it honours, so sutra asks it rather than reading its files
// (docs/adapters.md, "Codex: whole outputs").
//
// The program runs in its own process group with CODEX_HOME set, its working directory `/` (no
// project's config), stderr discarded, a hard deadline and a bounded read; the whole group is
// killed afterwards (Codex leaves helpers such as `git` behind).

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <expected>
#include <string>

namespace sutra::plugins::codex {

inline constexpr std::chrono::milliseconds k_app_server_timeout{20000};
inline constexpr std::size_t k_app_server_max_bytes = std::size_t{4} << 20;

/// The codex program to ask: $SUTRA_CODEX_BIN when set (a path, or a name looked up in PATH;
/// set but empty means none), else `codex` in PATH. Only absolute PATH entries are searched, so
/// a `codex` in the current folder is never run. "" when none is found.
std::string find_codex();

/// The `result` of `hooks/list` (cwds: ["/"]) from `program app-server` run with
/// CODEX_HOME=`codex_home`, or why there is none: the program did not start, exited, sent more
/// than `max_bytes`, gave no answer before `timeout`, or answered with an error or no object.
std::expected<nlohmann::json, std::string>
list_hooks(const std::string& program,
           const std::string& codex_home,
           std::chrono::milliseconds timeout = k_app_server_timeout,
           std::size_t max_bytes = k_app_server_max_bytes);

} // namespace sutra::plugins::codex
