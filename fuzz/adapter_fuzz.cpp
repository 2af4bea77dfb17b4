// Fuzz target, one binary per adapter (SUTRA_FUZZ_ADAPTER names it; its module source is
// compiled in): arbitrary bytes as the host's hook payload, driven through the module's C
// descriptor exactly as the dispatcher drives it, then through the dispatcher's whole hook call.
// decode returns NULL (fail open) or a JSON object that says "pass" or "compress" with an output
// or a file to read; encode returns NULL, "" (pass) or JSON, for a real result and for arbitrary
// result text alike; run_hook prints "" or JSON, and never throws or crashes.

#include "host/dispatch/hook_dispatch.hpp"
#include "host/dispatch/plugin_registry.hpp"
#include "plugins/abi/plugin_abi.h"

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_support.hpp"
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" const sutra_plugin_v1* sutra_plugin_entry(void);

using namespace sutra;
using nlohmann::json;

namespace {

const sutra_plugin_v1& module() {
    static const sutra_plugin_v1* descriptor = [] {
        (void)fuzz::work_dir(); // the module's host folders point into it
        const sutra_plugin_v1* d = sutra_plugin_entry();
        SUTRA_FUZZ_CHECK(d && d->abi_version == SUTRA_PLUGIN_ABI_VERSION &&
                             std::string_view(d->name) == SUTRA_FUZZ_ADAPTER,
                         "descriptor");
        return d;
    }();
    return *descriptor;
}

// NULL, "" or one JSON document.
void check_output(char* text, std::string_view what) {
    if (text == nullptr) return;
    const std::string out(text);
    module().free_string(text);
    if (out.empty()) return;
    SUTRA_FUZZ_CHECK(json::accept(out), std::string(what) + ": " + out);
}

void check_decoded(const std::string& text) {
    const json d = json::parse(text, nullptr, false);
    SUTRA_FUZZ_CHECK(d.is_object(), text);
    const std::string action = d.value("action", std::string());
    SUTRA_FUZZ_CHECK(action == "compress" || action == "pass", text);
    if (action == "pass") return;
    const auto rf = d.find("read_file");
    if (rf != d.end()) {
        SUTRA_FUZZ_CHECK(rf->is_object() && (*rf)["path"].is_string() &&
                             (*rf)["size"].is_number_unsigned() && (*rf)["allowed_dir"].is_string(),
                         text);
    } else {
        SUTRA_FUZZ_CHECK(d.contains("output") && d["output"].is_string(), text);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const sutra_plugin_v1& m = module();
    const char* payload = reinterpret_cast<const char*>(data);

    if (char* decoded = m.decode(payload, size)) {
        const std::string text(decoded);
        m.free_string(decoded);
        check_decoded(text);
    }

    const json result = {{"view", "[sutra: fuzz view]\nline\n"},
                         {"rewritten", true},
                         {"id", "su_0123456789abcdef0123456789abcdef"},
                         {"original_bytes", size}};
    const std::string result_text = result.dump();
    check_output(m.encode(payload, size, result_text.data(), result_text.size()), "encode");
    // The payload as the result too: encode must survive any result text.
    check_output(m.encode(payload, size, payload, size), "encode(arbitrary result)");

    const host::Plugin plugin(&m, "fuzz");
    std::string why;
    const std::string printed = host::run_hook(plugin, std::string_view(payload, size), why);
    if (!printed.empty()) SUTRA_FUZZ_CHECK(json::accept(printed), printed);
    return 0;
}
