// Adapter modules for the registry tests, one source built seven ways: five deliberately broken,
// one as version 1 first shipped (no host_features), one that reports what the dispatcher said.

#include "plugins/abi/plugin_abi.h"

#if defined(SUTRA_TEST_BAD_ABI)
namespace {
char* none(const char*, size_t) noexcept {
    return nullptr;
}
char* none2(const char*, size_t, const char*, size_t) noexcept {
    return nullptr;
}
void release(char*) noexcept {}
const sutra_plugin_v1 k_descriptor = {99,        sizeof(sutra_plugin_v1),
                                      "bad_abi", "wrong ABI version",
                                      none,      none2,
                                      none,      none,
                                      none,      none,
                                      release};
} // namespace
extern "C" SUTRA_PLUGIN_EXPORT const sutra_plugin_v1* sutra_plugin_entry(void) {
    return &k_descriptor;
}
#elif defined(SUTRA_TEST_UNDEFINED)
// Links (MODULE without -z defs) but cannot load with RTLD_NOW.
extern "C" int sutra_test_function_that_does_not_exist(void);
extern "C" SUTRA_PLUGIN_EXPORT const sutra_plugin_v1* sutra_plugin_entry(void) {
    return sutra_test_function_that_does_not_exist() != 0 ? nullptr : nullptr;
}
#elif defined(SUTRA_TEST_ABORT_AT_LOAD)
// Crashes while being loaded: a static initializer that aborts before any entry is called.
#include <cstdlib>
namespace {
const int k_crash = (std::abort(), 0);
} // namespace
extern "C" SUTRA_PLUGIN_EXPORT const sutra_plugin_v1* sutra_plugin_entry(void) {
    return k_crash != 0 ? nullptr : nullptr;
}
#elif defined(SUTRA_TEST_OVERFLOW_IN_DECODE)
// Loads cleanly, then overflows its stack in decode: the dispatcher's crash guard must still
// leave silently (its handler needs a stack of its own).
#include <cstring>
namespace {
volatile std::size_t g_sink = 0;
// Each frame keeps a buffer live, so the recursion is neither a loop nor a tail call.
std::size_t recurse(std::size_t n) {
    if (n == ~std::size_t{0}) return 0; // never: the stack ends long before
    volatile char frame[1024];
    std::memset(const_cast<char*>(frame), static_cast<int>(n), sizeof frame);
    return recurse(n + 1) + frame[n % sizeof frame];
}
char* overflow(const char*, size_t) noexcept {
    g_sink = recurse(0);
    return nullptr;
}
char* none(const char*, size_t) noexcept {
    return nullptr;
}
char* none2(const char*, size_t, const char*, size_t) noexcept {
    return nullptr;
}
void release(char*) noexcept {}
const sutra_plugin_v1 k_descriptor = {SUTRA_PLUGIN_ABI_VERSION,
                                      sizeof(sutra_plugin_v1),
                                      "overflow",
                                      "overflows its stack in decode",
                                      overflow,
                                      none2,
                                      none,
                                      none,
                                      none,
                                      none,
                                      release};
} // namespace
extern "C" SUTRA_PLUGIN_EXPORT const sutra_plugin_v1* sutra_plugin_entry(void) {
    return &k_descriptor;
}
#elif defined(SUTRA_TEST_V1_0)
// Built against the first version 1: its descriptor ends at free_string.
#include <cstdlib>
#include <cstring>
namespace {
struct DescriptorV1_0 {
    uint32_t abi_version, struct_size;
    const char *name, *description;
    sutra_plugin_call_fn decode;
    char* (*encode)(const char*, size_t, const char*, size_t) noexcept;
    sutra_plugin_call_fn install, uninstall, detect, doctor;
    void (*free_string)(char*) noexcept;
};
static_assert(sizeof(DescriptorV1_0) == SUTRA_PLUGIN_V1_0_SIZE);
char* copy(const char* text) noexcept {
    char* out = static_cast<char*>(std::malloc(std::strlen(text) + 1));
    if (out != nullptr) std::strcpy(out, text);
    return out;
}
char* decode(const char*, size_t) noexcept {
    return copy(R"({"action":"pass","reason":"a module of version 1.0"})");
}
char* none2(const char*, size_t, const char*, size_t) noexcept {
    return nullptr;
}
void release(char* text) noexcept {
    std::free(text);
}
const DescriptorV1_0 k_descriptor = {SUTRA_PLUGIN_ABI_VERSION,
                                     sizeof(DescriptorV1_0),
                                     "v1_0",
                                     "an older module",
                                     decode,
                                     none2,
                                     decode,
                                     decode,
                                     decode,
                                     decode,
                                     release};
} // namespace
extern "C" SUTRA_PLUGIN_EXPORT const sutra_plugin_v1* sutra_plugin_entry(void) {
    return reinterpret_cast<const sutra_plugin_v1*>(&k_descriptor);
}
#elif defined(SUTRA_TEST_FEATURES)
// Its decode answers with what host_features was given ("{}" when it was never called), and a
// count of the calls.
#include <cstdlib>
#include <cstring>
#include <string>
namespace {
std::string g_features = "{}";
int g_calls = 0;
char* copy(const std::string& text) noexcept {
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    if (out != nullptr) std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}
char* decode(const char*, size_t) noexcept {
    return copy(R"({"calls":)" + std::to_string(g_calls) + R"(,"features":)" + g_features + "}");
}
char* none2(const char*, size_t, const char*, size_t) noexcept {
    return nullptr;
}
void release(char* text) noexcept {
    std::free(text);
}
void features(const char* json, size_t len) noexcept {
    ++g_calls;
    g_features.assign(json, len);
}
const sutra_plugin_v1 k_descriptor = {SUTRA_PLUGIN_ABI_VERSION,
                                      sizeof(sutra_plugin_v1),
                                      "features",
                                      "reports host_features",
                                      decode,
                                      none2,
                                      decode,
                                      decode,
                                      decode,
                                      decode,
                                      release,
                                      features};
} // namespace
extern "C" SUTRA_PLUGIN_EXPORT const sutra_plugin_v1* sutra_plugin_entry(void) {
    return &k_descriptor;
}
#else
// No entry symbol at all.
extern "C" SUTRA_PLUGIN_EXPORT int sutra_plugin_other(void) {
    return 1;
}
#endif
