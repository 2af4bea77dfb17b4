#pragma once
// Where a host keeps its files: the user's home, a host folder named by an environment variable,
// and the real file behind a symlinked config. Every adapter starts its install, uninstall and
// detect from these, so they live once here (built into sutra_plugin_common, see
// plugins/CMakeLists.txt).

#include <string>

namespace sutra::plugins::common {

/// $HOME when absolute, else the passwd entry's home; "" when neither is known.
std::string home_dir();

/// The directory named by `var` when set and absolute, else ~/`fallback`.
std::string env_dir(const char* var, const char* fallback);

/// Follows a symlinked settings file (dotfile managers) so we rewrite the target, not the link;
/// a dangling link too, whose target install then creates. Throws on a link loop.
std::string real_target(const std::string& path);

} // namespace sutra::plugins::common
