// sutra_compress: core::compress on text the client passes, the view as the content and what the
// core did (host/response_json.hpp) as structuredContent.

#include "core/compress.hpp"
#include "core/config.hpp"
#include "core/outline/outline.hpp"
#include "core/store/store.hpp"
#include "host/mcp/tool_defs.hpp"
#include "host/response_json.hpp"

#include <string>

namespace sutra::host::mcp {

Json compress_input_schema() {
    return Json{
        {"type", "object"},
        {"properties",
         Json{{"text",
               Json{{"type", "string"}, {"description", "The tool output to compress, exactly."}}},
              {"tool",
               Json{{"type", "string"},
                    {"maxLength", 256},
                    {"description", "The tool that produced it, e.g. Bash (for statistics)."}}},
              {"command",
               Json{{"type", "string"},
                    {"maxLength", 65536},
                    {"description", "The command line that produced it; helps detect its shape."}}},
              {"exit_code",
               Json{{"type", "integer"},
                    {"minimum", -255},
                    {"maximum", 255},
                    {"description", "The command's exit status; a failure keeps more detail."}}},
              {"mode",
               Json{{"type", "string"},
                    {"enum", {"auto", "concise", "normal", "verbose", "full"}},
                    {"description", "How much to keep; default from the configuration (auto)."}}},
              {"namespace", namespace_schema()}}},
        {"required", {"text"}},
        {"additionalProperties", false}};
}

Json compress_output_schema() {
    const Json count = Json{{"type", "integer"}, {"minimum", 0}};
    const Json pair = Json{{"type", "array"}, {"items", count}, {"minItems", 2}, {"maxItems", 2}};
    return Json{
        {"type", "object"},
        {"properties",
         Json{{"id", Json{{"type", {"string", "null"}}}},
              {"retained", Json{{"type", "boolean"}}},
              {"rewritten", Json{{"type", "boolean"}}},
              {"shape", Json{{"type", "string"}}},
              {"original_bytes", count},
              {"view_bytes", count},
              {"elisions",
               Json{{"type", "array"},
                    {"items", Json{{"type", "object"},
                                   {"properties", Json{{"reason", Json{{"type", "string"}}},
                                                       {"bytes", pair},
                                                       {"lines", pair},
                                                       {"items", count}}},
                                   {"required", {"reason", "bytes", "lines"}}}}}},
              {"rules", Json{{"type", "array"}, {"items", Json{{"type", "string"}}}}},
              {"passthrough", Json{{"type", "string"}}}}},
        {"required",
         {"id", "retained", "rewritten", "shape", "original_bytes", "view_bytes", "elisions"}}};
}

ToolOutcome call_compress(const Json& args, const ServerOptions& options) {
    const auto& text = args["text"].get_ref<const std::string&>();
    core::Request req;
    req.output = text;
    req.host = "mcp";
    req.outliner = core::outline::printed_file_outline;
    req.tool = args.value("tool", "");
    req.command = args.value("command", "");
    if (args.contains("exit_code"))
        req.exit_code = static_cast<int>(*integer_value(args["exit_code"]));
    if (args.contains("mode")) req.mode = core::parse_mode(args["mode"].get<std::string>());
    req.store_namespace = args.value("namespace", options.store_namespace);
    if (!req.store_namespace.empty() && !core::valid_namespace(req.store_namespace))
        return invalid("namespace takes 1-64 of [A-Za-z0-9_.-], not \".\" or \"..\"");
    req.route.kind = core::RestoreRoute::Kind::mcp;
    req.route.tool = options.restore_tool;
    // The server's restore tool defaults to its own namespace; another one must be named in
    // every marker, or its restore call would look in the wrong store.
    if (req.store_namespace != options.store_namespace)
        req.route.store_namespace = req.store_namespace;

    auto config = core::load_config();
    if (!config) return tool_error("sutra's configuration does not load: " + config.error());
    const core::Response r = core::compress(req, *config);
    const std::string_view view = core::view_of(r, text);

    return Json{{"content", Json::array({text_block(std::string(view))})},
                {"structuredContent", response_json(r, view.size())}};
}

} // namespace sutra::host::mcp
