#pragma once
// The core's entry point: eligibility, shape, rewrite, storage, markers, never-worse, fail-open.

#include <string_view>

#include "core/config.hpp"
#include "core/request.hpp"

namespace sutra::core {

/// Compresses one tool result. Never throws and never loses a byte: on any failure, or when a
/// view would not be meaningfully smaller, or when the original cannot be stored, the response
/// says `rewritten = false` and the original is what the host should keep. A lossy view is
/// only returned once the original is in the store (or when the user turned retention off).
/// The same bytes and configuration give the same view in any process.
Response compress(const Request& request, const Config& config) noexcept;

/// What the host should show: the view when rewritten, else the original itself.
inline std::string_view view_of(const Response& response, std::string_view original) {
    return response.rewritten ? std::string_view(response.view) : original;
}

/// The mode a request runs in: its own, else the configured one; `auto` becomes `normal` for a
/// failing or unknown exit status and `concise` for a successful one.
Mode effective_mode(const Request& request, const Config& config);

/// True for a store namespace we accept: 1-64 of [A-Za-z0-9_.-], not "." or "..".
bool valid_namespace(std::string_view name);

} // namespace sutra::core
