// core/util/json_fast.hpp against nlohmann::json itself: the same texts accepted, the same trees
// built (types included), the same bytes written, over generated documents, mutations of them
// and the grammar's corners.

#include "core/util/json_fast.hpp"
#include "core/util/json_nesting.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <string>
#include <vector>

namespace sutra::core {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Equal values of equal types all the way down (nlohmann's == calls 1 and 1u and 1.0 equal).
template <class Json> bool same(const Json& a, const Json& b) {
    if (a.type() != b.type()) return false;
    switch (a.type()) {
    case Json::value_t::object: {
        if (a.size() != b.size()) return false;
        auto ib = b.begin();
        for (auto ia = a.begin(); ia != a.end(); ++ia, ++ib)
            if (ia.key() != ib.key() || !same(ia.value(), ib.value())) return false;
        return true;
    }
    case Json::value_t::array:
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!same(a[i], b[i])) return false;
        return true;
    case Json::value_t::number_float: {
        const double x = a.template get<double>(), y = b.template get<double>();
        return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default:
        return a == b;
    }
}

template <class Json> void expect_same_parse(const std::string& text) {
    const Json expected = Json::parse(text, nullptr, false);
    const Json got = parse_json_fast<Json>(text, 100000);
    ASSERT_EQ(got.is_discarded(), expected.is_discarded()) << testing::PrintToString(text);
    if (!expected.is_discarded()) {
        ASSERT_TRUE(same(got, expected)) << testing::PrintToString(text);
    }
}

std::string random_string(std::mt19937& rng) {
    static const std::vector<std::string> pieces = {"a",
                                                    "Z",
                                                    " ",
                                                    "\"",
                                                    "\\",
                                                    "/",
                                                    "\n",
                                                    "\t",
                                                    "\r",
                                                    "\b",
                                                    "\f",
                                                    std::string(1, '\0'),
                                                    "\x01",
                                                    "\x1f",
                                                    "\x7f",
                                                    "é",
                                                    "日本",
                                                    "👍",
                                                    "\xef\xbf\xbf",
                                                    "\xed\x9f\xbf",
                                                    "error: x",
                                                    "{",
                                                    "}",
                                                    "[",
                                                    "]",
                                                    ",",
                                                    ":",
                                                    "0",
                                                    "-1.5e3",
                                                    "true"};
    std::string s;
    const int n = static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) {
        if (rng() % 8 == 0) {
            s += std::string(rng() % 40, static_cast<char>('a' + rng() % 26));
        } else {
            s += pieces[rng() % pieces.size()];
        }
    }
    return s;
}

json random_number(std::mt19937& rng) {
    switch (rng() % 6) {
    case 0:
        return json(static_cast<std::int64_t>(rng()) - (1ll << 31));
    case 1:
        return json(static_cast<std::uint64_t>(rng()) << (rng() % 33));
    case 2:
        return json(std::numeric_limits<std::int64_t>::min());
    case 3:
        return json(std::numeric_limits<std::uint64_t>::max());
    case 4:
        return json(
            std::ldexp(static_cast<double>(rng()) / 7.0, static_cast<int>(rng() % 200) - 100));
    default:
        return json(-0.0);
    }
}

json random_value(std::mt19937& rng, int depth) {
    const unsigned kind = rng() % (depth > 4 ? 5 : 8);
    switch (kind) {
    case 0:
        return nullptr;
    case 1:
        return rng() % 2 == 0;
    case 2:
        return random_number(rng);
    case 3:
    case 4:
        return random_string(rng);
    case 5:
    case 6: {
        json o = json::object();
        const int n = static_cast<int>(rng() % 5);
        for (int i = 0; i < n; ++i) o[random_string(rng)] = random_value(rng, depth + 1);
        return o;
    }
    default: {
        json a = json::array();
        const int n = static_cast<int>(rng() % 5);
        for (int i = 0; i < n; ++i) a.push_back(random_value(rng, depth + 1));
        return a;
    }
    }
}

// A text of the value in one of several spellings: compact, indented, or with every non-ASCII
// character and some ASCII ones as \u escapes (surrogate pairs above U+FFFF), upper or lower hex.
std::string spell(const json& v, std::mt19937& rng) {
    switch (rng() % 3) {
    case 0:
        return v.dump();
    case 1:
        return v.dump(static_cast<int>(rng() % 3), rng() % 2 ? ' ' : '\t');
    default:
        return v.dump(-1, ' ', true);
    }
}

std::string mutate(std::string text, std::mt19937& rng) {
    static const std::vector<std::string> bits = {"\"",
                                                  "\\",
                                                  "\\u",
                                                  "\\ud83d",
                                                  "\\udc4d",
                                                  "\\u00",
                                                  std::string(1, '\0'),
                                                  "\xef\xbb\xbf",
                                                  "\xef",
                                                  "\xc0\xaf",
                                                  "\xed\xa0\x80",
                                                  "\xf4\x90\x80\x80",
                                                  "\xe0\x80",
                                                  "0",
                                                  "-",
                                                  "+",
                                                  ".",
                                                  "e",
                                                  "E",
                                                  "01",
                                                  "1e400",
                                                  "-0",
                                                  "18446744073709551616",
                                                  "-9223372036854775809",
                                                  " ",
                                                  "\n",
                                                  ",",
                                                  ":",
                                                  "{",
                                                  "}",
                                                  "[",
                                                  "]",
                                                  "tru",
                                                  "nul",
                                                  "true",
                                                  "null",
                                                  "\x1f",
                                                  "\x7f"};
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < edits; ++k) {
        const std::size_t at = text.empty() ? 0 : rng() % (text.size() + 1);
        switch (rng() % 3) {
        case 0:
            text.insert(at, bits[rng() % bits.size()]);
            break;
        case 1:
            if (at < text.size()) text.erase(at, 1 + rng() % 3);
            break;
        default:
            if (at < text.size()) text[at] = bits[rng() % bits.size()][0];
        }
    }
    return text;
}

TEST(JsonFast, ParsesGeneratedDocumentsAsNlohmannDoes) {
    std::mt19937 rng(1);
    for (int i = 0; i < 4000; ++i) {
        const json v = random_value(rng, 0);
        const std::string text = spell(v, rng);
        expect_same_parse<json>(text);
        expect_same_parse<ordered_json>(text);
        if (HasFatalFailure()) return;
    }
}

TEST(JsonFast, AcceptsAndRefusesMutatedTextsAsNlohmannDoes) {
    std::mt19937 rng(2);
    std::size_t accepted = 0, refused = 0;
    for (int i = 0; i < 30000; ++i) {
        const std::string text = mutate(spell(random_value(rng, 0), rng), rng);
        expect_same_parse<json>(text);
        if (HasFatalFailure()) return;
        (json::accept(text) ? accepted : refused) += 1;
    }
    // Both sides of the grammar are reached.
    EXPECT_GT(accepted, 2000u);
    EXPECT_GT(refused, 2000u);
}

TEST(JsonFast, TheGrammarsCornersAsNlohmann) {
    const std::vector<std::string> texts = {"",
                                            " ",
                                            "0",
                                            "-0",
                                            "-",
                                            "01",
                                            "1.",
                                            ".5",
                                            "1e",
                                            "1e+",
                                            "1E-2",
                                            "1e400",
                                            "-1e400",
                                            "1e-400",
                                            "18446744073709551615",
                                            "18446744073709551616",
                                            "-9223372036854775808",
                                            "-9223372036854775809",
                                            "123456789012345678901234567890",
                                            "0.1",
                                            "2.5e-3",
                                            "+1",
                                            "1 2",
                                            "true",
                                            "tru",
                                            "truex",
                                            "false",
                                            "null",
                                            "nul",
                                            "NULL",
                                            "\"\"",
                                            "\"a",
                                            "\"\\\"",
                                            "\"\\u0000\"",
                                            "\"\\u00e9\"",
                                            "\"\\u00E9\"",
                                            "\"\\ud83d\\udc4d\"",
                                            "\"\\ud83d\"",
                                            "\"\\ud83dx\"",
                                            "\"\\ud83d\\u0041\"",
                                            "\"\\udc4d\"",
                                            "\"\\uZZZZ\"",
                                            "\"\\x\"",
                                            "\"\t\"",
                                            "\"\x7f\"",
                                            "\"\xc3\xa9\"",
                                            "\"\xc3\"",
                                            "\"\xc0\xaf\"",
                                            "\"\xed\xa0\x80\"",
                                            "\"\xf4\x8f\xbf\xbf\"",
                                            "\"\xf4\x90\x80\x80\"",
                                            "\"\xe0\x9f\xbf\"",
                                            "\"\xf0\x8f\xbf\xbf\"",
                                            "\xef\xbb\xbf{}",
                                            "\xef\xbb{}",
                                            "\xef{}",
                                            " \xef\xbb\xbf{}",
                                            "{}",
                                            "[]",
                                            "{ }",
                                            "[ ]",
                                            "{\"a\":1,}",
                                            "[1,]",
                                            "[,1]",
                                            "{\"a\" 1}",
                                            "{1:2}",
                                            "{\"a\":1 \"b\":2}",
                                            "[1 2]",
                                            "{\"a\":1,\"a\":2}",
                                            "{\"b\":1,\"a\":2,\"b\":3}",
                                            std::string("{}\0junk", 7),
                                            std::string("[1,\0]", 5),
                                            std::string("\0", 1),
                                            std::string(" \0", 2),
                                            std::string("\"a\0b\"", 5),
                                            "[1]\n",
                                            "\r\n\t [true] \r\n",
                                            "[1]x",
                                            "{\"a\":[{}]}"};
    for (const std::string& t : texts) {
        expect_same_parse<json>(t);
        expect_same_parse<ordered_json>(t);
        if (HasFatalFailure()) return;
    }
}

// The depth limit is core/util/json_nesting.hpp's: within it a text parses, past it nothing does,
// through parse_within_nesting at both of its limits.
TEST(JsonFast, NestingPastTheLimitIsDiscarded) {
    for (std::size_t limit : {k_max_json_nesting, k_max_config_nesting}) {
        for (std::size_t depth : {limit - 1, limit, limit + 1, 3 * limit}) {
            const std::string text = std::string(depth, '[') + std::string(depth, ']');
            const json j = parse_within_nesting<json>(text, limit);
            EXPECT_EQ(j.is_discarded(), depth > limit) << limit << " " << depth;
            EXPECT_EQ(j.is_discarded(), !json_nesting_within(text, limit));
            const std::string objects = [&] {
                std::string s;
                for (std::size_t i = 0; i < depth; ++i) s += "{\"k\":";
                return s + "1" + std::string(depth, '}');
            }();
            EXPECT_EQ(parse_within_nesting<ordered_json>(objects, limit).is_discarded(),
                      depth > limit);
        }
    }
}

TEST(JsonFast, WritesWhatNlohmannWrites) {
    std::mt19937 rng(3);
    for (int i = 0; i < 4000; ++i) {
        json v = random_value(rng, 0);
        // Some strings that are not UTF-8 (nlohmann replaces them; so must we).
        if (i % 5 == 0) v = json::array({v, std::string("bad \xc3 byte\xff"), "ok"});
        const std::string expected = v.dump(-1, ' ', false, json::error_handler_t::replace);
        ASSERT_EQ(dump_json_fast(v), expected);
        const ordered_json o =
            ordered_json::parse(v.dump(-1, ' ', false, json::error_handler_t::replace));
        ASSERT_EQ(dump_json_fast(o), o.dump(-1, ' ', false, json::error_handler_t::replace));
    }
}

TEST(JsonFast, LongStringsRoundTripByteForByte) {
    std::mt19937 rng(4);
    for (int i = 0; i < 200; ++i) {
        std::string s;
        const std::size_t n = rng() % 70000;
        for (std::size_t k = 0; k < n; ++k)
            s += static_cast<char>(rng() % 2 ? 'a' + rng() % 26 : rng() % 128);
        if (i % 3 == 0) s += "日本👍é";
        const json v = {{"output", s}, {"n", i}};
        const std::string text = dump_json_fast(v);
        ASSERT_EQ(text, v.dump());
        const json back = parse_json_fast<json>(text, k_max_json_nesting);
        ASSERT_FALSE(back.is_discarded());
        ASSERT_EQ(back["output"].get<std::string>(), s);
    }
}

} // namespace
} // namespace sutra::core
