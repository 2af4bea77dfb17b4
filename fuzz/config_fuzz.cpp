// Fuzz target: the TOML config reader. Arbitrary text is loaded as the user's config file; the
// result is either an error that names the file, or a configuration whose values are within the
// documented ranges. The same text must give the same answer twice, and `sutra config`'s
// description of an accepted configuration must not throw.

#include "core/config.hpp"

#include "fuzz/fuzz_support.hpp"
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

using namespace sutra;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::map<std::string, std::string> env{{"HOME", "/home/fuzz"}};
    const auto first = core::load_config_from(text, "/cfg/config.toml", env);
    const auto again = core::load_config_from(text, "/cfg/config.toml", env);
    SUTRA_FUZZ_CHECK(first.has_value() == again.has_value(), "not deterministic");
    if (!first) {
        SUTRA_FUZZ_CHECK(first.error() == again.error(), "not deterministic");
        SUTRA_FUZZ_CHECK(first.error().find("/cfg/config.toml") != std::string::npos,
                         first.error());
        SUTRA_FUZZ_CHECK(first.error().find('\n') == std::string::npos ||
                             first.error().size() < 4096,
                         "an unbounded error message");
        return 0;
    }
    const core::Config& c = *first;
    SUTRA_FUZZ_CHECK(c.min_saving_percent <= 100, "min_saving_percent over 100");
    SUTRA_FUZZ_CHECK(c.max_view_bytes > 0, "zero view ceiling");
    SUTRA_FUZZ_CHECK(c.restore_max_bytes >= 1 && c.restore_max_bytes <= core::k_restore_hard_cap,
                     "restore.max_bytes out of range");
    SUTRA_FUZZ_CHECK(c.ttl_seconds > 0, "ttl not positive");
    SUTRA_FUZZ_CHECK(c.max_entries > 0 && c.max_entry_bytes > 0 && c.max_total_bytes > 0,
                     "a zero store quota");
    for (const auto& p : c.keep_patterns) SUTRA_FUZZ_CHECK(!p.empty(), "an empty keep pattern");
    const std::string described = core::describe_config(c);
    SUTRA_FUZZ_CHECK(described == core::describe_config(*again), "description not deterministic");
    return 0;
}
