// Deliberately broken adapter modules for the registry tests; one source, built five ways.

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
#else
// No entry symbol at all.
extern "C" SUTRA_PLUGIN_EXPORT int sutra_plugin_other(void) {
    return 1;
}
#endif
