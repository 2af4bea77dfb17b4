// See paths.hpp.

#include "plugins/common/paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <pwd.h>
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
    std::error_code ec;
    if (fs::is_symlink(path, ec)) {
        const fs::path t = fs::canonical(path, ec);
        if (!ec) return t.string();
    }
    return path;
}

} // namespace sutra::plugins::common
