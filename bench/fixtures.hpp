#pragma once
// The eight reference-method fixtures (docs/benchmark.md, "Savings"): generated tool-output
// shapes, each with one planted clue where a compressor is most tempted to cut. Generated at
// run time from fixed seeds, so no large file is committed and every run sees the same bytes.

#include <string>
#include <vector>

namespace sutra::bench {

struct Fixture {
    std::string name;
    std::string command;  ///< the command line an agent would have run
    int exit_code = 0;    ///< what the command would have exited with
    bool is_diff = false; ///< must come back byte-identical
    std::string clue;     ///< a unique substring of the planted line
    std::string text;
};

/// The fixtures, in table order. Deterministic: same bytes on every call and machine.
std::vector<Fixture> make_fixtures();

} // namespace sutra::bench
