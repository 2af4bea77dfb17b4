// Shared fuzz-target helpers; see fuzz_support.hpp.

#include "fuzz/fuzz_support.hpp"

#include "core/compress.hpp"
#include "core/rewrite/lines.hpp"
#include "core/rewrite/marker.hpp"
#include "core/rewrite/shape.hpp"
#include "core/store/store.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <sanitizer/common_interface_defs.h>
#include <sys/mman.h>
#include <unistd.h>

namespace sutra::fuzz {
namespace {

int g_real_stderr = 2;

void remove_work_dir() {
    std::error_code ec;
    std::filesystem::remove_all(work_dir(), ec);
}

std::string make_work_dir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && tmp[0] == '/' ? tmp : "/tmp") + "/sutra-fuzz-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        std::perror("sutra fuzz: mkdtemp");
        std::abort();
    }
    const std::string& dir = pattern;
    for (const char* sub : {"/home", "/config", "/data", "/state", "/claude", "/codex", "/hermes"})
        std::filesystem::create_directories(dir + sub);
    ::setenv("HOME", (dir + "/home").c_str(), 1);
    ::setenv("SUTRA_HOME", (dir + "/store").c_str(), 1);
    ::setenv("XDG_CONFIG_HOME", (dir + "/config").c_str(), 1);
    ::setenv("XDG_DATA_HOME", (dir + "/data").c_str(), 1);
    ::setenv("XDG_STATE_HOME", (dir + "/state").c_str(), 1);
    ::setenv("CLAUDE_CONFIG_DIR", (dir + "/claude").c_str(), 1);
    ::setenv("CODEX_HOME", (dir + "/codex").c_str(), 1);
    ::setenv("HERMES_HOME", (dir + "/hermes").c_str(), 1);
    ::setenv("SUTRA_STATS", "0", 1);
    for (const char* var :
         {"SUTRA_CONFIG", "SUTRA_MODE", "SUTRA_STORE", "SUTRA_MIN_BYTES", "SUTRA_MAX_VIEW_BYTES",
          "SUTRA_TTL_SECONDS", "SUTRA_RESTORE_MAX_BYTES", "SUTRA_KEEP", "SUTRA_DEBUG"})
        ::unsetenv(var);
    // Reports must reach the terminal even while a target has fd 2 redirected.
    g_real_stderr = ::dup(2);
    __sanitizer_set_report_fd(reinterpret_cast<void*>(static_cast<std::intptr_t>(g_real_stderr)));
    return dir;
}

// Line-by-line cleaning of an original segment, as the text rewrite shows kept bytes.
std::string cleaned(std::string_view seg) {
    std::string out;
    std::size_t pos = 0;
    while (pos < seg.size()) {
        const std::size_t nl = seg.find('\n', pos);
        const std::size_t end = nl == std::string_view::npos ? seg.size() : nl + 1;
        const std::string_view line = seg.substr(pos, end - pos);
        if (core::has_noise(line)) {
            core::Noise n;
            out += core::clean_line(line, n);
        } else {
            out += line;
        }
        pos = end;
    }
    return out;
}

// The text view walks the original: cleaned kept bytes, then each marker, in order.
void check_text_view(std::string_view input, const core::Response& r, const core::Config& c) {
    core::MarkerContext ctx;
    ctx.id = r.id;
    ctx.ttl_seconds = c.ttl_seconds;
    ctx.store_disabled = !c.store_enabled;
    std::string view = r.view;
    // The closing notes (core/rewrite/marker.cpp: what cleaning removed, the errors inside markers)
    // are lines of their own at the end, after a newline the view adds when the output had none.
    bool notes = false;
    for (;;) {
        const std::size_t start = view.size() < 2 ? 0 : view.rfind('\n', view.size() - 2);
        const std::size_t at = start == std::string::npos ? 0 : start + 1;
        const std::string_view last = std::string_view(view).substr(at);
        if (!last.starts_with("[sutra: ") ||
            (last.find(" removed from the lines shown") == std::string_view::npos &&
             last.find(" lines with errors are inside the markers above") ==
                 std::string_view::npos))
            break;
        view.resize(at);
        notes = true;
    }
    const std::vector<std::string> markers = core::text_marker_texts(r.elisions, ctx);
    SUTRA_FUZZ_CHECK(markers.size() == r.elisions.size(), "a marker text per elision");
    std::uint64_t orig_pos = 0;
    std::size_t view_pos = 0;
    std::size_t index = 0;
    const core::LineIndex lines = core::index_lines(input);
    for (const auto& e : r.elisions) {
        SUTRA_FUZZ_CHECK(e.begin >= orig_pos, "elisions out of order");
        if (e.reason != core::Reason::long_line && e.first_line > 0) {
            SUTRA_FUZZ_CHECK(lines.begin(e.first_line - 1) == e.begin, "line range != bytes");
            SUTRA_FUZZ_CHECK(lines.end(e.last_line - 1) == e.end, "line range != bytes");
        }
        const std::string& marker = markers[index++];
        const std::size_t at = view.find(marker, view_pos);
        SUTRA_FUZZ_CHECK(at != std::string::npos, marker);
        SUTRA_FUZZ_CHECK(view.substr(view_pos, at - view_pos) ==
                             cleaned(input.substr(orig_pos, e.begin - orig_pos)),
                         "kept text differs from the cleaned original");
        view_pos = at + marker.size();
        if (e.reason != core::Reason::long_line && view_pos < view.size() && view[view_pos] == '\n')
            ++view_pos;
        orig_pos = e.end;
    }
    const std::string rest = view.substr(view_pos), want = cleaned(input.substr(orig_pos));
    SUTRA_FUZZ_CHECK(rest == want || (notes && rest == want + "\n"),
                     "text after the last marker differs from the cleaned original");
}

void check_json_view(std::string_view input, const core::Response& r) {
    using nlohmann::json;
    const json original = json::parse(input, nullptr, false);
    const json view = json::parse(r.view, nullptr, false);
    SUTRA_FUZZ_CHECK(!original.is_discarded(), "a JSON-shaped original nlohmann refuses");
    SUTRA_FUZZ_CHECK(!view.is_discarded(), r.view);
    SUTRA_FUZZ_CHECK(view.type() == original.type(), r.view);
    if (original.is_object()) {
        for (const auto& [key, value] : original.items()) SUTRA_FUZZ_CHECK(view.contains(key), key);
        SUTRA_FUZZ_CHECK(view.size() == original.size(), "a key was added");
    }
}

void check_stored(std::string_view input, const core::Response& r, const core::Config& c) {
    SUTRA_FUZZ_CHECK(r.retained && r.id && core::valid_id(*r.id), "rewritten but not retained");
    core::StoreOptions so;
    so.dir = core::resolve_store_dir(c);
    auto store = core::Store::open(so);
    SUTRA_FUZZ_CHECK(store.has_value(), store ? "" : store.error().message);
    auto all = store->read_all(*r.id);
    SUTRA_FUZZ_CHECK(all && *all == input, "the stored original differs");
    for (const auto& e : r.elisions) {
        SUTRA_FUZZ_CHECK(e.begin < e.end && e.end <= input.size(), "elision range");
        auto bytes = store->read(*r.id, e.begin, e.end);
        SUTRA_FUZZ_CHECK(bytes && *bytes == input.substr(e.begin, e.end - e.begin),
                         "an elision does not restore to its bytes");
    }
}

} // namespace

const std::string& work_dir() {
    static const std::string dir = [] {
        std::string d = make_work_dir();
        return d;
    }();
    static const bool registered = [] { return std::atexit(remove_work_dir) == 0; }();
    (void)registered;
    return dir;
}

core::Config small_config() {
    core::Config c;
    c.store_dir = work_dir() + "/store";
    c.stats_enabled = false;
    c.stats_count_tokens = false;
    c.min_bytes = 64;
    c.min_lines = 4;
    return c;
}

core::StoreOptions store_options() {
    core::StoreOptions so;
    so.dir = small_config().store_dir;
    return so;
}

void fail(std::string_view what, std::string_view detail) {
    std::string text = "sutra fuzz: invariant failed: " + std::string(what);
    if (!detail.empty())
        text += "\n  detail: " + std::string(detail.substr(0, 400)) +
                (detail.size() > 400 ? "..." : "");
    text += '\n';
    (void)!::write(g_real_stderr, text.data(), text.size());
    std::abort();
}

void check_response(std::string_view input, const core::Response& r, const core::Config& c) {
    if (!r.rewritten) {
        SUTRA_FUZZ_CHECK(core::view_of(r, input) == input, "pass-through changed the bytes");
        SUTRA_FUZZ_CHECK(!r.passthrough.empty(), "pass-through without a reason");
        return;
    }
    SUTRA_FUZZ_CHECK(r.shape != core::Shape::diff && r.shape != core::Shape::binary &&
                         r.shape != core::Shape::empty,
                     core::to_string(r.shape));
    SUTRA_FUZZ_CHECK(core::detect_shape(input) != core::Shape::diff, "a diff was rewritten");
    SUTRA_FUZZ_CHECK(r.view.size() < input.size() - input.size() * c.min_saving_percent / 100 + 1,
                     "view not smaller");
    SUTRA_FUZZ_CHECK(r.view.size() <= c.max_view_bytes, "view over the ceiling");
    if (c.store_enabled) check_stored(input, r, c);
    if (r.shape == core::Shape::json)
        check_json_view(input, r);
    else
        check_text_view(input, r, c);
}

std::string with_stdio(std::string_view input, const std::function<void()>& body) {
    (void)work_dir(); // saves the real stderr first
    const int in = ::memfd_create("sutra-fuzz-in", MFD_CLOEXEC);
    const int out = ::memfd_create("sutra-fuzz-out", MFD_CLOEXEC);
    const int err =
        ::open((work_dir() + "/stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    SUTRA_FUZZ_CHECK(in >= 0 && out >= 0 && err >= 0, "cannot create the stdio files");
    SUTRA_FUZZ_CHECK(::write(in, input.data(), input.size()) == static_cast<ssize_t>(input.size()),
                     "short write");
    ::lseek(in, 0, SEEK_SET);
    std::fflush(stdout);
    std::fflush(stderr);
    const int saved[3] = {::dup(0), ::dup(1), ::dup(2)};
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    body();
    std::fflush(stdout);
    std::fflush(stderr);
    for (int fd = 0; fd < 3; ++fd) {
        ::dup2(saved[fd], fd);
        ::close(saved[fd]);
    }
    std::clearerr(stdin);
    std::string captured;
    ::lseek(out, 0, SEEK_SET);
    char buf[1 << 14];
    for (ssize_t n; (n = ::read(out, buf, sizeof buf)) > 0;)
        captured.append(buf, static_cast<std::size_t>(n));
    ::close(in);
    ::close(out);
    ::close(err);
    return captured;
}

std::vector<std::string> split(std::string_view bytes, char separator) {
    std::vector<std::string> parts;
    std::size_t pos = 0;
    while (true) {
        const std::size_t at = bytes.find(separator, pos);
        if (at == std::string_view::npos) {
            parts.emplace_back(bytes.substr(pos));
            return parts;
        }
        parts.emplace_back(bytes.substr(pos, at - pos));
        pos = at + 1;
    }
}

} // namespace sutra::fuzz
