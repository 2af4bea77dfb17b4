// Fuzz target: `sutra mcp` fed arbitrary lines in-process (standard input and output redirected).
// Every line the server writes must be one JSON-RPC 2.0 response: an object with "jsonrpc":"2.0",
// an id that is null, a string or a number, and exactly one of "result" or "error" (an integer
// code and a string message); never more responses than input lines. "@ID" in the input stands
// for the id of a stored original, so restore calls reach real entries.

#include "core/outline/file_commands.hpp"
#include "core/outline/outline.hpp"
#include "core/store/store.hpp"
#include "host/mcp/server.hpp"

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_support.hpp"
#include <cstddef>
#include <cstdint>
#include <string>

using namespace sutra;
using nlohmann::json;

namespace sutra::core::outline {
// The outline tools' tree-sitter grammars are not built with fuzzer instrumentation (too slow to
// build on the CI machine); their MCP tools answer with a tool error here, so the protocol and
// argument handling around them is still exercised. The outline code has its own tests.
static CommandResult not_linked(const char* what) {
    CommandResult r;
    r.status = 1;
    r.err = std::string(what) + " is not linked into the fuzz build";
    return r;
}
CommandResult run_outline(const OutlineRequest&) {
    return not_linked("outline");
}
CommandResult run_symbol(const SymbolRequest&) {
    return not_linked("outline");
}
CommandResult run_read(const ReadRequest&, ReadPage*) {
    return not_linked("read");
}
// The outline of a printed file past the ceiling: none in this build (a view without it).
std::vector<OutlineLine> printed_file_outline(std::string_view, std::string_view) {
    return {};
}
} // namespace sutra::core::outline

namespace {

const std::string& stored_id() {
    static const std::string id = [] {
        std::string log;
        for (int i = 0; i < 300; ++i) log += "step " + std::to_string(i) + " fine\n";
        auto store = core::Store::open(fuzz::store_options());
        SUTRA_FUZZ_CHECK(store.has_value(), "cannot open the store");
        auto put = store->put(log);
        SUTRA_FUZZ_CHECK(put.has_value(), "cannot store an original");
        return *put;
    }();
    return id;
}

void check_response_line(const std::string& line) {
    const json msg = json::parse(line, nullptr, false);
    SUTRA_FUZZ_CHECK(msg.is_object(), line);
    SUTRA_FUZZ_CHECK(msg.value("jsonrpc", std::string()) == "2.0", line);
    SUTRA_FUZZ_CHECK(msg.contains("id"), line);
    const json& id = msg["id"];
    SUTRA_FUZZ_CHECK(id.is_null() || id.is_string() || id.is_number(), line);
    SUTRA_FUZZ_CHECK(msg.contains("result") != msg.contains("error"), line);
    if (msg.contains("error")) {
        const json& e = msg["error"];
        SUTRA_FUZZ_CHECK(e.is_object() && e.contains("code") && e["code"].is_number_integer() &&
                             e.contains("message") && e["message"].is_string(),
                         line);
    } else {
        SUTRA_FUZZ_CHECK(msg["result"].is_object(), line);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string input(reinterpret_cast<const char*>(data), size);
    for (std::size_t at = input.find("@ID"); at != std::string::npos; at = input.find("@ID", at))
        input.replace(at, 3, stored_id());
    int status = -1;
    const std::string out = fuzz::with_stdio(
        input, [&] { status = host::mcp::serve_stdio(host::mcp::ServerOptions{}, false); });
    SUTRA_FUZZ_CHECK(status == 0, std::to_string(status));
    const auto lines = fuzz::split(out, '\n');
    SUTRA_FUZZ_CHECK(lines.back().empty(), "a response without its newline");
    SUTRA_FUZZ_CHECK(lines.size() - 1 <= fuzz::split(input, '\n').size(),
                     "more answers than lines");
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) check_response_line(lines[i]);
    return 0;
}
