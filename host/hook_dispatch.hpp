#pragma once
// One hook call: payload in, the exact stdout bytes out. Shared by `sutra-host --adapter` and
// `sutra doctor`. Fail open: every error yields "" (print nothing), with the reason in `why`.

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace sutra::host {

class Plugin;

/// Reads a host-persisted full output under every check: `path` absolute, ending in .txt,
/// directly inside `allowed_dir` (no `.`/`..` components), lstat a regular file of exactly
/// `expected_size` bytes, opened with O_NOFOLLOW, at most `limit` bytes, valid UTF-8. Any failed
/// check is an error naming it; the caller then passes through.
/// `naming` says which file names the host uses: "txt" (Claude Code: `*.txt`) or
/// "opencode-tool" (OpenCode: `tool_` followed by letters, digits and `_`, no extension).
std::expected<std::string, std::string> read_persisted_output(const std::string& path,
                                                              std::uint64_t expected_size,
                                                              const std::string& allowed_dir,
                                                              std::uint64_t limit = 64ull << 20,
                                                              std::string_view naming = "txt");

/// Runs decode → (checked file read) → core::compress → encode, or returns the adapter's own
/// answer when decode says "respond" (Claude Code's PreToolUse rewrite). Returns the bytes to
/// print;
/// "" means pass through, and `why` then says why (for SUTRA_DEBUG and doctor).
std::string run_hook(const Plugin& plugin, std::string_view payload, std::string& why);

} // namespace sutra::host
