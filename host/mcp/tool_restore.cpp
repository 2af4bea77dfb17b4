// sutra_restore: a bounded page of a stored original through core::restore, with the next range
// in the note block and in structuredContent.

#include "core/compress.hpp"
#include "core/config.hpp"
#include "core/restore.hpp"
#include "core/store/store.hpp"
#include "host/mcp/tool_defs.hpp"

#include <string>

namespace sutra::host::mcp {

Json restore_input_schema() {
    Json range = Json{{"type", "integer"}, {"minimum", 0}, {"maximum", k_max_safe_integer}};
    Json start = range;
    start["description"] = "bytes: zero-based first byte; lines: one-based first line.";
    Json end = range;
    end["description"] = "bytes: end, exclusive; lines: last line, inclusive.";
    return Json{
        {"type", "object"},
        {"properties",
         Json{{"id",
               Json{{"type", "string"},
                    {"minLength", 35},
                    {"maxLength", 35},
                    {"pattern", "^su_[0-9a-f]{32}$"},
                    {"description", "The id a [sutra: ...] marker names: su_ and 32 hex digits."}}},
              {"mode",
               Json{{"type", "string"},
                    {"enum", {"bytes", "lines", "search", "full", "critical"}},
                    {"default", "full"},
                    {"description",
                     "bytes: start-end, zero-based, end exclusive. lines: start-end, one-based, "
                     "inclusive. search: lines containing the literal query. full: the whole "
                     "original, a page at a time. critical: every line with an error, as "
                     "LINE:text (within lines start-end when given)."}}},
              {"start", start},
              {"end", end},
              {"query", Json{{"type", "string"},
                             {"minLength", 1},
                             {"maxLength", 200},
                             {"description", "search: the literal text to find (not a pattern)."}}},
              {"max_bytes",
               Json{{"type", "integer"},
                    {"minimum", 1},
                    {"maximum", core::k_restore_hard_cap},
                    {"description", "Bound on the returned bytes; default from the configuration "
                                    "(8192)."}}},
              {"namespace", namespace_schema()}}},
        {"required", {"id"}},
        {"additionalProperties", false}};
}

Json restore_output_schema() {
    const Json count = Json{{"type", "integer"}, {"minimum", 0}};
    return Json{
        {"type", "object"},
        {"properties",
         Json{{"id", Json{{"type", "string"}}},
              {"mode", Json{{"type", "string"},
                            {"enum", {"bytes", "lines", "search", "full", "critical"}}}},
              {"begin", count},
              {"end", count},
              {"total_bytes", count},
              {"total_lines", count},
              {"next", Json{{"type", {"object", "null"}},
                            {"properties", Json{{"start", count}, {"end", count}}},
                            {"required", {"start", "end"}}}},
              {"note", Json{{"type", "string"}}},
              {"clipped", Json{{"type", "boolean"}}},
              {"rest", Json{{"type", {"object", "null"}},
                            {"properties", Json{{"line", count}, {"start", count}, {"end", count}}},
                            {"required", {"line", "start", "end"}}}},
              {"matches",
               Json{{"type", "array"},
                    {"items", Json{{"type", "object"},
                                   {"properties", Json{{"line", count}, {"offset", count}}}}}}},
              {"more_matches", Json{{"type", "boolean"}}}}},
        {"required", {"id", "mode", "begin", "end", "total_bytes", "next", "note", "clipped"}}};
}

namespace {

const char* mode_name(core::RestoreMode m) {
    switch (m) {
    case core::RestoreMode::bytes:
        return "bytes";
    case core::RestoreMode::lines:
        return "lines";
    case core::RestoreMode::search:
        return "search";
    case core::RestoreMode::full:
        return "full";
    case core::RestoreMode::critical:
        return "critical";
    }
    return "full";
}

} // namespace

ToolOutcome call_restore(const Json& args, const ServerOptions& options) {
    core::RestoreQuery q;
    q.id = args["id"].get<std::string>();
    const std::string mode = args.value("mode", "full");
    const bool has_range = args.contains("start") || args.contains("end");
    const bool has_query = args.contains("query");
    if (mode == "bytes" || mode == "lines") {
        q.mode = mode == "bytes" ? core::RestoreMode::bytes : core::RestoreMode::lines;
        if (!args.contains("start") || !args.contains("end"))
            return invalid(mode == "bytes"
                               ? "mode \"bytes\" needs start and end (zero-based, end exclusive)"
                               : "mode \"lines\" needs start and end (one-based, inclusive)");
        if (has_query) return invalid("query goes with mode \"search\"");
        q.start = get_u64(args["start"]);
        q.end = get_u64(args["end"]);
    } else if (mode == "critical") {
        q.mode = core::RestoreMode::critical;
        if (args.contains("start") != args.contains("end"))
            return invalid("mode \"critical\" takes start and end (lines, one-based, inclusive) "
                           "together, or neither for the whole original");
        if (has_query) return invalid("query goes with mode \"search\"");
        if (has_range) {
            // Checked by the core as mode "lines" is, with the same words.
            q.range_given = true;
            q.start = get_u64(args["start"]);
            q.end = get_u64(args["end"]);
        }
    } else if (mode == "search") {
        q.mode = core::RestoreMode::search;
        if (!has_query) return invalid("mode \"search\" needs query, a literal of 1-200 bytes");
        if (has_range) return invalid("start and end go with mode \"bytes\" or \"lines\"");
        q.query = args["query"].get<std::string>();
    } else {
        q.mode = core::RestoreMode::full;
        if (has_range)
            return invalid("start and end go with mode \"bytes\" or \"lines\"; mode \"full\" "
                           "takes neither");
        if (has_query) return invalid("query goes with mode \"search\"");
    }
    const std::string ns = args.value("namespace", options.store_namespace);
    if (!ns.empty() && !core::valid_namespace(ns))
        return invalid("namespace takes 1-64 of [A-Za-z0-9_.-], not \".\" or \"..\"");

    auto config = core::load_config();
    if (!config) return tool_error("sutra's configuration does not load: " + config.error());
    q.max_bytes =
        args.contains("max_bytes") ? get_u64(args["max_bytes"]) : config->restore_max_bytes;
    core::RestoreRequest request;
    request.query = q;
    request.max_bytes_given = args.contains("max_bytes");
    request.text_only = true;
    request.route.kind = core::RestoreRoute::Kind::mcp;
    request.route.tool = options.restore_tool;
    request.route.store_namespace = ns;
    auto response = core::restore(request, *config);
    if (!response) {
        if (response.error().code == core::RestoreError::Code::bad_id)
            return invalid(
                "id must be su_ followed by 32 lowercase hex digits, as a marker prints it");
        return tool_error(response.error().message);
    }
    core::RestoreResult& r = response->result;

    Json sc{{"id", q.id},
            {"mode", mode_name(q.mode)},
            {"begin", r.begin},
            {"end", r.end},
            {"total_bytes", r.total_bytes},
            {"total_lines", r.total_lines},
            {"next", r.next ? Json{{"start", r.next->first}, {"end", r.next->second}}
                     : r.next_lines
                         ? Json{{"start", r.next_lines->first}, {"end", r.next_lines->second}}
                         : Json(nullptr)},
            {"note", core::k_untrusted_note},
            {"clipped", r.clipped}};
    // critical: a line alone longer than the page; its rest is a byte range (mode "bytes").
    if (r.rest)
        sc["rest"] = Json{{"line", r.rest_line}, {"start", r.rest->first}, {"end", r.rest->second}};
    if (q.mode == core::RestoreMode::search || q.mode == core::RestoreMode::critical) {
        Json matches = Json::array();
        for (const auto& m : r.matches)
            matches.push_back(Json{{"line", m.line}, {"offset", m.offset}});
        sc["matches"] = std::move(matches);
        sc["more_matches"] = r.more_matches;
    }
    return Json{{"content", Json::array({text_block(std::move(r.text)),
                                         text_block(std::move(response->note))})},
                {"structuredContent", std::move(sc)}};
}

} // namespace sutra::host::mcp
