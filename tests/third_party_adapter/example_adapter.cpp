// A minimal third-party adapter: its "host" sends {"event":"after_tool","tool":…,"text":…} and
// accepts {"replace": VIEW}. Written against the installed SDK header only.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <sutra/plugin_sdk.hpp>

struct ExampleAdapter {
    static constexpr const char* name = "example";
    static constexpr const char* description = "third-party example adapter";

    std::string decode(std::string_view payload) {
        const auto p = nlohmann::json::parse(payload, nullptr, false);
        if (!p.is_object() || p.value("event", "") != "after_tool" || !p["text"].is_string())
            return R"({"action":"pass","reason":"not ours"})";
        return nlohmann::json{{"action", "compress"},
                              {"tool", p.value("tool", "")},
                              {"output", p["text"]},
                              {"namespace", "example"}}
            .dump();
    }
    std::string encode(std::string_view, std::string_view result) {
        const auto r = nlohmann::json::parse(result);
        return nlohmann::json{{"replace", r["view"]}}.dump();
    }
    // install/uninstall/detect/doctor omitted: the SDK answers "not supported".
};

SUTRA_DEFINE_PLUGIN(ExampleAdapter)
