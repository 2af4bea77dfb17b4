// sutra_stats: the savings report, as text and as structuredContent.

#include "core/config.hpp"
#include "core/stats.hpp"
#include "host/mcp/tool_defs.hpp"

#include <string>

namespace sutra::host::mcp {

Json stats_input_schema() {
    return Json{
        {"type", "object"}, {"properties", Json::object()}, {"additionalProperties", false}};
}

Json stats_output_schema() {
    return Json{{"type", "object"},
                {"properties", Json{{"log", Json{{"type", "string"}}},
                                    {"tools", Json{{"type", "object"}}},
                                    {"shapes", Json{{"type", "object"}}},
                                    {"total", Json{{"type", "object"}}},
                                    {"restores", Json{{"type", "object"}}}}}};
}

ToolOutcome call_stats(const Json&, const ServerOptions&) {
    auto config = core::load_config();
    if (!config) return tool_error("sutra's configuration does not load: " + config.error());
    std::string text = core::stats_report(*config, false);
    Json report = Json::parse(core::stats_report(*config, true), nullptr, false);
    if (!report.is_object()) return tool_error("the stats report could not be read");
    return Json{{"content", Json::array({text_block(std::move(text))})},
                {"structuredContent", std::move(report)}};
}

} // namespace sutra::host::mcp
