// Fuzz target: core::compress on arbitrary bytes. The first byte picks the mode, the exit status,
// whether the store is on, and whether a diff header is prepended (a diff must pass untouched);
// the rest is the tool output. Every response is checked by fuzz::check_response, and the same
// bytes must give the same view twice.

#include "core/compress.hpp"

#include "fuzz/fuzz_support.hpp"
#include <cstddef>
#include <cstdint>
#include <string>

using namespace sutra;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t sel = data[0];
    std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
    const bool as_diff = (sel & 0x80) != 0;
    if (as_diff) input = "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1,3 +1,3 @@\n" + input;

    core::Config config = fuzz::small_config();
    config.store_enabled = (sel & 0x20) == 0;
    static constexpr core::Mode k_modes[] = {core::Mode::automatic, core::Mode::concise,
                                             core::Mode::normal, core::Mode::verbose,
                                             core::Mode::full};
    core::Request req;
    req.output = input;
    req.tool = "Bash";
    req.host = "fuzz";
    if ((sel & 7) < 5) req.mode = k_modes[sel & 7];
    switch ((sel >> 3) & 3) {
    case 1:
        req.exit_code = 0;
        break;
    case 2:
        req.exit_code = 1;
        break;
    case 3:
        req.exit_code = 137;
        break;
    default:
        break;
    }

    const core::Response first = core::compress(req, config);
    fuzz::check_response(input, first, config);
    if (as_diff) SUTRA_FUZZ_CHECK(!first.rewritten, "a diff was rewritten");
    if (first.rewritten) {
        const core::Response again = core::compress(req, config);
        SUTRA_FUZZ_CHECK(again.rewritten && again.view == first.view, "same bytes, another view");
    }
    return 0;
}
