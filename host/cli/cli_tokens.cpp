// `sutra tokens`: the exact o200k_base (or cl100k_base) token count of a file or of stdin.
//
// Input is counted in chunks cut at core::tokenizer::chunk_boundary, so memory stays bounded
// on large files while the total equals counting the whole input at once.

#include "core/tokenizer/tokenizer.hpp"
#include "host/cli/cli.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace sutra::host {
namespace {

namespace tok = core::tokenizer;

constexpr const char* k_tokens_usage =
    "usage: sutra tokens [FILE] [--encoding o200k|cl100k]\n"
    "  print the exact token count of FILE (or standard input); default encoding o200k\n";

constexpr std::size_t k_chunk_bytes = 1 << 20;

} // namespace

int cmd_tokens(const Args& args) {
    std::string file;
    tok::Encoding encoding = tok::Encoding::o200k;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-h" || a == "--help") {
            std::fputs(k_tokens_usage, stdout);
            return 0;
        }
        if (a == "--encoding" || a.starts_with("--encoding=")) {
            std::string name;
            if (a == "--encoding") {
                if (i + 1 >= args.size()) {
                    print_error("--encoding needs a value");
                    return 2;
                }
                name = args[++i];
            } else {
                name = a.substr(std::strlen("--encoding="));
            }
            const auto parsed = tok::parse_encoding(name);
            if (!parsed) {
                print_error("--encoding takes o200k or cl100k");
                return 2;
            }
            encoding = *parsed;
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            print_error("tokens: unknown option '" + a + "'");
            std::fputs(k_tokens_usage, stderr);
            return 2;
        } else if (file.empty()) {
            file = a;
        } else {
            print_error("tokens takes one FILE");
            return 2;
        }
    }

    // Load first, so an unavailable encoding is reported before any input is read.
    if (auto loaded = tok::load(encoding); !loaded) {
        print_error("tokens: " + loaded.error());
        return 2;
    }

    const int fd = open_input(file);
    if (fd < 0) return 1;
    std::string pending;
    std::size_t scanned = 0; // pending[0, scanned) is known to hold no cut
    std::size_t total = 0;
    std::string buf(1 << 16, '\0');
    bool ok = true;
    while (true) {
        const ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            print_error("reading input: " + std::string(std::strerror(errno)));
            ok = false;
            break;
        }
        if (n == 0) break;
        pending.append(buf.data(), static_cast<std::size_t>(n));
        if (pending.size() < k_chunk_bytes) continue;
        // Without a safe cut (one huge line) the chunk grows until one appears; only the new
        // bytes are searched, so that stays linear.
        const std::size_t from = scanned > 0 ? scanned - 1 : 0;
        std::size_t cut = tok::chunk_boundary(std::string_view(pending).substr(from));
        if (cut == 0) {
            scanned = pending.size();
            continue;
        }
        cut += from;
        total += *tok::count_tokens(std::string_view(pending).substr(0, cut), encoding);
        pending.erase(0, cut);
        scanned = 0;
    }
    if (fd != STDIN_FILENO) ::close(fd);
    if (!ok) return 1;
    total += *tok::count_tokens(pending, encoding);
    std::printf("%zu\n", total);
    return 0;
}

} // namespace sutra::host
