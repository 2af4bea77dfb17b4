#include "bench/fixtures.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace sutra::bench {
namespace {

// A fixed-seed generator: the fixtures must be identical on every machine and run.
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        state += 0x9e3779b97f4a7c15ull;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }
    template <class T, std::size_t N> const T& pick(const T (&items)[N]) { return items[below(N)]; }
};

const char* const k_words[] = {"alpha",   "beta",   "gamma", "delta",  "orders", "users", "cache",
                               "billing", "shards", "queue", "router", "config", "auth",  "index"};

// pytest -q -s: ~12,000 lines, ~60.9 kB, one failure. Tests print short progress lines; the
// code under test logs the real cause in the middle; the FAILURES section and summary end it.
Fixture pytest_q() {
    Fixture f{"pytest -q (12k lines)",
              "pytest -q -s tests/",
              1,
              false,
              "ERROR shard 7341: checksum 0x9f3a != expected 0x9f3b",
              ""};
    std::string head = "bringing up fixtures: db=sqlite://:memory: workers=4\n";
    std::string tail =
        "F\n"
        "=================================== FAILURES ===================================\n"
        "__________________________ test_shard_checksum[7341] ___________________________\n"
        "\n"
        "shard = 7341\n"
        "\n"
        "    @pytest.mark.parametrize(\"shard\", range(12000))\n"
        "    def test_shard_checksum(shard):\n"
        ">       assert verify(shard)\n"
        "E       assert False\n"
        "E        +  where False = verify(7341)\n"
        "\n"
        "tests/test_shards.py:42: AssertionError\n"
        "=========================== short test summary info ============================\n"
        "FAILED tests/test_shards.py::test_shard_checksum[7341] - assert False\n"
        "1 failed, 11999 passed in 41.27s\n";
    const std::size_t target_bytes = 60900, target_lines = 12000;
    std::size_t frame_lines = 0;
    for (char c : head + tail) frame_lines += c == '\n';
    const std::size_t body_lines = target_lines - frame_lines - 1; // -1: the clue line
    const std::size_t body_bytes =
        target_bytes - head.size() - tail.size(); // the clue goes in the body
    // Body lines are "ok N" cut to the length that lands the total on target_bytes.
    std::string body;
    body.reserve(body_bytes);
    for (std::size_t i = 0; i < body_lines; ++i) {
        const std::size_t left = body_bytes - body.size(), lines_left = body_lines - i;
        const std::size_t len = left / lines_left; // bytes including '\n'
        std::string line = fmt::format("ok {}", i * 37 % 100000);
        line.resize(len - 1, '.');
        body += line + '\n';
        if (i == body_lines / 2) body += f.clue + '\n';
    }
    f.text = head + body + tail;
    return f;
}

// A coloured CMake/Ninja build kept going past one error (ninja -k 0).
Fixture ansi_build() {
    Fixture f{"ANSI build log",
              "cmake --build build -- -k 0",
              1,
              false,
              "src/net/socket.cpp:412:9: error: use of undeclared identifier 'kMaxRetries'",
              ""};
    Rng rng{2};
    const int n = 1800;
    std::string s;
    for (int i = 0; i < n; ++i) {
        const char* w = rng.pick(k_words);
        s += fmt::format("\x1b[32m[{}/{}]\x1b[0m \x1b[1mBuilding CXX object "
                         "src/{}/CMakeFiles/{}.dir/{}_{}.cpp.o\x1b[0m\n",
                         i + 1, n, w, w, w, i);
        if (rng.below(40) == 0)
            s += fmt::format("\x1b[1msrc/{0}/{0}_{1}.cpp:{2}:{3}: \x1b[35mwarning: "
                             "\x1b[0m\x1b[1munused variable 'tmp{1}' "
                             "[-Wunused-variable]\x1b[0m\n",
                             w, i, 10 + rng.below(400), 1 + rng.below(30));
        if (i == n / 2)
            s += "\x1b[31mFAILED: \x1b[0msrc/net/CMakeFiles/net.dir/socket.cpp.o\n"
                 "\x1b[1m" +
                 f.clue.substr(0, 26) + "\x1b[31merror: \x1b[0m\x1b[1m" + f.clue.substr(33) +
                 "\x1b[0m\n";
    }
    s += "ninja: build stopped: subcommand failed.\n";
    f.text = std::move(s);
    // The clue's visible text is the line without its colour codes.
    f.clue = "use of undeclared identifier 'kMaxRetries'";
    return f;
}

// A service log tail: long runs of the same heartbeat, one different line inside a run.
Fixture repeated_runs() {
    Fixture f{"log with long repeated runs",
              "tail -n 20000 /var/log/app/worker.log",
              0,
              false,
              "lease lost: node-7 fenced at epoch 4411",
              ""};
    std::string s;
    for (int run = 0; run < 12; ++run) {
        s += fmt::format("worker: starting batch {}\n", run);
        for (int i = 0; i < 900; ++i) {
            s += "worker: heartbeat ok (lag 0ms)\n";
            if (run == 6 && i == 450) s += "worker: " + f.clue + "\n";
        }
        for (int i = 0; i < 300; ++i) s += "worker: waiting for lock /tmp/batch.lock\n";
        s += fmt::format("worker: batch {} done in {} ms\n", run, 1000 + run * 17);
    }
    f.text = std::move(s);
    return f;
}

// A paginated API response: 300 records, one with a long free-text field whose middle holds the
// clue.
Fixture json_payload() {
    Fixture f{"large JSON API payload",
              "curl -s https://api.example.com/v2/tenants?limit=300",
              0,
              false,
              "quota_exceeded: tenant t-9932 over plan by 17 percent",
              ""};
    Rng rng{4};
    std::string s = "{\n  \"object\": \"list\",\n  \"data\": [\n";
    for (int i = 0; i < 300; ++i) {
        std::string notes;
        if (i == 150) {
            for (int k = 0; k < 60; ++k) notes += fmt::format("sync window {} ok; ", k);
            notes += f.clue + "; ";
            for (int k = 60; k < 120; ++k) notes += fmt::format("sync window {} ok; ", k);
        } else {
            notes = fmt::format("created by import job {}", rng.below(100000));
        }
        s += fmt::format(
            "    {{\n      \"id\": \"t-{}\",\n      \"name\": \"{} {}\",\n      \"plan\": \"{}\",\n"
            "      \"seats\": {},\n      \"active\": {},\n      \"region\": \"{}\",\n"
            "      \"tags\": [\"{}\", \"{}\"],\n      \"notes\": \"{}\"\n    }}{}\n",
            9782 + i, rng.pick(k_words), i, i % 3 ? "team" : "enterprise", 1 + rng.below(500),
            rng.below(5) ? "true" : "false", i % 2 ? "eu-west-1" : "us-east-1", rng.pick(k_words),
            rng.pick(k_words), notes, i + 1 < 300 ? "," : "");
    }
    s += "  ],\n  \"has_more\": true,\n  \"next_cursor\": \"c_8f2a91\"\n}\n";
    f.text = std::move(s);
    return f;
}

// A Python traceback in the middle of request logs (the server kept running).
Fixture traceback_in_noise() {
    Fixture f{"traceback inside noise",
              "python3 -m app.server",
              1,
              false,
              "KeyError: 'shipping_zone_7781'",
              ""};
    Rng rng{5};
    std::string s;
    auto noise = [&](int n, int base) {
        for (int i = 0; i < n; ++i)
            s += fmt::format("2026-11-29 10:{:02}:{:02},{:03} INFO  [{}] GET /api/{}/{} 200 {}ms\n",
                             (base + i) / 60 % 60, (base + i) % 60, rng.below(1000), rng.below(8),
                             rng.pick(k_words), rng.below(9999), rng.below(300));
    };
    noise(1200, 0);
    s += "2026-11-29 10:20:00,417 ERROR [3] unhandled exception in POST /api/orders\n"
         "Traceback (most recent call last):\n";
    for (int d = 0; d < 30; ++d)
        s += fmt::format(
            "  File \"/srv/app/{}/handlers_{}.py\", line {}, in step_{}\n    return step_{}(ctx)\n",
            k_words[d % 14], d, 20 + d * 3, d, d + 1);
    s += "  File \"/srv/app/orders/pricing.py\", line 212, in step_30\n"
         "    rate = zones[order.zone]\n" +
         f.clue + "\n";
    noise(1200, 1200);
    s += "2026-11-29 10:40:00,002 INFO  shutting down: 1 request failed\n";
    f.text = std::move(s);
    return f;
}

// npm install: hundreds of fetch/deprecation lines; the peer-dependency conflict is in the middle.
Fixture package_install() {
    Fixture f{
        "package-manager install log",
        "npm install --loglevel http",
        0,
        false,
        "npm warn ERESOLVE overriding peer dependency react@17.0.2 required by legacy-ui@3.1.0",
        ""};
    Rng rng{6};
    std::string s;
    for (int i = 0; i < 1400; ++i) {
        const char* w = rng.pick(k_words);
        s +=
            fmt::format("npm http fetch GET 200 https://registry.npmjs.org/{}-{} {}ms (cache {})\n",
                        w, i, rng.below(400), rng.below(3) ? "hit" : "miss");
        if (rng.below(25) == 0)
            s += fmt::format(
                "npm warn deprecated {}-{}@1.{}.0: this package is no longer supported\n", w, i,
                rng.below(9));
        if (i == 700) s += f.clue + "\n";
    }
    s += "\nadded 1402 packages, and audited 1403 packages in 38s\n\n"
         "187 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 "
         "vulnerabilities\n";
    f.text = std::move(s);
    return f;
}

// grep -rn: a uniform listing where the one match that matters sits in the middle.
Fixture grep_listing() {
    Fixture f{"grep/search listing",
              "grep -rn TODO src/",
              0,
              false,
              "src/billing/invoice.py:88:    # TODO(security): api token is logged in plaintext",
              ""};
    Rng rng{7};
    std::string s;
    for (int i = 0; i < 2400; ++i) {
        s += fmt::format("src/{}/module_{}.py:{}:    # TODO: {} {} before release\n",
                         rng.pick(k_words), i / 7, 1 + rng.below(900),
                         rng.below(2) ? "tidy" : "rename", rng.pick(k_words));
        if (i == 1200) s += f.clue + "\n";
    }
    f.text = std::move(s);
    return f;
}

// A unified diff across many files; the behaviour change is a hunk in the middle.
Fixture git_diff() {
    Fixture f{"unified git diff",
              "git diff HEAD~3",
              0,
              true,
              "+    if (retries > k_max_retries) return -EAGAIN;",
              ""};
    Rng rng{8};
    std::string s;
    for (int file = 0; file < 60; ++file) {
        const char* w = rng.pick(k_words);
        s += fmt::format("diff --git a/src/{0}/{0}_{1}.cpp b/src/{0}/{0}_{1}.cpp\nindex "
                         "{2:07x}..{3:07x} 100644\n"
                         "--- a/src/{0}/{0}_{1}.cpp\n+++ b/src/{0}/{0}_{1}.cpp\n",
                         w, file, rng.next() & 0xfffffff, rng.next() & 0xfffffff);
        for (int h = 0; h < 3; ++h) {
            const unsigned at = 10 + h * 80 + rng.below(40);
            s += fmt::format("@@ -{},7 +{},7 @@ void {}_{}()\n", at, at, w, h);
            for (int k = 0; k < 3; ++k) s += fmt::format("     int v{} = load({});\n", k, at + k);
            s += fmt::format("-    log(\"{} {}\");\n", w, at);
            if (file == 30 && h == 1)
                s += f.clue + "\n";
            else
                s += fmt::format("+    log_debug(\"{} {}\");\n", w, at);
            for (int k = 3; k < 6; ++k) s += fmt::format("     int v{} = load({});\n", k, at + k);
        }
    }
    f.text = std::move(s);
    return f;
}

} // namespace

std::vector<Fixture> make_fixtures() {
    return {pytest_q(),           ansi_build(),      repeated_runs(), json_payload(),
            traceback_in_noise(), package_install(), grep_listing(),  git_diff()};
}

} // namespace sutra::bench
