// `sutra read FILE --lines A-B | --bytes A-B` (docs/outline.md): the page comes from the core
// (core/outline/file_commands.hpp); this parses the command line and prints it.

#include "core/config.hpp"
#include "core/outline/file_commands.hpp"
#include "core/restore.hpp"
#include "core/util/posix_io.hpp"
#include "host/cli/cli.hpp"

#include <cstdio>
#include <unistd.h>

namespace sutra::host {
namespace {

using namespace core::outline;

constexpr const char* k_read_usage =
    "usage: sutra read FILE (--lines A-B[,C-D...] | --bytes A-B) [--max-bytes N]\n"
    "  the exact bytes of those lines (one-based, inclusive) or bytes (zero-based, end\n"
    "  exclusive), a page of at most N bytes (default restore.max_bytes, 8192) at a time\n";

} // namespace

int cmd_read(const Args& args) {
    ReadRequest request;
    std::optional<std::string> path;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i];
        if (a == "-h" || a == "--help") return std::fputs(k_read_usage, stdout), 0;
        std::optional<std::string> value; // --name=value or --name value
        if (const auto eq = a.find('='); a.starts_with("--") && eq != std::string::npos) {
            value = a.substr(eq + 1);
            a.resize(eq);
        }
        const bool takes_value = a == "--lines" || a == "--bytes" || a == "--max-bytes";
        if (takes_value && !value) {
            if (i + 1 >= args.size()) {
                print_error("read: " + a + " needs a value");
                return 2;
            }
            value = args[++i];
        }
        if (a == "--lines") {
            // Repeated --lines add up, as one comma list.
            request.lines += (request.lines.empty() ? "" : ",") + *value;
        } else if (a == "--bytes") {
            request.bytes = *value;
        } else if (a == "--max-bytes") {
            const auto n = parse_u64(*value);
            if (!n || *n == 0 || *n > core::k_restore_hard_cap) {
                print_error("read: --max-bytes takes 1 to 65536");
                return 2;
            }
            request.max_bytes = *n;
            request.max_bytes_given = true;
        } else if (a.size() > 1 && a[0] == '-') {
            print_error("read: unknown option '" + a + "'");
            std::fputs(k_read_usage, stderr);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            print_error("read takes one FILE");
            std::fputs(k_read_usage, stderr);
            return 2;
        }
    }
    if (!path || (request.lines.empty() && request.bytes.empty())) {
        print_error(path ? "read needs --lines A-B or --bytes A-B" : "read takes one FILE");
        std::fputs(k_read_usage, stderr);
        return 2;
    }
    request.path = *path;
    if (!request.max_bytes_given) {
        // The same default page as a restore's.
        auto config = core::load_config();
        if (!config) {
            print_error(config.error());
            return 2;
        }
        request.max_bytes = config->restore_max_bytes;
    }
    const CommandResult r = run_read(request);
    if (r.status != 0) {
        std::string err = r.err;
        if (err.ends_with('\n')) err.pop_back();
        print_error(err);
        return r.status;
    }
    const bool ok = core::write_all(STDOUT_FILENO, r.out);
    if (!r.note.empty()) core::write_all(STDERR_FILENO, r.note);
    return ok ? 0 : 1;
}

} // namespace sutra::host
