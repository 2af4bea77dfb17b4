// One ceiling for every JSON view (core/rewrite/json_rewrite.cpp's fit_ceiling, core/compress.cpp):
// large flat maps and scalar arrays fold their middles, key items (critical words, eslint's
// `"severity": 2` entries) stay as far as the ceiling allows, evenly spread and counted by the
// markers when they cannot all fit, and a JSON document after lines of text (stderr before a
// tool's JSON) is rewritten in place. Generated documents of every kind are checked through
// core::compress: the view is within the ceiling, it is JSON of the original's top-level type
// (after the text, for the mixed case), every elision restores from the store to exactly its
// bytes, and putting each elided range back where its marker sits gives the original's value.

#include "core/compress.hpp"
#include "core/rewrite/json_rewrite.hpp"
#include "core/rewrite/marker.hpp"
#include "core/rewrite/shape.hpp"
#include "core/store/store.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <string>
#include <vector>

namespace sutra::core {
namespace {

using nlohmann::ordered_json;
using test::TempDir;

Response run(const std::string& input, const Config& c, int exit_code = 1) {
    Request req;
    req.output = input;
    req.exit_code = exit_code;
    return compress(req, c);
}

std::size_t count(std::string_view s, std::string_view needle) {
    std::size_t n = 0;
    for (std::size_t at = s.find(needle); at != std::string_view::npos;
         at = s.find(needle, at + needle.size()))
        ++n;
    return n;
}

// Every property of a JSON view of `input`, whose document starts at `json_at`. Returns the
// parsed view of the document (null when the view is not JSON).
ordered_json
check_json_view(const std::string& input, std::size_t json_at, const Response& r, const Config& c) {
    EXPECT_TRUE(r.rewritten) << r.passthrough;
    if (!r.rewritten) return nullptr;
    EXPECT_EQ(r.shape, Shape::json);
    EXPECT_LE(r.view.size(), c.max_view_bytes);
    EXPECT_LT(r.view.size(), input.size());
    // The text before the document is kept as it is.
    EXPECT_EQ(r.view.substr(0, json_at), input.substr(0, json_at));

    StoreOptions so;
    so.dir = resolve_store_dir(c);
    auto store = Store::open(so);
    EXPECT_TRUE(store.has_value());
    if (!store) return nullptr;
    MarkerContext ctx;
    ctx.id = r.id;
    ctx.ttl_seconds = c.ttl_seconds;

    // Walk the view marker by marker: each range restores to its bytes, and the view with every
    // marker replaced by its range is the original document, up to formatting.
    const std::string_view view = r.view;
    const bool compact = view.find('\n', json_at) == std::string_view::npos;
    std::string rebuilt;
    std::size_t pos = json_at;
    std::uint64_t last_end = 0;
    const std::vector<std::string> texts = text_marker_texts(r.elisions, ctx);
    std::size_t marker = 0;
    for (const Elision& e : r.elisions) {
        EXPECT_LT(e.begin, e.end);
        EXPECT_GE(e.begin, std::max<std::uint64_t>(last_end, json_at));
        EXPECT_LE(e.end, input.size());
        last_end = e.end;
        const std::string range = input.substr(e.begin, e.end - e.begin);
        auto bytes = store->read(*r.id, e.begin, e.end);
        EXPECT_TRUE(bytes && *bytes == range);
        std::string needle = json_escape(texts.at(marker++));
        if (e.reason == Reason::array_items) needle = '"' + needle + '"';
        if (e.reason == Reason::object_members)
            needle = '"' + needle + '"' + (compact ? ":null" : ": null");
        const std::size_t at = view.find(needle, pos);
        EXPECT_NE(at, std::string_view::npos) << needle;
        if (at == std::string_view::npos) return nullptr;
        rebuilt += view.substr(pos, at - pos);
        rebuilt += range;
        pos = at + needle.size();
    }
    rebuilt += view.substr(pos);

    // Unordered for the comparisons: ordered_json inserts in linear time, which 10^5 keys
    // cannot afford.
    const nlohmann::json original = nlohmann::json::parse(input.substr(json_at));
    ordered_json parsed;
    try {
        parsed = ordered_json::parse(view.substr(json_at)); // within the ceiling: small
    } catch (const std::exception& e) {
        ADD_FAILURE() << "view is not JSON: " << e.what() << "\n" << view.substr(0, 1000);
        return nullptr;
    }
    EXPECT_EQ(parsed.type(), original.type());
    try {
        EXPECT_TRUE(nlohmann::json::parse(rebuilt) == original) << "rebuilt view differs";
    } catch (const std::exception& e) {
        ADD_FAILURE() << "rebuilt view is not JSON: " << e.what();
    }
    return parsed;
}

// ---- generated documents --------------------------------------------------------------------

std::string flat_map(std::size_t members, std::size_t error_at) {
    std::string out = "{";
    for (std::size_t i = 0; i < members; ++i) {
        if (i > 0) out += ",";
        out += "\"4.9." + std::to_string(i) + "-dev.2023\":\"";
        out += i == error_at ? "publish failed: E403"
                             : "2023-01-0" + std::to_string(i % 9) + "T12:00:00.000Z";
        out += "\"";
    }
    return out + "}";
}

std::string scalar_array(std::size_t items) {
    std::string out = "[";
    for (std::size_t i = 0; i < items; ++i) {
        if (i > 0) out += ",";
        out += i % 3 == 0 ? std::to_string(i * 7919) : "\"id-" + std::to_string(i) + "\"";
    }
    return out + "]";
}

// eslint's shape: records, every `every`-th of them an error entry (`"severity":2`).
std::string records(std::size_t n, std::size_t every, bool pretty) {
    const std::string nl = pretty ? "\n    " : "";
    std::string out = "[";
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) out += ",";
        out += nl + "{\"ruleId\":\"no-var\",\"severity\":" + (i % every == 0 ? "2" : "1") +
               ",\"message\":\"Unexpected var, use let or const instead.\",\"line\":" +
               std::to_string(i + 1) +
               ",\"column\":1,\"nodeType\":\"VariableDeclaration\",\"fix\":{\"range\":[" +
               std::to_string(i * 40) + "," + std::to_string(i * 40 + 3) + "],\"text\":\"let\"}}";
    }
    return out + (pretty ? "\n]" : "]");
}

// Nested objects `depth` deep, each level with a few members, a long string and an array.
std::string deep(std::size_t depth, std::mt19937& rng) {
    std::string out;
    for (std::size_t d = 0; d < depth; ++d) {
        out += "{\"level\":" + std::to_string(d) + ",\"note\":\"" +
               std::string(100 + rng() % 900, static_cast<char>('a' + d % 26)) +
               "\",\"list\":" + scalar_array(5 + rng() % 30) + ",\"child\":";
    }
    out += "null";
    out += std::string(depth, '}');
    return out;
}

std::string long_strings(std::size_t n, std::size_t size) {
    std::string out = "{\"log\":[";
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) out += ",";
        std::string body;
        while (body.size() < size) body += "step " + std::to_string(body.size()) + " ok; ";
        out += "\"" + body + "\"";
    }
    return out + "],\"summary\":\"" + std::string(size, 's') + "\"}";
}

TEST(JsonCeiling, GeneratedDocumentsFitRestoreAndStayJson) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(1515);
    const std::string warning = "(node:1211) ExperimentalWarning: a stderr line\n"
                                "(Use `node --trace-warnings ...` to show where)\n";
    struct Case {
        std::string name;
        std::string text;
        std::size_t json_at = 0;
    };
    std::vector<Case> cases = {
        {"flat map under a key",
         "{\"name\":\"typescript\",\"time\":" + flat_map(100000, 55555) + ",\"v\":\"5.0\"}"},
        {"flat map at the top", flat_map(100000, 7)},
        {"scalar array", scalar_array(100000)},
        {"scalar array under a key", "{\"ids\":" + scalar_array(100000) + "}"},
        {"records", records(20000, 3, false)},
        {"records, pretty", records(5000, 1, true) + "\n"},
        {"deep", deep(200, rng)},
        {"long strings", long_strings(300, 6000)},
        {"one huge string", "[\"" + std::string(3u << 20, 'x') + "\"]"},
        {"text then records", warning + records(3000, 2, false) + "\n", warning.size()},
        {"text then a flat map", warning + flat_map(100000, 3) + "\n", warning.size()},
        {"text then pretty JSON",
         "npm warn config production\n{\n  \"ids\": " + scalar_array(50000) + "\n}\n", 27},
    };
    for (const auto& k : cases) {
        SCOPED_TRACE(k.name);
        ASSERT_EQ(json_after_text(k.text), k.json_at == 0 ? std::string_view::npos : k.json_at);
        // Under the sanitizers, the failing run's alone (the plain pass runs both).
        for (const int exit_code : {0, 1}) {
            if (test::k_sanitized && exit_code == 0) continue;
            const Response r = run(k.text, c, exit_code);
            const ordered_json view = check_json_view(k.text, k.json_at, r, c);
            if (testing::Test::HasFailure()) FAIL() << r.view.substr(0, 3000);
        }
    }
}

// A top-level object keeps every key when the view fits; its members fold only when the keys
// alone are over the ceiling.
TEST(JsonCeiling, TopLevelKeysStayWhenTheyFit) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    const std::string doc = "{\"name\":\"typescript\",\"time\":" + flat_map(3478, 100000) +
                            ",\"versions\":" + scalar_array(3478) + ",\"readme\":\"" +
                            std::string(50000, 'r') + "\"}";
    const Response r = run(doc, c);
    const ordered_json view = check_json_view(doc, 0, r, c);
    ASSERT_TRUE(view.is_object());
    std::vector<std::string> keys;
    for (const auto& [k, v] : view.items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"name", "time", "versions", "readme"}));
    // The flat map folds to its ends around one marker member, within the mode's target.
    EXPECT_LE(view["time"].size(), 8u);
    EXPECT_LE(r.view.size(), 8192u);

    const Response top = run(flat_map(100000, 99990), c);
    const ordered_json folded = check_json_view(flat_map(100000, 99990), 0, top, c);
    ASSERT_TRUE(folded.is_object());
    EXPECT_LT(folded.size(), 100u);
    // The member holding a critical word stays.
    EXPECT_NE(top.view.find("publish failed: E403"), std::string::npos);
}

// More error entries than fit: as many stay as the ceiling allows, spread over the whole array,
// and the markers count the rest; all of them stay when they fit.
TEST(JsonCeiling, ErrorEntriesFillTheCeilingEvenlySpread) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    const std::size_t n = 3000;
    const std::string doc = records(n, 2, false);
    const std::size_t errors = (n + 1) / 2;
    const Response r = run(doc, c);
    const ordered_json view = check_json_view(doc, 0, r, c);
    ASSERT_TRUE(view.is_array());
    std::vector<std::size_t> lines; // of the error entries shown
    for (const auto& item : view)
        if (item.is_object() && item.value("severity", 0) == 2)
            lines.push_back(item["line"].get<std::size_t>());
    // Far more than a target-sized view holds, and the ceiling nearly filled.
    EXPECT_GT(lines.size(), 150u);
    EXPECT_LT(lines.size(), errors);
    EXPECT_GT(r.view.size(), c.max_view_bytes * 3 / 4);
    // Evenly spread (in short runs): each tenth of the array shows about a tenth of them.
    ASSERT_GE(lines.size(), 20u);
    std::vector<std::size_t> tenths(10, 0);
    for (const std::size_t line : lines) ++tenths[std::min<std::size_t>(9, (line - 1) * 10 / n)];
    for (const std::size_t shown : tenths) {
        EXPECT_GT(shown * 20, lines.size()) << shown;
        EXPECT_LT(shown * 20, lines.size() * 3) << shown;
    }
    // Each error is shown or counted by a marker, which says how to restore it.
    std::uint64_t counted = 0;
    for (const auto& e : r.elisions) counted += e.keys;
    EXPECT_EQ(lines.size() + counted, errors);
    EXPECT_NE(r.view.find(" with errors"), std::string::npos);

    // When they fit, every error entry stays, beyond the mode's target.
    const std::string few = records(400, 4, false);
    const Response all = run(few, c);
    const ordered_json shown = check_json_view(few, 0, all, c);
    EXPECT_EQ(count(all.view, "\"severity\":2"), 100u);
    EXPECT_GT(all.view.size(), 8192u);
    for (const auto& e : all.elisions) EXPECT_EQ(e.keys, 0u);
}

// Error records (eslint's spelling, and another tool's) whose whole entries overflow the
// ceiling keep the members that say what and where, in their order, and fold the rest into one
// marker member each; every record stays. When whole records fit, none is trimmed.
TEST(JsonCeiling, ErrorRecordsKeepWhatAndWhereWhenWholeOnesDoNotFit) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(23);
    for (int round = 0; round < 6; ++round) {
        const bool eslint = round % 2 == 0;
        const bool fits_whole = round >= 4;
        const std::size_t n = fits_whole ? 120 : 330 + rng() % 60;
        std::string doc = "{\"tool\":\"lint\",\"results\":[";
        std::vector<std::string> signal; // per record, its what-and-where members as written
        for (std::size_t i = 0; i < n; ++i) {
            if (i > 0) doc += ",";
            const std::string line = std::to_string(1 + rng() % 4000);
            const std::string col = std::to_string(1 + rng() % 120);
            const std::string msg = "Unexpected thing number " + std::to_string(rng() % 1000);
            if (eslint) {
                signal.push_back("{\"ruleId\":\"no-thing\",\"severity\":2,\"message\":\"" + msg +
                                 "\",\"line\":" + line + ",\"column\":" + col);
                doc += signal.back() +
                       ",\"nodeType\":\"Identifier\",\"messageId\":\"thing\","
                       "\"endLine\":" +
                       line + ",\"endColumn\":" + col + ",\"fix\":{\"range\":[" +
                       std::to_string(rng() % 9999) + ",12],\"text\":\"let\"}}";
            } else {
                signal.push_back("{\"file\":\"src/m" + std::to_string(i % 30) +
                                 ".py\",\"line\":" + line + ",\"col\":" + col +
                                 ",\"level\":\"error\",\"message\":\"" + msg + "\"");
                doc += signal.back() + ",\"fingerprint\":\"" + std::to_string(rng()) +
                       std::to_string(rng()) +
                       "\",\"snippet\":{\"before\":\"x = 1\",\"after\":"
                       "\"y = 2\"},\"docs\":\"https://example.org/r/" +
                       std::to_string(i) + "\"}";
            }
        }
        doc += "],\"summary\":{\"errors\":" + std::to_string(n) + "}}";
        ASSERT_EQ(fits_whole, doc.size() < c.max_view_bytes) << round;
        const Response r = run(doc, c);
        if (fits_whole && !r.rewritten) continue; // nothing to elide: every record whole
        const ordered_json view = check_json_view(doc, 0, r, c);
        ASSERT_TRUE(view.is_object()) << round;
        for (std::size_t i = 0; i < n; ++i)
            EXPECT_NE(r.view.find(signal[i]), std::string::npos) << round << " record " << i;
        const std::size_t trimmed = count(r.view, "]\":null}");
        if (fits_whole)
            EXPECT_EQ(trimmed, 0u) << round;
        else
            EXPECT_GT(trimmed, n * 9 / 10) << round;
    }
}

// The language server protocol's spelling of where (pyright --outputjson: "range": {"start":
// {"line": 12, "character": 11}, …}) is a record's place: before, every record shown had its
// range folded into a marker member no shorter than the range.
TEST(JsonCeiling, ErrorRecordsKeepTheirRange) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(29);
    const std::size_t n = 700;
    std::string doc = "{\"version\":\"1.1.414\",\"generalDiagnostics\":[";
    std::vector<std::string> places;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) doc += ",";
        const std::string line = std::to_string(rng() % 4000), col = std::to_string(rng() % 99);
        places.push_back("\"range\":{\"start\":{\"line\":" + line + ",\"character\":" + col +
                         "},\"end\":{\"line\":" + line + ",\"character\":" + col + "}}");
        doc += "{\"file\":\"/p/pkg/mod" + std::to_string(i) +
               ".py\",\"severity\":\"error\",\"message\":\"Type \\\"float\\\" is not "
               "assignable to return type \\\"int\\\"\",\"fingerprint\":\"" +
               std::to_string(rng()) + std::to_string(rng()) + "\"," + places.back() +
               ",\"rule\":\"reportReturnType\"}";
    }
    doc += "],\"summary\":{\"errorCount\":" + std::to_string(n) + "}}";
    ASSERT_GT(doc.size(), c.max_view_bytes);
    const Response r = run(doc, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    const ordered_json view = check_json_view(doc, 0, r, c);
    ASSERT_TRUE(view.is_object());
    std::size_t shown = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (r.view.find("/p/pkg/mod" + std::to_string(i) + ".py\"") == std::string::npos) continue;
        ++shown;
        EXPECT_NE(r.view.find(places[i]), std::string::npos) << "record " << i;
    }
    EXPECT_GT(shown, n / 4); // as many as fit, each with its place
}

// A key word in a member's name with an empty value, or inside a counter's name, makes no
// error record: jest --json writes "failing": false, "failureMessages": [] and
// "numPassingAsserts": 1 into every passing test's record. Before, every record counted as an
// error's and 13 of 66 failed tests were in the view; now the passing ones give way first.
TEST(JsonCeiling, PassingRecordsGiveWayToFailedOnes) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(31);
    std::string doc = "{\"numFailedTests\":80,\"testResults\":[";
    std::vector<std::string> failed;
    for (int f = 0; f < 40; ++f) {
        if (f > 0) doc += ",";
        doc += "{\"assertionResults\":[";
        for (int t = 0; t < 25; ++t) {
            if (t > 0) doc += ",";
            const bool fails = t % 12 == 5;
            const std::string title = "case " + std::to_string(f) + "." + std::to_string(t);
            doc += "{\"ancestorTitles\":[\"mod" + std::to_string(f) +
                   "\"],\"duration\":" + std::to_string(rng() % 9) +
                   ",\"failing\":false,\"failureDetails\":[],";
            if (fails) {
                failed.push_back("\"title\":\"" + title + "\"");
                doc += "\"failureMessages\":[\"Error: expect(received).toBe(expected)\\n\\n" +
                       std::string(600, 'x') + "\"],";
            } else {
                doc += "\"failureMessages\":[],";
            }
            doc += "\"fullName\":\"mod " + title +
                   "\",\"numPassingAsserts\":" + std::to_string(fails ? 0 : 1) +
                   ",\"retryReasons\":[],\"status\":\"" + (fails ? "failed" : "passed") + "\"," +
                   "\"title\":\"" + title + "\"}";
        }
        doc += "],\"name\":\"/p/__tests__/mod" + std::to_string(f) + ".test.js\"}";
    }
    doc += "]}";
    ASSERT_GT(doc.size(), c.max_view_bytes);
    const Response r = run(doc, c);
    ASSERT_TRUE(r.rewritten) << r.passthrough;
    const ordered_json view = check_json_view(doc, 0, r, c);
    ASSERT_TRUE(view.is_object());
    for (const std::string& t : failed) EXPECT_NE(r.view.find(t), std::string::npos) << t;
    // At most the first and the last of each file's list: 80 of 920.
    EXPECT_LE(count(r.view, "\"status\":\"passed\""), 80u) << r.view.substr(0, 3000);
}

// eslint's output as agents capture it: a warning on stderr, then the JSON on one line.
TEST(JsonCeiling, JsonAfterTextIsRewrittenInPlace) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    const std::string warning = "(node:1211) ESLintIgnoreWarning: The \".eslintignore\" file is "
                                "no longer supported.\n";
    const std::string doc =
        "[{\"filePath\":\"/src/a.js\",\"messages\":" + records(1500, 10, false) + ",\"source\":\"" +
        std::string(40000, 'v') + "\"}]";
    const std::string input = warning + doc + "\n";
    const Response r = run(input, c);
    const ordered_json view = check_json_view(input, warning.size(), r, c);
    ASSERT_TRUE(view.is_array());
    EXPECT_EQ(view[0]["filePath"], "/src/a.js");
    EXPECT_EQ(count(r.view, "\"severity\":2"), 150u); // all of them: they fit
    for (const auto& e : r.elisions) EXPECT_GE(e.first_line, 2u);

    // Text that outweighs the document, a first line that is the document itself, and a
    // document that does not run to the end are not this shape.
    EXPECT_EQ(json_after_text(std::string(5000, 'w') + "\n[1,2]\n"), std::string_view::npos);
    EXPECT_EQ(json_after_text(doc + "\n"), std::string_view::npos);
    EXPECT_EQ(json_after_text(warning + doc + "\nDone.\n"), std::string_view::npos);
    EXPECT_EQ(json_after_text("[INFO] x\n" + doc), 9u);
    std::string many_lines;
    for (std::size_t i = 0; i < k_json_after_text_lines; ++i) many_lines += "line\n";
    EXPECT_EQ(json_after_text(many_lines + doc), std::string_view::npos);
    // A small document after a log stays text.
    std::string log;
    for (int i = 0; i < 60; ++i) log += "building step " + std::to_string(i) + " of the tree\n";
    const Response text = run(log + "{\"ok\":true}\n", c);
    EXPECT_NE(text.shape, Shape::json);
}

// Without the store nothing but strings may be elided: a view that cannot fit the ceiling passes
// the original through, as for every other shape.
TEST(JsonCeiling, AViewThatCannotFitFailsOpen) {
    TempDir dir;
    Config c = test::test_config(dir.path);
    c.store_enabled = false;
    std::string doc = "[";
    for (int i = 0; i < 2000; ++i)
        doc += std::string(i ? "," : "") + "\"" + std::string(300, 'q') + "\"";
    doc += "]";
    const Response r = run(doc, c);
    EXPECT_FALSE(r.rewritten);
    EXPECT_EQ(r.passthrough, "over-ceiling");

    // With the store the same document fits.
    c.store_enabled = true;
    const Response fits = run(doc, c);
    check_json_view(doc, 0, fits, c);
}

// rewrite_json on its own: without a ceiling nothing changes; with one, the view fits it.
TEST(JsonCeiling, RewriteHonoursMaxBytes) {
    const KeyMatcher keys;
    JsonOptions o;
    o.measure.id = k_placeholder_id;
    o.keys = &keys;
    const std::string doc = "{\"deps\":" + flat_map(20000, 10) + ",\"ids\":" + scalar_array(20000) +
                            ",\"errors\":" + records(2000, 1, false) + "}";
    const auto free = rewrite_json(doc, o);
    ASSERT_TRUE(free);
    const std::string unbounded = render(*free, o.measure);
    EXPECT_GT(unbounded.size(), 100000u); // every error entry stays
    for (const std::uint64_t ceiling : {65536u, 20000u, 4096u}) {
        o.max_bytes = ceiling;
        const auto plan = rewrite_json(doc, o);
        ASSERT_TRUE(plan);
        const std::string view = render(*plan, o.measure);
        EXPECT_LE(view.size(), ceiling);
        const auto parsed = ordered_json::parse(view);
        EXPECT_EQ(parsed.size(), 3u);
        EXPECT_GT(count(view, "\"severity\":2"), 0u);
    }
}

// ---- errors' own records ----------------------------------------------------------------------

// A linter's diagnostics in biome's shape: `"severity": "error"` records among warnings, each
// with its message, rule and location in the middle of its members.
std::string diagnostics(std::size_t n, std::size_t every, std::vector<ordered_json>& errors) {
    std::string out = "{\"summary\":{\"changed\":0,\"unchanged\":" + std::to_string(n) +
                      ",\"duration\":111189153,\"errors\":" + std::to_string(n / every) +
                      ",\"skipped\":0},\"diagnostics\":[";
    for (std::size_t i = 0; i < n; ++i) {
        const bool error = i % every == every / 2;
        const std::string item =
            std::string("{\"severity\":\"") + (error ? "error" : "warning") +
            "\",\"message\":\"This variable v" + std::to_string(i) +
            " is unused.\",\"category\":\"lint/correctness/noUnusedVariables\",\"location\":"
            "{\"path\":\"src/mod" +
            std::to_string(i % 7) + "/file" + std::to_string(i) +
            ".js\",\"start\":{\"line\":" + std::to_string(4 + i % 50) +
            ",\"column\":7},\"end\":{\"line\":4,\"column\":16}},\"advices\":[" +
            (error ? "{\"log\":\"  3 | function f() {\\n> 4 |   const v" + std::to_string(i) +
                         " = compute(" + std::string(200, 'a') + ");\\n    |         ^^\"}"
                   : "") +
            "]}";
        if (error) errors.push_back(ordered_json::parse(item));
        out += (i > 0 ? "," : "") + item;
    }
    return out + "]}";
}

// An error's record is shown whole while the rest of the document tightens around it: its
// message, rule and location, not its first and last members around a marker.
TEST(JsonRecords, ErrorRecordsStayWholeWhileTheRestTightens) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(77);
    for (int round = 0; round < 8; ++round) {
        SCOPED_TRACE(round);
        std::vector<ordered_json> errors;
        const std::size_t every = 6 + rng() % 5;
        const std::string doc = diagnostics(320 + rng() % 300, every, errors);
        ASSERT_GT(doc.size(), c.max_view_bytes);
        const Response r = run(doc, c);
        const ordered_json view = check_json_view(doc, 0, r, c);
        ASSERT_TRUE(view.is_object());
        std::size_t whole = 0;
        for (const auto& d : view["diagnostics"])
            if (std::find(errors.begin(), errors.end(), d) != errors.end()) ++whole;
        EXPECT_EQ(whole, errors.size()) << r.view.substr(0, 2000);
    }
}

// jest's failed tests over the ceiling: each failed test's record stays with its name, its
// matcher's expected and actual values and the start of its failure message, while passing
// tests and the files' long messages give way first.
TEST(JsonRecords, FailedTestsKeepTheirMessageAndValuesOverTheCeiling) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(41);
    std::string stack;
    for (int k = 0; k < 16; ++k)
        stack += "\\n    at _runTest (/p/node_modules/jest-circus/build/jestAdapterInit.js:" +
                 std::to_string(1000 + k) + ":11)";
    std::string doc = "{\"numFailedTests\":70,\"success\":false,\"testResults\":[";
    struct Failed {
        std::string full_name, message_start;
        int expected, actual;
    };
    std::vector<Failed> failed;
    for (int f = 0; f < 35; ++f) {
        doc += std::string(f > 0 ? "," : "") + "{\"assertionResults\":[";
        for (int t = 0; t < 20; ++t) {
            const bool fails = t % 10 == 3;
            const std::string title = "add case " + std::to_string(f) + "." + std::to_string(t);
            const int expected = static_cast<int>(rng() % 90), actual = expected + 1;
            const std::string start = "Error: expect(received).toBe(expected) // Object.is "
                                      "equality\\n\\nExpected: " +
                                      std::to_string(expected) +
                                      "\\nReceived: " + std::to_string(actual);
            doc += std::string(t > 0 ? "," : "") + "{\"ancestorTitles\":[\"mod" +
                   std::to_string(f) + " arithmetic\"],\"duration\":" + std::to_string(rng() % 9) +
                   ",\"failing\":false,\"failureDetails\":[";
            if (fails) {
                failed.push_back({"mod" + std::to_string(f) + " " + title, start.substr(0, 60),
                                  expected, actual});
                doc += "{\"matcherResult\":{\"actual\":" + std::to_string(actual) +
                       ",\"expected\":" + std::to_string(expected) +
                       ",\"message\":\"expect(received).toBe(expected)\",\"name\":\"toBe\","
                       "\"pass\":false}}],\"failureMessages\":[\"" +
                       start + stack + "\"],";
            } else {
                doc += "],\"failureMessages\":[],";
            }
            doc += "\"fullName\":\"mod" + std::to_string(f) + " " + title +
                   "\",\"invocations\":1,\"location\":null,\"numPassingAsserts\":" +
                   (fails ? "0" : "1") + ",\"retryReasons\":[],\"status\":\"" +
                   (fails ? "failed" : "passed") + "\",\"title\":\"" + title + "\"}";
        }
        doc += "],\"message\":\"  \\u25cf mod" + std::to_string(f) + " failed" + stack + stack +
               "\",\"name\":\"/p/__tests__/mod" + std::to_string(f) +
               ".test.js\",\"status\":\"failed\"}";
    }
    doc += "]}";
    ASSERT_GT(doc.size(), 2 * c.max_view_bytes);
    const Response r = run(doc, c);
    const ordered_json view = check_json_view(doc, 0, r, c);
    ASSERT_TRUE(view.is_object());
    std::size_t shown = 0;
    for (const auto& file : view["testResults"]) {
        if (!file.is_object() || !file.contains("assertionResults")) continue;
        for (const auto& t : file["assertionResults"]) {
            if (!t.is_object() || t.value("status", "") != "failed") continue;
            const auto it = std::find_if(failed.begin(), failed.end(), [&](const Failed& x) {
                return t.value("fullName", "") == x.full_name;
            });
            ASSERT_NE(it, failed.end()) << t.dump();
            const auto& m = t["failureDetails"][0]["matcherResult"];
            EXPECT_EQ(m["expected"], it->expected);
            EXPECT_EQ(m["actual"], it->actual);
            const std::string message = t["failureMessages"][0];
            EXPECT_EQ(message.substr(0, 38), "Error: expect(received).toBe(expected)");
            EXPECT_NE(message.find("Expected: " + std::to_string(it->expected)), std::string::npos);
            ++shown;
        }
    }
    EXPECT_EQ(shown, failed.size());
}

// rubocop's offenses over the ceiling, one per file naming an exception (so every file stays):
// an offense that loses members keeps its message, its rule and where it is, and loses its
// flags and offsets.
TEST(JsonRecords, FlatRecordsKeepWhatAndWhereWhenTrimmed) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    for (const std::size_t files : {150u, 400u}) {
        SCOPED_TRACE(files);
        std::string doc = "{\"metadata\":{\"rubocop_version\":\"1.39.0\"},\"files\":[";
        for (std::size_t f = 0; f < files; ++f) {
            doc += std::string(f > 0 ? "," : "") + "{\"path\":\"lib/widget" + std::to_string(f) +
                   ".rb\",\"offenses\":[";
            for (int o = 0; o < 12; ++o)
                doc += std::string(o > 0 ? "," : "") +
                       (o == 7 ? "{\"severity\":\"warning\",\"message\":\"Avoid rescuing the "
                                 "`Exception` class.\",\"cop_name\":\"Lint/RescueException\","
                                 "\"corrected\":false,\"correctable\":false,\"location\":{"
                                 "\"start_line\":24,\"start_column\":3,\"last_line\":26,"
                                 "\"last_column\":5,\"length\":40,\"line\":24,\"column\":3}},"
                               : "") +
                       "{\"severity\":\"convention\",\"message\":\"Prefer single-quoted strings "
                       "(offense " +
                       std::to_string(o) +
                       ").\",\"cop_name\":\"Style/StringLiterals\",\"corrected\":false,"
                       "\"correctable\":true,\"location\":{\"start_line\":" +
                       std::to_string(3 + o) +
                       ",\"start_column\":9,\"last_line\":3,\"last_column\":20,\"length\":12,"
                       "\"line\":" +
                       std::to_string(3 + o) + ",\"column\":9}}";
            doc += "]}";
        }
        doc += "]}";
        const Response r = run(doc, c);
        const ordered_json view = check_json_view(doc, 0, r, c);
        ASSERT_TRUE(view.is_object());
        std::size_t offenses = 0;
        for (const auto& file : view["files"]) {
            if (!file.is_object() || !file.contains("offenses")) continue;
            for (const auto& o : file["offenses"]) {
                if (!o.is_object()) continue;
                ++offenses;
                EXPECT_TRUE(o.contains("message") && o.contains("cop_name") &&
                            o.contains("location"))
                    << o.dump();
            }
        }
        EXPECT_GT(offenses, 0u);
    }
}

// pylint's JSON: one flat record per finding, its file, line and message, whatever its type
// (`convention`, `refactor`: no error word). Each is a finding at its own place: as many as the
// ceiling holds show with their place and message, not the first and last few of the list.
TEST(JsonRecords, LocatedFindingsFillTheView) {
    TempDir dir;
    const Config c = test::test_config(dir.path);
    std::mt19937 rng(83);
    const char* kinds[][3] = {{"convention", "missing-function-docstring", "C0116"},
                              {"refactor", "too-many-branches", "R0912"},
                              {"warning", "unused-argument", "W0613"}};
    for (const std::size_t findings : {300u, 600u}) {
        SCOPED_TRACE(findings);
        std::string doc = "[";
        for (std::size_t f = 0; f < findings; ++f) {
            const auto& k = kinds[rng() % 3];
            const std::string line = std::to_string(1 + rng() % 400);
            doc += std::string(f > 0 ? ",\n" : "\n") + "    {\n        \"type\": \"" + k[0] +
                   "\",\n        \"module\": \"shop.m" + std::to_string(f % 9) +
                   "\",\n        \"obj\": \"Cart.total\",\n        \"line\": " + line +
                   ",\n        \"column\": 4,\n        \"endLine\": " + line +
                   ",\n        \"endColumn\": 13,\n        \"path\": \"shop/m" +
                   std::to_string(f % 9) + ".py\",\n        \"symbol\": \"" + k[1] +
                   "\",\n        \"message\": \"Finding " + std::to_string(f) +
                   " of its kind\",\n        \"message-id\": \"" + k[2] + "\"\n    }";
        }
        doc += "\n]\n";
        const Response r = run(doc, c);
        const ordered_json view = check_json_view(doc, 0, r, c);
        ASSERT_TRUE(view.is_array());
        std::size_t located = 0;
        for (const auto& o : view)
            located += o.is_object() && o.contains("path") && o.contains("line") &&
                       o.contains("message") && o.contains("symbol");
        // The view holds more than a third of the findings it could, each with what and where.
        EXPECT_GT(located * 3, std::min<std::size_t>(findings, c.max_view_bytes / 200))
            << r.view.substr(0, 2000);
    }
}

} // namespace
} // namespace sutra::core
