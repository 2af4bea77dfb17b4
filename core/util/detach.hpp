#pragma once
// Work a short-lived process does after its answer is out, without its caller waiting for it.

#include <functional>

namespace sutra::core {

/// Runs `work` in a child process that nobody waits for, for a process that exits next (the
/// hook: its host waits for its exit, not for the child). The child starts a session of its own
/// (a host that signals the hook's process group on the way out does not cut it short), has
/// /dev/null for its standard streams (the host's pipes close with the parent) and at most
/// `seconds` to finish. It inherits the caller's descriptors, locks held through them included.
/// False when no child could be made: the caller then does the work itself.
bool run_detached(const std::function<void()>& work, unsigned seconds) noexcept;

} // namespace sutra::core
