#include "core/util/input_buffer.hpp"

#include <algorithm>
#include <cerrno>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace sutra::core {
namespace {

constexpr std::size_t k_first_pipe_capacity = std::size_t{1} << 16;
// Below this a huge page would be mostly empty.
constexpr std::size_t k_huge_page = std::size_t{2} << 20;

std::size_t page_rounded(std::size_t n) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return (n + page - 1) / page * page;
}

} // namespace

InputBuffer::InputBuffer(InputBuffer&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)),
      m_capacity(std::exchange(other.m_capacity, 0)), m_more(std::exchange(other.m_more, false)) {}

InputBuffer& InputBuffer::operator=(InputBuffer&& other) noexcept {
    if (this != &other) {
        release();
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_capacity = std::exchange(other.m_capacity, 0);
        m_more = std::exchange(other.m_more, false);
    }
    return *this;
}

InputBuffer::~InputBuffer() {
    release();
}

void InputBuffer::release() noexcept {
    if (m_data) ::munmap(m_data, m_capacity);
    m_data = nullptr;
    m_size = m_capacity = 0;
}

// Maps `capacity` bytes (page-rounded), keeping what was read: mremap moves pages, never bytes.
bool InputBuffer::reserve(std::size_t capacity) {
    capacity = page_rounded(capacity);
    if (capacity <= m_capacity) return true;
    void* p = m_data ? ::mremap(m_data, m_capacity, capacity, MREMAP_MAYMOVE)
                     : ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    m_data = static_cast<char*>(p);
    m_capacity = capacity;
    // Advice only: where huge pages are off, the buffer works with small ones.
    if (capacity >= k_huge_page) ::madvise(m_data, m_capacity, MADV_HUGEPAGE);
    return true;
}

bool InputBuffer::read_from(int fd, std::uint64_t limit) {
    release();
    m_more = false;
    // One byte past the limit tells an input that goes on from one that ends there.
    const std::uint64_t most = limit + 1;
    struct stat st {};
    std::uint64_t want = k_first_pipe_capacity;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        want = static_cast<std::uint64_t>(st.st_size) + 1; // the spare byte finds end of file
    if (!reserve(static_cast<std::size_t>(std::min(want, most)))) return false;
    while (true) {
        if (m_size == m_capacity) { // full: a pipe, or a file that grew
            // Below `most` here, as reading stops past the limit.
            const std::uint64_t grown =
                std::min<std::uint64_t>(std::uint64_t{m_capacity} * 2, most);
            if (!reserve(static_cast<std::size_t>(grown))) return false;
        }
        const std::size_t room =
            static_cast<std::size_t>(std::min<std::uint64_t>(m_capacity - m_size, most - m_size));
        const ssize_t n = ::read(fd, m_data + m_size, room);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) break;
        m_size += static_cast<std::size_t>(n);
        if (m_size > limit) {
            m_more = true;
            break;
        }
    }
    return true;
}

} // namespace sutra::core
