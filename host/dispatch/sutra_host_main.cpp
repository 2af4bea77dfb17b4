// `sutra-host`: the hook dispatcher. `--adapter NAME` reads one hook payload on stdin, lets the
// adapter module translate it, runs the core and prints the host's replacement. It always exits
// 0 and prints nothing on any error (fail open: the host keeps its original result); with
// SUTRA_DEBUG set, the reason goes to stderr.

#include "core/compress.hpp"
#include "core/util/posix_io.hpp"
#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr std::size_t k_max_payload = 64u << 20;

const char* const k_usage = "usage: sutra-host --adapter NAME   (one hook payload on stdin)\n"
                            "       sutra-host --list           registered adapters\n";

void debug(const std::string& message) {
    if (std::getenv("SUTRA_DEBUG") != nullptr)
        std::fprintf(stderr, "sutra-host: %s\n", message.c_str());
}

// Reads stdin up to the limit; false when it is larger (the rest is drained, so the host does not
// see a broken pipe) or unreadable. Straight into `out`, grown by doubling, with no bounce buffer
// to fault in and copy from: each page a process touches first costs a fault, about 12 us on the
// VMs measured (docs/benchmark.md, "Session 24").
bool read_payload(std::string& out) {
    std::size_t used = 0;
    out.resize(std::size_t{1} << 16);
    while (true) {
        if (used == out.size()) {
            if (out.size() > k_max_payload) break;
            out.resize(std::min(out.size() * 2, k_max_payload + 1));
        }
        const ssize_t n = ::read(0, out.data() + used, out.size() - used);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) {
            out.resize(used);
            return used <= k_max_payload;
        }
        used += static_cast<std::size_t>(n);
    }
    // Past the limit: drain the rest so the writer finishes, and pass through.
    out.clear();
    out.shrink_to_fit();
    char buf[1 << 12];
    while (true) {
        const ssize_t n = ::read(0, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
    }
}

// A crash or a hang in the core must not become the host's problem: nothing has been printed
// before the final write, so leaving with status 0 and no output is a pass-through.
extern "C" void leave_quietly(int) {
    ::_exit(0);
}

// The handler runs on its own stack: after a stack overflow the thread's stack has no room left,
// and a handler on it would fault again and end the process with SIGSEGV.
void use_alternate_signal_stack() {
    static char alternate[1 << 16];
    stack_t ss{};
    ss.ss_sp = alternate;
    ss.ss_size = sizeof alternate;
    ss.ss_flags = 0;
    ::sigaltstack(&ss, nullptr);
}

void guard_against_crashes(unsigned seconds) {
    use_alternate_signal_stack();
    struct sigaction sa {};
    sa.sa_handler = leave_quietly;
    sa.sa_flags = SA_ONSTACK;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM})
        ::sigaction(sig, &sa, nullptr);
    ::alarm(seconds);
}

int run_adapter(const std::string& name) {
    guard_against_crashes(20);
    std::string payload;
    if (!read_payload(payload)) {
        debug("payload unreadable or larger than 64 MiB: pass through");
        return 0;
    }
    sutra::host::PluginRegistry registry(sutra::host::default_locations());
    for (const std::string& p : registry.problems()) debug(p);
    auto plugin = registry.load(name);
    if (!plugin) {
        debug(plugin.error());
        return 0;
    }
    std::string why;
    sutra::host::HookAfter after;
    const std::string out = sutra::host::run_hook(**plugin, payload, why, after);
    if (out.empty()) {
        debug("pass through: " + why);
    } else {
        ::alarm(0); // the answer is ready: a slow reader must not cut it short
        sutra::core::write_all(STDOUT_FILENO, out);
    }
    // The stats' exact token counts (~3 ms for a 60 kB output) are made once the answer is out.
    sutra::core::log_counted_after_exit(after.stats, after.original, after.view, after.config);
    return 0;
}

// Loads the module in a child first, so one that crashes at load (say, a static initializer
// that aborts) is reported instead of ending the listing. The signal, or 0.
int crashes_while_loading(sutra::host::PluginRegistry& registry, const std::string& name) {
    std::fflush(stdout);
    const pid_t pid = ::fork();
    if (pid < 0) return 0;
    if (pid == 0) {
        ::alarm(10);
        (void)registry.load(name);
        ::_exit(0);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

int list_adapters() {
    const auto locations = sutra::host::default_locations();
    sutra::host::PluginRegistry registry(locations);
    fmt::print("registries: {} (modules in {})\n            {} (modules in {})\n",
               locations.system_registry, locations.system_plugins, locations.user_registry,
               locations.user_plugins);
    for (const std::string& p : registry.problems()) fmt::print("problem: {}\n", p);
    if (registry.entries().empty()) fmt::print("no adapters registered\n");
    int failures = 0;
    for (const auto& e : registry.entries()) {
        if (const int sig = crashes_while_loading(registry, e.name); sig != 0) {
            ++failures;
            fmt::print("{:<10} {}  FAILS: crashed while loading (signal {})\n", e.name, e.module,
                       sig);
            continue;
        }
        auto plugin = registry.load(e.name);
        if (plugin)
            fmt::print("{:<10} {}  abi {}  ok  ({})\n", e.name, e.module, (*plugin)->abi_version(),
                       e.description);
        else {
            ++failures;
            fmt::print("{:<10} {}  FAILS: {}\n", e.name, e.module, plugin.error());
        }
    }
    return failures == 0 && registry.problems().empty() ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    try {
        const std::string first = argc > 1 ? argv[1] : "";
        if (first == "--adapter" && argc == 3) return run_adapter(argv[2]);
        if (first == "--list" && argc == 2) return list_adapters();
        if (first == "--help" || first == "-h") {
            std::fputs(k_usage, stdout);
            return 0;
        }
        std::fputs(k_usage, stderr);
        // A hook wired with bad arguments must still fail open.
        return 0;
    } catch (const std::exception& e) {
        debug(e.what());
    } catch (...) {
        debug("unknown error");
    }
    return 0;
}
