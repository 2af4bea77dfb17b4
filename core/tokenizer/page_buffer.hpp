#pragma once
// Scratch memory for the big arrays of one long piece's merge. Fresh pages are costly to touch
// on virtual machines (a fault per 4 KiB page took most of a 4 MB piece's merge time), so a
// buffer of 2 MiB or more is an anonymous mapping that asks for transparent huge pages: a fault
// per 2 MiB where the kernel allows it (the "madvise" setting, the usual default). Contents are
// not preserved across reserve().

#include <cstddef>

namespace sutra::core::tokenizer {

class PageBuffer {
public:
    PageBuffer() = default;
    PageBuffer(const PageBuffer&) = delete;
    PageBuffer& operator=(const PageBuffer&) = delete;
    ~PageBuffer();

    /// At least `bytes` of writable memory, uninitialized; the same memory while it is big
    /// enough. Throws std::bad_alloc when there is none.
    void* reserve(std::size_t bytes);
    void* data() const { return m_data; }

private:
    void release();
    void* m_data = nullptr;
    std::size_t m_size = 0;
    bool m_mapped = false;
};

} // namespace sutra::core::tokenizer
