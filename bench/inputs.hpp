#pragma once
// Deterministic benchmark inputs.

#include <string>

namespace sutra::bench {

/// A build/service-style log of about `bytes` bytes: progress lines, request lines with ids and
/// timings, a few warnings and one error in the middle.
inline std::string plain_log(std::size_t bytes) {
    std::string s;
    s.reserve(bytes + 256);
    std::size_t i = 0;
    while (s.size() < bytes) {
        switch (i % 5) {
        case 0: s += "[" + std::to_string(i % 100) + "%] Building CXX object src/unit" + std::to_string(i) + ".cpp.o\n"; break;
        case 1: s += "GET /api/items/" + std::to_string(i) + " 200 " + std::to_string(i % 97) + "ms\n"; break;
        case 2: s += "worker " + std::to_string(i % 13) + " handled job " + std::to_string(i * 7919) + "\n"; break;
        case 3: s += "cache hit ratio " + std::to_string(i % 100) + "." + std::to_string(i % 10) + "\n"; break;
        default: s += "step " + std::to_string(i) + " done\n"; break;
        }
        if (i == 5000) s += "src/parser.cpp:88:17: error: no matching function for call to 'parse(int)'\n";
        if (i % 20000 == 19999) s += "warning: deprecated option --fast\n";
        ++i;
    }
    return s;
}

} // namespace sutra::bench
