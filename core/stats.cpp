#include "core/stats.hpp"

#include "core/stats_command.hpp"
#include "core/util/json_fast.hpp"
#include "core/util/posix_io.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <map>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace sutra::core {

namespace {

constexpr std::string_view k_log_name = "stats.jsonl";
constexpr const char* k_pending_name = "stats.pending";
// The log rotates at stats_max_bytes, so a report needs little; this only bounds a runaway file.
constexpr std::size_t k_max_report_read = 64u << 20;
constexpr int k_bar_width = 20;

std::string log_path(const Config& config) {
    return resolve_store_dir(config) + "/" + std::string(k_log_name);
}

/// Whether an append may create the store directory: a rewrite does (the store would), a read
/// (restore) leaves a missing store missing.
enum class MakeDir { yes, no };

void append_line(const Config& config, const std::string& line, MakeDir make = MakeDir::yes) {
    // The store directory, created and checked as the store does (core/util/posix_io.hpp): a
    // symlinked or foreign directory gets no log.
    const std::string dir_path = resolve_store_dir(config);
    auto dir = make == MakeDir::yes ? make_private_dir(dir_path) : open_private_dir(dir_path);
    if (!dir) return;
    const int dfd = dir->get();
    const std::string name(k_log_name);

    // AT_SYMLINK_NOFOLLOW: a symlink planted at the log's name is never renamed or followed.
    struct stat st {};
    if (::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        static_cast<std::uint64_t>(st.st_size) >= config.stats_max_bytes)
        ::renameat(dfd, name.c_str(), dfd, (name + ".1").c_str());

    // O_NONBLOCK: a FIFO planted at the name must not hang the call; a second hard link means
    // the name was pointed at some other file, which must not grow; a file another user made
    // (before the directory was ours alone) is theirs to read, so it gets no record either.
    UniqueFd fd(::openat(dfd, name.c_str(),
                         O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK,
                         0600));
    if (!fd.ok()) return;
    struct stat opened {};
    if (::fstat(fd.get(), &opened) == 0 && S_ISREG(opened.st_mode) && opened.st_nlink == 1 &&
        opened.st_uid == ::geteuid()) {
        if ((opened.st_mode & 077) != 0) ::fchmod(fd.get(), 0600);
        // One write: O_APPEND keeps concurrent writers' lines whole.
        ssize_t n;
        do {
            n = ::write(fd.get(), line.data(), line.size());
        } while (n < 0 && errno == EINTR);
    }
}

std::string to_line(const nlohmann::ordered_json& record) {
    // Replace invalid UTF-8 (a host's odd tool name) rather than throw.
    return dump_json_fast(record) + "\n";
}

// Bounded, O_NOFOLLOW read of one log file in the checked store directory; empty when missing,
// not a regular file or not ours (a record there was not written by sutra for this user).
std::string read_log(int dirfd, const std::string& name) {
    UniqueFd fd(::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (!fd.ok()) return {};
    std::string text;
    struct stat st {};
    if (::fstat(fd.get(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid())
        read_bounded(fd.get(), k_max_report_read, text);
    return text;
}

// The lock file of hold_stats_pending, checked as the log is: a symlink, FIFO, foreign or
// hard-linked file at its name is never locked or waited on.
UniqueFd open_pending(int dfd, bool create) {
    const int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | (create ? O_CREAT : 0);
    UniqueFd fd(::openat(dfd, k_pending_name, flags, 0600));
    struct stat st {};
    if (!fd.ok() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
        st.st_uid != ::geteuid())
        return {};
    return fd;
}

// Waits, bounded, until no record is being counted: an exclusive lock succeeds only once every
// shared hold is gone. A hold that outlives the bound is read past (the report misses a record).
void wait_for_pending(int dfd) {
    UniqueFd fd = open_pending(dfd, false);
    if (!fd.ok()) return;
    constexpr int k_step_us = 2000;
    for (int waited = 0; waited < k_stats_pending_wait_ms * 1000; waited += k_step_us) {
        if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) return; // released with fd
        if (errno != EWOULDBLOCK && errno != EINTR) return;
        ::usleep(k_step_us);
    }
}

struct Totals {
    std::uint64_t calls = 0;
    std::uint64_t rewritten = 0;
    std::uint64_t bytes_in = 0;
    std::uint64_t bytes_out = 0;
    std::uint64_t saved = 0;
    // Token counts come only from records that carry them (see RewriteRecord::tokens_in).
    std::uint64_t token_records = 0;
    std::uint64_t tokens_in = 0;
    std::uint64_t tokens_out = 0;
    // Against what the host would have shown without sutra (core/host_cut.hpp): its own cut
    // where the record names one, else the raw output. A pass-through saves nothing against it
    // (the host's cut applies); a view larger than the host's cut saves less than nothing.
    std::uint64_t host_records = 0; ///< records that named the host's cut
    std::uint64_t host_bytes = 0;
    std::int64_t host_saved = 0;
    std::uint64_t host_tokens = 0; ///< over the records with token counts
    std::int64_t host_tokens_saved = 0;

    void add(const Totals& o) {
        calls += o.calls;
        rewritten += o.rewritten;
        bytes_in += o.bytes_in;
        bytes_out += o.bytes_out;
        saved += o.saved;
        token_records += o.token_records;
        tokens_in += o.tokens_in;
        tokens_out += o.tokens_out;
        host_records += o.host_records;
        host_bytes += o.host_bytes;
        host_saved += o.host_saved;
        host_tokens += o.host_tokens;
        host_tokens_saved += o.host_tokens_saved;
    }
    std::uint64_t tokens_saved() const {
        return tokens_in > tokens_out ? tokens_in - tokens_out : 0;
    }
    double saved_percent() const {
        return bytes_in == 0 ? 0.0
                             : 100.0 * static_cast<double>(saved) / static_cast<double>(bytes_in);
    }
};

struct Aggregate {
    std::map<std::string, Totals> periods; ///< by day or ISO week, when the query asks
    std::map<std::string, Totals> tools;
    std::map<std::string, Totals> shapes;
    std::map<std::string, Totals> commands; ///< only records that name a command
    Totals commands_total;
    Totals total;
    std::map<std::string, std::uint64_t> restores;
    bool empty() const { return total.calls == 0 && restores.empty(); }
};

std::string label(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string() || it->get_ref<const std::string&>().empty())
        return "(unknown)";
    return it->get<std::string>();
}

std::uint64_t number(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

std::int64_t signed_difference(std::uint64_t a, std::uint64_t b) {
    return a >= b ? static_cast<std::int64_t>(a - b) : -static_cast<std::int64_t>(b - a);
}

// A record's figures against the host's own cut (Totals::host_bytes).
void add_host_figures(const nlohmann::json& j, Totals& t) {
    const bool named = j.contains("host_bytes");
    t.host_records = named ? 1 : 0;
    t.host_bytes = named ? number(j, "host_bytes") : t.bytes_in;
    t.host_saved = t.rewritten ? signed_difference(t.host_bytes, t.bytes_out) : 0;
    if (t.token_records == 0) return;
    t.host_tokens = j.contains("host_tokens") ? number(j, "host_tokens") : t.tokens_in;
    t.host_tokens_saved = signed_difference(t.host_tokens, t.tokens_out);
}

// "2026-W49" for the ISO week holding "2026-12-02"; "" for a day that does not parse.
std::string iso_week(std::string_view day) {
    int y = 0;
    unsigned m = 0, d = 0;
    if (day.size() != 10 || std::sscanf(std::string(day).c_str(), "%4d-%2u-%2u", &y, &m, &d) != 3)
        return {};
    using namespace std::chrono;
    const year_month_day ymd{year{y}, month{m}, std::chrono::day{d}};
    if (!ymd.ok()) return {};
    const sys_days date{ymd};
    // The week belongs to the year of its Thursday.
    const sys_days thursday = date + days{3 - static_cast<int>(weekday{date}.iso_encoding() - 1)};
    const year_month_day t{thursday};
    const sys_days first{t.year() / January / 1};
    const auto week = (thursday - first).count() / 7 + 1;
    return fmt::format("{}-W{:02}", static_cast<int>(t.year()), week);
}

// The UTC day now, as the log writes it.
std::string today() {
    const std::chrono::year_month_day ymd{
        std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
    return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()),
                       static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
}

void add_line(Aggregate& agg, std::string_view line, const StatsQuery& query) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return;
    auto event = j.find("event");
    if (event == j.end() || !event->is_string()) return;
    if (!query.session.empty() && label(j, "session") != query.session) return;
    if (*event == "restore") {
        ++agg.restores[label(j, "outcome")];
        return;
    }
    if (*event != "rewrite") return;
    Totals t;
    t.calls = 1;
    auto outcome = j.find("outcome");
    t.rewritten = outcome != j.end() && *outcome == "rewritten" ? 1 : 0;
    t.bytes_in = number(j, "bytes_in");
    t.bytes_out = number(j, "bytes_out");
    t.saved = t.bytes_in > t.bytes_out ? t.bytes_in - t.bytes_out : 0;
    auto encoding = j.find("encoding");
    if (encoding != j.end() && *encoding == "o200k_base" && j.contains("tokens_in") &&
        j.contains("tokens_out")) {
        t.token_records = 1;
        t.tokens_in = number(j, "tokens_in");
        t.tokens_out = number(j, "tokens_out");
    }
    add_host_figures(j, t);
    agg.tools[label(j, "tool")].add(t);
    agg.shapes[label(j, "shape")].add(t);
    agg.total.add(t);
    if (query.period != StatsQuery::Period::none) {
        const std::string day = label(j, "day");
        std::string key = query.period == StatsQuery::Period::day ? day : iso_week(day);
        // Records written before days were logged, or edited by hand.
        if (key.empty() || (query.period == StatsQuery::Period::day && iso_week(day).empty()))
            key = "(undated)";
        agg.periods[key].add(t);
    }
    if (auto command = j.find("command"); command != j.end() && command->is_string()) {
        // A log edited by hand (or by another writer) must not put arbitrary text in the table.
        const std::string& name = command->get_ref<const std::string&>();
        agg.commands[plain_command_name(name) ? name : "(other)"].add(t);
        agg.commands_total.add(t);
    }
}

void add_log(Aggregate& agg, const std::string& text, const StatsQuery& query) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        add_line(agg, std::string_view(text).substr(pos, nl - pos), query);
        pos = nl + 1;
    }
}

nlohmann::json totals_json(const Totals& t) {
    return {{"calls", t.calls},
            {"rewritten", t.rewritten},
            {"bytes_in", t.bytes_in},
            {"bytes_out", t.bytes_out},
            {"saved_bytes", t.saved},
            {"token_counted", t.token_records},
            {"tokens_in", t.tokens_in},
            {"tokens_out", t.tokens_out},
            {"saved_tokens", t.tokens_saved()},
            {"host_cut_records", t.host_records},
            {"host_bytes", t.host_bytes},
            {"saved_bytes_vs_host", t.host_saved},
            {"host_tokens", t.host_tokens},
            {"saved_tokens_vs_host", t.host_tokens_saved}};
}

std::string human_bytes(std::uint64_t n) {
    if (n < 1024) return fmt::format("{} B", n);
    if (n < (1u << 20)) return fmt::format("{:.1f} KiB", static_cast<double>(n) / 1024);
    if (n < (1u << 30)) return fmt::format("{:.1f} MiB", static_cast<double>(n) / (1 << 20));
    return fmt::format("{:.1f} GiB", static_cast<double>(n) / (1 << 30));
}

std::string bar(double percent) {
    int filled = static_cast<int>(percent / 100.0 * k_bar_width + 0.5);
    filled = std::clamp(filled, 0, k_bar_width);
    return std::string(static_cast<std::size_t>(filled), '#') +
           std::string(static_cast<std::size_t>(k_bar_width - filled), '.');
}

// Tool names come from hosts; keep control bytes out of the terminal.
std::string printable(std::string_view name) {
    std::string out(name);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return out;
}

std::string
table(std::string_view title, const std::map<std::string, Totals>& rows, const Totals& total) {
    std::size_t name_width = std::max<std::size_t>(title.size(), 5); // "total"
    for (const auto& [name, t] : rows) name_width = std::max(name_width, name.size());

    auto row = [&](std::string_view name, const Totals& t) {
        double pct = t.saved_percent();
        return fmt::format("{:<{}}  {:>7}  {:>9}  {:>10}  {:>10}  {:>10}  {:>5.1f}%  {:>12}  {}\n",
                           name, name_width, t.calls, t.rewritten, human_bytes(t.bytes_in),
                           human_bytes(t.bytes_out), human_bytes(t.saved), pct, t.tokens_saved(),
                           bar(pct));
    };
    std::string out = fmt::format("{:<{}}  {:>7}  {:>9}  {:>10}  {:>10}  {:>10}  {:>6}  {:>12}\n",
                                  title, name_width, "calls", "rewritten", "bytes in", "bytes out",
                                  "saved", "saved%", "tokens saved");
    for (const auto& [name, t] : rows) out += row(printable(name), t);
    out += row("total", total);
    return out;
}

/// Commands by bytes in, largest first (ties by name): the ones that cost the most lead.
std::vector<std::pair<std::string, Totals>> commands_by_size(const Aggregate& agg) {
    std::vector<std::pair<std::string, Totals>> rows(agg.commands.begin(), agg.commands.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.second.bytes_in > b.second.bytes_in;
    });
    return rows;
}

std::string command_table(const Aggregate& agg) {
    const auto rows = commands_by_size(agg);
    std::size_t name_width = 7; // "command"
    for (const auto& [name, t] : rows) name_width = std::max(name_width, name.size());
    auto row = [&](std::string_view name, const Totals& t) {
        const double pct = t.saved_percent();
        return fmt::format("{:<{}}  {:>7}  {:>10}  {:>10}  {:>10}  {:>10}  {:>5.1f}%  {}\n", name,
                           name_width, t.calls, human_bytes(t.bytes_in), human_bytes(t.bytes_out),
                           t.tokens_in, t.tokens_out, pct, bar(pct));
    };
    std::string out =
        fmt::format("{:<{}}  {:>7}  {:>10}  {:>10}  {:>10}  {:>10}  {:>6}\n", "command", name_width,
                    "calls", "bytes in", "bytes out", "tokens in", "tokens out", "saved%");
    for (const auto& [name, t] : rows) out += row(name, t);
    out += row("total", agg.commands_total);
    return out;
}

double percent_of(std::int64_t part, std::uint64_t whole) {
    return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// The honest figure: saved against what the model would have read without sutra (the host's own
// cut, where the hook named it; else the raw output). Negative when sutra showed more.
std::string host_line(const Totals& t) {
    std::string out = fmt::format(
        "against what the hosts would have shown without sutra ({} of {} call{} named the host's "
        "own cut; the rest count the raw output): {} bytes saved ({:.1f}%)",
        t.host_records, t.calls, t.calls == 1 ? "" : "s", t.host_saved,
        percent_of(t.host_saved, t.host_bytes));
    if (t.token_records > 0)
        out += fmt::format(", {} tokens saved ({:.1f}%)", t.host_tokens_saved,
                           percent_of(t.host_tokens_saved, t.host_tokens));
    return out + "\n";
}

std::string text_report(const Config& config, const std::string& path, const Aggregate& agg) {
    std::string out;
    if (!config.stats_enabled) out += "note: stats logging is disabled (stats.enabled = false)\n";
    if (agg.empty()) return out + fmt::format("no records yet ({})\n", path);
    out += fmt::format("log: {}\n\n", path);
    out += table("tool", agg.tools, agg.total);
    out += "\n";
    out += table("shape", agg.shapes, agg.total);
    out += "\n";
    if (agg.commands.empty())
        out += "by command: no record names a command yet\n";
    else
        out += "by command (program names only; tokens are o200k_base, counted on rewrites):\n" +
               command_table(agg);
    const Totals& t = agg.total;
    if (t.token_records == 0) {
        out += "\ntokens (o200k_base): none counted yet\n";
    } else {
        double pct = t.tokens_in == 0 ? 0.0
                                      : 100.0 * static_cast<double>(t.tokens_saved()) /
                                            static_cast<double>(t.tokens_in);
        out +=
            fmt::format("\ntokens (o200k_base, exact): {} in, {} out, {} saved ({:.1f}%) over {} "
                        "counted rewrite{}",
                        t.tokens_in, t.tokens_out, t.tokens_saved(), pct, t.token_records,
                        t.token_records == 1 ? "" : "s");
        if (t.rewritten > t.token_records)
            out += fmt::format("; {} rewrite{} not counted", t.rewritten - t.token_records,
                               t.rewritten - t.token_records == 1 ? "" : "s");
        out += "\n";
    }
    out += host_line(t);
    out += "\nrestores:";
    if (agg.restores.empty()) out += " none";
    bool first = true;
    for (const auto& [outcome, count] : agg.restores) {
        out += fmt::format("{} {} {}", first ? "" : ",", outcome, count);
        first = false;
    }
    return out + "\n";
}

} // namespace

void log_rewrite(const Config& config, const RewriteRecord& record) noexcept {
    if (!config.stats_enabled) return;
    try {
        nlohmann::ordered_json j;
        j["event"] = "rewrite";
        j["host"] = record.host;
        j["tool"] = record.tool;
        if (const std::string command = command_name(record.command_line); !command.empty())
            j["command"] = command;
        j["shape"] = record.shape;
        j["outcome"] = record.outcome;
        j["bytes_in"] = record.bytes_in;
        j["bytes_out"] = record.bytes_out;
        j["lines_in"] = record.lines_in;
        j["lines_out"] = record.lines_out;
        j["rules"] = record.rules;
        j["us"] = record.micros;
        if (valid_session_id(record.session)) j["session"] = record.session;
        j["day"] = today();
        if (record.host_bytes) j["host_bytes"] = *record.host_bytes;
        if (record.tokens_in && record.tokens_out) {
            j["encoding"] = "o200k_base";
            j["tokens_in"] = *record.tokens_in;
            j["tokens_out"] = *record.tokens_out;
            if (record.host_tokens) j["host_tokens"] = *record.host_tokens;
        }
        append_line(config, to_line(j));
    } catch (...) {
        // Logging is best effort: it must never break a rewrite.
    }
}

UniqueFd hold_stats_pending(const Config& config) noexcept {
    try {
        if (!config.stats_enabled) return {};
        auto dir = make_private_dir(resolve_store_dir(config));
        if (!dir) return {};
        UniqueFd fd = open_pending(dir->get(), true);
        if (fd.ok() && ::flock(fd.get(), LOCK_SH | LOCK_NB) == 0) return fd;
    } catch (...) {
    }
    return {};
}

void log_restore(const Config& config, std::string_view outcome) noexcept {
    if (!config.stats_enabled) return;
    try {
        nlohmann::ordered_json j;
        j["event"] = "restore";
        j["outcome"] = std::string(outcome);
        append_line(config, to_line(j), MakeDir::no);
    } catch (...) {
    }
}

bool valid_session_id(std::string_view id) {
    if (id.empty() || id.size() > 128) return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.' || c == ':'))
            return false;
    return true;
}

namespace {

// Both log files, older first, read from a directory that passes the store's checks (as they
// are written); `refused` says why they were not read.
Aggregate read_aggregate(const Config& config, const StatsQuery& query, std::string& refused) {
    Aggregate agg;
    if (auto dir = open_private_dir(resolve_store_dir(config))) {
        wait_for_pending(dir->get());
        const std::string name(k_log_name);
        add_log(agg, read_log(dir->get(), name + ".1"), query);
        add_log(agg, read_log(dir->get(), name), query);
    } else if (dir.error().problem != DirProblem::missing) {
        refused = dir.error().message;
    }
    return agg;
}

std::string period_csv(const Aggregate& agg, const StatsQuery& query) {
    const bool periods = query.period != StatsQuery::Period::none;
    std::string out = fmt::format(
        "{},calls,rewritten,bytes_in,bytes_out,saved_bytes,tokens_in,tokens_out,saved_tokens,"
        "host_bytes,saved_bytes_vs_host,host_tokens,saved_tokens_vs_host\n",
        periods ? (query.period == StatsQuery::Period::day ? "day" : "week") : "tool");
    auto row = [&](const std::string& name, const Totals& t) {
        // Names are plain (days, weeks) or host tool names: quote those, doubling quotes.
        std::string quoted = "\"";
        for (char c : printable(name)) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
        out += fmt::format("{}\",{},{},{},{},{},{},{},{},{},{},{},{}\n", quoted, t.calls,
                           t.rewritten, t.bytes_in, t.bytes_out, t.saved, t.tokens_in, t.tokens_out,
                           t.tokens_saved(), t.host_bytes, t.host_saved, t.host_tokens,
                           t.host_tokens_saved);
    };
    for (const auto& [name, t] : periods ? agg.periods : agg.tools) row(name, t);
    row("total", agg.total);
    return out;
}

} // namespace

namespace {

std::string text_of(const Config& config,
                    const StatsQuery& query,
                    const std::string& path,
                    const Aggregate& agg,
                    const std::string& refused) {
    const char* period_name = query.period == StatsQuery::Period::day ? "day" : "week";
    std::string out = refused.empty() ? "" : fmt::format("note: stats not read: {}\n", refused);
    if (!query.session.empty()) out += fmt::format("session: {}\n", printable(query.session));
    if (query.period != StatsQuery::Period::none && !agg.empty()) {
        out += fmt::format("log: {}\n\n", path);
        return out + table(period_name, agg.periods, agg.total);
    }
    return out + text_report(config, path, agg);
}

nlohmann::json json_of(const StatsQuery& query,
                       const std::string& path,
                       const Aggregate& agg,
                       const std::string& refused) {
    const char* period_name = query.period == StatsQuery::Period::day ? "day" : "week";
    nlohmann::json out;
    out["log"] = path;
    if (!refused.empty()) out["refused"] = refused;
    if (!query.session.empty()) out["session"] = query.session;
    if (query.period != StatsQuery::Period::none) {
        out["period"] = period_name;
        out["periods"] = nlohmann::json::array();
        for (const auto& [name, t] : agg.periods) {
            nlohmann::json row = totals_json(t);
            row[period_name] = name;
            out["periods"].push_back(std::move(row));
        }
    }
    out["tools"] = nlohmann::json::object();
    for (const auto& [name, t] : agg.tools) out["tools"][name] = totals_json(t);
    out["shapes"] = nlohmann::json::object();
    for (const auto& [name, t] : agg.shapes) out["shapes"][name] = totals_json(t);
    out["total"] = totals_json(agg.total);
    out["commands"] = nlohmann::json::array();
    for (const auto& [name, t] : commands_by_size(agg))
        out["commands"].push_back({{"command", name},
                                   {"calls", t.calls},
                                   {"bytes_in", t.bytes_in},
                                   {"bytes_out", t.bytes_out},
                                   {"tokens_in", t.tokens_in},
                                   {"tokens_out", t.tokens_out}});
    out["encoding"] = "o200k_base";
    out["restores"] = nlohmann::json::object();
    for (const auto& [outcome, count] : agg.restores) out["restores"][outcome] = count;
    return out;
}

} // namespace

std::string stats_report(const Config& config, const StatsQuery& query) {
    const std::string path = log_path(config);
    std::string refused;
    const Aggregate agg = read_aggregate(config, query, refused);
    if (query.format == StatsQuery::Format::csv) return period_csv(agg, query);
    if (query.format == StatsQuery::Format::text) return text_of(config, query, path, agg, refused);
    return json_of(query, path, agg, refused)
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
           "\n";
}

StatsReports stats_reports(const Config& config, const StatsQuery& query) {
    const std::string path = log_path(config);
    std::string refused;
    const Aggregate agg = read_aggregate(config, query, refused);
    return {text_of(config, query, path, agg, refused), json_of(query, path, agg, refused)};
}

std::string stats_report(const Config& config, bool json) {
    StatsQuery query;
    query.format = json ? StatsQuery::Format::json : StatsQuery::Format::text;
    return stats_report(config, query);
}

std::string statusline_text(const Config& config, std::string_view session) {
    if (!valid_session_id(session)) return "sutra: no session";
    StatsQuery query;
    query.session = std::string(session);
    std::string refused;
    const Totals t = read_aggregate(config, query, refused).total;
    if (t.token_records > 0) {
        const double pct = t.tokens_in == 0 ? 0.0
                                            : 100.0 * static_cast<double>(t.tokens_saved()) /
                                                  static_cast<double>(t.tokens_in);
        std::string line = fmt::format("sutra: {} tokens saved ({:.0f}%) in {} call{}",
                                       t.tokens_saved(), pct, t.calls, t.calls == 1 ? "" : "s");
        // Where a hook named the host's own cut, what that leaves of the figure.
        if (t.host_records > 0)
            line += fmt::format(" ({} vs the host's own cut)", t.host_tokens_saved);
        return line;
    }
    if (t.calls > 0)
        return fmt::format("sutra: {} saved ({:.0f}%) in {} call{}", human_bytes(t.saved),
                           t.saved_percent(), t.calls, t.calls == 1 ? "" : "s");
    return "sutra: 0 tokens saved";
}

} // namespace sutra::core
