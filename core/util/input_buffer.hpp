#pragma once
// A whole input read into memory at the cost of one copy (the kernel's): `sutra compress` reads
// files and pipes of up to a gigabyte, so how it reads them is most of its time on a large log.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sutra::core {

/// Bytes read from a descriptor into private anonymous memory. Unlike a std::string, the program
/// never fills it with zeros before the read (the kernel hands out pages as the read fills
/// them), it grows without copying (mremap), and a large buffer asks for huge pages, so a 30 MB
/// file costs a handful of page faults instead of thousands. The file
/// itself is never mapped: a file that shrinks or changes while sutra works on it cannot fault
/// (SIGBUS) or change the bytes under the store's hash.
class InputBuffer {
public:
    InputBuffer() = default;
    InputBuffer(const InputBuffer&) = delete;
    InputBuffer& operator=(const InputBuffer&) = delete;
    InputBuffer(InputBuffer&& other) noexcept;
    InputBuffer& operator=(InputBuffer&& other) noexcept;
    ~InputBuffer();

    /// Reads from the descriptor's offset to end of file, or to `limit` bytes and one more:
    /// `more()` then says the input goes on past the limit (the caller streams the rest). A
    /// regular file's size sizes the buffer, so it takes one read; a pipe's buffer doubles.
    /// False on a read or memory error (errno set), with what was read so far kept.
    bool read_from(int fd, std::uint64_t limit);

    std::string_view view() const { return {m_data, m_size}; }
    bool more() const { return m_more; }

private:
    bool reserve(std::size_t capacity);
    void release() noexcept;

    char* m_data = nullptr;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0; ///< bytes mapped at m_data
    bool m_more = false;
};

} // namespace sutra::core
