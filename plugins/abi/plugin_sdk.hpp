#pragma once
// Header-only C++ side of the adapter ABI. An adapter author writes a plain class and one
// SUTRA_DEFINE_PLUGIN(Class) line; this header turns it into the C descriptor of plugin_abi.h.
//
//   struct MyAdapter {
//       static constexpr const char* name = "mine";
//       static constexpr const char* description = "My agent";
//       std::string decode(std::string_view payload);                     // required
//       std::string encode(std::string_view payload, std::string_view r); // required
//       std::string install(std::string_view options);                    // optional, likewise
//       // uninstall, detect, doctor
//   };
//   SUTRA_DEFINE_PLUGIN(MyAdapter)
//
// Every call is wrapped in catch (...): an exception becomes a NULL return, which the
// dispatcher treats as "pass through". The class is default-constructed once, on first use.
// sdk::host_understands("decode", "host_cut") says whether the dispatcher that loaded the
// module reads a field added within version 1 (plugin_abi.h, "What the dispatcher understands").
// Installed next to plugin_abi.h, hence the sibling include.

#include "plugin_abi.h"
#include <concepts>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace sutra::sdk {

/// A malloc'ed NUL-terminated copy, released by the descriptor's free_string.
inline char* to_c_string(const std::string& text) noexcept {
    char* out = static_cast<char*>(std::malloc(text.size() + 1));
    if (out == nullptr) return nullptr;
    std::memcpy(out, text.data(), text.size());
    out[text.size()] = '\0';
    return out;
}

template <class Adapter> Adapter* instance() {
    static Adapter adapter; // constructed on first call; a throw propagates to the thunk's catch
    return &adapter;
}

inline const char* k_unsupported = R"({"ok":false,"error":"not supported by this adapter"})";

template <class Adapter> char* call_decode(const char* json, std::size_t len) noexcept {
    try {
        return to_c_string(instance<Adapter>()->decode(std::string_view(json, len)));
    } catch (...) {
        return nullptr;
    }
}

template <class Adapter>
char* call_encode(const char* payload,
                  std::size_t payload_len,
                  const char* result,
                  std::size_t result_len) noexcept {
    try {
        return to_c_string(instance<Adapter>()->encode(std::string_view(payload, payload_len),
                                                       std::string_view(result, result_len)));
    } catch (...) {
        return nullptr;
    }
}

// The optional operations: a class without the member answers "not supported".
#define SUTRA_SDK_OPTIONAL_CALL(op)                                                                \
    template <class Adapter> char* call_##op(const char* json, std::size_t len) noexcept {         \
        try {                                                                                      \
            if constexpr (requires(Adapter & a, std::string_view s) {                              \
                              { a.op(s) } -> std::convertible_to<std::string>;                     \
                          }) {                                                                     \
                return to_c_string(instance<Adapter>()->op(std::string_view(json, len)));          \
            } else {                                                                               \
                (void)json;                                                                        \
                (void)len;                                                                         \
                return to_c_string(k_unsupported);                                                 \
            }                                                                                      \
        } catch (...) {                                                                            \
            return nullptr;                                                                        \
        }                                                                                          \
    }
SUTRA_SDK_OPTIONAL_CALL(install)
SUTRA_SDK_OPTIONAL_CALL(uninstall)
SUTRA_SDK_OPTIONAL_CALL(detect)
SUTRA_SDK_OPTIONAL_CALL(doctor)
#undef SUTRA_SDK_OPTIONAL_CALL

inline void free_c_string(char* text) noexcept {
    std::free(text);
}

/// What the dispatcher said it understands (plugin_abi.h), kept for the module's lifetime; empty
/// under a dispatcher that predates host_features (then only the first version 1's fields).
inline std::string& host_features_text() {
    static std::string text;
    return text;
}

inline void keep_host_features(const char* json, std::size_t len) noexcept {
    try {
        host_features_text().assign(json, len);
    } catch (...) {
        host_features_text().clear(); // as if never told: the first version 1's fields
    }
}

/// Whether the dispatcher named `name` in its `list` ("decode", "actions", "result",
/// "options"). Reads the dispatcher's own compact form, whose names need no escapes.
inline bool host_understands(std::string_view list, std::string_view name) {
    const std::string& text = host_features_text();
    const std::string key = "\"" + std::string(list) + "\":[";
    const std::size_t begin = text.find(key);
    if (begin == std::string::npos) return false;
    const std::size_t end = text.find(']', begin);
    if (end == std::string::npos) return false;
    const std::string quoted = "\"" + std::string(name) + "\"";
    const std::size_t at = text.find(quoted, begin + key.size());
    return at != std::string::npos && at < end;
}

template <class Adapter> const sutra_plugin_v1* descriptor() noexcept {
    static const sutra_plugin_v1 d = {
        SUTRA_PLUGIN_ABI_VERSION,
        static_cast<std::uint32_t>(sizeof(sutra_plugin_v1)),
        Adapter::name,
        Adapter::description,
        &call_decode<Adapter>,
        &call_encode<Adapter>,
        &call_install<Adapter>,
        &call_uninstall<Adapter>,
        &call_detect<Adapter>,
        &call_doctor<Adapter>,
        &free_c_string,
        &keep_host_features,
    };
    return &d;
}

} // namespace sutra::sdk

/// Exports `sutra_plugin_entry` for Class. Use once per module, at namespace scope.
#define SUTRA_DEFINE_PLUGIN(Class)                                                                 \
    extern "C" SUTRA_PLUGIN_EXPORT const sutra_plugin_v1* sutra_plugin_entry(void) {               \
        return ::sutra::sdk::descriptor<Class>();                                                  \
    }
