// See paths.hpp.

#include "plugins/common/paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <pwd.h>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace sutra::plugins::common {

namespace fs = std::filesystem;

std::string home_dir() {
    if (const char* h = std::getenv("HOME"); h != nullptr && h[0] == '/') return h;
    if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr)
        return pw->pw_dir;
    return {};
}

std::string env_dir(const char* var, const char* fallback) {
    if (const char* v = std::getenv(var); v != nullptr && v[0] == '/') return v;
    const std::string home = home_dir();
    return home.empty() ? std::string() : home + "/" + fallback;
}

std::string real_target(const std::string& path) {
    // Follows every link by hand: canonical() fails on a dangling one, which must still be
    // followed (install creates its target), never replaced by a file or deleted.
    fs::path p(path);
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(p, ec)) return p.string();
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) return p.string();
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    throw std::runtime_error(path + ": too many levels of symbolic links; nothing was changed");
}

} // namespace sutra::plugins::common
