#include "host/response_json.hpp"

#include <string>

namespace sutra::host {
namespace {

// The fields every core result has: id, rewritten, original_bytes, view_bytes, elisions, rules,
// and passthrough when not rewritten. `elisions` is already converted.
OrderedJson common_fields(const std::optional<std::string>& id,
                          bool rewritten,
                          std::uint64_t original_bytes,
                          std::size_t view_bytes,
                          OrderedJson elisions,
                          const std::vector<std::string>& rules,
                          const std::string& passthrough) {
    OrderedJson out;
    out["id"] = id ? OrderedJson(*id) : OrderedJson(nullptr);
    out["rewritten"] = rewritten;
    out["original_bytes"] = original_bytes;
    out["view_bytes"] = view_bytes;
    out["elisions"] = std::move(elisions);
    out["rules"] = rules;
    if (!rewritten) out["passthrough"] = passthrough;
    return out;
}

} // namespace

OrderedJson elision_json(const core::Elision& e) {
    OrderedJson j{{"reason", std::string(core::to_string(e.reason))},
                  {"bytes", {e.begin, e.end}},
                  {"lines", {e.first_line, e.last_line}}};
    if (e.reason == core::Reason::array_items || e.reason == core::Reason::object_members)
        j["items"] = e.items;
    return j;
}

OrderedJson response_json(const core::Response& r, std::size_t view_bytes) {
    OrderedJson elisions = OrderedJson::array();
    for (const auto& e : r.elisions) elisions.push_back(elision_json(e));
    OrderedJson out = common_fields(r.id, r.rewritten, r.original_bytes, view_bytes,
                                    std::move(elisions), r.rules, r.passthrough);
    out["retained"] = r.retained;
    out["retained_bytes"] = r.retained_bytes;
    out["shape"] = std::string(core::to_string(r.shape));
    return out;
}

OrderedJson exec_json(const core::ExecResult& r, std::size_t view_bytes) {
    OrderedJson elisions = OrderedJson::array();
    for (const auto& e : r.elisions) {
        OrderedJson j = elision_json(e.range);
        j["retained"] = e.retained;
        elisions.push_back(std::move(j));
    }
    OrderedJson out = common_fields(r.id, r.rewritten, r.original_bytes, view_bytes,
                                    std::move(elisions), r.rules, r.passthrough);
    out["exit_code"] = r.exit_code;
    out["signal"] = r.signal;
    out["retained_bytes"] = r.retained_bytes;
    return out;
}

} // namespace sutra::host
