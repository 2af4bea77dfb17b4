// See adapter_calls.hpp.

#include "plugins/common/adapter_calls.hpp"

#include "core/util/json_nesting.hpp"
namespace sutra::plugins::common {

Options parse_options(std::string_view json_text) {
    const nlohmann::ordered_json o =
        sutra::core::parse_within_nesting<nlohmann::ordered_json>(json_text);
    Options out;
    if (o.is_object()) {
        out.host_program = o.value("host_program", std::string());
        out.sutra_program = o.value("sutra_program", std::string());
        out.dry_run = o.value("dry_run", false);
        // "wrap_bash": true is the spelling of "bash_route": "always" before version 2 of the
        // options; an unknown route is read as the default.
        if (o.value("wrap_bash", false)) out.bash_route = "always";
        if (const auto r = o.find("bash_route");
            r != o.end() && (*r == "auto" || *r == "always" || *r == "off"))
            out.bash_route = r->get<std::string>();
        out.raise_output_cap = o.value("raise_output_cap", false);
        out.statusline = o.value("statusline", false);
        if (const auto t = o.find("mcp_tools"); t != o.end() && t->is_array())
            for (const auto& name : *t)
                if (name == "files" || name == "exec") out.mcp_tools.push_back(name);
    }
    return out;
}

std::string string_field(const nlohmann::json& object, const char* key) {
    if (!object.is_object()) return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string pass(const std::string& reason) {
    return nlohmann::ordered_json{{"action", "pass"}, {"reason", reason}}.dump();
}

} // namespace sutra::plugins::common
