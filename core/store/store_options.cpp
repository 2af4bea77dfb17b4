#include "core/store/store_options.hpp"

namespace sutra::core {

StoreOptions store_options(const Config& config, std::string_view store_namespace) {
    StoreOptions so;
    so.dir = resolve_store_dir(config);
    if (!store_namespace.empty()) so.dir += "/ns/" + std::string(store_namespace);
    so.max_entry_bytes = config.max_entry_bytes;
    so.max_total_bytes = config.max_total_bytes;
    so.max_entries = config.max_entries;
    so.ttl_seconds = config.ttl_seconds;
    so.fsync = config.fsync;
    return so;
}

} // namespace sutra::core
