#pragma once
// What detect and doctor answer, in one shape for every adapter, and the restore route markers
// name. The CLI reads these answers (host/cli/cli_install.cpp); an adapter adds only its own
// fields and its host's own checks.

#include "plugins/common/files.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace sutra::plugins::common {

/// detect's report of one host.
struct HostReport {
    std::string client;                 ///< the --client name
    bool found = false;                 ///< the host's own folder exists
    bool installed = false;             ///< sutra's hook or plugin is in place
    std::string path;                   ///< the file or folder that holds it
    std::optional<std::string> command; ///< the hook command as installed
    ojson uncovered = ojson::array();   ///< what the hook cannot see: each {what, command}
    std::string disabled_by;            ///< the host's own switch that turns sutra off; "": none
    ojson mcp;                          ///< mcp_status() of the host's MCP registration
};

/// The report as detect answers it: client, found, installed, path, command (null when not
/// installed), uncovered, disabled, disabled_by, mcp; then `extra`'s fields, in its order.
ojson report_json(const HostReport& report, const ojson& extra = ojson::object());

/// A host's switch-off check (the sentence naming the switch, or "") as detect asks it: a config
/// the host could not read either counts as no switch here, and doctor names it (doctor_report).
std::string switched_off(const std::function<std::string()>& check);

/// The route markers name for restores: {"kind":"mcp","tool":TOOL} where sutra's MCP server is
/// registered with the host, else {"kind":"cli"} (the `sutra restore` command, which always
/// works, also where the host's config cannot be read).
nlohmann::json restore_route(const std::function<bool()>& registered, const char* tool);

/// The output doctor sends through a hook: a build's 400 passing lines, then one failure line
/// that must stay visible in the view.
std::string doctor_sample_output();

/// doctor: detect's answer (returned as is when it failed), then `check` (the host's own reading
/// of its config, which throws, naming the file, where the host could not read it either), then
/// the sample: "route", "sample_bytes" and "sample_payload" (`payload` of the sample output).
/// `more` may add fields (another route's samples). Exceptions become {"ok":false,"error"}.
std::string doctor_report(std::string_view detect_answer,
                          const std::function<void()>& check,
                          const std::string& route,
                          const std::function<ojson(const std::string& output)>& payload,
                          const std::function<void(ojson&)>& more = {});

} // namespace sutra::plugins::common
