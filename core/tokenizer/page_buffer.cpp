#include "core/tokenizer/page_buffer.hpp"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace sutra::core::tokenizer {
namespace {

constexpr std::size_t k_huge_page = std::size_t{2} << 20;

} // namespace

PageBuffer::~PageBuffer() {
    release();
}

void PageBuffer::release() {
    if (m_data == nullptr) return;
    if (m_mapped) {
        munmap(m_data, m_size);
    } else {
        std::free(m_data);
    }
    m_data = nullptr;
    m_size = 0;
}

void* PageBuffer::reserve(std::size_t bytes) {
    if (bytes <= m_size) return m_data;
    release();
    if (bytes < k_huge_page) {
        m_data = std::malloc(bytes);
        if (m_data == nullptr) throw std::bad_alloc();
        m_size = bytes;
        m_mapped = false;
        return m_data;
    }
    // Map one huge page more than needed, so that an aligned start fits; the unaligned head
    // and the tail are unmapped again.
    const std::size_t size = (bytes + k_huge_page - 1) / k_huge_page * k_huge_page;
    void* raw = mmap(nullptr, size + k_huge_page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (start + k_huge_page - 1) / k_huge_page * k_huge_page;
    if (aligned > start) munmap(raw, aligned - start);
    if (const std::uintptr_t end = start + size + k_huge_page; end > aligned + size)
        munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
    m_data = reinterpret_cast<void*>(aligned);
    m_size = size;
    m_mapped = true;
    madvise(m_data, m_size, MADV_HUGEPAGE); // advice only: ignored where THP is off
    return m_data;
}

} // namespace sutra::core::tokenizer
