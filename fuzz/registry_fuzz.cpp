// Fuzz target: the adapter registry (adapters.toml). Arbitrary text either parses into entries,
// each with a valid name and an absolute module path, or gives one error naming the file.

#include "host/dispatch/plugin_registry.hpp"

#include "fuzz/fuzz_support.hpp"
#include <cstddef>
#include <cstdint>
#include <string>

using namespace sutra;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string path = "/reg/adapters.toml";
    const auto parsed = host::parse_registry(text, path, "/plugins");
    if (!parsed) {
        SUTRA_FUZZ_CHECK(parsed.error().find(path) != std::string::npos, parsed.error());
        return 0;
    }
    for (const auto& e : *parsed) {
        SUTRA_FUZZ_CHECK(!e.name.empty() && e.name.size() <= 32, e.name);
        for (char c : e.name)
            SUTRA_FUZZ_CHECK(
                (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-', e.name);
        SUTRA_FUZZ_CHECK(!e.module.empty() && e.module[0] == '/', e.module);
        SUTRA_FUZZ_CHECK(e.registry == path, e.registry);
    }
    return 0;
}
