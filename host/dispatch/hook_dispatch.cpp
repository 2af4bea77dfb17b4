// The dispatcher's one hook call. Every step that can fail turns into pass-through.

#include "host/dispatch/hook_dispatch.hpp"

#include "core/compress.hpp"
#include "core/config.hpp"
#include "core/util/json_fast.hpp"
#include "core/util/json_nesting.hpp"
#include "core/util/read_file.hpp"
#include "core/util/utf8.hpp"
#include "host/dispatch/plugin_registry.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace sutra::host {

namespace fs = std::filesystem;
using nlohmann::json;

std::expected<std::string, std::string> read_persisted_output(const std::string& path,
                                                              std::uint64_t expected_size,
                                                              const std::string& allowed_dir,
                                                              std::uint64_t limit,
                                                              const PersistedName& naming) {
    auto fail = [&](std::string why) {
        return std::unexpected(fmt::format("persisted output {}: {}", path, why));
    };
    const fs::path p(path);
    const fs::path dir(allowed_dir);
    if (!p.is_absolute() || !dir.is_absolute()) return fail("not an absolute path");
    for (const fs::path* q : {&p, &dir})
        for (const auto& part : *q)
            if (part == "." || part == "..") return fail("path has . or .. components");
    // The host's own naming, as its module states it: prefix, then 1-120 of [A-Za-z0-9_-], then
    // suffix. Anything else was not written by the host.
    const std::string name = p.filename().string();
    const std::size_t fixed = naming.prefix.size() + naming.suffix.size();
    const bool named =
        name.size() > fixed && name.size() <= fixed + 120 && name.starts_with(naming.prefix) &&
        name.ends_with(naming.suffix) &&
        std::all_of(name.begin() + static_cast<std::ptrdiff_t>(naming.prefix.size()),
                    name.end() - static_cast<std::ptrdiff_t>(naming.suffix.size()), [](char c) {
                        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                               (c >= '0' && c <= '9') || c == '_' || c == '-';
                    });
    if (!named)
        return fail("not named " + naming.prefix + "<id>" + naming.suffix +
                    " as the host names them");
    if (p.parent_path().lexically_normal() != dir.lexically_normal())
        return fail("not directly in " + allowed_dir);
    if (expected_size > limit) return fail(fmt::format("larger than the {}-byte cap", limit));
    // The folder itself must be ours and not a symlink to somewhere else.
    struct stat dst {};
    if (::lstat(allowed_dir.c_str(), &dst) != 0) return fail(std::strerror(errno));
    if (!S_ISDIR(dst.st_mode)) return fail("its folder is a symlink or not a folder");
    if (dst.st_uid != ::geteuid()) return fail("its folder is owned by another user");
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return fail(std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return fail("not a regular file");
    // The host wrote it as us, once: another owner or a second name means it was planted.
    if (st.st_uid != ::geteuid()) return fail("owned by another user");
    if (st.st_nlink != 1) return fail("has other hard links");
    if (static_cast<std::uint64_t>(st.st_size) != expected_size)
        return fail(fmt::format("size {} differs from the reported {}", st.st_size, expected_size));
    // Read by core/util/read_file.hpp's rule, with the checks above repeated on the descriptor: the
    // name may have been swapped after lstat.
    core::ReadRules rules;
    rules.limit = expected_size;
    rules.links = core::Links::refuse;
    rules.check = [&](const struct stat& fst) -> std::string {
        if (fst.st_ino != st.st_ino || fst.st_dev != st.st_dev) return "file changed while opening";
        return {};
    };
    auto read = core::read_file(path, rules);
    if (!read) {
        const core::FileError& e = read.error();
        if (e.problem == core::FileProblem::too_large) return fail("size changed while reading");
        return fail(e.why);
    }
    std::string out = std::move(*read);
    if (out.size() != expected_size) return fail("size changed while reading");
    if (!core::valid_utf8(out)) return fail("not valid UTF-8");
    return out;
}

namespace {

std::string run_hook_unchecked(const Plugin& plugin,
                               std::string_view payload,
                               std::string& why,
                               HookAfter* after) {
    // A module that copies a tree nested past the limit would overflow the stack: such a
    // payload never reaches one, whatever its adapter does with it.
    if (!core::json_nesting_within(payload)) {
        why = fmt::format("payload nests deeper than {} levels", core::k_max_json_nesting);
        return {};
    }
    const auto decoded_text = plugin.call(Plugin::Op::decode, payload);
    if (!decoded_text) {
        why = "decode failed";
        return {};
    }
    json decoded = core::parse_within_nesting<json>(*decoded_text); // the output is moved out
    if (!decoded.is_object()) {
        why = "decode returned no JSON object";
        return {};
    }
    const std::string action = decoded.value("action", std::string());
    if (action == "respond") {
        // The adapter answers the hook itself (a PreToolUse rewrite); nothing to compress.
        const auto o = decoded.find("output");
        if (o == decoded.end() || !o->is_string()) {
            why = "respond without an output";
            return {};
        }
        why = "adapter responds: " + decoded.value("reason", std::string("(no reason given)"));
        return o->get<std::string>();
    }
    if (action != "compress") {
        why = "adapter passes: " + decoded.value("reason", std::string("(no reason given)"));
        return {};
    }
    std::string output;
    if (const auto rf = decoded.find("read_file"); rf != decoded.end() && rf->is_object()) {
        if (!(*rf)["size"].is_number_unsigned()) {
            why = "read_file without a size";
            return {};
        }
        auto text = read_persisted_output(
            rf->value("path", std::string()), (*rf)["size"].get<std::uint64_t>(),
            rf->value("allowed_dir", std::string()), k_persisted_output_cap,
            PersistedName{rf->value("name_prefix", std::string()),
                          rf->value("name_suffix", std::string(".txt"))});
        if (!text) {
            why = text.error();
            return {};
        }
        output = std::move(*text);
    } else if (const auto o = decoded.find("output"); o != decoded.end() && o->is_string()) {
        output = std::move(o->get_ref<std::string&>());
    } else {
        why = "decode gave no output";
        return {};
    }

    auto config = core::load_config();
    if (!config) {
        why = "config: " + config.error();
        return {};
    }
    core::Request req;
    req.output = output;
    req.tool = decoded.value("tool", std::string());
    req.command = decoded.value("command", std::string());
    if (const auto e = decoded.find("exit_code"); e != decoded.end() && e->is_number_integer())
        req.exit_code = e->get<int>();
    req.host = plugin.name();
    // The host's session id goes to the stats log only (core/stats.hpp, valid_session_id).
    if (const auto s = decoded.find("session"); s != decoded.end() && s->is_string())
        req.session = s->get<std::string>();
    if (const auto m = decoded.find("mode"); m != decoded.end() && m->is_string())
        req.mode = core::parse_mode(m->get<std::string>());
    const std::string ns = decoded.value("namespace", std::string());
    if (!ns.empty()) {
        if (!core::valid_namespace(ns)) {
            why = "invalid namespace";
            return {};
        }
        req.store_namespace = ns;
    }
    // What the host would have shown without sutra, as its module states it (the stats log's
    // honest figure, core/host_cut.hpp).
    if (const auto c = decoded.find("host_cut"); c != decoded.end() && c->is_object()) {
        auto field = [&](const char* key) {
            const auto v = c->find(key);
            return v != c->end() && v->is_number_unsigned() ? v->get<std::uint64_t>() : 0;
        };
        req.host_cut = {true, field("over"), field("head"), field("tail"), field("window")};
    }
    if (const auto r = decoded.find("route"); r != decoded.end() && r->is_object()) {
        if (r->value("kind", std::string()) == "mcp") {
            req.route.kind = core::RestoreRoute::Kind::mcp;
            req.route.tool = r->value("tool", req.route.tool);
        }
    }
    core::StatsLater later;
    core::Response res =
        after != nullptr ? core::compress(req, *config, later) : core::compress(req, *config);
    if (!res.rewritten) {
        why = "core passes: " + res.passthrough;
        return {};
    }
    json result = {{"view", res.view},
                   {"rewritten", true},
                   {"original_bytes", res.original_bytes},
                   {"id", res.id ? json(*res.id) : json(nullptr)}};
    if (const auto c = decoded.find("context"); c != decoded.end()) result["context"] = *c;
    const auto encoded = plugin.encode(payload, core::dump_json_fast(result));
    // The record is logged whatever encode answers, as compress alone would have logged it.
    if (after != nullptr && later.due) {
        after->stats = std::move(later);
        after->original = std::move(output);
        after->view = std::move(res.view);
        after->config = std::move(*config);
    }
    if (!encoded) {
        why = "encode failed";
        return {};
    }
    if (encoded->empty()) why = "encode chose to pass";
    return *encoded;
}

} // namespace

std::string run_hook(const Plugin& plugin, std::string_view payload, std::string& why) {
    try {
        return run_hook_unchecked(plugin, payload, why, nullptr);
    } catch (const std::exception& e) {
        why = std::string("error: ") + e.what();
    } catch (...) {
        why = "unknown error";
    }
    return {};
}

std::string
run_hook(const Plugin& plugin, std::string_view payload, std::string& why, HookAfter& after) {
    try {
        return run_hook_unchecked(plugin, payload, why, &after);
    } catch (const std::exception& e) {
        why = std::string("error: ") + e.what();
    } catch (...) {
        why = "unknown error";
    }
    return {};
}

} // namespace sutra::host
