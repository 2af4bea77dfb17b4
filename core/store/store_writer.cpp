// The streaming writer (StoreWriter in core/store/store.hpp): `sutra exec` output goes to a private
// O_EXCL temp file and into an incremental keyed hash as it arrives, and becomes an entry only at
// commit, through the same metadata write and quota check as a put (core/store/store_sweep.cpp).
#include "core/store/store.hpp"
#include "core/store/store_dir.hpp"
#include "core/store/store_format.hpp"
#include "core/store/store_sweep.hpp"
#include "core/util/posix_io.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::core {

using namespace store_detail;

struct StoreWriter::State {
    StoreOptions options;
    std::string key;
    UniqueFd dir;
    UniqueFd file; ///< the temp file, open for reading and writing
    std::string tmp;
    crypto_generichash_state hash{};
    std::uint64_t seen = 0;
    std::uint64_t retained = 0;
    std::string stopped;
    bool finished = false;
};

namespace {

constexpr std::size_t k_copy_chunk = 1 << 20;
constexpr std::string_view k_stream_prefix = "tmp.stream";

/// When another process's sweep removed our temp file (a writer quiet for over a minute): the
/// bytes are still in our descriptor, so copy them into a fresh exclusive temp and rename that.
std::expected<void, StoreError> copy_into_place(
    int dirfd, const StoreOptions& options, int from, std::uint64_t size, const std::string& name) {
    std::string tmp;
    auto fd = create_temp(dirfd, options, k_stream_prefix, O_WRONLY, tmp);
    if (!fd) return std::unexpected(fd.error());
    bool ok = true;
    std::string buf;
    for (std::uint64_t at = 0; ok && at < size; at += buf.size()) {
        const auto want =
            static_cast<std::size_t>(std::min<std::uint64_t>(k_copy_chunk, size - at));
        ok = pread_all(from, at, want, buf) && buf.size() == want && write_all(fd->get(), buf);
    }
    return install_temp(dirfd, options, std::move(*fd), tmp, name, ok);
}

} // namespace

std::expected<StoreWriter, StoreError> Store::begin_put() const {
    try {
        auto state = std::make_unique<StoreWriter::State>();
        state->options = m_options;
        state->key = m_key;
        auto dirfd = prepare_store_dir(m_options.dir);
        if (!dirfd) return std::unexpected(dirfd.error());
        state->dir = std::move(*dirfd);
        auto file = create_temp(state->dir.get(), m_options, k_stream_prefix, O_RDWR, state->tmp);
        if (!file) return std::unexpected(file.error());
        state->file = std::move(*file);
        crypto_generichash_init(&state->hash,
                                reinterpret_cast<const unsigned char*>(state->key.data()),
                                state->key.size(), k_hash_bytes);
        return StoreWriter(std::move(state));
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

StoreWriter::StoreWriter(std::unique_ptr<State> state) : m_state(std::move(state)) {}
StoreWriter::StoreWriter(StoreWriter&&) noexcept = default;
StoreWriter& StoreWriter::operator=(StoreWriter&& other) noexcept {
    if (this != &other) {
        abort();
        m_state = std::move(other.m_state);
    }
    return *this;
}
StoreWriter::~StoreWriter() {
    abort();
}

bool StoreWriter::append(std::string_view bytes) {
    State& s = *m_state;
    s.seen += bytes.size();
    if (!s.stopped.empty() || s.finished) return false;
    const std::uint64_t room = s.options.max_entry_bytes - s.retained;
    if (bytes.size() > room) {
        bytes = bytes.substr(0, static_cast<std::size_t>(room));
        s.stopped = "quota";
    }
    // Hash exactly what reached the file, so a failed write leaves a consistent prefix.
    while (!bytes.empty()) {
        const ssize_t n = ::write(s.file.get(), bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            s.stopped = n < 0 ? errno_text(errno) : "short write";
            return false;
        }
        crypto_generichash_update(&s.hash, reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<std::size_t>(n));
        s.retained += static_cast<std::uint64_t>(n);
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return s.stopped.empty();
}

std::uint64_t StoreWriter::seen() const {
    return m_state->seen;
}
std::uint64_t StoreWriter::retained() const {
    return m_state->retained;
}
const std::string& StoreWriter::stopped() const {
    return m_state->stopped;
}

void StoreWriter::keep_alive() {
    if (m_state && m_state->file.ok()) ::futimens(m_state->file.get(), nullptr);
}

std::expected<std::string, StoreError> StoreWriter::commit() {
    try {
        State& s = *m_state;
        if (s.finished || !s.file.ok())
            return fail(StoreErrc::io, "store: writer already finished");
        s.finished = true;
        unsigned char hash[k_hash_bytes];
        crypto_generichash_final(&s.hash, hash, sizeof hash);
        const std::string id = id_from_hash(hash);
        const std::string data_name = id + ".data";
        const int dfd = s.dir.get();

        bool ok = !s.options.fsync || ::fsync(s.file.get()) == 0;
        if (ok && ::renameat(dfd, s.tmp.c_str(), dfd, data_name.c_str()) != 0) {
            if (errno != ENOENT)
                ok = false;
            else if (auto copied =
                         copy_into_place(dfd, s.options, s.file.get(), s.retained, data_name);
                     !copied)
                return std::unexpected(copied.error());
        }
        if (!ok) {
            const int err = errno;
            unlink_quietly(dfd, s.tmp);
            return fail(StoreErrc::io, fmt::format("store: cannot write {}/{}: {}", s.options.dir,
                                                   data_name, errno_text(err)));
        }
        s.file.reset();
        if (auto done = finish_entry(dfd, s.options, id, s.retained, store_now(s.options)); !done)
            return std::unexpected(done.error());
        return id;
    } catch (const std::exception& e) {
        return fail(StoreErrc::io, fmt::format("store: {}", e.what()));
    }
}

void StoreWriter::abort() {
    if (!m_state || !m_state->file.ok()) return;
    m_state->file.reset();
    m_state->finished = true;
    unlink_quietly(m_state->dir.get(), m_state->tmp);
}

} // namespace sutra::core
