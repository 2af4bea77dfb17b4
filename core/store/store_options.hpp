#pragma once
// The one place the loaded configuration becomes the store's options, so that compress, exec
// and restore always open the same store with the same limits.

#include "core/config.hpp"
#include "core/store/store.hpp"

#include <string_view>

namespace sutra::core {

/// The store for `store_namespace` (empty: the default store) under the configured limits.
/// The namespace must already be valid (valid_namespace).
StoreOptions store_options(const Config& config, std::string_view store_namespace = {});

} // namespace sutra::core
