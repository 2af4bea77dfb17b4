#pragma once
// What the model would have read without sutra: the host's own cut of a tool's output (Claude
// Code's 2 KB preview past 30,000 characters, Codex's head and tail around 10,000, OpenCode's
// last 51,200 bytes). The stats log counts savings against it as well as against the raw output
// (docs/configuration.md, "How the figures are counted"), so a figure never claims bytes the host
// would have cut anyway. Each adapter states its host's cut (plugins/*/), measured in the real
// hosts; the core only applies it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sutra::core {

/// The host shows an output whole up to `over` bytes of its first `window` (0: all of it); past
/// that, its first `head` and last `tail` bytes of that window. `known` false: the host shows
/// everything (or its cut is not known), so the raw output is the baseline.
struct HostCut {
    bool known = false;
    std::uint64_t over = 0;
    std::uint64_t head = 0;
    std::uint64_t tail = 0;
    std::uint64_t window = 0;
};

/// "OVER:HEAD:TAIL[:WINDOW]", decimal bytes; nullopt when malformed.
std::optional<HostCut> parse_host_cut(std::string_view spec);

/// How many bytes of an output of `size` bytes the host shows.
std::uint64_t host_shown_bytes(const HostCut& cut, std::uint64_t size);

/// The bytes the host shows of `output` (its head and tail joined), for counting tokens.
std::string host_shown_text(const HostCut& cut, std::string_view output);

} // namespace sutra::core
