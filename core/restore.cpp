#include "core/restore.hpp"

#include "core/config.hpp"
#include "core/rewrite/classify.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/marker.hpp"
#include "core/rewrite/ranges.hpp"
#include "core/rewrite/text_rewrite.hpp"
#include "core/stats.hpp"
#include "core/store/store_options.hpp"
#include "core/util/utf8.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <string_view>

namespace sutra::core {

namespace {

constexpr std::size_t k_max_query_bytes = 200;
constexpr std::size_t k_max_matches = 20;
// A listing of error lines holds at least one row: `LINE:`, some of the line, and its newline.
constexpr std::uint64_t k_min_listing_bytes = 64;

std::unexpected<RestoreError> fail(RestoreError::Code code, std::string message) {
    return std::unexpected(RestoreError{code, std::move(message)});
}

RestoreError from_store(const StoreError& error, std::string_view id) {
    using Code = RestoreError::Code;
    switch (error.code) {
    case StoreErrc::bad_id:
        // The id is not echoed: it is caller input and may hold anything.
        return {Code::bad_id, "not a sutra id: ids are su_ followed by 32 lowercase hex digits"};
    case StoreErrc::not_found:
        return {Code::not_found,
                fmt::format("id {} is unknown or was swept; re-run the command, narrower if you "
                            "can",
                            id)};
    case StoreErrc::expired:
        return {Code::expired,
                fmt::format("id {} expired; re-run the command, narrower if you can", id)};
    case StoreErrc::corrupt:
        return {Code::corrupt,
                fmt::format("id {} was corrupt and has been deleted; re-run the command", id)};
    case StoreErrc::too_large:
    case StoreErrc::unsafe:
    case StoreErrc::io:
        break;
    }
    return {Code::io, error.message};
}

/// The largest cut <= pos that does not split a UTF-8 sequence (steps back at most 3 bytes).
std::size_t utf8_cut(std::string_view text, std::size_t pos) {
    for (int step = 0; step < 3 && pos > 0 && pos < text.size(); ++step) {
        if ((static_cast<unsigned char>(text[pos]) & 0xC0) != 0x80) break;
        --pos;
    }
    return pos;
}

/// Fills text/begin/end/next with the first page of [begin, range_end). With `prefer_lines` a
/// page ends after its last newline, unless a single line exceeds the bound (then `clipped`).
void page(RestoreResult& result,
          std::string_view content,
          std::uint64_t begin,
          std::uint64_t range_end,
          std::uint64_t max_bytes,
          bool prefer_lines) {
    std::uint64_t take = range_end - begin;
    if (take > max_bytes) {
        take = max_bytes;
        if (prefer_lines) {
            const auto window = content.substr(begin, max_bytes);
            const auto newline = window.rfind('\n');
            if (newline != std::string_view::npos)
                take = newline + 1;
            else
                result.clipped = true;
        }
        result.next = std::pair{begin + take, range_end};
    }
    result.text.assign(content.substr(begin, take));
    result.begin = begin;
    result.end = begin + take;
}

/// The error lines among lines first-last as `LINE:text` rows: whole rows while they fit the
/// bound, then `next_lines` names the rest. A row alone longer than the bound is cut (never to
/// nothing) and `rest` names the bytes of its line that follow.
void list_critical(RestoreResult& result,
                   std::string_view content,
                   const std::vector<std::uint64_t>& starts,
                   const std::vector<std::size_t>& critical,
                   std::uint64_t first,
                   std::uint64_t last,
                   std::uint64_t max_bytes) {
    bool full = false;
    for (const std::size_t i : critical) {
        const std::uint64_t line = i + 1;
        if (line < first) continue;
        if (line > last) break;
        ++result.critical_total;
        if (result.next_lines) continue;
        if (full) {
            result.next_lines = std::pair{line, last};
            continue;
        }
        std::string_view text = content.substr(starts[i], starts[i + 1] - starts[i]);
        if (text.ends_with('\n')) text.remove_suffix(1);
        std::string row = fmt::format("{}:", line);
        if (result.text.size() + row.size() + text.size() + 1 <= max_bytes) {
            row.append(text);
            row += '\n';
            result.text += row;
            result.matches.push_back(SearchMatch{line, starts[i]});
            continue;
        }
        if (!result.text.empty()) {
            result.next_lines = std::pair{line, last};
            continue;
        }
        // Alone longer than the page: its start (at least one character), the rest by bytes.
        const std::size_t room = max_bytes - row.size() - 1;
        const std::size_t cut = utf8_cut(text, room);
        row.append(text.substr(0, cut));
        row += '\n';
        result.text = std::move(row);
        result.matches.push_back(SearchMatch{line, starts[i]});
        result.clipped = true;
        result.rest = std::pair{starts[i] + cut, starts[i] + text.size()};
        result.rest_line = line;
        full = true;
    }
}

std::expected<RestoreResult, RestoreError> restore_impl(const Store& store, const RestoreQuery& q) {
    using Code = RestoreError::Code;
    if (!valid_id(q.id)) return std::unexpected(from_store({StoreErrc::bad_id, {}}, q.id));
    if (q.mode == RestoreMode::search && (q.query.empty() || q.query.size() > k_max_query_bytes))
        return fail(Code::bad_query,
                    fmt::format("search takes a literal of 1-{} bytes; this one has {}",
                                k_max_query_bytes, q.query.size()));
    const std::uint64_t max_bytes = std::clamp<std::uint64_t>(q.max_bytes, 1, k_restore_hard_cap);

    // The whole entry is read so its content hash is verified on every restore; entries are
    // bounded by the per-entry quota.
    auto content_or = store.read_all(q.id);
    if (!content_or) return std::unexpected(from_store(content_or.error(), q.id));
    const std::string_view content = *content_or;
    // One index of the original for every mode (core/rewrite/lines.hpp's line model), the
    // --critical listing's classification included.
    const LineIndex index = index_lines(content);
    const std::vector<std::uint64_t>& starts = index.starts;
    const std::uint64_t lines = index.count();

    RestoreResult result;
    result.total_bytes = content.size();
    result.total_lines = lines;

    switch (q.mode) {
    case RestoreMode::bytes: {
        const auto range = check_byte_range(q.start, q.end, content.size());
        if (!range) return fail(Code::bad_range, range.error());
        page(result, content, range->first, range->second, max_bytes, false);
        break;
    }
    case RestoreMode::lines: {
        // The one rule of every line range (core/rewrite/ranges.hpp): a last line past the end is
        // clamped, like a byte range's end.
        const auto span = check_line_span({q.start, q.end}, lines);
        if (!span) return fail(Code::bad_range, span.error());
        page(result, content, starts[span->first - 1], starts[span->last], max_bytes, true);
        break;
    }
    case RestoreMode::full:
        page(result, content, 0, content.size(), max_bytes, true);
        break;
    case RestoreMode::critical: {
        std::uint64_t first = 1, last = lines;
        if (q.range_given || q.start != 0 || q.end != 0) {
            const auto span = check_line_span({q.start, q.end}, lines);
            if (!span) return fail(Code::bad_range, span.error());
            first = span->first;
            last = span->last;
        }
        if (max_bytes < k_min_listing_bytes)
            return fail(Code::bad_range,
                        fmt::format("the error lines are listed whole, a line a row: max_bytes {} "
                                    "cannot hold one; ask for at least {}",
                                    max_bytes, k_min_listing_bytes));
        // Classified over the whole original, as the rewrite did, then cut to the window.
        const KeyMatcher keys(q.keep_patterns);
        const std::vector<std::size_t> critical = critical_lines(content, index, keys);
        list_critical(result, content, starts, critical, first, last, max_bytes);
        break;
    }
    case RestoreMode::search: {
        // One match per line (its first occurrence), in offset order, within the bound.
        const std::size_t width = max_bytes / 4;
        std::size_t pos = 0;
        while ((pos = content.find(q.query, pos)) != std::string_view::npos) {
            if (result.matches.size() == k_max_matches) {
                result.more_matches = true;
                break;
            }
            const auto line = static_cast<std::size_t>(
                std::upper_bound(starts.begin(), starts.end(), pos) - starts.begin() - 1);
            std::string_view text = content.substr(starts[line], starts[line + 1] - starts[line]);
            if (text.ends_with('\n')) text.remove_suffix(1);
            if (text.size() > width) {
                text = text.substr(0, utf8_cut(text, width));
                result.clipped = true;
            }
            const auto entry = fmt::format("{}:{}\n", line + 1, text);
            if (!result.matches.empty() && result.text.size() + entry.size() > max_bytes) {
                result.more_matches = true;
                break;
            }
            result.text += entry;
            result.matches.push_back(SearchMatch{line + 1, pos});
            pos = starts[line + 1];
        }
        break;
    }
    }
    return result;
}

} // namespace

std::expected<RestoreResult, RestoreError> restore(const Store& store, const RestoreQuery& query) {
    try {
        return restore_impl(store, query);
    } catch (const std::exception& e) {
        return fail(RestoreError::Code::io, fmt::format("restore: {}", e.what()));
    }
}

std::string restore_note(const RestoreQuery& query,
                         const RestoreResult& result,
                         const RestoreRoute& route,
                         std::optional<std::uint64_t> next_max_bytes) {
    std::string note = k_untrusted_note;
    note += '\n';
    if (query.mode == RestoreMode::critical) {
        note +=
            fmt::format("{} of {} lines with errors", result.matches.size(), result.critical_total);
        if (query.range_given || query.start != 0 || query.end != 0)
            note += fmt::format(" in lines {}-{}", query.start, query.end);
        if (result.rest)
            note += fmt::format("; line {} is longer than the page, its rest is bytes {}-{}",
                                result.rest_line, result.rest->first, result.rest->second);
    } else if (query.mode == RestoreMode::search) {
        note += fmt::format("{} {} for the literal query", result.matches.size(),
                            result.matches.size() == 1 ? "match" : "matches");
        if (result.more_matches) note += "; more exist, narrow the query";
        if (result.clipped) note += "; long lines were clipped";
    } else {
        note += fmt::format("bytes {}-{} of {}", result.begin, result.end, result.total_bytes);
        if (result.clipped) note += "; a line longer than the bound was cut";
    }
    note += '\n';
    if (result.rest) {
        RestoreCall rest;
        rest.id = query.id;
        rest.mode = "bytes";
        rest.start = result.rest->first;
        rest.end = result.rest->second;
        rest.max_bytes = next_max_bytes;
        note += "rest of line " + std::to_string(result.rest_line) + ": " +
                spell_restore(route, rest) + "\n";
    }
    // A paged byte range goes on by bytes; a paged listing of error lines by its line window.
    const auto next_range = result.next ? result.next : result.next_lines;
    if (next_range) {
        RestoreCall next;
        next.id = query.id;
        next.mode = result.next ? "bytes" : "critical";
        next.start = next_range->first;
        next.end = next_range->second;
        next.max_bytes = next_max_bytes;
        note += "next: " + spell_restore(route, next) + "\n";
    }
    return note;
}

namespace {

// A page cut by the bound may split a character, which a text block cannot carry: the page then
// ends before it and the next range starts at it, so pages still concatenate to the original.
std::optional<RestoreError> fit_text_only(const RestoreQuery& q, RestoreResult& r) {
    using Code = RestoreError::Code;
    const bool listing = q.mode == RestoreMode::search || q.mode == RestoreMode::critical;
    if (r.next && !listing) {
        const std::size_t cut = split_utf8_tail(r.text);
        if (cut > 0 && cut == r.text.size())
            return RestoreError{
                Code::bad_range,
                fmt::format("max_bytes {} is smaller than the UTF-8 character at byte {}; ask "
                            "for at least 4 bytes a page",
                            q.max_bytes, r.begin)};
        if (cut > 0) {
            r.text.resize(r.text.size() - cut);
            r.end -= cut;
            r.next->first -= cut;
        }
    }
    if (valid_utf8(r.text)) return std::nullopt;
    if (listing)
        return RestoreError{
            Code::not_utf8,
            fmt::format("the listed lines are not valid UTF-8, which an MCP text block cannot "
                        "carry; ask for mode \"bytes\" ranges that avoid the bad bytes, or run "
                        "`sutra restore {} {}` in a shell",
                        q.id, q.mode == RestoreMode::search ? "--search ..." : "--critical")};
    const std::uint64_t bad = r.begin + first_invalid_utf8(r.text);
    return RestoreError{
        Code::not_utf8,
        fmt::format("bytes {}-{} are not valid UTF-8 (byte {} is not), which an MCP text block "
                    "cannot carry exactly; ask for smaller ranges that avoid it (start and end on "
                    "character boundaries), or run `sutra restore {} --bytes {}-{}` in a shell "
                    "for the raw bytes",
                    r.begin, r.end, bad, q.id, r.begin, r.end)};
}

} // namespace

std::expected<RestoreResponse, RestoreError> restore(const RestoreRequest& request,
                                                     const Config& config) {
    const RestoreQuery& q = request.query;
    auto failed = [&](RestoreError e) {
        if (e.logged) log_restore(config, outcome_name(e.code));
        return std::unexpected(std::move(e));
    };
    if (!valid_id(q.id)) return failed(from_store({StoreErrc::bad_id, {}}, q.id));
    // A read creates nothing: no store, namespace or key where there was none.
    auto store = Store::open_existing(store_options(config, request.route.store_namespace));
    if (!store && store.error().code == StoreErrc::not_found)
        return failed(from_store(store.error(), q.id));
    if (!store)
        return std::unexpected(RestoreError{RestoreError::Code::io, store.error().message, false});
    RestoreResponse response;
    if (request.all) {
        auto data = store->read_all(q.id);
        if (!data) return failed(from_store(data.error(), q.id));
        response.result.text = std::move(*data);
        response.result.end = response.result.total_bytes = response.result.text.size();
        log_restore(config, "ok");
        return response;
    }
    RestoreQuery query = q;
    query.keep_patterns = config.keep_patterns;
    auto result = restore(*store, query);
    if (!result) return failed(std::move(result.error()));
    if (request.text_only)
        if (auto refused = fit_text_only(q, *result)) return failed(std::move(*refused));
    log_restore(config, "ok");
    response.note =
        restore_note(q, *result, request.route,
                     request.max_bytes_given ? std::optional(q.max_bytes) : std::nullopt);
    response.result = std::move(*result);
    return response;
}

const char* outcome_name(RestoreError::Code code) {
    switch (code) {
    case RestoreError::Code::bad_id:
        return "bad_id";
    case RestoreError::Code::not_found:
        return "not_found";
    case RestoreError::Code::expired:
        return "expired";
    case RestoreError::Code::corrupt:
        return "corrupt";
    case RestoreError::Code::bad_range:
        return "bad_range";
    case RestoreError::Code::bad_query:
        return "bad_query";
    case RestoreError::Code::not_utf8:
        return "not_utf8";
    case RestoreError::Code::io:
        return "io";
    }
    return "io";
}

} // namespace sutra::core
