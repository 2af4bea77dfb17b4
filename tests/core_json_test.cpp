// JSON views: random documents (compact and indented, escapes, multi-byte UTF-8, huge strings and
// arrays) are rewritten and every view is checked against the original: it parses, keeps the
// top-level shape, is deterministic and smaller, and putting each elided byte range back in place
// of its marker gives back the original document's value. The strict scanner is checked against
// nlohmann's parser on random mutations, plus a list of documents it must refuse.

#include "core/rewrite/json_rewrite.hpp"
#include "tests/test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sutra::core {
namespace {

using nlohmann::ordered_json;

MarkerContext real_context(bool mcp) {
    MarkerContext c;
    c.id = "su_0123456789abcdef0123456789abcdef";
    c.ttl_seconds = 604800;
    if (mcp) c.route.kind = RestoreRoute::Kind::mcp;
    return c;
}

// The measuring context has the same id length, ttl and route as the real one, so measured and
// real marker sizes agree.
MarkerContext measure_context(bool mcp) {
    MarkerContext c = real_context(mcp);
    c.id = k_placeholder_id;
    return c;
}

JsonOptions options_with(bool mcp) {
    JsonOptions o;
    o.measure = measure_context(mcp);
    return o;
}

enum class Style { compact, spaced, pretty2, pretty4 };

// Writes random valid JSON text directly, so escapes, UTF-8 and formatting are under control.
class Generator {
public:
    explicit Generator(std::uint64_t seed) : rng_(seed) {}

    std::string document(Style style, bool big) {
        style_ = style;
        big_ = big;
        out_.clear();
        container(chance(50), 0);
        if (style_ == Style::pretty2 || style_ == Style::pretty4) out_ += '\n';
        return out_;
    }

    // A string body (no quotes) of about `units` random pieces.
    std::string string_body(std::size_t units) {
        static const char* const pieces[] = {"a",
                                             "b",
                                             "z",
                                             " ",
                                             "0",
                                             "\\n",
                                             "\\t",
                                             "\\\"",
                                             "\\\\",
                                             "\\/",
                                             "\\u00e9",
                                             "\\u65e5",
                                             "\\ud83d\\ude00",
                                             "\\u0000",
                                             "\\b\\f\\r",
                                             "\xc3\xa9",
                                             "\xe6\x97\xa5\xe6\x9c\xac",
                                             "\xf0\x9f\x98\x80",
                                             "'",
                                             "{",
                                             "]",
                                             ",",
                                             ":"};
        constexpr std::size_t n = sizeof(pieces) / sizeof(pieces[0]);
        std::string s;
        // Sometimes one piece repeated, to hit every alignment of a cut against long escape runs.
        if (chance(25)) {
            const char* p = pieces[below(n)];
            for (std::size_t i = 0; i < units; ++i) s += p;
            return s;
        }
        for (std::size_t i = 0; i < units; ++i) s += pieces[below(n)];
        return s;
    }

    std::uint64_t below(std::uint64_t n) { return rng_() % n; }
    bool chance(int percent) { return static_cast<int>(below(100)) < percent; }

private:
    bool pretty() const { return style_ == Style::pretty2 || style_ == Style::pretty4; }

    void newline(int depth) {
        if (!pretty()) return;
        out_ += '\n';
        out_.append(static_cast<std::size_t>(depth) * (style_ == Style::pretty2 ? 2 : 4), ' ');
    }

    void container(bool object, int depth) {
        std::size_t count = below(6);
        if (big_ && !object && chance(30)) count = 50 + below(400);
        if (big_ && object && chance(10)) count = 20 + below(40);
        if (depth >= 5 || out_.size() > k_budget) count = std::min<std::size_t>(count, 2);
        if (count == 0) {
            out_ += object ? "{}" : "[]";
            return;
        }
        out_ += object ? '{' : '[';
        for (std::size_t i = 0; i < count; ++i) {
            if (i > 0) out_ += style_ == Style::spaced ? ", " : ",";
            newline(depth + 1);
            if (object) {
                out_ += "\"k" + std::to_string(i) + string_body(below(3)) + "\"";
                out_ += style_ == Style::compact ? ":" : ": ";
            }
            value(depth + 1);
        }
        newline(depth);
        out_ += object ? '}' : ']';
    }

    void value(int depth) {
        static const char* const numbers[] = {"0",    "-12",     "3.25",     "1e10",
                                              "-0.5", "2.5E-3",  "6.02e+23", "123456789",
                                              "-0",   "1.0e-07", "42",       "7"};
        const auto roll = below(100);
        if (roll < 20 && depth < 6 && out_.size() < k_budget) {
            container(chance(50), depth);
        } else if (roll < 55) {
            std::size_t units = below(12);
            if (big_ && chance(15) && out_.size() < k_budget) units = 200 + below(3000);
            out_ += '"' + string_body(units) + '"';
        } else if (roll < 85) {
            out_ += numbers[below(sizeof(numbers) / sizeof(numbers[0]))];
        } else {
            static const char* const literals[] = {"true", "false", "null"};
            out_ += literals[below(3)];
        }
    }

    // Past this size a document stops growing, so big documents stay around a few hundred KB.
    static constexpr std::size_t k_budget = 200'000;

    std::mt19937_64 rng_;
    Style style_ = Style::compact;
    bool big_ = false;
    std::string out_;
};

// 1-based line of each byte offset, from the offsets of the newlines.
class LineIndex {
public:
    explicit LineIndex(const std::string& s) {
        for (std::size_t i = 0; i < s.size(); ++i)
            if (s[i] == '\n') newlines_.push_back(i);
    }
    std::uint64_t line_of(std::uint64_t pos) const {
        return 1 +
               static_cast<std::uint64_t>(
                   std::lower_bound(newlines_.begin(), newlines_.end(), pos) - newlines_.begin());
    }

private:
    std::vector<std::uint64_t> newlines_;
};

struct Tally {
    int plans = 0;
    int long_strings = 0;
    int arrays = 0;
    int objects = 0;
};

// Every property a view must have; returns the view ("" when there is no plan).
std::string check_view(const std::string& doc, const JsonOptions& options, bool mcp, Tally& tally) {
    const auto plan = rewrite_json(doc, options);
    if (!plan) return "";
    ++tally.plans;
    EXPECT_EQ(plan->shape, Shape::json);
    EXPECT_FALSE(plan->elisions.empty());
    EXPECT_TRUE(std::find(plan->rules.begin(), plan->rules.end(), "json") != plan->rules.end());

    const MarkerContext context = real_context(mcp);
    const std::string view = render(*plan, context);

    // Determinism: same plan renders the same; planning again gives the same view.
    EXPECT_EQ(view, render(*plan, context));
    const auto again = rewrite_json(doc, options);
    EXPECT_TRUE(again && render(*again, context) == view);

    // The view is JSON of the same top-level type, with the same top-level keys in order.
    const ordered_json original = ordered_json::parse(doc);
    ordered_json parsed;
    try {
        parsed = ordered_json::parse(view);
    } catch (const std::exception& e) {
        ADD_FAILURE() << "view does not parse: " << e.what() << "\n" << view.substr(0, 2000);
        return view;
    }
    EXPECT_EQ(parsed.type(), original.type());
    if (original.is_object()) {
        std::vector<std::string> a, b;
        for (const auto& [k, v] : original.items()) a.push_back(k);
        for (const auto& [k, v] : parsed.items()) b.push_back(k);
        EXPECT_EQ(a, b);
    }

    // Each elision is a real, correctly numbered range, rendered by one marker of its kind.
    const LineIndex lines(doc);
    bool has_string = false;
    bool has_array = false;
    bool has_object = false;
    for (const auto& e : plan->elisions) {
        EXPECT_LT(e.begin, e.end);
        EXPECT_LE(e.end, doc.size());
        EXPECT_EQ(e.first_line, lines.line_of(e.begin));
        EXPECT_EQ(e.last_line, lines.line_of(e.end - 1));
        if (e.reason == Reason::long_string) {
            has_string = true;
            ++tally.long_strings;
        } else if (e.reason == Reason::object_members) {
            EXPECT_GT(e.items, 0u);
            has_object = true;
            ++tally.objects;
        } else {
            EXPECT_EQ(e.reason, Reason::array_items);
            EXPECT_GT(e.items, 0u);
            has_array = true;
            ++tally.arrays;
        }
    }
    EXPECT_EQ(has_object, std::find(plan->rules.begin(), plan->rules.end(), "object-members") !=
                              plan->rules.end());
    EXPECT_EQ(has_string, std::find(plan->rules.begin(), plan->rules.end(), "long-string") !=
                              plan->rules.end());
    EXPECT_EQ(has_array, std::find(plan->rules.begin(), plan->rules.end(), "array-items") !=
                             plan->rules.end());
    if (!options.elide_arrays) {
        EXPECT_FALSE(has_array);
        EXPECT_FALSE(has_object);
    }

    // Putting each elided range back where its marker sits gives the original value: string
    // heads and tails plus the range are exactly the original escaped text, and array ranges are
    // exactly the elided items with their separators.
    std::string rebuilt = view;
    int markers = 0;
    std::vector<Elision> in_order; // the markers as the view shows them: full, then short
    for (const auto& p : plan->pieces)
        if (p.elision >= 0)
            in_order.push_back(plan->elisions.at(static_cast<std::size_t>(p.elision)));
    const std::vector<std::string> texts = text_marker_texts(in_order, context);
    for (const auto& p : plan->pieces) {
        if (p.elision < 0) continue;
        const Elision& e = plan->elisions.at(static_cast<std::size_t>(p.elision));
        std::string needle = json_escape(texts.at(static_cast<std::size_t>(markers++)));
        if (p.json == Piece::Json::element && e.reason == Reason::object_members) {
            // A marker member: the marker is the key, the value null.
            const bool compact = view.find('\n') == std::string::npos;
            needle = '"' + needle + '"' + (compact ? ":null" : ": null");
        } else if (p.json == Piece::Json::element) {
            EXPECT_EQ(e.reason, Reason::array_items);
            needle = '"' + needle + '"';
        } else {
            EXPECT_EQ(p.json, Piece::Json::inside_string);
            EXPECT_EQ(e.reason, Reason::long_string);
        }
        const auto at = rebuilt.find(needle);
        if (at == std::string::npos) {
            ADD_FAILURE() << "marker not found in view";
            return view;
        }
        rebuilt.replace(at, needle.size(), doc.substr(e.begin, e.end - e.begin));
    }
    EXPECT_EQ(markers, static_cast<int>(plan->elisions.size()));
    try {
        EXPECT_EQ(ordered_json::parse(rebuilt), original);
    } catch (const std::exception& e) {
        ADD_FAILURE() << "rebuilt view does not parse: " << e.what();
    }

    EXPECT_LT(view.size(), doc.size());
    return view;
}

std::vector<JsonOptions> option_sets(bool mcp) {
    std::vector<JsonOptions> sets;
    sets.push_back(options_with(mcp));
    JsonOptions small = options_with(mcp);
    small.max_string_bytes = 100;
    small.array_head = 2;
    small.array_tail = 1;
    small.target_bytes = 1024;
    sets.push_back(small);
    JsonOptions no_arrays = options_with(mcp);
    no_arrays.elide_arrays = false;
    no_arrays.max_string_bytes = 200;
    sets.push_back(no_arrays);
    JsonOptions tiny = options_with(mcp);
    tiny.target_bytes = 256; // forces every tightening step
    sets.push_back(tiny);
    JsonOptions edges = options_with(mcp);
    edges.array_head = 0;
    edges.array_tail = 0;
    edges.max_string_bytes = 7;
    edges.target_bytes = 1u << 30;
    sets.push_back(edges);
    return sets;
}

TEST(JsonProperties, RandomDocumentsGiveFaithfulViews) {
    Generator gen(20240611);
    Tally tally;
    const Style styles[] = {Style::compact, Style::spaced, Style::pretty2, Style::pretty4};
    const int documents = test::rounds(300);
    for (int i = 0; i < documents; ++i) {
        const Style style = styles[i % 4];
        const bool big = i % 3 != 0;
        const bool mcp = i % 5 == 0;
        const std::string doc = gen.document(style, big);
        ASSERT_TRUE(nlohmann::json::accept(doc)) << doc.substr(0, 500);
        ASSERT_TRUE(is_json_document(doc)) << doc.substr(0, 500);
        for (const auto& options : option_sets(mcp)) {
            check_view(doc, options, mcp, tally);
            if (testing::Test::HasFailure()) {
                FAIL() << "document " << i << ":\n" << doc.substr(0, 3000);
            }
        }
    }
    // The generator must actually exercise both kinds of elision (the thresholds were set for
    // 300 documents).
    EXPECT_GT(tally.plans, 200 * documents / 300);
    EXPECT_GT(tally.long_strings, 1000 * documents / 300);
    EXPECT_GT(tally.arrays, 100 * documents / 300);
}

// Maps of records (dependency trees, lock files): over budget, their middle members fold into one
// marker member below the top level, and every property still holds.
std::string record_map(std::mt19937_64& rng, int depth, bool pretty, std::size_t members) {
    std::string out = "{";
    for (std::size_t i = 0; i < members; ++i) {
        if (i > 0) out += ",";
        if (pretty) out += "\n" + std::string(static_cast<std::size_t>(depth + 1) * 2, ' ');
        out += "\"pkg-" + std::to_string(rng() % 100000) + "-" + std::to_string(i) + "\":";
        if (pretty) out += " ";
        if (depth < 3 && rng() % 4 == 0) {
            out += "{\"version\": \"1." + std::to_string(i) +
                   ".0\", \"dependencies\": " + record_map(rng, depth + 1, pretty, 3 + rng() % 40) +
                   "}";
        } else if (rng() % 10 == 0) {
            out += "[" + std::to_string(i) + ", \"x\"]";
        } else {
            out += "{\"version\": \"2." + std::to_string(i) +
                   ".1\", \"resolved\": "
                   "\"https://registry.example.org/pkg/-/pkg-" +
                   std::to_string(i) + ".tgz\", \"integrity\": \"sha512-" + std::to_string(rng()) +
                   "\"}";
        }
    }
    if (pretty) out += "\n" + std::string(static_cast<std::size_t>(depth) * 2, ' ');
    return out + "}";
}

TEST(JsonObjects, MapsOfRecordsFoldOnlyWhenNothingElseFits) {
    std::mt19937_64 rng(77);
    Tally tally;
    const int documents = test::rounds(16);
    for (int i = 0; i < documents; ++i) {
        const bool pretty = i % 2 == 0;
        const std::string doc = "{\"name\": \"root\", \"dependencies\": " +
                                record_map(rng, 1, pretty, 50 + rng() % 150) + "}";
        ASSERT_TRUE(nlohmann::json::accept(doc));
        for (const auto& options : option_sets(i % 3 == 0)) check_view(doc, options, false, tally);
        if (testing::Test::HasFailure()) FAIL() << "document " << i << ":\n" << doc.substr(0, 2000);
    }
    EXPECT_GT(tally.objects, documents);

    // Under budget, or with retention off, no member is elided.
    const std::string small = "{\"deps\": " + record_map(rng, 1, true, 12) + "}";
    JsonOptions roomy = options_with(false);
    roomy.target_bytes = 1u << 20;
    const auto plan = rewrite_json(small, roomy);
    if (plan) {
        for (const auto& e : plan->elisions) EXPECT_NE(e.reason, Reason::object_members);
    }
    JsonOptions off = options_with(false);
    off.elide_arrays = false;
    off.target_bytes = 64;
    const std::string big = "{\"deps\": " + record_map(rng, 1, true, 200) + "}";
    if (const auto p = rewrite_json(big, off)) {
        for (const auto& e : p->elisions) EXPECT_NE(e.reason, Reason::object_members);
    }

    // A top-level map of records keeps every key.
    const std::string top = record_map(rng, 0, false, 300);
    JsonOptions tight = options_with(false);
    tight.target_bytes = 512;
    if (const auto p = rewrite_json(top, tight)) {
        const auto parsed = ordered_json::parse(render(*p, real_context(false)));
        EXPECT_EQ(parsed.size(), ordered_json::parse(top).size());
    }
}

// A member whose key or value holds a key word stays between the marker members.
TEST(JsonObjects, MembersWithKeyWordsStay) {
    std::string doc = "{\"packages\": {";
    for (int i = 0; i < 400; ++i) {
        if (i > 0) doc += ",";
        doc += "\"p" + std::to_string(i) + "\": {\"v\": \"" +
               (i == 200 ? std::string("ERROR: integrity check failed") : std::to_string(i)) +
               "\"}";
    }
    doc += "}}";
    const KeyMatcher keys;
    JsonOptions o = options_with(false);
    o.keys = &keys;
    o.target_bytes = 1024;
    const auto plan = rewrite_json(doc, o);
    ASSERT_TRUE(plan.has_value());
    const std::string view = render(*plan, real_context(false));
    EXPECT_NE(view.find("ERROR: integrity check failed"), std::string::npos);
    EXPECT_NE(view.find("object members elided"), std::string::npos);
    EXPECT_TRUE(nlohmann::json::accept(view));
    Tally tally;
    check_view(doc, o, false, tally);
}

// Key words survive a large array's elision and a long string's cut: the items and string parts
// holding one stay between markers, and the view keeps every other property.
TEST(JsonKeyWords, ItemsAndStringPartsWithKeyWordsStayBetweenMarkers) {
    const KeyMatcher keys;
    std::mt19937 rng(5);
    Tally tally;
    std::size_t clues_checked = 0;
    for (int round = 0; round < 200; ++round) {
        const bool pretty = round % 2 == 0;
        const int items = 20 + static_cast<int>(rng() % 300);
        std::vector<std::string> clues;
        int errors = 0, long_strings = 0;
        std::string doc = pretty ? "[\n  " : "[";
        for (int i = 0; i < items; ++i) {
            if (i > 0) doc += pretty ? ",\n  " : ",";
            std::string note = "record " + std::to_string(i) + " synced";
            if (errors < 4 && rng() % 30 == 0) {
                note = "ERROR: record " + std::to_string(i) + " rejected upstream";
                clues.push_back(note);
                ++errors;
            } else if (long_strings < 4 && rng() % 40 == 0) {
                std::string pad;
                for (int k = 0; k < 60 + static_cast<int>(rng() % 80); ++k)
                    pad += "window " + std::to_string(k) + " ok; ";
                const std::string clue = "quota exceeded for tenant " + std::to_string(i);
                note = pad + clue + "; " + pad;
                clues.push_back(clue);
                ++long_strings;
            }
            doc += "{\"id\": " + std::to_string(i) + ", \"note\": \"" + note + "\"}";
        }
        doc += pretty ? "\n]\n" : "]";
        JsonOptions o = options_with(round % 3 == 0);
        o.keys = &keys;
        const std::string view = check_view(doc, o, round % 3 == 0, tally);
        if (testing::Test::HasFailure()) FAIL() << doc.substr(0, 3000);
        if (view.empty()) continue;
        for (const auto& clue : clues) {
            EXPECT_NE(view.find(clue), std::string::npos) << clue;
            ++clues_checked;
        }
    }
    EXPECT_GT(tally.arrays, 150);
    EXPECT_GT(clues_checked, 200u);
}

// Cutting a long string must never split an escape (a surrogate pair is one unit) or a UTF-8
// sequence, at any alignment.
TEST(JsonStrings, CutsRespectEscapesAndUtf8AtEveryAlignment) {
    const char* const units[] = {
        "\\ud83d\\ude00",   "\\\\",       "\\\"", "\\u00e9", "\xe6\x97\xa5\xe6\x9c\xac",
        "\xf0\x9f\x98\x80", "\\n\xc3\xa9"};
    Tally tally;
    for (const char* unit : units) {
        for (std::size_t prefix = 0; prefix < 12; ++prefix) {
            std::string body(prefix, 'a');
            for (int i = 0; i < 400; ++i) body += unit;
            body += std::string(prefix % 5, 'z');
            const std::string doc = "[\"" + body + "\", 1]";
            for (std::uint64_t max = 7; max < 600; max += 37) {
                JsonOptions options = options_with(false);
                options.max_string_bytes = max;
                options.target_bytes = 1u << 30;
                check_view(doc, options, false, tally);
                if (testing::Test::HasFailure()) FAIL() << unit << " " << prefix << " " << max;
            }
        }
    }
    EXPECT_GT(tally.long_strings, 500);
}

TEST(JsonStrings, CompactStaysCompactAndKeepsHeadAndTail) {
    const std::string content(3000, 'x');
    const std::string doc = "{\"a\": \"" + content + "\", \"b\": [1, 2]}";
    JsonOptions options = options_with(false);
    const auto plan = rewrite_json(doc, options);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->elisions.size(), 1u);
    const Elision& e = plan->elisions[0];
    EXPECT_EQ(e.reason, Reason::long_string);
    // 1024 / 2 = 512 bytes kept: 341 head, 171 tail.
    EXPECT_EQ(e.begin, 7u + 341);
    EXPECT_EQ(e.end, 7u + 3000 - 171);
    EXPECT_EQ(e.first_line, 1u);
    EXPECT_EQ(e.last_line, 1u);
    const MarkerContext context = real_context(false);
    const std::string expected = "{\"a\":\"" + std::string(341, 'x') +
                                 json_escape(marker_text(e, context)) + std::string(171, 'x') +
                                 "\",\"b\":[1,2]}";
    EXPECT_EQ(render(*plan, context), expected);
    EXPECT_EQ(plan->rules, (std::vector<std::string>{"json", "long-string"}));
}

TEST(JsonStrings, KeysAreNeverElided) {
    const std::string key(5000, 'k');
    const std::string doc = "{\"" + key + "\": 1}";
    EXPECT_FALSE(rewrite_json(doc, options_with(false)));

    const std::string both = "{\"" + key + "\": \"" + std::string(5000, 'v') + "\"}";
    const auto plan = rewrite_json(both, options_with(false));
    ASSERT_TRUE(plan);
    const std::string view = render(*plan, real_context(false));
    EXPECT_NE(view.find("\"" + key + "\":"), std::string::npos);
    ASSERT_EQ(plan->elisions.size(), 1u);
    EXPECT_GT(plan->elisions[0].begin, key.size() + 4);
}

TEST(JsonArrays, PrettyLayoutWithOneMarkerElement) {
    std::string list;
    for (int i = 1; i <= 200; ++i) list += (i > 1 ? ", " : "") + std::to_string(i);
    const std::string doc = "{\n    \"name\": \"x\",\n    \"list\": [" + list +
                            "],\n    \"empty\": {}, \"none\": [ ],\n"
                            "    \"nested\": {\"a\": [true, null]}\n}\n";
    JsonOptions options = options_with(false);
    options.array_head = 1;
    options.array_tail = 1;
    const auto plan = rewrite_json(doc, options);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->elisions.size(), 1u);
    const Elision& e = plan->elisions[0];
    EXPECT_EQ(e.reason, Reason::array_items);
    EXPECT_EQ(e.items, 198u);
    EXPECT_EQ(doc.substr(e.begin, e.end - e.begin).substr(0, 5), "2, 3,");
    EXPECT_EQ(doc.substr(e.end - 5, 5), ", 199");
    EXPECT_EQ(e.first_line, 3u);
    EXPECT_EQ(e.last_line, 3u);
    const MarkerContext context = real_context(false);
    const std::string expected = "{\n"
                                 "  \"name\": \"x\",\n"
                                 "  \"list\": [\n"
                                 "    1,\n"
                                 "    \"" +
                                 json_escape(marker_text(e, context)) +
                                 "\",\n"
                                 "    200\n"
                                 "  ],\n"
                                 "  \"empty\": {},\n"
                                 "  \"none\": [],\n"
                                 "  \"nested\": {\n"
                                 "    \"a\": [\n"
                                 "      true,\n"
                                 "      null\n"
                                 "    ]\n"
                                 "  }\n"
                                 "}\n";
    EXPECT_EQ(render(*plan, context), expected);
    EXPECT_EQ(plan->rules, (std::vector<std::string>{"json", "array-items"}));
}

TEST(JsonArrays, DisabledArrayElisionNeverElidesItems) {
    std::string doc = "[";
    for (int i = 0; i < 5000; ++i) doc += (i ? "," : "") + std::to_string(i);
    doc += "]";
    JsonOptions options = options_with(false);
    options.elide_arrays = false;
    EXPECT_FALSE(rewrite_json(doc, options)); // nothing else to elide
    options.elide_arrays = true;
    const auto plan = rewrite_json(doc, options);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->elisions.size(), 1u);
}

TEST(JsonArrays, ShortArraysAreNotWorthAMarker) {
    // Six tiny items exceed head + tail + 1, but eliding one would grow the view.
    EXPECT_FALSE(rewrite_json("[1,2,3,4,5,6,7]", options_with(false)));
}

TEST(JsonArrays, HugeLimitsDoNotOverflow) {
    std::string doc = "[";
    for (int i = 0; i < 5000; ++i) doc += (i ? "," : "") + std::to_string(i);
    doc += "]";
    JsonOptions options = options_with(false);
    options.array_head = UINT64_MAX;
    options.array_tail = UINT64_MAX;
    options.max_string_bytes = UINT64_MAX;
    options.target_bytes = UINT64_MAX;
    EXPECT_FALSE(rewrite_json(doc, options));
    options.array_head = 0;
    options.array_tail = UINT64_MAX - 1;
    EXPECT_FALSE(rewrite_json(doc, options));
}

TEST(JsonFormat, CrlfAndTabsBecomeTwoSpaceIndent) {
    std::string doc = "{\r\n\t\"a\":\t[\r\n";
    for (int i = 0; i < 300; ++i) doc += std::string(i ? ",\r\n" : "") + "\t\t" + std::to_string(i);
    doc += "\r\n\t],\r\n\t\"b\": \"" + std::string(4000, 'q') + "\"\r\n}";
    Tally tally;
    const std::string view = check_view(doc, options_with(false), false, tally);
    ASSERT_EQ(tally.arrays, 1);
    ASSERT_EQ(tally.long_strings, 1);
    EXPECT_EQ(view.find('\r'), std::string::npos);
    EXPECT_EQ(view.find('\t'), std::string::npos);
    const std::string start = "{\n  \"a\": [\n    0,\n    1,\n";
    EXPECT_EQ(view.substr(0, start.size()), start);
    EXPECT_EQ(view.back(), '}'); // no newline after the original's last value, none added
}

TEST(JsonBudget, TightensUntilTheViewFits) {
    std::string doc = "{\"log\": \"" + std::string(1 << 20, 'x') + "\", \"ids\": [";
    for (int i = 0; i < 100000; ++i) doc += (i ? "," : "") + std::to_string(i);
    doc += "], \"rows\": [";
    for (int i = 0; i < 50; ++i)
        doc += std::string(i ? "," : "") + "{\"id\": " + std::to_string(i) + ", \"text\": \"" +
               std::string(900, 'y') + "\"}";
    doc += "]}";
    const JsonOptions options = options_with(false);
    const auto plan = rewrite_json(doc, options);
    ASSERT_TRUE(plan);
    const std::string view = render(*plan, options.measure);
    EXPECT_LE(view.size(), options.target_bytes);
    EXPECT_TRUE(ordered_json::parse(view).is_object());
    Tally tally;
    check_view(doc, options, false, tally);
}

TEST(JsonBudget, ReturnsTheTightestPlanWhenNothingFits) {
    std::string doc = "{";
    for (int i = 0; i < 400; ++i)
        doc += std::string(i ? "," : "") + "\"key" + std::to_string(i) + "\": \"" +
               std::string(600, 'v') + "\"";
    doc += "}";
    const JsonOptions options = options_with(false);
    const auto plan = rewrite_json(doc, options);
    ASSERT_TRUE(plan);
    EXPECT_GT(render(*plan, options.measure).size(), options.target_bytes);
    EXPECT_EQ(plan->elisions.size(), 400u);
    // At the floor of 64 bytes, 32 are kept: 21 head, 11 tail.
    EXPECT_EQ(plan->elisions[0].end - plan->elisions[0].begin, 600u - 32);
}

TEST(JsonBudget, SmallDocumentsElideNothing) {
    EXPECT_FALSE(rewrite_json("{\"a\":1,\"b\":[1,2,3]}", options_with(false)));
    EXPECT_FALSE(rewrite_json("[]", options_with(false)));
    Generator gen(7);
    for (int i = 0; i < 50; ++i) {
        const std::string doc = gen.document(Style::pretty2, false);
        if (doc.size() < 2000) {
            EXPECT_FALSE(rewrite_json(doc, options_with(false))) << doc;
        }
    }
}

TEST(JsonScanner, AcceptsValidDocuments) {
    const char* const valid[] = {
        "[]",
        "{}",
        " \n\t\r[1]\r\n ",
        "{\"a\":[1,-0.5e+10,true,false,null,\"x\"],\"b\":{}}",
        "[\"\\u0000\", \"\\/\", \"\\ud83d\\ude00\", \"\\uD83D\\uDE00\", \"\xc3\xa9\xe6\x97\xa5\"]",
        "[0, -0, 0.0, 1E5, 1e-5, 1E+5, 123456789012345678901234567890]",
        "{\"\":\"\"}",
        "[[[[]]]]",
    };
    for (const char* doc : valid) {
        EXPECT_TRUE(is_json_document(doc)) << doc;
        EXPECT_TRUE(nlohmann::json::accept(doc)) << doc;
    }
}

TEST(JsonScanner, RejectsInvalidDocuments) {
    using namespace std::string_literals;
    const std::string invalid[] = {
        "",
        "   ",
        "{\"a\":1,}",
        "[1,2,]",
        "[,1]",
        "[1 2]",
        "{\"a\" 1}",
        "{\"a\":1 \"b\":2}",
        "{a:1}",
        "['a']",
        "[\"\\x\"]",
        "[\"\\u12\"]",
        "[\"\\u12g4\"]",
        "[\"\\ud800\"]",        // lone high surrogate: refused (see json_rewrite.cpp)
        "[\"\\udc00\"]",        // lone low surrogate
        "[\"\\ud800\\u0041\"]", // high followed by a non-surrogate
        "[\"abc",
        "[",
        "{\"a\":",
        "[\"a\0b\"]"s,
        "[1]\0"s,
        "[\"tab\there\"]",
        "[\"nl\nhere\"]",
        "[\"\xff\"]",
        "[\"\xc3\"]",
        "[\"\xc0\xaf\"]",         // overlong
        "[\"\xed\xa0\x80\"]",     // UTF-8 encoded surrogate
        "[\"\xf4\x90\x80\x80\"]", // above U+10FFFF
        "[\xc3\xa9]",             // UTF-8 outside a string
        "\"str\"",
        "42",
        "true",
        "null",
        "{\"a\":1}\n{\"b\":2}\n", // JSON lines
        "[01]",
        "[1.]",
        "[.5]",
        "[1e]",
        "[1e+]",
        "[-]",
        "[+1]",
        "[tru]",
        "[NaN]",
        "[Infinity]",
        "[1]]",
        "{\"a\":1}}",
        "[1] x",
        "\xef\xbb\xbf[]", // byte-order mark
        "/* c */ []",
        "[1,\n// c\n2]",
        "[\f]", // form feed is not JSON whitespace
    };
    JsonOptions eager = options_with(false);
    eager.max_string_bytes = 2;
    eager.array_head = 0;
    eager.array_tail = 0;
    for (const auto& doc : invalid) {
        EXPECT_FALSE(is_json_document(doc)) << doc;
        EXPECT_FALSE(rewrite_json(doc, eager)) << doc;
    }
}

// The grammar allows numbers of any size; nlohmann refuses those that overflow a double. That is
// the one disagreement expected.
bool number_overflow(const std::string& doc) {
    try {
        const auto parsed = nlohmann::json::parse(doc);
    } catch (const nlohmann::json::out_of_range& e) {
        return e.id == 406;
    } catch (const std::exception&) {
    }
    return false;
}

// Random single-byte mutations of valid documents: the scanner agrees with nlohmann's strict
// parser (restricted to an object or array at top level, without NUL bytes), and never plans an
// invalid document.
TEST(JsonScanner, AgreesWithNlohmannOnMutations) {
    Generator gen(99);
    const char interesting[] = {',',  ']',  '}',    '[',    '{',    '"',    '\\',   'u',
                                '0',  '1',  'e',    '-',    '.',    ':',    ' ',    '\n',
                                '\t', '\0', '\x7f', '\xff', '\xc3', '\xed', '\xa0', '\x80',
                                'd',  '8',  'n',    't',    'f',    '+'};
    JsonOptions eager = options_with(false);
    eager.max_string_bytes = 10;
    eager.array_head = 0;
    eager.array_tail = 1;
    Tally tally;
    int accepted = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string doc = gen.document(i % 2 ? Style::compact : Style::pretty2, false);
        const int mutations = 1 + static_cast<int>(gen.below(3));
        for (int m = 0; m < mutations && !doc.empty(); ++m) {
            const std::size_t at = gen.below(doc.size());
            const char c = interesting[gen.below(sizeof(interesting))];
            switch (gen.below(3)) {
            case 0:
                doc.erase(at, 1);
                break;
            case 1:
                doc.insert(doc.begin() + static_cast<std::ptrdiff_t>(at), c);
                break;
            default:
                doc[at] = c;
                break;
            }
        }
        const auto first = doc.find_first_not_of(" \t\r\n");
        const bool container =
            first != std::string::npos && (doc[first] == '{' || doc[first] == '[');
        // nlohmann's lexer takes a NUL byte for the end of input; RFC 8259 allows none.
        const bool nul = doc.find('\0') != std::string::npos;
        bool expected = container && !nul && nlohmann::json::accept(doc);
        if (!expected && container && is_json_document(doc) && number_overflow(doc)) continue;
        ASSERT_EQ(is_json_document(doc), expected) << doc;
        if (expected) {
            ++accepted;
            check_view(doc, eager, false, tally);
        } else {
            EXPECT_FALSE(rewrite_json(doc, eager));
        }
        if (testing::Test::HasFailure()) FAIL() << doc;
    }
    EXPECT_GT(accepted, 100);
}

TEST(JsonLimits, DepthIsEnforced) {
    const auto nested = [](int depth) {
        return std::string(static_cast<std::size_t>(depth), '[') + "\"" + std::string(3000, 's') +
               "\"" + std::string(static_cast<std::size_t>(depth), ']');
    };
    EXPECT_TRUE(is_json_document(nested(256)));
    EXPECT_FALSE(is_json_document(nested(257)));
    EXPECT_TRUE(is_json_document(nested(10), 10));
    EXPECT_FALSE(is_json_document(nested(11), 10));
    EXPECT_FALSE(is_json_document(nested(100000)));
    JsonOptions options = options_with(false);
    EXPECT_TRUE(rewrite_json(nested(256), options));
    EXPECT_FALSE(rewrite_json(nested(257), options));
    options.max_depth = 3;
    EXPECT_TRUE(rewrite_json(nested(3), options));
    EXPECT_FALSE(rewrite_json(nested(4), options));
    // Objects count towards depth too.
    EXPECT_FALSE(is_json_document("{\"a\":{\"b\":[1]}}", 2));
    EXPECT_TRUE(is_json_document("{\"a\":{\"b\":[1]}}", 3));
}

TEST(JsonLimits, NodeCountIsEnforced) {
    // Nodes are values: the array itself plus its three items.
    EXPECT_TRUE(is_json_document("[1,2,3]", 256, 4));
    EXPECT_FALSE(is_json_document("[1,2,3]", 256, 3));
    std::string doc = "[";
    for (int i = 0; i < 5000; ++i) doc += (i ? "," : "") + std::to_string(i);
    doc += "]";
    JsonOptions options = options_with(false);
    EXPECT_TRUE(rewrite_json(doc, options));
    options.max_nodes = 5000;
    EXPECT_FALSE(rewrite_json(doc, options));
}

// A large document (many small values, long strings, a big array) plans to the target size.
// Its speed is measured in bench/, not asserted here: the machines are shared and noisy.
TEST(JsonLarge, LargeDocumentPlansWithinTarget) {
    std::string doc = "[\n";
    const std::string text(2000, 't');
    for (int i = 0; i < 60000; ++i) {
        doc += i ? ",\n" : "";
        doc += "  {\"id\": " + std::to_string(i) + ", \"name\": \"item \\u00e9\xe6\x97\xa5 " +
               std::to_string(i) + "\", \"ok\": true, \"v\": [1.5, -2e3, null], \"text\": \"" +
               (i % 10 == 0 ? text : std::string("short")) + "\"}";
    }
    doc += "\n]\n";
    ASSERT_GT(doc.size(), 16u << 20);
    const auto plan = rewrite_json(doc, options_with(false));
    ASSERT_TRUE(plan);
    EXPECT_LE(render(*plan, options_with(false).measure).size(), 8192u);
}

} // namespace
} // namespace sutra::core
