// Loading the encodings and running text through pre-tokenizer and BPE.
//
// Each encoding is loaded lazily into a function-local static (C++ guarantees one
// initialisation even when threads race), and is immutable afterwards, so counting needs no
// locks: the per-call state (PCRE2 match data, BPE scratch) lives on the caller's stack.

#include "core/tokenizer/tokenizer.hpp"

#include "core/tokenizer/bpe.hpp"
#include "core/tokenizer/pretokenize.hpp"
#include "core/tokenizer/rank_table.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#ifndef SUTRA_TOKENIZER_HAS_DATA
#define SUTRA_TOKENIZER_HAS_DATA 0
#endif

namespace sutra::core::tokenizer {
namespace {

namespace fs = std::filesystem;

struct LoadedEncoding {
    RankTable table;
    Pretokenizer pretokenizer;
};
using LoadResult = std::expected<LoadedEncoding, std::string>;

// The token counts of OpenAI's files: a cheap guard against a wrong or truncated file given
// through SUTRA_TOKEN_DATA (the build-time copies are verified by SHA-256 at configure time).
std::size_t expected_token_count(Encoding encoding) {
    return encoding == Encoding::o200k ? 199'998 : 100'256;
}

std::optional<std::string> read_file(const fs::path& path) {
    // One sized read: istreambuf_iterator costs 20 ms on the 3.6 MB o200k file.
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return std::nullopt;
    const std::streamoff size = in.tellg();
    if (size < 0) return std::nullopt;
    std::string text(static_cast<std::size_t>(size), '\0');
    in.seekg(0);
    if (!in.read(text.data(), size)) return std::nullopt;
    return text;
}

// Where the rank files may be: $SUTRA_TOKEN_DATA alone when set; otherwise share/sutra/ in
// the parent of the executable's folder (installed <prefix>/bin/sutra, and every binary one
// folder below the build root), then in its own folder and in its grandparent.
std::vector<fs::path> data_dirs() {
    if (const char* env = std::getenv("SUTRA_TOKEN_DATA"); env != nullptr && *env != '\0')
        return {fs::path(env)};
    std::vector<fs::path> dirs;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return dirs;
    const fs::path bin = exe.parent_path();
    for (const fs::path& base : {bin.parent_path(), bin, bin.parent_path().parent_path()})
        dirs.push_back(base / "share" / "sutra");
    return dirs;
}

LoadResult load_encoding(Encoding encoding) {
    if (!SUTRA_TOKENIZER_HAS_DATA) {
        return std::unexpected("token counting is not available in this build: the rank files (npm "
                               "gpt-tokenizer@4.0.0) could not be fetched when it was configured");
    }
    // Per folder: the image the build compiled (mapped, fast), else the .tiktoken itself.
    const std::string name(encoding_name(encoding));
    const char* env = std::getenv("SUTRA_TOKEN_DATA");
    const bool from_env = env != nullptr && *env != '\0';
    std::optional<RankTable> table;
    std::string problem;
    for (const fs::path& dir : data_dirs()) {
        std::error_code ec;
        if (fs::exists(dir / (name + ".sutratok"), ec)) {
            auto mapped = RankTable::map_image(dir / (name + ".sutratok"));
            if (mapped) {
                table.emplace(std::move(*mapped));
                break;
            }
            problem = name + ".sutratok: " + mapped.error();
        }
        if (auto text = read_file(dir / (name + ".tiktoken"))) {
            auto parsed = RankTable::parse(*text);
            if (!parsed) return std::unexpected(name + ".tiktoken: " + parsed.error());
            table.emplace(std::move(*parsed));
            break;
        }
    }
    if (!table) {
        if (!problem.empty()) return std::unexpected(problem);
        return std::unexpected(name + ".tiktoken not found " +
                               (from_env ? std::string("in $SUTRA_TOKEN_DATA")
                                         : std::string("in share/sutra/ beside the executable")));
    }
    if (table->size() != expected_token_count(encoding)) {
        return std::unexpected(name + ": " + std::to_string(table->size()) + " tokens, expected " +
                               std::to_string(expected_token_count(encoding)));
    }
    auto pretokenizer = Pretokenizer::create(encoding);
    if (!pretokenizer) return std::unexpected(pretokenizer.error());
    return LoadedEncoding{std::move(*table), std::move(*pretokenizer)};
}

const LoadResult& instance(Encoding encoding) {
    if (encoding == Encoding::o200k) {
        static const LoadResult o200k = load_encoding(Encoding::o200k);
        return o200k;
    }
    static const LoadResult cl100k = load_encoding(Encoding::cl100k);
    return cl100k;
}

} // namespace

std::string_view encoding_name(Encoding encoding) {
    return encoding == Encoding::o200k ? "o200k_base" : "cl100k_base";
}

std::optional<Encoding> parse_encoding(std::string_view name) {
    if (name == "o200k" || name == "o200k_base") return Encoding::o200k;
    if (name == "cl100k" || name == "cl100k_base") return Encoding::cl100k;
    return std::nullopt;
}

bool has_rank_data() {
    return SUTRA_TOKENIZER_HAS_DATA != 0;
}

std::expected<void, std::string> load(Encoding encoding) {
    const LoadResult& loaded = instance(encoding);
    if (!loaded) return std::unexpected(loaded.error());
    return {};
}

std::expected<std::size_t, std::string> count_tokens(std::string_view text, Encoding encoding) {
    const LoadResult& loaded = instance(encoding);
    if (!loaded) return std::unexpected(loaded.error());
    std::string storage;
    PieceCursor cursor(loaded->pretokenizer, sanitize_utf8(text, storage));
    BytePairEncoder bpe(loaded->table);
    std::size_t total = 0;
    while (const auto piece = cursor.next()) total += bpe.count(*piece);
    return total;
}

std::size_t chunk_boundary(std::string_view text) {
    // A piece can run through a newline only into more whitespace or, in o200k, into '/'
    // (` ?[^\s\p{L}\p{N}]+[\r\n/]*`); the letter and number alternatives may not start with
    // '\r' or '\n'. So "\n" followed by [A-Za-z0-9] always separates two pieces.
    const auto alnum = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    };
    for (std::size_t i = text.size(); i-- > 1;) {
        if (text[i - 1] == '\n' && alnum(text[i])) return i;
    }
    return 0;
}

std::expected<std::vector<std::uint32_t>, std::string> encode(std::string_view text,
                                                              Encoding encoding) {
    const LoadResult& loaded = instance(encoding);
    if (!loaded) return std::unexpected(loaded.error());
    std::string storage;
    PieceCursor cursor(loaded->pretokenizer, sanitize_utf8(text, storage));
    BytePairEncoder bpe(loaded->table);
    std::vector<std::uint32_t> ids;
    while (const auto piece = cursor.next()) bpe.encode(*piece, ids);
    return ids;
}

std::expected<std::string, std::string> decode(const std::vector<std::uint32_t>& ids,
                                               Encoding encoding) {
    const LoadResult& loaded = instance(encoding);
    if (!loaded) return std::unexpected(loaded.error());
    std::string out;
    for (const std::uint32_t id : ids) {
        if (id >= loaded->table.size())
            return std::unexpected("token id " + std::to_string(id) + " is not in " +
                                   std::string(encoding_name(encoding)));
        out += loaded->table.token(id);
    }
    return out;
}

} // namespace sutra::core::tokenizer
