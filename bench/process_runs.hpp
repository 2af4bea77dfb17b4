#pragma once
// Whole processes timed from outside, for the benchmarks: a command run to its exit, and one
// MCP sutra_exec call answered by `sutra mcp`, each killed past a bound.

#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sutra::bench {

using process_clock = std::chrono::steady_clock;

inline double ms_since(process_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(process_clock::now() - t0).count();
}

/// Runs argv to completion, output to /dev/null; the wall time in ms, or nullopt when it ran
/// past `timeout_s` (it is then killed).
inline std::optional<double> run_process_ms(const std::vector<std::string>& argv,
                                            double timeout_s) {
    std::fflush(stdout);
    const auto t0 = process_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr) ||
            !std::freopen("/dev/null", "r", stdin))
            ::_exit(127);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        ::execvp(args[0], args.data());
        ::_exit(127);
    }
    int status = 0;
    while (true) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        const double ms = ms_since(t0);
        if (done == pid) return ms;
        if (done < 0 && errno != EINTR) return ms;
        if (ms > timeout_s * 1000) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return std::nullopt;
        }
        ::usleep(ms < 50 ? 200 : 2000);
    }
}

/// Starts `SUTRA mcp --tools exec`, asks sutra_exec to run `command` with `limit_s` as its
/// timeout_seconds, and returns the ms from the request to the answer, or nullopt past
/// `timeout_s` (the server is killed either way).
inline std::optional<double>
mcp_exec_ms(const std::string& sutra, const std::string& command, int limit_s, double timeout_s) {
    int in[2], out[2];
    if (::pipe(in) != 0 || ::pipe(out) != 0) return std::nullopt;
    std::fflush(stdout);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        if (!std::freopen("/dev/null", "w", stderr)) ::_exit(127);
        ::close(in[1]);
        ::close(out[0]);
        ::execl(sutra.c_str(), sutra.c_str(), "mcp", "--tools", "exec", nullptr);
        ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    const nlohmann::json call = {
        {"jsonrpc", "2.0"},
        {"id", 1},
        {"method", "tools/call"},
        {"params",
         {{"name", "sutra_exec"},
          {"arguments", {{"command", command}, {"timeout_seconds", limit_s}}}}}};
    const std::string line = call.dump() + "\n";
    const auto t0 = process_clock::now();
    std::optional<double> answered;
    if (::write(in[1], line.data(), line.size()) == static_cast<ssize_t>(line.size())) {
        char buf[65536];
        while (!answered) {
            const double left = timeout_s * 1000 - ms_since(t0);
            pollfd p{out[0], POLLIN, 0};
            if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) break;
            const ssize_t n = ::read(out[0], buf, sizeof buf);
            if (n <= 0) break;
            if (std::string_view(buf, static_cast<std::size_t>(n)).find('\n') !=
                std::string_view::npos)
                answered = ms_since(t0);
        }
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    ::close(in[1]);
    ::close(out[0]);
    return answered;
}

} // namespace sutra::bench
