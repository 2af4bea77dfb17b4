// sutra_savings: the "Savings" tables in docs/benchmark.md. Runs sutra (core::compress with a
// temporary store) and every baseline (bench/baselines.hpp) on the generated fixtures
// (bench/fixtures.hpp) and on the real-output corpus (bench/corpus/make_corpus.sh), and prints
// bytes and exact o200k token counts before and after, clue visibility and recoverability, diff
// identity and must-keep lines lost, per case and in total, all from one run. For sutra on the
// corpus it also checks fidelity (bench/view_checks.hpp): must-keep lines visible, views over the
// ceiling (core::Config's max_view_bytes), markers' share of the view, JSON views valid when the
// input is JSON, and every marker's own restore call returning exactly the original's bytes.
// Diffs count as 0% saved: a changed diff earns nothing.
//
//   sutra_savings [--corpus DIR] [--store DIR] [--dump DIR]
//
// --store keeps the store (and its key) between runs, so marker ids and token counts repeat
// exactly; without it a fresh key gives ids, and so counts, that differ by a few tokens.

#include "bench/baselines.hpp"
#include "bench/fixtures.hpp"
#include "bench/view_checks.hpp"
#include "core/compress.hpp"
#include "core/store/store.hpp"
#include "core/tokenizer/tokenizer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace sutra;
namespace fs = std::filesystem;
namespace tok = core::tokenizer;

// One input: a fixture (with a clue) or a corpus case (with must-keep lines).
struct Case {
    std::string name;
    std::string command;
    int exit_code = 0;
    bool is_diff = false;
    std::string text;
    std::optional<std::string> clue;
    std::vector<std::string> must_keep; // ANSI-free, without the trailing newline
};

struct Result {
    std::size_t bytes = 0;
    std::optional<std::size_t> tokens; // o200k; nullopt when counting is unavailable
    std::optional<std::size_t> cl100k;
    bool clue_visible = false;
    bool clue_recoverable = false;
    bool diff_identical = true;
    std::size_t kept_lost = 0;
    std::string note; // e.g. sutra's passthrough reason
    // Fidelity, for sutra only (bench/view_checks.hpp).
    bool over_ceiling = false;
    std::size_t marker_bytes = 0;
    std::size_t markers = 0, restores_exact = 0;
    std::vector<std::string> restore_failures;
    bool json_input = false, json_valid = true;
    std::vector<std::string> missing; // must-keep entries not visible
    std::size_t unreachable = 0;      // …nor listed by the view's `--critical` call
};

struct System {
    std::string name;
    // Returns the view and whether the whole original can be read back afterwards.
    std::function<std::pair<std::string, std::function<bool(std::string_view)>>(const Case&)> run;
};

bool g_tokens = false;
std::string g_note;      // the last sutra run's passthrough reason
std::string g_store_dir; // sutra's store, where markers' restore calls are run
const std::uint64_t g_ceiling = core::Config{}.max_view_bytes;
std::string g_dump; // --dump DIR: write each sutra view there, for inspection

std::string slug(std::string_view name) {
    std::string out;
    for (char ch : name) out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    return out;
}

std::optional<std::size_t> count(std::string_view s, tok::Encoding e = tok::Encoding::o200k) {
    if (!g_tokens) return std::nullopt;
    auto n = tok::count_tokens(s, e);
    return n ? std::optional<std::size_t>(*n) : std::nullopt;
}

std::string temp_dir() {
    char tmpl[] = "/tmp/sutra-savings-XXXXXX";
    if (!::mkdtemp(tmpl)) std::exit(1);
    return tmpl;
}

// Corpus cases: NAME.out (the real output), NAME.keep (one must-keep line each), NAME.meta
// (exit=N, command=…, diff=1).
std::vector<Case> load_corpus(const fs::path& dir) {
    std::vector<Case> out;
    std::vector<fs::path> outs;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".out") outs.push_back(e.path());
    std::sort(outs.begin(), outs.end());
    for (const auto& p : outs) {
        const bench::CorpusCase loaded = bench::load_corpus_case(p.string());
        Case c;
        c.name = p.stem().string();
        c.text = loaded.text;
        c.command = loaded.command;
        c.exit_code = loaded.exit_code;
        c.is_diff = loaded.is_diff;
        c.must_keep = loaded.keep;
        out.push_back(std::move(c));
    }
    return out;
}

Result measure(const Case& c, const System& sys) {
    g_note.clear();
    auto [view, recover] = sys.run(c);
    Result r;
    r.note = g_note;
    r.bytes = view.size();
    r.tokens = count(view);
    r.cl100k = count(view, tok::Encoding::cl100k);
    r.diff_identical = view == c.text;
    if (c.clue) {
        r.clue_visible = bench::strip_ansi(view).find(*c.clue) != std::string::npos;
        r.clue_recoverable = r.clue_visible || (recover && recover(*c.clue));
    }
    // Must-keep lines are compared without colour and without trailing blanks: a baseline that
    // strips ANSI has not lost the line.
    const std::string clean = bench::strip_ansi(view);
    for (const auto& k : c.must_keep)
        if (clean.find(k) == std::string::npos) ++r.kept_lost;
    if (sys.name == "sutra" && !c.clue) {
        r.missing = bench::missing_keeps(view, c.must_keep);
        r.unreachable = bench::unreachable_keeps(view, c.text, c.must_keep, g_store_dir).size();
        // A diff must come back byte-identical, whatever its size: the ceiling is not its rule.
        r.over_ceiling = !c.is_diff && view.size() > g_ceiling;
        const auto markers = bench::parse_markers(view, c.text);
        r.markers = markers.size();
        r.marker_bytes = bench::marker_bytes(view, markers);
        for (const auto& m : markers) {
            std::string why = bench::check_restore(m, c.text, g_store_dir);
            if (why.empty())
                ++r.restores_exact;
            else
                r.restore_failures.push_back(std::move(why));
        }
        r.json_input = nlohmann::json::accept(c.text);
        if (r.json_input) r.json_valid = nlohmann::json::accept(view);
    }
    return r;
}

std::string pct(std::size_t before, std::size_t after) {
    if (before == 0) return "0.0%";
    return fmt::format("{:+.1f}%", 100.0 * ((double)after - (double)before) / (double)before);
}

std::string tok_str(std::optional<std::size_t> t) {
    return t ? fmt::format("{}", *t) : "n/a";
}

std::string yes(bool b) {
    return b ? "yes" : "**no**";
}

} // namespace

int main(int argc, char** argv) {
    std::string corpus_dir;
    std::string store_arg; // a kept store: its key, and so every marker id, is the same next run
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--corpus" && i + 1 < argc)
            corpus_dir = argv[++i];
        else if (a == "--dump" && i + 1 < argc)
            g_dump = argv[++i];
        else if (a == "--store" && i + 1 < argc)
            store_arg = argv[++i];
    }

    auto loaded = tok::load(tok::Encoding::o200k);
    if (loaded) loaded = tok::load(tok::Encoding::cl100k);
    if (loaded)
        g_tokens = true;
    else
        fmt::print("> **Token counts unavailable** ({}): figures below are bytes only.\n\n",
                   loaded.error());

    const std::string dir = temp_dir();
    core::Config config;
    config.store_dir = store_arg.empty() ? dir + "/store" : store_arg;
    config.stats_enabled = false;
    const std::string store_dir = core::resolve_store_dir(config);
    g_store_dir = store_dir;

    std::vector<System> systems = {
        {"sutra",
         [&](const Case& c) -> std::pair<std::string, std::function<bool(std::string_view)>> {
             core::Request req;
             req.output = c.text;
             req.command = c.command;
             req.exit_code = c.exit_code;
             req.tool = "Bash";
             req.host = "cli";
             const core::Response resp = core::compress(req, config);
             std::string view(core::view_of(resp, c.text));
             g_note = resp.rewritten ? "" : "passed through (" + resp.passthrough + ")";
             if (!g_dump.empty()) {
                 std::ofstream(g_dump + "/" + slug(c.name) + ".sutra", std::ios::binary) << view;
             }
             if (!resp.rewritten) return {view, [](std::string_view) { return true; }};
             std::optional<std::string> id = resp.retained ? resp.id : std::nullopt;
             // Recoverable means: the store returns the original and the clue is in it.
             return {view, [id, store_dir](std::string_view clue) {
                         if (!id) return false;
                         core::StoreOptions o;
                         o.dir = store_dir;
                         auto store = core::Store::open(o);
                         if (!store) return false;
                         auto all = store->read_all(*id);
                         return all && all->find(clue) != std::string::npos;
                     }};
         }},
        {"raw",
         [](const Case& c) -> std::pair<std::string, std::function<bool(std::string_view)>> {
             return {bench::baseline_raw(c.text), [](std::string_view) { return true; }};
         }},
        {"head+tail 8 KiB",
         [](const Case& c) -> std::pair<std::string, std::function<bool(std::string_view)>> {
             return {bench::baseline_head_tail(c.text), nullptr};
         }},
        {"ANSI strip + uniq",
         [](const Case& c) -> std::pair<std::string, std::function<bool(std::string_view)>> {
             return {bench::baseline_ansi_uniq(c.text), nullptr};
         }},
        {"CtxCtl exec defaults",
         [](const Case& c) -> std::pair<std::string, std::function<bool(std::string_view)>> {
             return {bench::baseline_ctxctl(c.text), nullptr};
         }},
        {"Everruns auto",
         [](const Case& c) -> std::pair<std::string, std::function<bool(std::string_view)>> {
             // The saved copy holds the first 1 MiB of the output.
             std::string head = c.text.substr(0, std::min<std::size_t>(c.text.size(), 1u << 20));
             return {bench::baseline_everruns(c.text, c.exit_code), [head](std::string_view clue) {
                         return head.find(clue) != std::string::npos;
                     }};
         }},
    };

    std::vector<Case> fixtures;
    for (auto& f : bench::make_fixtures())
        fixtures.push_back({f.name, f.command, f.exit_code, f.is_diff, f.text, f.clue, {}});
    std::vector<Case> corpus;
    if (!corpus_dir.empty() && fs::is_directory(corpus_dir)) corpus = load_corpus(corpus_dir);

    auto run_all = [&](const std::vector<Case>& cases) {
        std::vector<std::vector<Result>> out(cases.size());
        for (std::size_t i = 0; i < cases.size(); ++i)
            for (const auto& s : systems) out[i].push_back(measure(cases[i], s));
        return out;
    };

    // ---- Fixtures -------------------------------------------------------------------------
    const auto fr = run_all(fixtures);
    std::vector<std::optional<std::size_t>> f_tok_before;
    for (const auto& c : fixtures) f_tok_before.push_back(count(c.text));

    fmt::print("### Reference fixtures: sutra per fixture\n\n");
    fmt::print("| fixture | lines | exit | bytes before → after | o200k before → after | o200k "
               "saved | clue visible | clue via "
               "restore | diff byte-identical |\n|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t i = 0; i < fixtures.size(); ++i) {
        const auto& c = fixtures[i];
        const auto& r = fr[i][0];
        fmt::print(
            "| {} | {} | {} | {} → {} ({}) | {} → {} | {} | {} | {} | {} |\n", c.name,
            std::count(c.text.begin(), c.text.end(), '\n'), c.exit_code, c.text.size(), r.bytes,
            pct(c.text.size(), r.bytes), tok_str(f_tok_before[i]), tok_str(r.tokens),
            f_tok_before[i] && r.tokens ? pct(*f_tok_before[i], *r.tokens) : "n/a",
            yes(r.clue_visible), yes(r.clue_recoverable), c.is_diff ? yes(r.diff_identical) : "—");
    }

    // Per system totals over a set of cases.
    struct Total {
        std::size_t bytes_before = 0, bytes_after = 0, tok_before = 0, tok_after = 0;
        std::size_t cl_before = 0, cl_after = 0;
        int clues = 0, clues_rec = 0, diffs = 0, diffs_ok = 0;
        std::size_t lost = 0, keep_total = 0, cases_losing = 0;
        bool tokens = true;
    };
    auto totals = [&](const std::vector<Case>& cases, const std::vector<std::vector<Result>>& res) {
        std::vector<Total> t(systems.size());
        for (std::size_t s = 0; s < systems.size(); ++s)
            for (std::size_t i = 0; i < cases.size(); ++i) {
                const auto& r = res[i][s];
                auto before = count(cases[i].text);
                // A diff counts as 0% saved: whatever a system did to it earns nothing.
                const bool diff = cases[i].is_diff;
                t[s].bytes_before += cases[i].text.size();
                t[s].bytes_after += diff ? cases[i].text.size() : r.bytes;
                if (before && r.tokens) {
                    const auto cl_before = count(cases[i].text, tok::Encoding::cl100k).value_or(0);
                    t[s].tok_before += *before;
                    t[s].tok_after += diff ? *before : *r.tokens;
                    t[s].cl_before += cl_before;
                    t[s].cl_after += diff ? cl_before : r.cl100k.value_or(0);
                } else {
                    t[s].tokens = false;
                }
                if (cases[i].clue) {
                    ++t[s].clues;
                    t[s].clues_rec += r.clue_recoverable;
                }
                if (cases[i].is_diff) {
                    ++t[s].diffs;
                    t[s].diffs_ok += r.diff_identical;
                }
                t[s].keep_total += cases[i].must_keep.size();
                t[s].lost += r.kept_lost;
                t[s].cases_losing += r.kept_lost > 0;
            }
        return t;
    };
    auto visible = [&](const std::vector<std::vector<Result>>& res, std::size_t s) {
        int n = 0;
        for (const auto& row : res) n += row[s].clue_visible;
        return n;
    };

    const auto ft = totals(fixtures, fr);
    fmt::print("\n### Reference fixtures: totals per system (same run)\n\n");
    fmt::print("| system | bytes before → after | bytes saved | o200k before → after | o200k saved "
               "| clues visible "
               "without restore | clues recoverable | diffs byte-identical | cl100k saved "
               "|\n|---|---|---|---|---|---|---|---|---|\n");
    fmt::print("| SUTRA (reference, published) | — | −54.3% | — | −55.2% | — | 8/8 \"recovered\" | "
               "0 diffs touched | — |\n");
    for (std::size_t s = 0; s < systems.size(); ++s) {
        const auto& t = ft[s];
        fmt::print(
            "| {} | {} → {} | {} | {} | {} | {}/{} | {}/{} | {}/{} | {} |\n", systems[s].name,
            t.bytes_before, t.bytes_after, pct(t.bytes_before, t.bytes_after),
            t.tokens ? fmt::format("{} → {}", t.tok_before, t.tok_after) : "n/a",
            t.tokens ? pct(t.tok_before, t.tok_after) : "n/a", visible(fr, s), t.clues, t.clues_rec,
            t.clues, t.diffs_ok, t.diffs, t.tokens ? pct(t.cl_before, t.cl_after) : "n/a");
    }

    fmt::print("\n### Reference fixtures: o200k saved per fixture and system (✓ clue visible, ✗ "
               "hidden)\n\n|fixture|");
    for (const auto& s : systems) fmt::print(" {} |", s.name);
    fmt::print("\n|---|");
    for (std::size_t s = 0; s < systems.size(); ++s) fmt::print("---|");
    fmt::print("\n");
    for (std::size_t i = 0; i < fixtures.size(); ++i) {
        fmt::print("| {} |", fixtures[i].name);
        for (std::size_t s = 0; s < systems.size(); ++s) {
            const auto& r = fr[i][s];
            const std::string saved = f_tok_before[i] && r.tokens
                                          ? pct(*f_tok_before[i], *r.tokens)
                                          : pct(fixtures[i].text.size(), r.bytes) + " B";
            fmt::print(" {} {} |", saved, r.clue_visible ? "✓" : "✗");
        }
        fmt::print("\n");
    }

    // ---- Corpus ---------------------------------------------------------------------------
    std::vector<Total> ct;
    std::vector<std::vector<Result>> cr;
    if (corpus.empty()) {
        fmt::print("\n> No corpus ({}): run bench/corpus/make_corpus.sh first.\n",
                   corpus_dir.empty() ? "no --corpus given" : corpus_dir);
    } else {
        cr = run_all(corpus);
        ct = totals(corpus, cr);
        fmt::print("\n### Real-output corpus: sutra per case\n\n");
        fmt::print("| case | exit | bytes before → after | o200k before → after | o200k saved | "
                   "must-keep lost | "
                   "note |\n|---|---|---|---|---|---|---|\n");
        for (std::size_t i = 0; i < corpus.size(); ++i) {
            const auto& c = corpus[i];
            const auto& r = cr[i][0];
            const auto before = count(c.text);
            fmt::print("| {} | {} | {} → {} | {} → {} | {} | {}/{} | {} |\n", c.name, c.exit_code,
                       c.text.size(), r.bytes, tok_str(before), tok_str(r.tokens),
                       before && r.tokens ? pct(*before, *r.tokens) : pct(c.text.size(), r.bytes),
                       r.kept_lost ? fmt::format("**{}**", r.kept_lost) : "0", c.must_keep.size(),
                       c.is_diff ? (r.diff_identical ? "diff, byte-identical" : "**diff changed**")
                                 : r.note);
        }
        // Fidelity of sutra's views: what an agent can rely on, per case and in total.
        fmt::print("\n### Real-output corpus: sutra's fidelity per case (view ceiling {} B)\n\n",
                   g_ceiling);
        fmt::print("| case | bytes | must-keep visible (listed by the view's --critical call) | "
                   "view ≤ ceiling (diffs exempt) | markers' share of view "
                   "| o200k saved | diff byte-identical | JSON view valid | restore calls exact "
                   "|\n|---|---|---|---|---|---|---|---|---|\n");
        struct Fidelity {
            std::size_t keep = 0, visible = 0, reached = 0, over = 0, marker_bytes = 0,
                        view_bytes = 0;
            std::size_t markers = 0, exact = 0, json = 0, json_ok = 0, diffs = 0, diffs_ok = 0;
            std::size_t tok_before = 0, tok_after = 0;
        } f;
        for (std::size_t i = 0; i < corpus.size(); ++i) {
            const auto& c = corpus[i];
            const auto& r = cr[i][0];
            const auto before = count(c.text);
            const std::size_t vis = c.must_keep.size() - r.missing.size();
            f.keep += c.must_keep.size();
            f.visible += vis;
            const std::size_t reach = c.must_keep.size() - r.unreachable;
            f.reached += reach;
            f.over += r.over_ceiling;
            f.marker_bytes += r.marker_bytes;
            f.view_bytes += r.bytes;
            f.markers += r.markers;
            f.exact += r.restores_exact;
            f.json += r.json_input;
            f.json_ok += r.json_input && r.json_valid;
            f.diffs += c.is_diff;
            f.diffs_ok += c.is_diff && r.diff_identical;
            if (before && r.tokens) {
                f.tok_before += *before;
                f.tok_after += c.is_diff ? *before : *r.tokens;
            }
            const std::string saved =
                c.is_diff ? "0% (diff)"
                          : (before && r.tokens ? pct(*before, *r.tokens)
                                                : pct(c.text.size(), r.bytes) + " B");
            fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", c.name, c.text.size(),
                       vis == c.must_keep.size()
                           ? fmt::format("{}/{}", vis, c.must_keep.size())
                           : fmt::format("**{}/{}** ({}/{})", vis, c.must_keep.size(), reach,
                                         c.must_keep.size()),
                       r.over_ceiling ? fmt::format("**no ({} B)**", r.bytes) : "yes",
                       r.bytes ? fmt::format("{:.1f}% ({} markers)",
                                             100.0 * (double)r.marker_bytes / (double)r.bytes,
                                             r.markers)
                               : "—",
                       saved, c.is_diff ? yes(r.diff_identical) : "—",
                       r.json_input ? yes(r.json_valid) : "—",
                       r.markers == 0 ? "— (no marker)"
                       : r.restores_exact == r.markers
                           ? fmt::format("{}/{}", r.restores_exact, r.markers)
                           : fmt::format("**{}/{}**", r.restores_exact, r.markers));
        }
        fmt::print("| **total** | {} cases | {}/{} ({}/{}) | {} over | {:.2f}% ({} markers) | {} | "
                   "{}/{} | {}/{} | {}/{} |\n",
                   corpus.size(), f.visible, f.keep, f.reached, f.keep, f.over,
                   f.view_bytes ? 100.0 * (double)f.marker_bytes / (double)f.view_bytes : 0.0,
                   f.markers, f.tok_before ? pct(f.tok_before, f.tok_after) : "n/a", f.diffs_ok,
                   f.diffs, f.json_ok, f.json, f.exact, f.markers);
        // The first few failures of each case, so a regression can be read without --dump.
        bool header = false;
        for (std::size_t i = 0; i < corpus.size(); ++i) {
            const auto& r = cr[i][0];
            if (r.missing.empty() && r.restore_failures.empty()) continue;
            if (!header) fmt::print("\nFidelity failures (at most 3 of each kind per case):\n\n");
            header = true;
            for (std::size_t k = 0; k < std::min<std::size_t>(3, r.missing.size()); ++k)
                fmt::print("- {}: must-keep not visible: `{}`\n", corpus[i].name,
                           r.missing[k].substr(0, 160));
            for (std::size_t k = 0; k < std::min<std::size_t>(3, r.restore_failures.size()); ++k)
                fmt::print("- {}: {}\n", corpus[i].name, r.restore_failures[k].substr(0, 300));
        }
        fmt::print("\n### Real-output corpus: o200k saved / must-keep lines lost, per case and "
                   "system\n\n|case|");
        for (const auto& s : systems) fmt::print(" {} |", s.name);
        fmt::print("\n|---|");
        for (std::size_t s = 0; s < systems.size(); ++s) fmt::print("---|");
        fmt::print("\n");
        for (std::size_t i = 0; i < corpus.size(); ++i) {
            fmt::print("| {} ({} keep) |", corpus[i].name, corpus[i].must_keep.size());
            const auto before = count(corpus[i].text);
            for (std::size_t s = 0; s < systems.size(); ++s) {
                const auto& r = cr[i][s];
                fmt::print(" {} / {} |",
                           before && r.tokens ? pct(*before, *r.tokens)
                                              : pct(corpus[i].text.size(), r.bytes),
                           r.kept_lost ? fmt::format("**{} lost**", r.kept_lost) : "0 lost");
            }
            fmt::print("\n");
        }
        auto print_totals = [&](const std::vector<Total>& tt, std::size_t n_cases) {
            fmt::print("| system | bytes before → after | bytes saved | o200k before → after | "
                       "o200k saved | must-keep lines lost | cases losing one | cl100k saved |\n"
                       "|---|---|---|---|---|---|---|---|\n");
            for (std::size_t s = 0; s < systems.size(); ++s) {
                const auto& t = tt[s];
                fmt::print(
                    "| {} | {} → {} | {} | {} | {} | {}/{} | {}/{} | {} |\n", systems[s].name,
                    t.bytes_before, t.bytes_after, pct(t.bytes_before, t.bytes_after),
                    t.tokens ? fmt::format("{} → {}", t.tok_before, t.tok_after) : "n/a",
                    t.tokens ? pct(t.tok_before, t.tok_after) : "n/a", t.lost, t.keep_total,
                    t.cases_losing, n_cases, t.tokens ? pct(t.cl_before, t.cl_after) : "n/a");
            }
        };
        fmt::print("\n### Real-output corpus: totals per system (same run)\n\n");
        print_totals(ct, corpus.size());
        // Diffs must come back whole, so they dilute every safe system's total alike; the
        // same totals without them show what the rewrite rules achieve where they may act.
        std::vector<Case> no_diff;
        std::vector<std::vector<Result>> no_diff_res;
        for (std::size_t i = 0; i < corpus.size(); ++i)
            if (!corpus[i].is_diff) {
                no_diff.push_back(corpus[i]);
                no_diff_res.push_back(cr[i]);
            }
        fmt::print("\n### Real-output corpus without the diff case(s): totals per system\n\n");
        print_totals(totals(no_diff, no_diff_res), no_diff.size());
    }

    // ---- Targets (issue 6) ------------------------------------------------------------------
    fmt::print("\n### Targets\n\n| target | measured | |\n|---|---|---|\n");
    {
        const auto& t = ft[0];
        const double saved = t.tokens
                                 ? 100.0 * (1.0 - (double)t.tok_after / (double)t.tok_before)
                                 : 100.0 * (1.0 - (double)t.bytes_after / (double)t.bytes_before);
        fmt::print("| fixtures: ≥70% fewer o200k tokens in total | {:.1f}% fewer {} | {} |\n",
                   saved, t.tokens ? "o200k tokens" : "bytes (tokens unavailable)",
                   saved >= 70 ? "met" : "**missed**");
        const int vis = visible(fr, 0);
        fmt::print("| fixtures: every clue visible without restore | {}/{} visible, {}/{} via "
                   "restore | {} |\n",
                   vis, t.clues, t.clues_rec, t.clues, vis == t.clues ? "met" : "**missed**");
        fmt::print("| fixtures: 0 diffs touched | {}/{} byte-identical | {} |\n", t.diffs_ok,
                   t.diffs, t.diffs_ok == t.diffs ? "met" : "**missed**");
    }
    if (!ct.empty()) {
        fmt::print("| corpus: no must-keep line lost | {} of {} lost | {} |\n", ct[0].lost,
                   ct[0].keep_total, ct[0].lost == 0 ? "met" : "**missed**");
        auto saved_of = [&](const Total& t) {
            return t.tokens ? 1.0 - (double)t.tok_after / (double)t.tok_before
                            : 1.0 - (double)t.bytes_after / (double)t.bytes_before;
        };
        std::string beaten, unbeaten;
        for (std::size_t s = 1; s < systems.size(); ++s) {
            if (ct[s].lost != 0) continue;
            const std::string entry =
                fmt::format("{} {:.1f}%", systems[s].name, 100 * saved_of(ct[s]));
            std::string& list = saved_of(ct[0]) > saved_of(ct[s]) ? beaten : unbeaten;
            list += (list.empty() ? "" : ", ") + entry;
        }
        fmt::print("| corpus: more saved than every baseline that loses none | sutra {:.1f}%; "
                   "beats: {}; not beaten: {} "
                   "| {} |\n",
                   100 * saved_of(ct[0]), beaten.empty() ? "—" : beaten,
                   unbeaten.empty() ? "—" : unbeaten, unbeaten.empty() ? "met" : "**missed**");
    }

    std::error_code ec;
    fs::remove_all(dir, ec);
    return 0;
}
