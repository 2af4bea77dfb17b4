#include "core/compress.hpp"

#include "core/rewrite/classify.hpp"
#include "core/rewrite/json_rewrite.hpp"
#include "core/rewrite/line_runs.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/printed_file.hpp"
#include "core/rewrite/shape.hpp"
#include "core/rewrite/text_rewrite.hpp"
#include "core/stats.hpp"
#include "core/store/store.hpp"
#include "core/store/store_options.hpp"
#include "core/tokenizer/tokenizer.hpp"
#include "core/util/detach.hpp"

#include <fmt/core.h>

#include <chrono>
#include <exception>
#include <optional>
#include <thread>

namespace sutra::core {
namespace {

// The smallest budget for the lines a text view shows for their own sake (concise mode's).
constexpr std::uint64_t k_min_budget = 2048;

// From this size the original is written to a private temp file and hashed (a keyed hash at
// ~600 MB/s) on a second thread while the rewrite plans: a 30 MB log's 50 ms of hashing and its
// write then cost no wait, nor a 1 MB one's few ms (starting the thread costs about 0.1 ms).
// A view not worth showing publishes nothing: the temp file goes.
constexpr std::uint64_t k_store_aside_bytes = std::uint64_t{256} << 10;
// The aside writer's unit: a megabyte is written and then hashed while still in the cache.
constexpr std::size_t k_store_aside_chunk = std::size_t{1} << 20;

// The retained bytes written and hashed on another thread (StoreWriter, core/store/store.hpp).
// `complete` says every byte reached the temp file; else the store path writes them again.
struct StoreAside {
    std::optional<StoreWriter> writer;
    bool complete = false;
};

void write_aside(StoreAside& aside, std::string_view content) {
    try {
        bool ok = true;
        for (std::size_t at = 0; ok && at < content.size(); at += k_store_aside_chunk)
            ok = aside.writer->append(content.substr(at, k_store_aside_chunk));
        aside.complete = ok && aside.writer->retained() == content.size();
    } catch (...) {
        aside.complete = false;
    }
}

// JSON views aim for these sizes; markers inside strings make them a little larger.
std::uint64_t json_target(Mode mode, std::uint64_t ceiling) {
    switch (mode) {
    case Mode::concise:
        return std::min<std::uint64_t>(4096, ceiling);
    case Mode::verbose:
        return std::min<std::uint64_t>(32768, ceiling);
    case Mode::full:
        return ceiling;
    default:
        return std::min<std::uint64_t>(8192, ceiling);
    }
}

Response pass(Response r, std::string reason) {
    r.rewritten = false;
    r.view.clear();
    r.id.reset();
    r.retained = false;
    r.elisions.clear();
    r.rules.clear();
    r.passthrough = std::move(reason);
    return r;
}

Response run(const Request& req, const Config& cfg) {
    Response r;
    const std::string_view in = req.output;
    r.original_bytes = in.size();

    if (in.size() > cfg.max_input_bytes) return pass(std::move(r), "too-large");
    if (!req.store_namespace.empty() && !valid_namespace(req.store_namespace))
        return pass(std::move(r), "bad-namespace");

    r.shape = detect_shape(in, req.command);
    switch (r.shape) {
    case Shape::empty:
        return pass(std::move(r), "empty");
    case Shape::binary:
        return pass(std::move(r), "binary");
    case Shape::diff:
        return pass(std::move(r), "diff");
    default:
        break;
    }
    // An output past the store's per-entry quota still gets a bounded view: the store takes
    // its first max_entry_bytes, and markers past that say they are not retained.
    const std::uint64_t retain =
        cfg.store_enabled ? std::min<std::uint64_t>(in.size(), cfg.max_entry_bytes) : 0;
    // A large output goes to the store aside while the rewrite plans; it is published only
    // once the view is worth showing. One that passes whole as small or as a printed file
    // (both within the view ceiling) never starts it: that would make the store for nothing.
    // `writer` is declared after `aside`, so every way out of this function joins it before
    // the temp file is removed and before `in` goes away.
    StoreAside aside;
    std::jthread writer;
    if (retain >= k_store_aside_bytes && in.size() >= cfg.min_bytes &&
        in.size() > cfg.max_view_bytes) {
        if (auto opened = Store::open(store_options(cfg, req.store_namespace)))
            if (auto begun = opened->begin_put()) {
                aside.writer.emplace(std::move(*begun));
                writer = std::jthread(
                    [&aside, content = in.substr(0, retain)] { write_aside(aside, content); });
            }
    }

    // Long runs of identical lines condensed as they are indexed (core/rewrite/line_runs.hpp).
    const CondensedLines lines = index_condensed(in);
    r.original_lines = lines.original_lines();
    const bool small = in.size() < cfg.min_bytes ||
                       (r.original_lines < cfg.min_lines && in.size() <= cfg.max_view_bytes);
    if (small) return pass(std::move(r), "small");
    // A printed file: every line is meant, whole up to the ceiling (core/rewrite/printed_file.hpp).
    const bool printed = r.shape != Shape::json && is_printed_file(req, in);
    if (printed && in.size() <= cfg.max_view_bytes) return pass(std::move(r), "printed-file");

    const Mode mode = effective_mode(req, cfg);
    MarkerContext measure;
    // Measured as it will print: with the store off, markers name no id and say so (longer).
    if (cfg.store_enabled)
        measure.id = k_placeholder_id;
    else
        measure.store_disabled = true;
    measure.ttl_seconds = cfg.ttl_seconds;
    measure.route = req.route;
    if (measure.route.kind == RestoreRoute::Kind::cli)
        measure.route.store_namespace = req.store_namespace;
    if (cfg.store_enabled && retain < in.size()) {
        measure.retained_end = retain;
        measure.not_retained_why = fmt::format(
            "past the store's per-entry quota of {} bytes (the id holds bytes 0-{} of this "
            "output)",
            cfg.max_entry_bytes, retain);
    }

    // Building a matcher costs more than compressing a small result: keep the last one.
    thread_local std::vector<std::string> cached_patterns;
    thread_local std::optional<KeyMatcher> cached_keys;
    if (!cached_keys || cached_patterns != cfg.keep_patterns) {
        cached_keys.emplace(cfg.keep_patterns);
        cached_patterns = cfg.keep_patterns;
    }
    const KeyMatcher& keys = *cached_keys;

    JsonOptions jo;
    jo.keys = &keys;
    jo.target_bytes = json_target(mode, cfg.max_view_bytes);
    jo.max_bytes = cfg.max_view_bytes;
    jo.elide_arrays = cfg.store_enabled;
    jo.measure = measure;
    Plan plan;
    std::optional<Plan> outlined;
    if (printed && req.outliner) {
        const auto outline = req.outliner(in, printed_file_name(req.command));
        // The outline names original lines: a condensed index is indexed again in full.
        const LineIndex full = lines.condensed() ? index_lines(in) : LineIndex{};
        outlined = outline_plan(in, lines.condensed() ? full : lines.index, outline,
                                cfg.max_view_bytes, measure);
    }
    if (outlined) {
        plan = std::move(*outlined);
    } else if (r.shape == Shape::json) {
        auto p = rewrite_json(in, jo);
        if (!p) return pass(std::move(r), "json-not-reducible");
        plan = std::move(*p);
    } else {
        // A JSON document after a few lines of text (stderr before a tool's JSON) is rewritten
        // as JSON when that view fits the ceiling; otherwise the whole output is text.
        std::optional<Plan> json;
        if (const std::size_t at = json_after_text(in); at != std::string_view::npos) {
            json = rewrite_json_after_text(in, at, jo);
            if (json && render(*json, measure).size() > cfg.max_view_bytes) json.reset();
        }
        if (json) {
            r.shape = Shape::json;
            plan = std::move(*json);
        } else {
            TextOptions to = text_options(mode, cfg.max_view_bytes);
            // The lines shown for their own sake (head, tail, notes) stay a small share of the
            // output (an eighth): critical lines come on top, so a 28 KB compiler error is not half
            // kept.
            to.budget_bytes = std::min<std::uint64_t>(
                to.budget_bytes, std::max<std::uint64_t>(k_min_budget, in.size() / 8));
            to.measure = measure;
            to.folds = !shows_file_contents(req.command);
            // A lean view chosen by a zero exit status still gives the output's own error
            // reports a failing run's context (text_rewrite.hpp, TextOptions::on_errors).
            if (mode == Mode::concise && req.mode.value_or(cfg.mode) == Mode::automatic) {
                const TextOptions failing = text_options(Mode::normal, cfg.max_view_bytes);
                to.on_errors =
                    TextOptions::ErrorContext{failing.context_before, failing.context_after,
                                              failing.max_block, failing.max_line_bytes};
            }
            plan = rewrite_text(in, lines, r.shape, keys, to);
        }
    }
    if (plan.elisions.empty() && plan.rules.empty()) return pass(std::move(r), "nothing-to-elide");

    // Never worse: measure before storing anything.
    const std::uint64_t measured = render(plan, measure).size();
    const std::uint64_t limit = in.size() - in.size() * cfg.min_saving_percent / 100;
    if (measured >= limit) return pass(std::move(r), "not-smaller");
    if (measured > cfg.max_view_bytes) return pass(std::move(r), "over-ceiling");

    MarkerContext ctx = measure;
    ctx.id.reset();
    if (cfg.store_enabled) {
        if (writer.joinable()) writer.join();
        std::expected<std::string, StoreError> id;
        if (aside.complete) {
            id = aside.writer->commit();
        } else {
            auto store = Store::open(store_options(cfg, req.store_namespace));
            if (!store) return pass(std::move(r), "store-failed: " + store.error().message);
            id = store->put(in.substr(0, retain));
        }
        if (!id) return pass(std::move(r), "store-failed: " + id.error().message);
        ctx.id = *id;
        r.id = *id;
        r.retained = retain == in.size();
        r.retained_bytes = retain;
    }
    r.view = render(plan, ctx);
    r.rewritten = true;
    r.elisions = std::move(plan.elisions);
    r.rules = std::move(plan.rules);
    return r;
}

// Only rewrites are counted (a pass-through saves nothing), and only up to a size where counting
// (~100 MB/s) stays a small part of the call.
bool counts_tokens(std::size_t original_bytes, const Response& r, const Config& cfg) {
    return r.rewritten && cfg.stats_enabled && cfg.stats_count_tokens &&
           original_bytes <= k_stats_token_max_bytes;
}

// Exact o200k counts of what the model would have read and what it reads instead; a count that
// cannot be made is left out, never estimated.
void count_tokens_for_stats(std::string_view original,
                            std::string_view view,
                            const HostCut& req_cut,
                            RewriteRecord& rec) {
    auto in = tokenizer::count_tokens(original);
    if (!in) return;
    auto out = tokenizer::count_tokens(view);
    if (!out) return;
    rec.tokens_in = *in;
    rec.tokens_out = *out;
    if (!req_cut.known) return;
    // Where the host would show it whole, its figure is the original's count: never counted twice.
    if (host_shown_bytes(req_cut, original.size()) == original.size()) {
        rec.host_tokens = *in;
    } else if (auto host = tokenizer::count_tokens(host_shown_text(req_cut, original))) {
        rec.host_tokens = *host;
    }
}

Response compress_and_record(const Request& req, const Config& cfg, StatsLater* later) noexcept {
    const auto start = std::chrono::steady_clock::now();
    Response r;
    try {
        r = run(req, cfg);
    } catch (const std::exception& e) {
        r = pass(Response{}, std::string("error: ") + e.what());
        r.original_bytes = req.output.size();
    } catch (...) {
        r = pass(Response{}, "error: unknown");
        r.original_bytes = req.output.size();
    }
    try {
        RewriteRecord rec;
        rec.host = req.host;
        rec.tool = req.tool;
        rec.command_line = req.command;
        rec.session = req.session;
        rec.shape = std::string(to_string(r.shape));
        rec.outcome = r.rewritten
                          ? "rewritten"
                          : "passthrough:" + r.passthrough.substr(0, r.passthrough.find(':'));
        rec.bytes_in = r.original_bytes;
        rec.bytes_out = r.rewritten ? r.view.size() : r.original_bytes;
        rec.lines_in = r.original_lines;
        rec.rules = r.rules;
        rec.micros =
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                           std::chrono::steady_clock::now() - start)
                                           .count());
        if (req.host_cut.known) rec.host_bytes = host_shown_bytes(req.host_cut, r.original_bytes);
        if (!counts_tokens(req.output.size(), r, cfg)) {
            log_rewrite(cfg, rec);
        } else if (later != nullptr) {
            later->record = std::move(rec);
            later->cut = req.host_cut;
            later->due = true;
        } else {
            count_tokens_for_stats(req.output, r.view, req.host_cut, rec);
            log_rewrite(cfg, rec);
        }
    } catch (...) {
    }
    return r;
}

} // namespace

bool valid_namespace(std::string_view name) {
    if (name.empty() || name.size() > 64 || name == "." || name == "..") return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return false;
    return true;
}

Mode effective_mode(const Request& req, const Config& cfg) {
    const Mode m = req.mode.value_or(cfg.mode);
    if (m != Mode::automatic) return m;
    return req.exit_code && *req.exit_code == 0 ? Mode::concise : Mode::normal;
}

Response compress(const Request& req, const Config& cfg) noexcept {
    return compress_and_record(req, cfg, nullptr);
}

Response compress(const Request& req, const Config& cfg, StatsLater& later) noexcept {
    later.due = false;
    return compress_and_record(req, cfg, &later);
}

void log_counted(const StatsLater& later,
                 std::string_view original,
                 std::string_view view,
                 const Config& cfg) noexcept {
    try {
        RewriteRecord rec = later.record;
        count_tokens_for_stats(original, view, later.cut, rec);
        log_rewrite(cfg, rec);
    } catch (...) {
    }
}

void log_counted_after_exit(const StatsLater& later,
                            std::string_view original,
                            std::string_view view,
                            const Config& cfg) noexcept {
    if (!later.due) return;
    // Enough for a 16 MiB original (k_stats_token_max_bytes) at a tenth of the usual speed.
    constexpr unsigned k_count_seconds = 20;
    auto count = [&] { log_counted(later, original, view, cfg); };
    UniqueFd hold = hold_stats_pending(cfg);
    if (!hold.ok() || !run_detached(count, k_count_seconds)) count();
}

} // namespace sutra::core
