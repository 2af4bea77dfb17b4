#pragma once
// What the core did, as JSON: the one place a core::Response (core::compress) or a
// core::ExecResult (core::exec) becomes the fields the front ends print. `sutra compress --json`
// and the MCP tool sutra_compress show response_json; `sutra exec --json` and sutra_exec show
// exec_json. Each caller adds only what is its own (the CLI's "view", MCP's content blocks).

#include "core/compress.hpp"
#include "core/exec.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace sutra::host {

using OrderedJson = nlohmann::ordered_json;

/// One elided range: "reason", "bytes" [begin, end), "lines" [first, last], and "items" for the
/// elisions that count items (array items, object members).
OrderedJson elision_json(const core::Elision& elision);

/// A compress call: id (null when nothing was stored), rewritten, original_bytes, view_bytes,
/// elisions, rules, passthrough (why) when not rewritten, retained, shape.
/// `view_bytes` is the size of the view as the caller shows it.
OrderedJson response_json(const core::Response& response, std::size_t view_bytes);

/// An exec run: the same first fields as response_json (its elisions each with "retained": can
/// its restore call return it), then exit_code, signal (0 when none), retained_bytes.
OrderedJson exec_json(const core::ExecResult& result, std::size_t view_bytes);

} // namespace sutra::host
