// sutra_exec over MCP: runs a shell line for a client without a shell tool of its own (or one
// that wants the compressed view with its restore route), with the `sutra exec` engine
// (core::exec). The child gets /dev/null as input and a time limit, a hard bound that kills its
// whole process group. The server runs these calls on a worker thread of their own
// (host/mcp/server.cpp), so other requests are answered while a command runs.

#include "core/config.hpp"
#include "core/exec.hpp"
#include "core/outline/outline.hpp"
#include "core/util/utf8.hpp"
#include "host/mcp/tool_defs.hpp"
#include "host/response_json.hpp"

#include <string>

namespace sutra::host::mcp {

Json exec_input_schema() {
    return Json{{"type", "object"},
                {"properties",
                 Json{{"command", Json{{"type", "string"},
                                       {"minLength", 1},
                                       {"maxLength", 16384},
                                       {"description",
                                        "A shell line, run by /bin/sh -c in the server's working "
                                        "directory, with no input."}}},
                      {"mode", Json{{"type", "string"},
                                    {"enum", {"auto", "concise", "normal", "verbose", "full"}},
                                    {"description",
                                     "How much the view keeps; auto keeps more for a failure."}}},
                      {"timeout_seconds",
                       Json{{"type", "integer"},
                            {"minimum", 1},
                            {"maximum", 3600},
                            {"description", "Kill the command after this long (default 120)."}}}}},
                {"required", {"command"}},
                {"additionalProperties", false}};
}

Json exec_output_schema() {
    return Json{{"type", "object"},
                {"properties",
                 Json{{"id", Json{{"type", {"string", "null"}}}},
                      {"exit_code", Json{{"type", "integer"}}},
                      {"signal", Json{{"type", "integer"}}},
                      {"timed_out", Json{{"type", "boolean"}}},
                      {"original_bytes", Json{{"type", "integer"}}},
                      {"retained_bytes", Json{{"type", "integer"}}},
                      {"view_bytes", Json{{"type", "integer"}}},
                      {"elisions", Json{{"type", "array"}, {"items", Json{{"type", "object"}}}}},
                      {"rewritten", Json{{"type", "boolean"}}},
                      {"rules", Json{{"type", "array"}, {"items", Json{{"type", "string"}}}}},
                      {"passthrough", Json{{"type", "string"}}}}},
                {"required", {"id", "exit_code", "original_bytes", "elisions"}}};
}

ToolOutcome call_exec(const Json& args, const ServerOptions& options) {
    core::ExecRequest spec;
    spec.outliner = core::outline::printed_file_outline;
    const std::string line = args["command"].get<std::string>();
    spec.argv = {"/bin/sh", "-c", line};
    spec.command = line;
    spec.stdin_null = true;
    spec.timeout_seconds = static_cast<unsigned>(args.value("timeout_seconds", 120));
    if (args.contains("mode")) spec.mode = core::parse_mode(args["mode"].get<std::string>());
    spec.route.kind = core::RestoreRoute::Kind::mcp;
    spec.route.tool = options.restore_tool;
    // The server's own namespace: its restore tool defaults to it, so markers need not name it.
    spec.store_namespace = options.store_namespace;
    // The host ends the server with SIGTERM, a command running or not: the signal keeps its
    // default action (the server ends at once) and the watchdog stops the command's group.
    spec.forward_signals = false;

    auto config = core::load_config();
    if (!config) return tool_error("sutra's configuration does not load: " + config.error());
    const core::ExecResult r = core::exec(spec, *config);
    if (!r.spawned) return tool_error("the command could not be run: " + r.spawn_error);

    // A text block carries UTF-8 only: other bytes show as U+FFFD here, and the stored original
    // (restore by id) keeps them exactly.
    std::string view = r.view;
    const bool replaced = !core::valid_utf8(view);
    if (replaced)
        view = Json::parse(Json(view).dump(-1, ' ', false, Json::error_handler_t::replace))
                   .get<std::string>();

    Json sc = exec_json(r, view.size());
    sc["timed_out"] = r.timed_out;
    Json content = Json::array({text_block(std::move(view))});
    std::string note;
    if (r.timed_out)
        note += "The command ran past " + std::to_string(spec.timeout_seconds) +
                " s and was killed; the view holds what it printed until then. ";
    if (replaced)
        note += "Bytes that are not UTF-8 show as U+FFFD; restore by id gives them exactly. ";
    if (!r.note.empty()) note += r.note;
    if (!note.empty()) content.push_back(text_block(std::move(note)));
    Json result{{"content", std::move(content)}, {"structuredContent", std::move(sc)}};
    if (r.exit_code != 0) result["isError"] = true;
    return result;
}

} // namespace sutra::host::mcp
