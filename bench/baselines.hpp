#pragma once
// Baselines run beside sutra in bench/savings_main.cpp. The two peer baselines are
// re-implementations from the published specs summarised in ../shared/reference/peers.md
// (CtxCtl §2.2, Everruns §3.1/§3.3), not the peers' own code: where the spec is silent the
// choice made here is noted, and it never favours sutra.

#include <string>
#include <string_view>

namespace sutra::bench {

/// The output unchanged.
std::string baseline_raw(std::string_view s);

/// The first and last 4 KiB (8 KiB in all) with one omission line between, byte-cut.
std::string baseline_head_tail(std::string_view s);

/// ANSI escapes (CSI, OSC) removed, then consecutive duplicate lines dropped, like `uniq`.
std::string strip_ansi(std::string_view s);
std::string baseline_ansi_uniq(std::string_view s);

/// CtxCtl `exec` defaults: outputs of 20 lines or fewer pass through; otherwise keep the first
/// 5 and last 5 lines and every line matching error|warning|failed|panic|fatal (case-insensitive)
/// or `^\s+-->`, and fold each omitted run into `... [N lines omitted]`. Not recoverable.
std::string baseline_ctxctl(std::string_view s);

/// Everruns `auto`: strip ANSI, collapse CR-overwritten lines, then budget 384 B on success
/// (≈512 B with the saved-output pointer) or 8 KiB (`normal`) on failure; error regions (±5
/// lines) get the budget first, the rest is 20% head / 80% tail. The full output is saved
/// (up to 1 MiB), so a clue in the first MiB is recoverable through read_file.
std::string baseline_everruns(std::string_view s, int exit_code);

} // namespace sutra::bench
