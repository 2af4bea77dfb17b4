// sutra_token_compile IN.tiktoken OUT.sutratok: a build step that parses OpenAI's rank file
// once and writes RankTable's image, which sutra then maps instead of parsing at every start.

#include "core/tokenizer/rank_table.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fputs("usage: sutra_token_compile IN.tiktoken OUT.sutratok\n", stderr);
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.is_open() || text.empty()) {
        std::fprintf(stderr, "sutra_token_compile: cannot read %s\n", argv[1]);
        return 1;
    }
    auto table = sutra::core::tokenizer::RankTable::parse(text);
    if (!table) {
        std::fprintf(stderr, "sutra_token_compile: %s: %s\n", argv[1], table.error().c_str());
        return 1;
    }
    // Write beside the target and rename, so a reader never maps a half-written image.
    const std::string tmp = std::string(argv[2]) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        const std::string_view image = table->image();
        out.write(image.data(), static_cast<std::streamsize>(image.size()));
        if (!out.flush()) {
            std::fprintf(stderr, "sutra_token_compile: cannot write %s\n", tmp.c_str());
            return 1;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, argv[2], ec);
    if (ec) {
        std::fprintf(stderr, "sutra_token_compile: %s\n", ec.message().c_str());
        return 1;
    }
    return 0;
}
