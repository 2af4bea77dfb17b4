// See mcp_registration.hpp.

#include "plugins/common/mcp_registration.hpp"

#include "plugins/common/hook_settings.hpp"
#include "plugins/common/json_text.hpp"
#include "plugins/common/paths.hpp"

#include <algorithm>
#include <stdexcept>

namespace sutra::plugins::common {

std::vector<std::string> mcp_args(const std::string& restore_tool,
                                  const std::string& store_namespace,
                                  const std::vector<std::string>& extra_tools) {
    std::vector<std::string> args{"mcp", "--restore-tool", restore_tool};
    if (!store_namespace.empty()) {
        args.push_back("--namespace");
        args.push_back(store_namespace);
    }
    if (!extra_tools.empty()) {
        std::string list = "restore,compress,stats";
        for (const auto& t : extra_tools) list += "," + t;
        args.push_back("--tools");
        args.push_back(list);
    }
    return args;
}

bool is_sutra_program(const std::string& command) {
    const auto slash = command.rfind('/');
    return (slash == std::string::npos ? command : command.substr(slash + 1)) == "sutra";
}

bool is_our_server(const std::string& program, const std::vector<std::string>& args) {
    return is_sutra_program(program) && !args.empty() && args[0] == "mcp" &&
           std::find(args.begin(), args.end(), "--restore-tool") != args.end();
}

FilePlan
plan_reverse(const std::string& path,
             const std::string& before,
             const std::function<std::string(const std::optional<std::string>&)>& reinstall,
             const std::string& stripped,
             const std::function<bool(const std::string&)>& has_ours) {
    const auto same = [&](const std::optional<std::string>& text) {
        try {
            return reinstall(text) == before;
        } catch (const std::exception&) {
            return false; // a backup we cannot read the same way is not the original
        }
    };
    // Only the backups install recorded are sutra's (files.hpp, backup_record): they are the
    // candidates and they go. Without a record (an older sutra's install) any backup may be the
    // one to restore, and only that one goes.
    const auto recorded = recorded_backups(path);
    const std::vector<std::string> saved = recorded ? *recorded : backups(path);
    const std::vector<std::string> leftovers = recorded_leftovers(path);
    // The newest backup of the user's own file (no sutra entry in it) that install turns into
    // exactly the current text.
    for (std::size_t i = saved.size(); i-- > 0;) {
        const auto text = read_text(saved[i]);
        bool ours = true;
        try {
            ours = !text || has_ours(*text);
        } catch (const std::exception&) {
        }
        if (ours || !same(text)) continue;
        FilePlan plan{path, "restore", before, text, saved[i]};
        for (const std::string& other : leftovers)
            if (other != saved[i]) plan.remove_after.push_back(other);
        return plan;
    }
    FilePlan plan = same(std::nullopt)
                        ? FilePlan{path, "delete", before, std::nullopt, std::nullopt}
                        : FilePlan{path, "modify", before, stripped, std::nullopt};
    plan.backup_before = false;
    plan.remove_after = leftovers;
    return plan;
}

std::optional<ojson> json_entry(const ojson& doc, const std::string& section) {
    const auto s = doc.find(section);
    if (s == doc.end() || !s->is_object()) return std::nullopt;
    const auto e = s->find(k_mcp_name);
    if (e == s->end()) return std::nullopt;
    return *e;
}

ojson merged_entry(const std::optional<ojson>& old, const ojson& entry) {
    if (!old || !old->is_object() || !entry.is_object()) return entry;
    ojson merged = *old;
    for (const auto& [key, value] : entry.items()) {
        if (key == "enabled" && merged.contains(key)) continue; // the user's choice
        merged[key] = value;
    }
    return merged;
}

ojson parse_config(const std::optional<std::string>& text, const std::string& path, bool jsonc) {
    if (!text || text->find_first_not_of(" \t\r\n") == std::string::npos) return ojson::object();
    const auto doc = parse_json_text(*text, jsonc);
    if (!doc)
        throw std::runtime_error(path + " " + json_text_problem(*text, jsonc) +
                                 "; fix it by hand (nothing was changed)");
    if (!doc->is_object())
        throw std::runtime_error(path + " is not a JSON object; fix it by hand (nothing was "
                                        "changed)");
    return *doc;
}

void check_config(const std::optional<std::string>& text, const std::string& path, bool jsonc) {
    if (text && json_top_members(*text, jsonc)) return;
    parse_config(text, path, jsonc);
}

namespace {

// A config read for one section: install and uninstall change only doc[section][sutra], so
// where the text allows (json_top_members) only doc[section] is built, and the rest is known by
// its top-level members' bytes. An 8 MB `.claude.json` took 1.2 s to install as a whole
// document, most of it nlohmann's ordered objects looking up each of thousands of keys in turn.
struct ConfigRead {
    ojson doc; // the whole document; or, with `top`, only {section: value}
    std::optional<std::vector<TopMember>> top; // views into the text read
};

// `text` by pointer (null: no file): the views in `top` point into it, so no temporary copy of
// it may be read.
ConfigRead read_config(const std::string* text,
                       const std::string& path,
                       const std::string& section,
                       bool jsonc) {
    const auto whole = [&] {
        return parse_config(text ? std::optional<std::string>(*text) : std::nullopt, path, jsonc);
    };
    if (auto top = text ? json_top_members(*text, jsonc) : std::nullopt) {
        std::vector<TopMember> members = std::move(*top);
        ojson doc = ojson::object();
        for (const TopMember& m : members) {
            if (m.key != section) continue;
            // Fails only where the whole text does too: then the whole read says why.
            auto value = parse_json_text(std::string(m.value), jsonc);
            if (!value) return {whole(), std::nullopt};
            doc[section] = std::move(*value);
        }
        return {std::move(doc), std::move(members)};
    }
    return {whole(), std::nullopt};
}

// Whether `after` reads as `expected`: doc[section] as expected, and (for a section read) every
// other top-level member with the same key and the same bytes, in the same order. Byte-equal
// values are equal values, so this is what re-reading the whole file would show.
bool reads_as(const ConfigRead& before,
              const std::string& after,
              const std::string& section,
              const ojson& expected,
              bool jsonc) {
    if (!before.top) {
        const auto reread = parse_json_text(after, jsonc);
        return reread && *reread == expected;
    }
    const ConfigRead now = read_config(&after, "", section, jsonc);
    if (!now.top || now.doc != expected) return false;
    const auto others = [&](const std::vector<TopMember>& members) {
        std::vector<std::pair<std::string_view, std::string_view>> rest;
        for (const TopMember& m : members)
            if (m.key != section) rest.emplace_back(m.key, m.value);
        return rest;
    };
    return others(*before.top) == others(*now.top);
}

// with_json_entry from the document already parsed, which it consumes: it becomes the re-read's
// expectation, so a large config (an 8 MB `.claude.json`) is parsed twice, not three times, and
// never copied. `verify` false skips the re-read, for a caller that compares the text it gets
// with bytes it already knows to be the host's (plan_reverse).
std::string with_json_entry_in(ConfigRead read,
                               const std::optional<std::string>& original,
                               const std::string& path,
                               const std::string& section,
                               const ojson& entry,
                               bool jsonc,
                               bool verify) {
    ojson& doc = read.doc;
    if (doc.contains(section) && !doc[section].is_object())
        throw std::runtime_error(path + ": \"" + section +
                                 "\" is not an object; fix it by hand (nothing was changed)");
    const ojson merged = merged_entry(json_entry(doc, section), entry);
    if (json_entry(doc, section) == merged) return original.value_or(std::string());
    const std::string blank;
    const bool empty = !original || original->find_first_not_of(" \t\r\n") == std::string::npos;
    std::string after;
    try {
        after = json_text_set(empty ? blank : *original, section, k_mcp_name, merged);
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what() + "; fix it by hand (nothing was changed)");
    }
    if (!verify) return after;
    // Re-read as the host would: exactly our entry changed, every other value as it was.
    ojson expected = std::move(doc); // reads_as needs only read.top
    expected[section][k_mcp_name] = merged;
    if (!reads_as(read, after, section, expected, jsonc))
        throw std::runtime_error(path + ": sutra could not add its entry without changing "
                                        "something else; add it by hand (nothing was changed)");
    return after;
}

} // namespace

std::string with_json_entry(const std::optional<std::string>& original,
                            const std::string& path,
                            const std::string& section,
                            const ojson& entry,
                            bool jsonc) {
    return with_json_entry_in(read_config(original ? &*original : nullptr, path, section, jsonc),
                              original, path, section, entry, jsonc, true);
}

std::optional<FilePlan> plan_json_install(const std::string& config_path,
                                          const std::string& section,
                                          const ojson& entry,
                                          const std::function<bool(const ojson&)>& is_ours,
                                          bool jsonc) {
    const std::string path = real_target(config_path);
    auto before = read_text(path);
    ConfigRead read = read_config(before ? &*before : nullptr, path, section, jsonc);
    const auto old = json_entry(read.doc, section);
    if (old && !is_ours(*old))
        throw std::runtime_error(path + " already has an MCP server named \"sutra\" that sutra "
                                        "did not write; rename or remove it first (nothing was "
                                        "changed)");
    std::string after =
        with_json_entry_in(std::move(read), before, path, section, entry, jsonc, true);
    if (before && after == *before) return std::nullopt;
    // The plan takes the bytes (an 8 MB .claude.json is held twice, before and after, not four
    // times).
    const char* action = before ? "modify" : "create";
    FilePlan plan{path, action, std::move(before), std::move(after), std::nullopt};
    plan.backup_before = !old; // an upgrade: the backup of the user's own file is kept as is
    return plan;
}

std::optional<FilePlan> plan_json_uninstall(const std::string& config_path,
                                            const std::string& section,
                                            const std::function<bool(const ojson&)>& is_ours,
                                            bool jsonc) {
    const std::string path = real_target(config_path);
    const auto before = read_text(path);
    if (!before) return std::nullopt;
    ConfigRead read = read_config(before ? &*before : nullptr, path, section, jsonc);
    const auto installed = json_entry(read.doc, section);
    if (!installed || !is_ours(*installed)) return std::nullopt;
    std::string stripped;
    try {
        stripped = json_text_remove(*before, section, k_mcp_name);
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what() + "; remove mcp server \"sutra\" by hand");
    }
    ojson expected = std::move(read.doc); // reads_as needs only read.top
    expected[section].erase(k_mcp_name);
    if (expected[section].empty()) expected.erase(section);
    if (!reads_as(read, stripped, section, expected, jsonc))
        throw std::runtime_error(path + ": sutra could not remove its entry without changing "
                                        "something else; remove mcp server \"sutra\" by hand");
    return plan_reverse(
        path, *before,
        // Compared with `before` byte for byte, so the re-read adds nothing.
        [&](const std::optional<std::string>& text) {
            return with_json_entry_in(read_config(text ? &*text : nullptr, path, section, jsonc),
                                      text, path, section, *installed, jsonc, false);
        },
        stripped,
        [&](const std::string& text) {
            const auto e = json_entry(read_config(&text, path, section, jsonc).doc, section);
            return e && is_ours(*e);
        });
}

ojson mcp_status(const std::string& path,
                 const std::optional<std::string>& command,
                 const std::string& restore_tool) {
    return ojson{{"registered", command.has_value()},
                 {"path", path},
                 {"command", command ? ojson(*command) : ojson(nullptr)},
                 {"tool", restore_tool}};
}

void note_no_program(ojson& result) {
    result["messages"].push_back("no sutra binary given: the MCP server was not registered");
}

void note_mcp_install(ojson& result,
                      const std::string& sutra_program,
                      bool planned,
                      const std::string& path) {
    if (sutra_program.empty())
        note_no_program(result);
    else if (!planned)
        result["messages"].push_back(path + ": MCP server already registered");
}

void merge_result(ojson& into, const ojson& step) {
    for (const auto& f : step.value("files", ojson::array())) into["files"].push_back(f);
    for (const auto& m : step.value("messages", ojson::array())) into["messages"].push_back(m);
    if (step.value("changed", false)) into["changed"] = true;
}

} // namespace sutra::plugins::common
