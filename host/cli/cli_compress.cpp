// `sutra compress`: reads a tool result and prints its view.

#include "core/compress.hpp"
#include "core/config.hpp"
#include "core/outline/outline.hpp"
#include "core/util/input_buffer.hpp"
#include "core/util/json_fast.hpp"
#include "core/util/posix_io.hpp"
#include "host/cli/cli.hpp"
#include "host/response_json.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <unistd.h>

namespace sutra::host {
namespace {

bool copy_rest(int in, int out) {
    char buf[1 << 16];
    while (true) {
        const ssize_t n = ::read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) return true;
        if (!core::write_all(out, std::string_view(buf, static_cast<std::size_t>(n)))) return false;
    }
}

std::optional<long long> parse_int(const std::string& s) {
    if (s.empty() || s.size() > 18) return std::nullopt;
    std::size_t i = s[0] == '-' ? 1 : 0;
    if (i == s.size()) return std::nullopt;
    for (std::size_t k = i; k < s.size(); ++k)
        if (s[k] < '0' || s[k] > '9') return std::nullopt;
    return std::stoll(s);
}

} // namespace

int cmd_compress(const Args& args) {
    core::Request req;
    req.host = "cli";
    req.outliner = core::outline::printed_file_outline;
    std::string file;
    bool json = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* name) -> std::optional<std::string> {
            if (i + 1 >= args.size()) {
                print_error(std::string(name) + " needs a value");
                return std::nullopt;
            }
            return args[++i];
        };
        if (a == "--json") {
            json = true;
        } else if (a == "--tool") {
            auto v = value("--tool");
            if (!v) return 2;
            req.tool = *v;
        } else if (a == "--command") {
            auto v = value("--command");
            if (!v) return 2;
            req.command = *v;
        } else if (a == "--host") {
            auto v = value("--host");
            if (!v) return 2;
            req.host = *v;
        } else if (const auto ns_read = read_namespace_option(args, i, req.store_namespace);
                   ns_read != OptionRead::not_mine) {
            if (ns_read == OptionRead::bad) return 2;
        } else if (a == "--exit-code") {
            auto v = value("--exit-code");
            if (!v) return 2;
            auto n = parse_int(*v);
            if (!n || *n < -255 || *n > 255) {
                print_error("--exit-code takes a whole number");
                return 2;
            }
            req.exit_code = static_cast<int>(*n);
        } else if (const auto o = read_view_option(args, i, req.mode, req.route);
                   o != OptionRead::not_mine) {
            if (o == OptionRead::bad) return 2;
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            print_error("unknown option '" + a + "'");
            return 2;
        } else if (file.empty()) {
            file = a;
        } else {
            print_error("compress takes one FILE");
            return 2;
        }
    }

    auto config = core::load_config();
    if (!config) {
        print_error(config.error());
        return 2;
    }
    warn_if_project_ignored(*config);

    const int fd = open_input(file);
    if (fd < 0) return 1;
    core::InputBuffer buffer;
    if (!buffer.read_from(fd, config->max_input_bytes)) {
        print_error("reading input: " + std::string(std::strerror(errno)));
        if (fd != STDIN_FILENO) ::close(fd);
        return 1;
    }
    const std::string_view input = buffer.view();
    if (buffer.more()) {
        // Too large to process: the original passes through, streamed, never held whole.
        const bool ok = core::write_all(STDOUT_FILENO, input) && copy_rest(fd, STDOUT_FILENO);
        if (fd != STDIN_FILENO) ::close(fd);
        return ok ? 0 : 1;
    }
    if (fd != STDIN_FILENO) ::close(fd);

    req.output = input;
    // The stats' token counts (about 100 MB/s) are made once the view is out.
    core::StatsLater later;
    const core::Response r = core::compress(req, *config, later);
    const std::string_view view = core::view_of(r, input);
    bool written = false;
    if (!json) {
        written = core::write_all(STDOUT_FILENO, view);
    } else {
        // The CLI's form keeps its keys sorted (nlohmann::json), with the view beside them.
        nlohmann::json out = response_json(r, view.size());
        out["view"] = std::string(view);
        // JSON cannot carry invalid UTF-8; such bytes are replaced in this form only.
        written = core::write_all(STDOUT_FILENO, core::dump_json_fast(out) + "\n");
    }
    core::log_counted_after_exit(later, input, r.view, *config);
    return written ? 0 : 1;
}

} // namespace sutra::host
