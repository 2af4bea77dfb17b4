// Fuzz target: the JSON path. Input that parses as a JSON object or array is compressed as it
// is; any input is also wrapped into a document (its lines as an array, the whole as a long
// string, or an array of small objects), compact or indented, so every run reaches the JSON
// rewrite. Each view must parse, keep the top-level type and keys, and restore exactly.
// Every input is also read and written by core/util/json_fast.hpp, which must answer exactly as
// nlohmann::json does: the same acceptance, the same tree, the same bytes.

#include "core/compress.hpp"
#include "core/util/json_fast.hpp"
#include "core/util/json_nesting.hpp"

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_support.hpp"
#include <cstddef>
#include <cstdint>
#include <string>

using namespace sutra;
using nlohmann::json;

namespace {

void compress_and_check(const std::string& text, std::uint8_t sel) {
    core::Config config = fuzz::small_config();
    config.store_enabled = (sel & 0x40) == 0;
    core::Request req;
    req.output = text;
    req.tool = "mcp__fuzz__tool";
    req.host = "fuzz";
    static constexpr core::Mode k_modes[] = {core::Mode::automatic, core::Mode::concise,
                                             core::Mode::normal, core::Mode::verbose};
    req.mode = k_modes[sel & 3];
    const core::Response r = core::compress(req, config);
    fuzz::check_response(text, r, config);
}

// Equal values of equal types all the way down (nlohmann's == calls 1, 1u and 1.0 equal).
bool same(const json& a, const json& b) {
    if (a.type() != b.type()) return false;
    if (a.is_object()) {
        if (a.size() != b.size()) return false;
        for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
            if (ia.key() != ib.key() || !same(ia.value(), ib.value())) return false;
        return true;
    }
    if (a.is_array()) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!same(a[i], b[i])) return false;
        return true;
    }
    return a.dump() == b.dump();
}

void check_fast_reader(const std::string& input) {
    // The reader recurses per level; past core/util/json_nesting.hpp's limit it refuses.
    const json expected = core::json_nesting_within(input) ? json::parse(input, nullptr, false)
                                                           : json(json::value_t::discarded);
    const json got = core::parse_json_fast<json>(input, core::k_max_json_nesting);
    if (got.is_discarded() != expected.is_discarded()) __builtin_trap();
    if (!expected.is_discarded() && !same(got, expected)) __builtin_trap();
    const json doc = json::array({input, expected.is_discarded() ? json(nullptr) : expected});
    if (core::dump_json_fast(doc) != doc.dump(-1, ' ', false, json::error_handler_t::replace))
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t sel = data[0];
    const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
    check_fast_reader(input);
    const json parsed = json::parse(input, nullptr, false);
    if (!parsed.is_discarded() && (parsed.is_object() || parsed.is_array()))
        compress_and_check(input, sel);

    const auto lines = fuzz::split(input, '\n');
    json doc;
    switch ((sel >> 2) & 3) {
    case 0:
        doc = json{{"items", lines}, {"count", lines.size()}};
        break;
    case 1:
        doc = json{{"blob", input + input + input}, {"ok", true}, {"n", input.size()}};
        break;
    case 2:
        doc = json::array();
        for (std::size_t i = 0; i < lines.size(); ++i)
            doc.push_back({{"i", i}, {"line", lines[i]}});
        break;
    default:
        doc = json{{"nested", {{"a", lines}, {"b", input}}}, {"null", nullptr}};
        break;
    }
    const int indent = (sel & 0x10) != 0 ? 2 : -1;
    compress_and_check(doc.dump(indent, ' ', false, json::error_handler_t::replace), sel);
    return 0;
}
