#pragma once
// Deterministic benchmark inputs.

#include <string>
#include <string_view>
#include <vector>

namespace sutra::bench {

/// A build/service-style log of about `bytes` bytes: progress lines, request lines with ids and
/// timings, a few warnings and one error in the middle.
inline std::string plain_log(std::size_t bytes) {
    std::string s;
    s.reserve(bytes + 256);
    std::size_t i = 0;
    while (s.size() < bytes) {
        switch (i % 5) {
        case 0:
            s += "[" + std::to_string(i % 100) + "%] Building CXX object src/unit" +
                 std::to_string(i) + ".cpp.o\n";
            break;
        case 1:
            s += "GET /api/items/" + std::to_string(i) + " 200 " + std::to_string(i % 97) + "ms\n";
            break;
        case 2:
            s += "worker " + std::to_string(i % 13) + " handled job " + std::to_string(i * 7919) +
                 "\n";
            break;
        case 3:
            s += "cache hit ratio " + std::to_string(i % 100) + "." + std::to_string(i % 10) + "\n";
            break;
        default:
            s += "step " + std::to_string(i) + " done\n";
            break;
        }
        if (i == 5000)
            s += "src/parser.cpp:88:17: error: no matching function for call to 'parse(int)'\n";
        if (i % 20000 == 19999) s += "warning: deprecated option --fast\n";
        ++i;
    }
    return s;
}

/// A log whose neighbouring lines share their shape, in runs of 50 (build steps, requests, test
/// results, workers), with an error line every 20,000 lines; the error lines also go to `errors`.
/// Unlike plain_log, nearly every line needs its full shape signature, and the fold markers alone
/// can outgrow the view's ceiling.
inline std::string runs_log(std::size_t bytes, std::vector<std::string>* errors = nullptr) {
    std::string log;
    log.reserve(bytes + 256);
    for (std::size_t i = 0; log.size() < bytes; ++i) {
        const std::string n = std::to_string(i);
        switch (i / 50 % 4) {
        case 0:
            log +=
                "[" + std::to_string(i % 100) + "%] Building CXX object src/unit" + n + ".cpp.o\n";
            break;
        case 1:
            log += "GET /api/items/" + n + " 200 " + std::to_string(i % 97) + "ms\n";
            break;
        case 2:
            log += "test_case_" + n + " (tests.test_mod.Case" + n + ") ... ok\n";
            break;
        default:
            log += "worker " + std::to_string(i % 13) + " handled job " + n + " in 0." +
                   std::to_string(i % 1000) + "s\n";
            break;
        }
        if (i % 20000 == 19999) {
            const std::string e = "error: job " + n + " failed";
            log += e + "\n";
            if (errors) errors->push_back(e);
        }
    }
    return log;
}

/// A stylish linter's report (eslint, stylelint): files, each with a hundred indented error rows
/// under its name. Every row is an error and sits under its file's name, so the view shows as
/// many as fit under their files and the dedup keys every row by its file.
inline std::string stylish_report(std::size_t bytes) {
    std::string out;
    out.reserve(bytes + 256);
    for (std::size_t f = 0; out.size() < bytes; ++f) {
        out += "src/dir" + std::to_string(f % 50) + "/file" + std::to_string(f) + ".css\n";
        for (std::size_t i = 0; i < 100; ++i)
            out += "  " + std::to_string(i + 1) + ":" + std::to_string(1 + (f * 7 + i) % 80) +
                   "  error  Unexpected unit in value " + std::to_string(f * 100 + i) + "   rule-" +
                   std::to_string(i % 30) + "\n";
        out += "\n";
    }
    return out;
}

/// One line repeated `count` times: the outputs that once took quadratic time (issue 25).
inline std::string repeated_line(std::string_view line, std::size_t count) {
    std::string s;
    s.reserve(line.size() * count);
    for (std::size_t i = 0; i < count; ++i) s.append(line);
    return s;
}

/// `count` one-character lines cycling through a-z: no two neighbours equal, every line its own.
inline std::string cycling_letters(std::size_t count) {
    std::string s;
    s.reserve(2 * count);
    for (std::size_t i = 0; i < count; ++i) {
        s += static_cast<char>('a' + i % 26);
        s += '\n';
    }
    return s;
}

/// A degenerate output of about `lines` lines, by name: blank, spaces, crlf, char, letters,
/// same, cr (one line of carriage returns, `lines` bytes long). Empty for an unknown name.
inline std::string degenerate_output(std::string_view name, std::size_t lines) {
    if (name == "blank") return repeated_line("\n", lines);
    if (name == "spaces") return repeated_line(" \n", lines);
    if (name == "crlf") return repeated_line("\r\n", lines);
    if (name == "char") return repeated_line("x\n", lines);
    if (name == "letters") return cycling_letters(lines);
    if (name == "same") return repeated_line("step 12345 compiling module_7.cpp ok\n", lines);
    if (name == "cr") return repeated_line("\r", lines);
    return {};
}

} // namespace sutra::bench
