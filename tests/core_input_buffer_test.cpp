// core/util/input_buffer.hpp: `sutra compress` reads its whole input with it, so every byte of a
// file or a pipe must arrive, whatever its size against the buffer's first guess and its doublings,
// and the limit must say when the input goes on.

#include "core/util/input_buffer.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <random>
#include <string>
#include <thread>
#include <unistd.h>

namespace sutra::core {
namespace {

std::string random_bytes(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
}

// Sizes around the first pipe buffer (64 KiB), a page, and past the huge-page size (2 MiB).
const std::size_t k_sizes[] = {0,     1,     4095,           4096,          65535,
                               65536, 65537, (2u << 20) + 1, (5u << 20) + 7};

struct Pipe {
    int fds[2] = {-1, -1};
    Pipe() { EXPECT_EQ(::pipe(fds), 0); }
    ~Pipe() {
        for (int fd : fds)
            if (fd >= 0) ::close(fd);
    }
};

// Writes `data` into a pipe from another thread, in uneven chunks, and reads it with `limit`.
InputBuffer read_through_pipe(const std::string& data, std::uint64_t limit, bool& ok) {
    // A writer still blocked when the reader stops at its limit gets EPIPE, not a signal.
    struct IgnorePipeSignal {
        void (*before)(int) = std::signal(SIGPIPE, SIG_IGN);
        ~IgnorePipeSignal() { std::signal(SIGPIPE, before); }
    } ignore;
    Pipe p;
    std::thread writer([&] {
        std::size_t at = 0, chunk = 1;
        while (at < data.size()) {
            const std::size_t n = std::min(chunk, data.size() - at);
            const ssize_t w = ::write(p.fds[1], data.data() + at, n);
            if (w <= 0) break; // the reader stopped at its limit
            at += static_cast<std::size_t>(w);
            chunk = chunk * 3 + 7;
        }
        ::close(p.fds[1]);
        p.fds[1] = -1;
    });
    InputBuffer buffer;
    ok = buffer.read_from(p.fds[0], limit);
    ::close(p.fds[0]);
    p.fds[0] = -1;
    writer.join();
    return buffer;
}

InputBuffer read_file(const std::string& path, std::uint64_t limit, bool& ok, off_t skip = 0) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(::lseek(fd, skip, SEEK_SET), skip);
    InputBuffer buffer;
    ok = buffer.read_from(fd, limit);
    ::close(fd);
    return buffer;
}

TEST(InputBuffer, ReadsEveryByteOfARegularFile) {
    test::TempDir dir;
    for (std::size_t n : k_sizes) {
        const std::string data = random_bytes(n, static_cast<unsigned>(n));
        test::write_file(dir.path + "/in", data);
        bool ok = false;
        const InputBuffer b = read_file(dir.path + "/in", 1ull << 30, ok);
        EXPECT_TRUE(ok) << n;
        EXPECT_FALSE(b.more()) << n;
        EXPECT_TRUE(b.view() == data) << n << ": " << b.view().size();
    }
}

TEST(InputBuffer, ReadsFromTheDescriptorsOffset) {
    test::TempDir dir;
    const std::string data = random_bytes(100000, 7);
    test::write_file(dir.path + "/in", data);
    bool ok = false;
    const InputBuffer b = read_file(dir.path + "/in", 1ull << 30, ok, 1000);
    EXPECT_TRUE(ok);
    EXPECT_TRUE(b.view() == std::string_view(data).substr(1000));
}

TEST(InputBuffer, ReadsEveryByteOfAPipeAcrossItsDoublings) {
    for (std::size_t n : k_sizes) {
        const std::string data = random_bytes(n, static_cast<unsigned>(n) + 1);
        bool ok = false;
        const InputBuffer b = read_through_pipe(data, 1ull << 30, ok);
        EXPECT_TRUE(ok) << n;
        EXPECT_FALSE(b.more()) << n;
        EXPECT_TRUE(b.view() == data) << n << ": " << b.view().size();
    }
}

// At the limit the input is whole; one byte past it, `more` says so and what was read is a
// prefix that goes past the limit (the CLI writes it, then copies the rest).
TEST(InputBuffer, TheLimitSaysWhenTheInputGoesOn) {
    test::TempDir dir;
    for (std::uint64_t limit : {1ull, 4096ull, 65536ull, 3ull << 20}) {
        for (std::uint64_t n : {limit, limit + 1, limit * 2 + 5}) {
            const std::string data = random_bytes(n, static_cast<unsigned>(n));
            test::write_file(dir.path + "/in", data);
            bool ok = false;
            const InputBuffer f = read_file(dir.path + "/in", limit, ok);
            EXPECT_TRUE(ok);
            const InputBuffer p = read_through_pipe(data, limit, ok);
            EXPECT_TRUE(ok);
            for (const InputBuffer* b : {&f, &p}) {
                EXPECT_EQ(b->more(), n > limit) << limit << " " << n;
                if (n > limit) {
                    EXPECT_GT(b->view().size(), limit);
                    EXPECT_TRUE(std::string_view(data).starts_with(b->view()));
                } else {
                    EXPECT_TRUE(b->view() == data);
                }
            }
        }
    }
}

TEST(InputBuffer, AReadErrorIsReported) {
    test::TempDir dir;
    const int fd = ::open(dir.path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    InputBuffer b;
    errno = 0;
    EXPECT_FALSE(b.read_from(fd, 1 << 20));
    EXPECT_EQ(errno, EISDIR);
    ::close(fd);
}

TEST(InputBuffer, MovesOwnTheBytes) {
    const std::string data = random_bytes(70000, 3);
    bool ok = false;
    InputBuffer a = read_through_pipe(data, 1 << 20, ok);
    InputBuffer b = std::move(a);
    EXPECT_TRUE(a.view().empty());
    EXPECT_TRUE(b.view() == data);
    InputBuffer c;
    c = std::move(b);
    EXPECT_TRUE(b.view().empty());
    EXPECT_TRUE(c.view() == data);
}

} // namespace
} // namespace sutra::core
