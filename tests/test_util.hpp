#pragma once
// Shared helpers for the tests: temporary directories, configurations pointing at them, and
// generators of realistic tool output.

#include "core/config.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sutra::test {

/// The sanitizer build (CI's second pass) runs the same tests at -O0 under ASan and UBSan, ten
/// or more times slower. There the property loops run a quarter of their rounds: the plain pass
/// runs every round for the properties, and a memory or undefined-behaviour error on a path
/// shows on the first rounds that take it as well as on the last.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool k_sanitized = true;
#else
inline constexpr bool k_sanitized = false;
#endif
/// `plain` rounds, or a quarter of them (at least one) under the sanitizers.
constexpr int rounds(int plain) {
    return k_sanitized ? (plain / 4 > 0 ? plain / 4 : 1) : plain;
}

/// A fresh directory under /tmp, removed with its contents on destruction.
struct TempDir {
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string path;
};

/// Defaults, with the store in `dir` and stats off (tests that want stats turn them on).
core::Config test_config(const std::string& dir);

/// A random log of `lines` lines mixing plain lines, key lines, repeats, similar runs, ANSI
/// colour, progress redraws, long lines, UTF-8 and blank lines.
std::string random_log(std::mt19937& rng, std::size_t lines);

/// Realistic outputs of common tools, each with one planted signal line (returned in `clue`).
struct Fixture {
    std::string name;
    std::string text;
    std::string clue; ///< a line that must stay visible in the view
};
std::vector<Fixture> fixtures();

/// Runs a shell command, returns its standard output; `status` gets the exit status.
std::string run_command(const std::string& command, int* status = nullptr);

/// Reads a whole file.
std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& data);

} // namespace sutra::test
