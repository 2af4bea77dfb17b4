// sutra_outline, sutra_symbol, sutra_read: the same answers as the CLI commands
// (core/outline/file_commands.hpp), read only under the server's roots. A file with syntax errors
// gives the partial answer with the warning, as an error result: never a silent "0 symbols".

#include "core/config.hpp"
#include "core/outline/file_commands.hpp"
#include "core/util/posix_io.hpp"
#include "core/util/utf8.hpp"
#include "host/mcp/tool_defs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::host::mcp {

namespace {

using namespace core::outline;

Json path_schema() {
    return Json{{"type", "string"},
                {"minLength", 1},
                {"maxLength", 4096},
                {"description", "The source file, absolute or relative to the server's working "
                                "directory."}};
}

Json language_schema() {
    return Json{{"type", "string"},
                {"maxLength", 32},
                {"description",
                 "Override the language the extension or #! line gives (python, "
                 "javascript, typescript, tsx, rust, go, c, cpp, java, bash, json)."}};
}

ToolOutcome command_outcome(const CommandResult& r, Json structured) {
    if (r.status != 0 && r.status != k_status_partial) return tool_error(r.err);
    if (!core::valid_utf8(r.out))
        return tool_error("the answer is not valid UTF-8, which an MCP text block cannot carry; "
                          "run the same `sutra` command in a shell for the raw bytes");
    Json content = Json::array({text_block(r.out)});
    if (!r.err.empty()) content.push_back(text_block(r.err));
    Json result{{"content", std::move(content)}, {"structuredContent", std::move(structured)}};
    if (r.status == k_status_partial) result["isError"] = true;
    return result;
}

// The server's roots: the folder the host started it in (its project) unless --allow-read named
// others.
std::vector<std::string> file_roots(const ServerOptions& options) {
    std::vector<std::string> roots = options.file_roots;
    char buf[PATH_MAX];
    if (roots.empty() && ::realpath(".", buf) != nullptr) roots.emplace_back(buf);
    return roots;
}

// A host's Read deny rules do not govern these tools, so they read only under the server's
// roots. Asked here by name for a clear answer; the read itself checks the file it opened
// (core/util/posix_io.hpp), so a link swapped in between leads nowhere outside.
std::optional<Json> outside_roots(const std::string& path, const ServerOptions& options) {
    char buf[PATH_MAX];
    if (::realpath(path.c_str(), buf) == nullptr)
        return tool_error(fmt::format("{}: {}", path, std::strerror(errno)));
    const std::string_view real(buf);
    const std::vector<std::string> roots = file_roots(options);
    for (const std::string& root : roots)
        if (core::path_within(real, root)) return std::nullopt;
    return tool_error(fmt::format(
        "{} is outside the folders sutra's file tools may read ({}); the user can add one by "
        "starting `sutra mcp` with --allow-read DIR",
        path, fmt::join(roots, ", ")));
}

} // namespace

Json text_output_schema() {
    return Json{{"type", "object"},
                {"properties", Json{{"text", Json{{"type", "string"}}}}},
                {"required", {"text"}}};
}

Json outline_input_schema() {
    return Json{{"type", "object"},
                {"properties", Json{{"path", path_schema()}, {"language", language_schema()}}},
                {"required", {"path"}},
                {"additionalProperties", false}};
}

Json outline_output_schema() {
    return Json{{"type", "object"},
                {"properties",
                 Json{{"language", Json{{"type", "string"}}},
                      {"partial", Json{{"type", "boolean"}}},
                      {"symbols", Json{{"type", "array"}, {"items", Json{{"type", "object"}}}}}}},
                {"required", {"language", "partial", "symbols"}}};
}

ToolOutcome call_outline(const Json& args, const ServerOptions& options) {
    OutlineRequest request;
    request.path = args["path"].get<std::string>();
    request.within = file_roots(options);
    if (auto refused = outside_roots(request.path, options)) return *refused;
    request.language = args.value("language", "");
    // One parse gives the text and the JSON forms (core/outline/file_commands.hpp, `both`).
    request.both = true;
    CommandResult r = run_outline(request);
    if (r.status != 0 && r.status != k_status_partial) return tool_error(r.err);
    Json structured = std::move(r.structured);
    return command_outcome(r, std::move(structured));
}

Json symbol_input_schema() {
    return Json{
        {"type", "object"},
        {"properties",
         Json{{"path", path_schema()},
              {"name", Json{{"type", "string"},
                            {"minLength", 1},
                            {"maxLength", 512},
                            {"description", "The symbol: a name, or qualified (Class.method)."}}},
              {"kind", Json{{"type", "string"},
                            {"maxLength", 32},
                            {"description", "Only symbols of this kind (function, method, class, "
                                            "struct, ...), as sutra_outline lists them."}}},
              {"line", Json{{"type", "integer"},
                            {"minimum", 1},
                            {"maximum", k_max_safe_integer},
                            {"description", "Only the symbol whose lines hold this one."}}},
              {"form", Json{{"type", "string"},
                            {"enum", {"verbatim", "compact", "signature"}},
                            {"default", "verbatim"},
                            {"description", "verbatim: the exact bytes. compact: function bodies "
                                            "folded behind a comment. signature: the declaration "
                                            "only."}}},
              {"language", language_schema()}}},
        {"required", {"path", "name"}},
        {"additionalProperties", false}};
}

ToolOutcome call_symbol(const Json& args, const ServerOptions& options) {
    SymbolRequest request;
    request.path = args["path"].get<std::string>();
    request.within = file_roots(options);
    if (auto refused = outside_roots(request.path, options)) return *refused;
    request.name = args["name"].get<std::string>();
    request.kind = args.value("kind", "");
    if (args.contains("line")) request.line = get_u64(args["line"]);
    const std::string form = args.value("form", "verbatim");
    if (form == "compact") request.form = SymbolRequest::Form::compact;
    if (form == "signature") request.form = SymbolRequest::Form::signature;
    request.language = args.value("language", "");
    const CommandResult r = run_symbol(request);
    return command_outcome(r, Json{{"text", r.out}});
}

Json read_input_schema() {
    // No pattern on the ranges: they are checked by the rule every command shares
    // (core/rewrite/ranges.hpp), which says what is wrong in the same words as the CLI.
    return Json{
        {"type", "object"},
        {"properties",
         Json{{"path", path_schema()},
              {"lines", Json{{"type", "string"},
                             {"maxLength", 1024},
                             {"description", "A-B[,C-D...]: one-based, inclusive line ranges; "
                                             "lines named twice come once, in file order."}}},
              {"bytes", Json{{"type", "string"},
                             {"maxLength", 64},
                             {"description", "A-B: zero-based bytes, end exclusive (the rest of "
                                             "a line longer than a page)."}}},
              {"max_bytes",
               Json{{"type", "integer"},
                    {"minimum", 1},
                    {"maximum", core::k_restore_hard_cap},
                    {"description", "Bound on the returned bytes; default from the configuration "
                                    "(8192), as sutra_restore."}}}}},
        {"required", {"path"}},
        {"additionalProperties", false}};
}

Json read_output_schema() {
    const Json count = Json{{"type", "integer"}, {"minimum", 0}};
    const Json range = Json{{"type", "array"}, {"items", count}, {"minItems", 2}, {"maxItems", 2}};
    return Json{{"type", "object"},
                {"properties",
                 Json{{"text", Json{{"type", "string"}}},
                      {"next", Json{{"type", {"object", "null"}},
                                    {"properties",
                                     Json{{"lines", Json{{"type", "string"}}}, {"bytes", range}}}}},
                      {"rest", Json{{"type", {"object", "null"}},
                                    {"properties", Json{{"line", count}, {"bytes", range}}},
                                    {"required", {"line", "bytes"}}}},
                      {"total_lines", count},
                      {"total_bytes", count}}},
                {"required", {"text", "next", "rest", "total_lines", "total_bytes"}}};
}

ToolOutcome call_read(const Json& args, const ServerOptions& options) {
    ReadRequest request;
    request.path = args["path"].get<std::string>();
    request.within = file_roots(options);
    request.lines = args.value("lines", "");
    request.bytes = args.value("bytes", "");
    if (args.contains("lines") == args.contains("bytes"))
        return invalid("give lines (A-B[,C-D...]) or bytes (A-B), one of them");
    if (auto refused = outside_roots(request.path, options)) return *refused;
    auto config = core::load_config();
    if (!config) return tool_error("sutra's configuration does not load: " + config.error());
    request.max_bytes_given = args.contains("max_bytes");
    request.max_bytes =
        request.max_bytes_given ? get_u64(args["max_bytes"]) : config->restore_max_bytes;
    // The next call is spelled with this server's name for the tool, as restore's is.
    const std::string_view restore = "sutra_restore";
    request.tool =
        options.restore_tool.ends_with(restore)
            ? options.restore_tool.substr(0, options.restore_tool.size() - restore.size()) +
                  "sutra_read"
            : "sutra_read";
    ReadPage page;
    CommandResult r = run_read(request, &page);
    // As the CLI: a malformed range is a usage error (status 2), a range the file cannot
    // answer a failure (status 1), in the same words.
    if (r.err.ends_with('\n')) r.err.pop_back();
    if (r.status == 2) return invalid(r.err);
    if (r.status != 0) return tool_error(r.err);
    if (!core::valid_utf8(r.out))
        return tool_error("the answer is not valid UTF-8, which an MCP text block cannot carry; "
                          "run the same `sutra read` in a shell for the raw bytes");
    Json next = nullptr;
    if (!page.next_lines.empty())
        next = Json{{"lines", page.next_lines}};
    else if (page.next_bytes)
        next = Json{{"bytes", {page.next_bytes->first, page.next_bytes->second}}};
    Json rest = nullptr;
    if (page.rest)
        rest = Json{{"line", page.rest_line}, {"bytes", {page.rest->first, page.rest->second}}};
    Json structured{{"text", r.out},
                    {"next", std::move(next)},
                    {"rest", std::move(rest)},
                    {"total_lines", page.total_lines},
                    {"total_bytes", page.total_bytes}};
    Json content = Json::array({text_block(std::move(r.out))});
    if (!r.note.empty()) content.push_back(text_block(std::move(r.note)));
    return Json{{"content", std::move(content)}, {"structuredContent", std::move(structured)}};
}

} // namespace sutra::host::mcp
