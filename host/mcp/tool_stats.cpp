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
    // One read of the log gives both forms (core/stats.hpp, stats_reports).
    core::StatsReports report = core::stats_reports(*config, core::StatsQuery{});
    return Json{{"content", Json::array({text_block(std::move(report.text))})},
                {"structuredContent", std::move(report.json)}};
}

} // namespace sutra::host::mcp
