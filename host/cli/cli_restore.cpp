// `sutra restore`: bounded, paged reads of a stored original. The restored bytes alone go to
// standard output; the untrusted-data note and the next range go to standard error.

#include "core/compress.hpp"
#include "core/config.hpp"
#include "core/restore.hpp"
#include "core/rewrite/ranges.hpp"
#include "core/util/posix_io.hpp"
#include "host/cli/cli.hpp"

#include <cerrno>
#include <cstdio>
#include <optional>
#include <string>
#include <unistd.h>

namespace sutra::host {
namespace {

std::optional<std::uint64_t> parse_u64(std::string_view s) {
    if (s.empty() || s.size() > 15) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return v;
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> parse_range(std::string_view s) {
    const std::size_t dash = s.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    auto a = parse_u64(s.substr(0, dash));
    auto b = parse_u64(s.substr(dash + 1));
    if (!a || !b) return std::nullopt;
    return std::make_pair(*a, *b);
}

} // namespace

int cmd_restore(const Args& args) {
    core::RestoreQuery q;
    bool all = false;
    bool mode_set = false;
    bool critical = false;
    std::string ns;
    std::optional<std::uint64_t> max_bytes;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= args.size()) return std::nullopt;
            return args[++i];
        };
        auto set_mode = [&](core::RestoreMode m) {
            if (mode_set || all) {
                print_error("give one of --bytes, --lines, --search, --full, --critical, --all");
                return false;
            }
            mode_set = true;
            q.mode = m;
            return true;
        };
        if (a == "--bytes") {
            auto v = value();
            auto r = v ? parse_range(*v) : std::nullopt;
            if (!r) {
                print_error("--bytes takes a range A-B (e.g. --bytes 0-4096)");
                return 2;
            }
            if (!set_mode(core::RestoreMode::bytes)) return 2;
            q.start = r->first;
            q.end = r->second;
        } else if (a == "--lines") {
            // The syntax every line range shares (core/rewrite/ranges.hpp), one range here.
            auto v = value();
            auto spans = core::parse_line_spans(v.value_or(""));
            if (!spans || spans->size() != 1) {
                print_error("--lines: " +
                            (spans ? std::string("restore takes one range A-B") : spans.error()));
                return 2;
            }
            if (!set_mode(core::RestoreMode::lines)) return 2;
            q.start = spans->front().first;
            q.end = spans->front().last;
        } else if (a == "--search") {
            auto v = value();
            if (!v) {
                print_error("--search takes a literal text");
                return 2;
            }
            if (!set_mode(core::RestoreMode::search)) return 2;
            q.query = *v;
        } else if (a == "--critical") {
            critical = true; // with --lines A-B, only the error lines among those
        } else if (a == "--full") {
            if (!set_mode(core::RestoreMode::full)) return 2;
        } else if (a == "--all") {
            if (mode_set) {
                print_error("give one of --bytes, --lines, --search, --full, --critical, --all");
                return 2;
            }
            all = true;
        } else if (a == "--max-bytes") {
            auto v = value();
            max_bytes = v ? parse_u64(*v) : std::nullopt;
            if (!max_bytes || *max_bytes == 0 || *max_bytes > core::k_restore_hard_cap) {
                print_error("--max-bytes takes 1 to 65536");
                return 2;
            }
        } else if (const auto ns_read = read_namespace_option(args, i, ns);
                   ns_read != OptionRead::not_mine) {
            if (ns_read == OptionRead::bad) return 2;
        } else if (!a.empty() && a[0] == '-') {
            print_error("unknown option '" + a + "'");
            return 2;
        } else if (q.id.empty()) {
            q.id = a;
        } else {
            print_error("restore takes one ID");
            return 2;
        }
    }
    if (critical) {
        if (all || (mode_set && q.mode != core::RestoreMode::lines)) {
            print_error("--critical goes alone or with --lines A-B");
            return 2;
        }
        if (!mode_set) q.start = q.end = 0;
        q.range_given = mode_set; // --critical --lines 0-0 is checked as --lines 0-0 is
        q.mode = core::RestoreMode::critical;
    }
    if (q.id.empty()) {
        print_error("restore needs an ID (su_ followed by 32 hex digits)");
        return 2;
    }
    auto config = core::load_config();
    if (!config) {
        print_error(config.error());
        return 2;
    }
    q.max_bytes = max_bytes.value_or(config->restore_max_bytes);
    core::RestoreRequest request;
    request.query = q;
    request.max_bytes_given = max_bytes.has_value();
    request.all = all;
    request.route.store_namespace = ns;
    auto response = core::restore(request, *config);
    if (!response) {
        // The id is caller input and may hold anything: it is not echoed.
        print_error(response.error().code == core::RestoreError::Code::bad_id
                        ? "that is not a sutra id (su_ followed by 32 lowercase hex digits)"
                        : response.error().message);
        return 1;
    }
    const bool ok = core::write_all(STDOUT_FILENO, response->result.text);
    if (!response->note.empty()) core::write_all(STDERR_FILENO, response->note);
    return ok ? 0 : 1;
}

} // namespace sutra::host
