// Fuzz target: restore arguments. Three fixed originals are stored once; each input is either
// a core::restore query (mode, id, range, query and bound taken from the bytes) or a `sutra
// restore` command line (arguments split on NUL, "@ID" standing for a stored id) run in-process.
// Checked: a page is exactly the original's bytes [begin, end) within the bound, following
// `next` reproduces the whole requested range, search matches are real, and the CLI exits 0/1/2
// printing nothing on error and the exact original for --all.

#include "core/restore.hpp"
#include "core/store/store.hpp"
#include "host/cli/cli.hpp"

#include "fuzz/fuzz_support.hpp"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace sutra;

namespace sutra::host {
// cli_misc.cpp (which also holds the other subcommands) is not linked into this target.
void print_error(const std::string& message) {
    std::fprintf(stderr, "sutra: error: %s\n", message.c_str());
}
} // namespace sutra::host

namespace {

struct Stored {
    std::string id;
    std::string bytes;
};

const std::vector<Stored>& originals() {
    static const std::vector<Stored> all = [] {
        std::vector<Stored> out;
        std::string log;
        for (int i = 0; i < 400; ++i)
            log += "line " + std::to_string(i) + (i % 37 == 0 ? " error: boom\n" : " ok\n");
        std::string long_line(70000, 'x');
        long_line += "\n\xc3\xa9t\xc3\xa9 end";
        for (const std::string& bytes : {log, long_line, std::string("no newline at all")}) {
            core::StoreOptions so;
            so.dir = fuzz::small_config().store_dir;
            auto store = core::Store::open(so);
            SUTRA_FUZZ_CHECK(store.has_value(), "cannot open the store");
            auto id = store->put(bytes);
            SUTRA_FUZZ_CHECK(id.has_value(), "cannot store an original");
            out.push_back({*id, bytes});
        }
        return out;
    }();
    return all;
}

std::uint64_t take_u64(const std::uint8_t*& data, std::size_t& size, int width) {
    std::uint64_t v = 0;
    for (int i = 0; i < width && size > 0; ++i, ++data, --size) v = (v << 8) | *data;
    return v;
}

void check_page(const core::RestoreResult& r, const std::string& original, std::uint64_t bound) {
    SUTRA_FUZZ_CHECK(r.begin <= r.end && r.end <= original.size(), "page range");
    SUTRA_FUZZ_CHECK(r.text == original.substr(r.begin, r.end - r.begin), "page bytes differ");
    SUTRA_FUZZ_CHECK(r.text.size() <= bound, "page over the bound");
    SUTRA_FUZZ_CHECK(r.total_bytes == original.size(), "total bytes");
}

void fuzz_core(const std::uint8_t* data, std::size_t size, std::uint8_t sel) {
    const auto& stored = originals();
    core::RestoreQuery q;
    q.mode = static_cast<core::RestoreMode>(sel & 3);
    const Stored* known = &stored[(sel >> 2) % stored.size()];
    const int width = (sel & 0x20) != 0 ? 8 : 2; // mostly small numbers, sometimes any
    q.start = take_u64(data, size, width);
    q.end = take_u64(data, size, width);
    q.max_bytes = take_u64(data, size, width);
    const std::string rest(reinterpret_cast<const char*>(data), size);
    if ((sel & 0x40) != 0) {
        q.id = rest; // a hostile id: must be refused before any path is built
    } else {
        q.id = known->id;
        q.query = rest;
    }
    const auto result = core::restore(*core::Store::open(fuzz::store_options()), q);
    if (!core::valid_id(q.id)) {
        SUTRA_FUZZ_CHECK(!result && result.error().code == core::RestoreError::Code::bad_id,
                         "an invalid id was not refused as bad_id");
        return;
    }
    if (q.id != known->id) {
        SUTRA_FUZZ_CHECK(!result, "an unknown id was served");
        return;
    }
    if (!result) return; // bad ranges and queries are errors with a message
    const std::string& original = known->bytes;
    const std::uint64_t bound = std::clamp<std::uint64_t>(q.max_bytes, 1, core::k_restore_hard_cap);
    if (q.mode == core::RestoreMode::search) {
        SUTRA_FUZZ_CHECK(result->matches.size() <= 20, "over 20 matches");
        SUTRA_FUZZ_CHECK(result->matches.size() <= 1 || result->text.size() <= bound,
                         "search text over the bound");
        for (const auto& m : result->matches)
            SUTRA_FUZZ_CHECK(original.compare(m.offset, q.query.size(), q.query) == 0,
                             "a search match that is not there");
        return;
    }
    check_page(*result, original, bound);
    if (q.mode == core::RestoreMode::bytes) SUTRA_FUZZ_CHECK(result->begin == q.start, "begin");
    // Following `next` page by page reproduces the requested range exactly.
    std::string joined = result->text;
    const std::uint64_t first = result->begin;
    std::uint64_t last = result->end;
    auto next = result->next;
    for (int pages = 0; next && pages < 200; ++pages) {
        SUTRA_FUZZ_CHECK(next->first == last, "next does not continue the page");
        core::RestoreQuery more;
        more.id = q.id;
        more.mode = core::RestoreMode::bytes;
        more.start = next->first;
        more.end = next->second;
        more.max_bytes = q.max_bytes;
        auto page = core::restore(*core::Store::open(fuzz::store_options()), more);
        SUTRA_FUZZ_CHECK(page.has_value(), "the next range was refused");
        check_page(*page, original, bound);
        joined += page->text;
        last = page->end;
        next = page->next;
    }
    if (!next) SUTRA_FUZZ_CHECK(joined == original.substr(first, last - first), "pages differ");
}

void fuzz_cli(const std::uint8_t* data, std::size_t size) {
    const auto& stored = originals();
    std::vector<std::string> args =
        fuzz::split(std::string_view(reinterpret_cast<const char*>(data), size), '\0');
    const Stored* named = nullptr;
    for (auto& a : args)
        if (a.size() == 4 && a.rfind("@ID", 0) == 0) {
            named = &stored[static_cast<unsigned char>(a[3]) % stored.size()];
            a = named->id;
        }
    int status = -1;
    const std::string out = fuzz::with_stdio({}, [&] { status = host::cmd_restore(args); });
    SUTRA_FUZZ_CHECK(status == 0 || status == 1 || status == 2, std::to_string(status));
    if (status != 0) SUTRA_FUZZ_CHECK(out.empty(), "output printed on an error");
    if (status == 0 && named && std::find(args.begin(), args.end(), "--all") != args.end())
        SUTRA_FUZZ_CHECK(out == named->bytes, "--all is not the original");
    if (status == 0 && named)
        SUTRA_FUZZ_CHECK(named->bytes.find(out) != std::string::npos ||
                             std::find(args.begin(), args.end(), "--search") != args.end(),
                         "restored bytes that are not in the original");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t sel = data[0];
    if ((sel & 0x80) != 0)
        fuzz_cli(data + 1, size - 1);
    else
        fuzz_core(data + 1, size - 1, sel);
    return 0;
}
