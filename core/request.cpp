#include "core/request.hpp"

namespace sutra::core {

std::string_view to_string(Mode m) {
    switch (m) {
    case Mode::automatic:
        return "auto";
    case Mode::concise:
        return "concise";
    case Mode::normal:
        return "normal";
    case Mode::verbose:
        return "verbose";
    case Mode::full:
        return "full";
    }
    return "auto";
}

std::string_view to_string(Shape s) {
    switch (s) {
    case Shape::empty:
        return "empty";
    case Shape::binary:
        return "binary";
    case Shape::diff:
        return "diff";
    case Shape::json:
        return "json";
    case Shape::traceback:
        return "traceback";
    case Shape::test_log:
        return "test-log";
    case Shape::build_log:
        return "build-log";
    case Shape::text:
        return "text";
    }
    return "text";
}

std::string_view to_string(Reason r) {
    switch (r) {
    case Reason::repeated_lines:
        return "repeated lines";
    case Reason::similar_lines:
        return "similar lines";
    case Reason::large_output:
        return "large output";
    case Reason::long_line:
        return "long line";
    case Reason::long_string:
        return "long string";
    case Reason::array_items:
        return "array items";
    case Reason::object_members:
        return "object members";
    case Reason::outside_outline:
        return "printed file: outside its outline";
    }
    return "large output";
}

std::optional<Mode> parse_mode(std::string_view s) {
    if (s == "auto") return Mode::automatic;
    if (s == "concise") return Mode::concise;
    if (s == "normal") return Mode::normal;
    if (s == "verbose") return Mode::verbose;
    if (s == "full") return Mode::full;
    return std::nullopt;
}

} // namespace sutra::core
