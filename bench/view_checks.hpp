#pragma once
// Checks of one view against its original, shared by sutra_savings (bench/savings_main.cpp) and
// the real-output test (tests/real_output_test.cpp): must-keep lines visible, markers' share of
// the view, and every marker's own restore call, parsed from the view text and run through
// core::restore, returning exactly the bytes of the original it names.

#include "core/config.hpp"
#include "core/restore.hpp"
#include "core/store/store.hpp"

#include <cstdint>
#include <cstdlib>
#include <expected>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::bench {

/// The ANSI-free text the must-keep lines are looked up in (CSI and OSC sequences removed).
/// One corpus case as bench/corpus/make_corpus.sh writes it: NAME.out (the output), NAME.meta
/// (exit=, command=, diff=1) and NAME.keep (the must-keep lines).
struct CorpusCase {
    std::string text, command;
    int exit_code = 0;
    bool is_diff = false;
    std::vector<std::string> keep;
};

/// Reads the case whose output is `out_path` (NAME.out); missing files read as empty.
inline CorpusCase load_corpus_case(const std::string& out_path) {
    auto slurp = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string stem = out_path.substr(0, out_path.size() - 4); // less ".out"
    CorpusCase c;
    c.text = slurp(out_path);
    std::istringstream meta(slurp(stem + ".meta"));
    for (std::string line; std::getline(meta, line);) {
        if (line.starts_with("exit="))
            c.exit_code = std::atoi(line.c_str() + 5);
        else if (line.starts_with("command="))
            c.command = line.substr(8);
        else if (line == "diff=1")
            c.is_diff = true;
    }
    std::istringstream keep(slurp(stem + ".keep"));
    for (std::string line; std::getline(keep, line);)
        if (!line.empty()) c.keep.push_back(line);
    return c;
}

inline std::string strip_escapes(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < s.size() && !(s[j] >= '@' && s[j] <= '~')) ++j;
            i = j;
            continue;
        }
        if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == ']') {
            std::size_t j = i + 2;
            while (j < s.size() && s[j] != '\x07' && !(s[j] == '\x1b' && j + 1 < s.size())) ++j;
            i = (j < s.size() && s[j] == '\x1b') ? j + 1 : j;
            continue;
        }
        out += s[i];
    }
    return out;
}

/// The must-keep entries not found in the view.
inline std::vector<std::string> missing_keeps(std::string_view view,
                                              const std::vector<std::string>& keep) {
    const std::string clean = strip_escapes(view);
    std::vector<std::string> missing;
    for (const auto& k : keep)
        if (clean.find(k) == std::string::npos) missing.push_back(k);
    return missing;
}

/// One `[sutra: …]` marker of a view and the restore call it names.
struct Marker {
    std::string text; ///< from `[sutra:` to the closing `]`
    std::optional<std::pair<std::uint64_t, std::uint64_t>> named_bytes; ///< "bytes X-Y"
    std::string id;
    core::RestoreMode mode = core::RestoreMode::full;
    std::uint64_t start = 0, end = 0; ///< as in the call
    bool has_call = false;
};

inline std::optional<std::pair<std::uint64_t, std::uint64_t>> parse_range(std::string_view s) {
    std::uint64_t a = 0, b = 0;
    std::size_t i = 0;
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return std::nullopt;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') a = a * 10 + std::uint64_t(s[i++] - '0');
    if (i >= s.size() || s[i] != '-') return std::nullopt;
    ++i;
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return std::nullopt;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') b = b * 10 + std::uint64_t(s[i++] - '0');
    return std::pair{a, b};
}

/// Every marker in the view, in order. The CLI spelling of the call is parsed
/// (`restore su_ID --lines A-B`, `--bytes X-Y`, `--full`). Text that reads like a marker but is
/// in the original as it stands (a diff of sutra's own sources, say) is the tool's, not a marker.
inline std::vector<Marker> parse_markers(std::string_view view, std::string_view original) {
    std::vector<Marker> out;
    for (std::size_t at = view.find("[sutra: "); at != std::string_view::npos;
         at = view.find("[sutra: ", at + 1)) {
        const std::size_t close = view.find(']', at);
        if (close == std::string_view::npos) break;
        Marker m;
        m.text = std::string(view.substr(at, close + 1 - at));
        if (original.find(m.text) != std::string_view::npos) continue;
        const std::string_view t = m.text;
        if (auto b = t.find("bytes "); b != std::string_view::npos && b < t.find("restore:"))
            m.named_bytes = parse_range(t.substr(b + 6));
        if (auto r = t.find(" restore su_"); r != std::string_view::npos) {
            const std::size_t id_at = r + 9;
            const std::size_t id_end = t.find(' ', id_at);
            if (id_end != std::string_view::npos) {
                m.id = std::string(t.substr(id_at, id_end - id_at));
                const std::string_view rest = t.substr(id_end + 1);
                if (rest.starts_with("--full")) {
                    m.mode = core::RestoreMode::full;
                    m.has_call = true;
                } else if (rest.starts_with("--critical")) {
                    // The note counting error lines the view could not show: its call lists them.
                    m.mode = core::RestoreMode::critical;
                    m.has_call = true;
                } else if (rest.starts_with("--lines ") || rest.starts_with("--bytes ")) {
                    m.mode = rest[2] == 'l' ? core::RestoreMode::lines : core::RestoreMode::bytes;
                    if (auto range = parse_range(rest.substr(8))) {
                        m.start = range->first;
                        m.end = range->second;
                        m.has_call = true;
                    }
                }
            }
        }
        if (!m.has_call && !out.empty() && !out.front().id.empty()) {
            // A later marker names only its range: the first marker's call with that range
            // (core/rewrite/marker.hpp, marker economy).
            const auto lines = t.rfind("lines ");
            const auto bytes = t.rfind("bytes ");
            const bool by_lines = lines != std::string_view::npos &&
                                  (bytes == std::string_view::npos || lines > bytes);
            const auto at_range = by_lines ? lines : bytes;
            if (at_range != std::string_view::npos)
                if (auto range = parse_range(t.substr(at_range + 6))) {
                    m.id = out.front().id;
                    m.mode = by_lines ? core::RestoreMode::lines : core::RestoreMode::bytes;
                    m.start = range->first;
                    m.end = range->second;
                    m.has_call = true;
                    if (!by_lines) m.named_bytes = range;
                }
        }
        out.push_back(std::move(m));
    }
    return out;
}

/// Bytes of the view taken by markers: each marker, with its line's newline when it stands on a
/// line of its own.
inline std::size_t marker_bytes(std::string_view view, const std::vector<Marker>& markers) {
    std::size_t n = 0;
    std::size_t from = 0;
    for (const auto& m : markers) {
        const std::size_t at = view.find(m.text, from);
        if (at == std::string_view::npos) continue;
        n += m.text.size();
        const std::size_t after = at + m.text.size();
        if ((at == 0 || view[at - 1] == '\n') && after < view.size() && view[after] == '\n') ++n;
        from = after;
    }
    return n;
}

/// The original's bytes [begin, end) for a call's range: lines A-B (one-based, inclusive, with
/// the last line's newline), bytes X-Y (half-open), or all of it.
inline std::optional<std::pair<std::uint64_t, std::uint64_t>> call_range(std::string_view original,
                                                                         const Marker& m) {
    if (m.mode == core::RestoreMode::full)
        return std::pair<std::uint64_t, std::uint64_t>{0, original.size()};
    if (m.mode == core::RestoreMode::bytes) {
        if (m.start > m.end || m.end > original.size()) return std::nullopt;
        return std::pair{m.start, m.end};
    }
    if (m.start == 0 || m.start > m.end) return std::nullopt;
    std::uint64_t line = 1, begin = 0;
    std::optional<std::uint64_t> first;
    for (std::uint64_t i = 0; i <= original.size(); ++i) {
        if (line == m.start && !first) first = begin;
        if (i == original.size() || original[i] == '\n') {
            if (line == m.end && first)
                return std::pair{*first, std::min<std::uint64_t>(i + 1, original.size())};
            ++line;
            begin = i + 1;
        }
    }
    return std::nullopt;
}

/// The lines a `--critical` marker's call lists, paging until done: (line, text) pairs.
inline std::expected<std::vector<std::pair<std::uint64_t, std::string>>, std::string>
list_critical(const Marker& m, const std::string& store_dir) {
    core::StoreOptions o;
    o.dir = store_dir;
    auto store = core::Store::open(o);
    if (!store) return std::unexpected("store: " + store.error().message);
    core::RestoreQuery q;
    q.id = m.id;
    q.mode = core::RestoreMode::critical;
    q.max_bytes = core::k_restore_hard_cap;
    std::vector<std::pair<std::uint64_t, std::string>> out;
    for (int pages = 0; pages < 100000; ++pages) {
        auto r = core::restore(*store, q);
        if (!r)
            return std::unexpected("restore failed (" +
                                   std::string(core::outcome_name(r.error().code)) +
                                   "): " + r.error().message);
        std::string_view text = r->text;
        for (const auto& match : r->matches) {
            const std::size_t colon = text.find(':');
            const std::size_t eol = text.find('\n');
            if (colon == std::string_view::npos || eol == std::string_view::npos)
                return std::unexpected("a listing entry is not LINE:text");
            if (text.substr(0, colon) != std::to_string(match.line))
                return std::unexpected("a listing entry names another line than its match");
            out.emplace_back(match.line, std::string(text.substr(colon + 1, eol - colon - 1)));
            text.remove_prefix(eol + 1);
        }
        if (!r->next_lines) break;
        q.start = r->next_lines->first;
        q.end = r->next_lines->second;
    }
    return out;
}

/// The must-keep entries neither in the view nor in the listing of its `--critical` call (what
/// a model reaches with the one call the view gives for the errors it could not show).
inline std::vector<std::string> unreachable_keeps(std::string_view view,
                                                  std::string_view original,
                                                  const std::vector<std::string>& keep,
                                                  const std::string& store_dir) {
    std::vector<std::string> missing = missing_keeps(view, keep);
    if (missing.empty()) return missing;
    std::string listed;
    for (const Marker& m : parse_markers(view, original)) {
        if (m.mode != core::RestoreMode::critical) continue;
        if (auto lines = list_critical(m, store_dir))
            for (const auto& [line, text] : *lines) listed += strip_escapes(text) + "\n";
    }
    std::erase_if(missing,
                  [&](const std::string& k) { return listed.find(k) != std::string::npos; });
    return missing;
}

/// Runs the marker's call through core::restore (paging until done) and says whether it returned
/// exactly the original's bytes for its range, and whether those are the bytes the marker says
/// it elided. Empty on success; otherwise why not.
inline std::string
check_restore(const Marker& m, std::string_view original, const std::string& store_dir) {
    if (!m.has_call) return "no restore call in: " + m.text;
    if (m.mode == core::RestoreMode::critical) {
        // Each listed line must be the original's line of that number (a prefix when clipped).
        auto lines = list_critical(m, store_dir);
        if (!lines) return lines.error();
        std::vector<std::string_view> by_number{""};
        for (std::size_t at = 0; at < original.size();) {
            std::size_t eol = original.find('\n', at);
            if (eol == std::string_view::npos) eol = original.size();
            by_number.push_back(original.substr(at, eol - at));
            at = eol + 1;
        }
        if (lines->empty()) return "the --critical call lists no line: " + m.text;
        for (const auto& [line, text] : *lines)
            if (line >= by_number.size() || !by_number[line].starts_with(text))
                return "the --critical call lists line " + std::to_string(line) +
                       " other than the original has it: " + m.text;
        return {};
    }
    const auto range = call_range(original, m);
    if (!range) return "call names a range outside the original: " + m.text;
    core::StoreOptions o;
    o.dir = store_dir;
    auto store = core::Store::open(o);
    if (!store) return "store: " + store.error().message;
    core::RestoreQuery q;
    q.id = m.id;
    q.mode = m.mode;
    q.start = m.start;
    q.end = m.end;
    q.max_bytes = core::k_restore_hard_cap;
    std::string got;
    for (int pages = 0; pages < 100000; ++pages) {
        auto r = core::restore(*store, q);
        if (!r)
            return "restore failed (" + std::string(core::outcome_name(r.error().code)) +
                   "): " + r.error().message;
        got += r->text;
        if (!r->next) break;
        q.mode = core::RestoreMode::bytes;
        q.start = r->next->first;
        q.end = r->next->second;
    }
    const std::string_view want = original.substr(range->first, range->second - range->first);
    if (got != want)
        return "restore returned " + std::to_string(got.size()) + " bytes, not the original's " +
               std::to_string(want.size()) + " at that range: " + m.text;
    if (m.named_bytes && m.mode != core::RestoreMode::full && *m.named_bytes != *range)
        return "the marker names bytes " + std::to_string(m.named_bytes->first) + "-" +
               std::to_string(m.named_bytes->second) + " but its call returns bytes " +
               std::to_string(range->first) + "-" + std::to_string(range->second) + ": " + m.text;
    return {};
}

} // namespace sutra::bench
