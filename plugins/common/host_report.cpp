// See host_report.hpp.

#include "plugins/common/host_report.hpp"

#include "plugins/common/adapter_calls.hpp"

#include <exception>

namespace sutra::plugins::common {

ojson report_json(const HostReport& r, const ojson& extra) {
    ojson out{{"client", r.client},
              {"found", r.found},
              {"installed", r.installed},
              {"path", r.path},
              {"command", r.command ? ojson(*r.command) : ojson(nullptr)},
              {"uncovered", r.uncovered},
              {"disabled", !r.disabled_by.empty()},
              {"disabled_by", r.disabled_by},
              {"mcp", r.mcp}};
    for (const auto& [key, value] : extra.items()) out[key] = value;
    return out;
}

std::string switched_off(const std::function<std::string()>& check) {
    try {
        return check();
    } catch (const std::exception&) {
        return {}; // a config the host cannot read either: doctor names it
    }
}

nlohmann::json restore_route(const std::function<bool()>& registered, const char* tool) {
    try {
        if (registered()) return {{"kind", "mcp"}, {"tool", tool}};
    } catch (const std::exception&) {
        // a config that cannot be read: the command route still works
    }
    return {{"kind", "cli"}};
}

std::string doctor_sample_output() {
    std::string out;
    for (int i = 1; i <= 400; ++i)
        out += "[INFO] compiling module_" + std::to_string(i % 7) + ".cpp ... ok\n";
    out += "error: sample failure line that must stay visible\n";
    return out;
}

std::string doctor_report(std::string_view detect_answer,
                          const std::function<void()>& check,
                          const std::string& route,
                          const std::function<ojson(const std::string& output)>& payload,
                          const std::function<void(ojson&)>& more) {
    return guarded([&] {
        ojson d = ojson::parse(detect_answer);
        if (!d.value("ok", true)) return d;
        check();
        const std::string out = doctor_sample_output();
        d["route"] = route;
        d["sample_bytes"] = out.size();
        d["sample_payload"] = payload(out);
        if (more) more(d);
        return d;
    });
}

} // namespace sutra::plugins::common
