// The on-disk shape of an entry (core/store/store_format.hpp): ids checked before any path is
// built, metadata read bounded and O_NOFOLLOW, and written, like the data, through
// core/store/store_dir.cpp.
#include "core/store/store_format.hpp"

#include "core/store/store_dir.hpp"
#include "core/util/posix_io.hpp"

#include <nlohmann/json.hpp>
#include <sodium.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <fcntl.h>
#include <limits>
#include <optional>
#include <sys/stat.h>

namespace sutra::core {

bool valid_id(std::string_view id) {
    if (id.size() != 3 + 2 * store_detail::k_hash_bytes || id.substr(0, 3) != "su_") return false;
    return std::all_of(id.begin() + 3, id.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

namespace store_detail {

namespace {

constexpr std::size_t k_max_meta_bytes = 4096;

std::optional<Meta> parse_meta(std::string_view text) {
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object()) return std::nullopt;
    const auto v = json.find("v");
    const auto size = json.find("size");
    const auto created = json.find("created");
    const auto expires = json.find("expires");
    if (v == json.end() || size == json.end() || created == json.end() || expires == json.end())
        return std::nullopt;
    if (!v->is_number_integer() || v->get<std::int64_t>() != 1) return std::nullopt;
    if (!size->is_number_unsigned() || !created->is_number_integer() ||
        !expires->is_number_integer())
        return std::nullopt;
    return Meta{size->get<std::uint64_t>(), created->get<std::int64_t>(),
                expires->get<std::int64_t>()};
}

} // namespace

std::string id_from_hash(const unsigned char (&hash)[k_hash_bytes]) {
    char hex[2 * k_hash_bytes + 1];
    sodium_bin2hex(hex, sizeof hex, hash, k_hash_bytes);
    return std::string("su_") + hex;
}

std::pair<std::string_view, std::string_view> entry_name(std::string_view name) {
    if (name.size() != 35 + 5) return {};
    const auto id = name.substr(0, 35);
    const auto ext = name.substr(35);
    if (!valid_id(id) || (ext != ".data" && ext != ".meta")) return {};
    return {id, ext};
}

std::int64_t store_now(const StoreOptions& options) {
    return options.clock ? options.clock() : static_cast<std::int64_t>(std::time(nullptr));
}

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum)) return sum;
    return b > 0 ? std::numeric_limits<std::int64_t>::max()
                 : std::numeric_limits<std::int64_t>::min();
}

std::int64_t saturating_age(std::int64_t now, std::int64_t then) {
    std::int64_t age = 0;
    if (!__builtin_sub_overflow(now, then, &age)) return age;
    return then < 0 ? std::numeric_limits<std::int64_t>::max()
                    : std::numeric_limits<std::int64_t>::min();
}

MetaRead read_meta(int dirfd, std::string_view id, Meta& meta) {
    const std::string name = std::string(id) + ".meta";
    UniqueFd fd(::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!fd.ok()) {
        if (errno == ENOENT) return MetaRead::missing;
        return errno == ELOOP ? MetaRead::bad : MetaRead::io;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return MetaRead::io;
    if (!S_ISREG(st.st_mode) || st.st_size > static_cast<off_t>(k_max_meta_bytes))
        return MetaRead::bad;
    std::string text;
    if (!pread_all(fd.get(), 0, k_max_meta_bytes, text)) return MetaRead::io;
    const auto parsed = parse_meta(text);
    if (!parsed) return MetaRead::bad;
    meta = *parsed;
    return MetaRead::ok;
}

std::expected<void, StoreError> write_meta(int dirfd,
                                           const StoreOptions& options,
                                           const std::string& id,
                                           std::uint64_t size,
                                           std::int64_t t) {
    const nlohmann::json meta = {{"v", 1},
                                 {"size", size},
                                 {"created", t},
                                 {"expires", saturating_add(t, options.ttl_seconds)}};
    if (auto written = write_atomically(dirfd, options, id, id + ".meta", meta.dump()); !written) {
        unlink_quietly(dirfd, id + ".data");
        return std::unexpected(written.error());
    }
    return {};
}

void remove_entry(int dirfd, std::string_view id) {
    unlink_quietly(dirfd, std::string(id) + ".meta");
    unlink_quietly(dirfd, std::string(id) + ".data");
}

} // namespace store_detail

} // namespace sutra::core
