// See output_cap.hpp.

#include "plugins/codex/output_cap.hpp"

#include "plugins/codex/config_toml.hpp"
#include "plugins/common/paths.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace sutra::plugins::codex {

namespace {

constexpr const char* k_key = "tool_output_token_limit";
// sutra's line: `tool_output_token_limit = 65536 # sutra --raise-output-cap[, was: "<line>"]`.
const std::string k_ours =
    std::string(k_key) + " = " + std::to_string(k_raised_cap) + " # sutra --raise-output-cap";
constexpr const char* k_was = ", was: ";

// The top-level line that sets the cap (before the first table header), if any.
std::optional<TomlLine> cap_line(const std::string& toml) {
    for (const auto& line : toml_lines(toml)) {
        if (!toml_header(line.text).empty()) break;
        const std::string t = toml_trim(line.text);
        const auto eq = t.find('=');
        if (eq == std::string::npos) continue;
        std::string key = toml_trim(t.substr(0, eq));
        if (key.size() >= 2 && (key.front() == '"' || key.front() == '\''))
            key = key.substr(1, key.size() - 2);
        if (key == k_key) return line;
    }
    return std::nullopt;
}

std::string without_newline(const TomlLine& line) {
    std::string t = line.text;
    if (!t.empty() && t.back() == '\r') t.pop_back();
    return t;
}

} // namespace

CapState read_cap(const std::string& toml) {
    CapState s;
    const auto line = cap_line(toml);
    if (!line) return s;
    const std::string text = without_newline(*line);
    s.raised_by_sutra = text == k_ours || text.starts_with(k_ours + k_was);
    std::string value = toml_trim(text.substr(text.find('=') + 1));
    if (const auto hash = value.find('#'); hash != std::string::npos)
        value = toml_trim(value.substr(0, hash));
    std::uint64_t n = 0;
    bool digits = !value.empty();
    for (char c : value) {
        if (c == '_') continue;
        if (c < '0' || c > '9' || n > (UINT64_MAX - 9) / 10) {
            digits = false;
            break;
        }
        n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (digits)
        s.tokens = n;
    else
        s.readable = false;
    return s;
}

std::string with_raised_cap(const std::string& toml) {
    const CapState s = read_cap(toml);
    if (!s.readable)
        throw std::runtime_error(std::string(k_key) +
                                 " in config.toml is not a plain integer; raise it by hand "
                                 "(nothing was changed)");
    if (s.raised_by_sutra || (s.tokens && *s.tokens >= k_raised_cap)) return toml;
    if (const auto line = cap_line(toml)) {
        const std::string own = without_newline(*line);
        const std::string was =
            nlohmann::json(own).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
        return toml.substr(0, line->begin) + k_ours + k_was + was +
               toml.substr(line->begin + own.size());
    }
    return k_ours + "\n" + toml;
}

std::string without_raised_cap(const std::string& toml) {
    const auto line = cap_line(toml);
    if (!line) return toml;
    const std::string text = without_newline(*line);
    if (text == k_ours) return toml.substr(0, line->begin) + toml.substr(line->end);
    if (!text.starts_with(k_ours + k_was)) return toml; // the user's own line, or edited since
    const auto own = nlohmann::json::parse(text.substr(k_ours.size() + std::string(k_was).size()),
                                           nullptr, false);
    if (!own.is_string()) return toml;
    return toml.substr(0, line->begin) + own.get<std::string>() +
           toml.substr(line->begin + text.size());
}

namespace {

const std::string k_how = "trust and enable the sutra-host entry in codex's /hooks, then run "
                          "`sutra install --client codex --raise-output-cap` again";
const std::string k_whole = "a raised cap would hand the model whole outputs";

// config.toml's planned text becomes `after`: the plan already there, else a new one without a
// backup (the raised line itself holds what uninstall puts back).
void plan_text(std::vector<common::FilePlan>& plans,
               const std::string& path,
               const std::optional<std::string>& before,
               const std::string& after) {
    for (auto& p : plans)
        if (p.path == path) {
            p.after = after;
            return;
        }
    common::FilePlan plan{path, before ? "modify" : "create", before, after, std::nullopt};
    plan.backup_before = false;
    plans.push_back(std::move(plan));
}

// A cap sutra raised goes back to the user's own line, in the same plans, because `reason`.
void plan_lowered_cap(std::vector<common::FilePlan>& plans,
                      const std::string& config_path,
                      const std::string& path,
                      const std::string& before,
                      const std::string& reason,
                      common::ojson& result) {
    const std::string after = without_raised_cap(before);
    if (after == before) return;
    check_key_edit(before, after, k_key, std::nullopt, path);
    plan_text(plans, path, before, after);
    result["messages"].push_back(config_path + ": " + k_key + " put back as it was: " + reason +
                                 ", and " + k_whole + " meanwhile; " + k_how);
}

} // namespace

void plan_output_cap(std::vector<common::FilePlan>& plans,
                     const std::string& config_path,
                     bool hook_changed,
                     bool raise,
                     const TrustCheck& trust,
                     common::ojson& result) {
    const std::string path = common::real_target(config_path);
    std::optional<std::string> before;
    bool planned = false;
    for (const auto& p : plans)
        if (p.path == path) {
            before = p.after;
            planned = true;
        }
    if (!planned) before = common::read_text(path);
    const std::string text = before.value_or(std::string());
    const CapState s = read_cap(text);
    const auto say = [&](const std::string& m) {
        result["messages"].push_back(config_path + ": " + m);
    };
    if (hook_changed) {
        if (s.raised_by_sutra)
            plan_lowered_cap(plans, config_path, path, text,
                             "Codex does not run the hook just written until you trust it", result);
        else if (raise)
            say("output cap not raised: Codex has not trusted the hook just written (" + k_whole +
                "); " + k_how);
        return;
    }
    // What --raise-output-cap would write (a cap that is not a plain integer refuses). Codex is
    // asked only when its answer decides something: a raise, or a cap sutra raised earlier.
    const std::string raised = raise ? with_raised_cap(text) : text;
    if (!s.raised_by_sutra && raised == text) {
        if (raise)
            say(std::string(k_key) + " already lets " + std::to_string(k_raised_cap) +
                " tokens or more through");
        return;
    }
    const HookTrust t = trust();
    if (!t.verified) {
        if (s.raised_by_sutra)
            plan_lowered_cap(plans, config_path, path, text, t.why, result);
        else
            say("output cap not raised: " + t.why + " (" + k_whole + "); " + k_how);
        return;
    }
    if (raised == text) {
        say(std::string(k_key) + " already lets " + std::to_string(k_raised_cap) +
            " tokens or more through (" + t.why + ")");
        return;
    }
    // Re-read as Codex would: nothing but the cap may change.
    check_key_edit(text, raised, k_key, static_cast<std::int64_t>(k_raised_cap), path);
    plan_text(plans, path, before, raised);
    say(std::string(k_key) + " raised to " + std::to_string(k_raised_cap) + " tokens (" + t.why +
        "): shell outputs up to 256 KiB reach sutra's hook whole (exec_command still stops at "
        "10,000 tokens, about 40 KB, unless the model asks for more)");
}

bool cap_cuts(const CapState& s) {
    return !s.readable || !(s.tokens && *s.tokens >= k_raised_cap);
}

common::ojson cap_uncovered(const std::string& toml) {
    const CapState s = read_cap(toml);
    common::ojson out = common::ojson::array();
    if (!cap_cuts(s)) return out;
    const std::string cap = !s.readable ? std::string(k_key) + " is not a plain integer"
                            : s.tokens
                                ? std::string(k_key) + " = " + std::to_string(*s.tokens) + " tokens"
                                : std::string(k_key) + " unset: 10,000 bytes";
    out.push_back(
        {{"what", "shell output beyond Codex's output cap (" + cap +
                      "): Codex cuts it before the hook runs"},
         {"command", s.readable ? "sutra install --client codex --raise-output-cap"
                                : "set " + std::string(k_key) + " = " +
                                      std::to_string(k_raised_cap) + " in config.toml by hand"}});
    return out;
}

common::ojson cap_report(const std::string& config_path, const TrustCheck& trust) {
    const auto text = common::read_text(common::real_target(config_path)).value_or("");
    const CapState s = read_cap(text);
    const bool cuts = cap_cuts(s);
    // Only a cap that lets whole outputs through depends on the hook running.
    const std::optional<HookTrust> t = cuts ? std::nullopt : std::optional<HookTrust>(trust());
    const bool problem = t && !t->verified;
    std::string note;
    if (!s.readable)
        note = std::string(k_key) + " is not a plain integer; Codex's cut before sutra's hook is "
                                    "unknown";
    else if (problem)
        note = std::string(k_key) + " = " + std::to_string(*s.tokens) +
               (s.raised_by_sutra ? " (raised by sutra)" : "") +
               " lets whole outputs through, but " + t->why +
               ": the model gets them whole, never shortened by sutra; trust and enable "
               "the sutra-host entry in codex's /hooks, or " +
               (s.raised_by_sutra ? "run `sutra install --client codex` to put the cap back"
                                  : "lower the cap");
    else if (cuts)
        note = "Codex cuts shell output to " +
               (s.tokens ? std::to_string(*s.tokens) + " tokens (about " +
                               std::to_string(*s.tokens * 4) + " bytes, " + k_key + ")"
                         : std::string("10,000 bytes (") + k_key + " unset)") +
               " before sutra's hook sees it: the middle of a longer output never reaches sutra "
               "or the model. Raise it: sutra install --client codex --raise-output-cap (once "
               "the hook is trusted in /hooks)";
    else
        note = std::string(k_key) + " = " + std::to_string(*s.tokens) + ": outputs up to " +
               std::to_string(*s.tokens * 4 / 1024) +
               " KiB reach sutra's hook whole (exec_command stops at 10,000 tokens unless the "
               "model asks for more); " +
               t->why;
    return common::ojson{{"tokens", s.tokens ? common::ojson(*s.tokens) : common::ojson(nullptr)},
                         {"raised_by_sutra", s.raised_by_sutra},
                         {"hook_trusted", t && t->verified},
                         {"hook_trust", t ? common::ojson(t->status) : common::ojson(nullptr)},
                         {"cuts_before_sutra", cuts},
                         {"problem", problem},
                         {"note", note}};
}

} // namespace sutra::plugins::codex
