// The language table (language.hpp).

#include "core/outline/language.hpp"

#include "core/outline/c_family.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace sutra::core::outline {
namespace {

struct LanguageInfo {
    Language language;
    std::string_view name;
    std::array<std::string_view, 8> extensions; // with the dot; empty entries unused
    std::array<std::string_view, 3> aliases;
};

constexpr LanguageInfo k_languages[] = {
    {Language::python, "python", {".py", ".pyi", ".pyw"}, {"py", "python3"}},
    {Language::javascript, "javascript", {".js", ".mjs", ".cjs", ".jsx"}, {"js", "jsx", "node"}},
    {Language::typescript, "typescript", {".ts", ".mts", ".cts"}, {"ts"}},
    {Language::tsx, "tsx", {".tsx"}, {}},
    {Language::rust, "rust", {".rs"}, {"rs"}},
    {Language::go, "go", {".go"}, {"golang"}},
    {Language::c, "c", {".c", ".h"}, {}},
    {Language::cpp,
     "cpp",
     {".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".ipp"},
     {"c++", "cxx"}},
    {Language::java, "java", {".java"}, {}},
    {Language::bash, "bash", {".sh", ".bash"}, {"sh", "shell"}},
    {Language::json, "json", {".json"}, {}},
};

constexpr std::array<Language, std::size(k_languages)> k_order = {
    Language::python, Language::javascript, Language::typescript, Language::tsx,
    Language::rust,   Language::go,         Language::c,          Language::cpp,
    Language::java,   Language::bash,       Language::json};

const LanguageInfo& info(Language language) {
    return k_languages[static_cast<std::size_t>(language)];
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::ranges::transform(out, out.begin(), [](unsigned char c) {
        return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    });
    return out;
}

// The interpreter a "#!" line names: "#!/bin/bash", "#!/usr/bin/env python3 -u", ...
std::optional<Language> from_shebang(std::string_view head) {
    if (!head.starts_with("#!")) return std::nullopt;
    std::string_view line = head.substr(2, head.find('\n') - 2);
    auto words = [&line]() {
        std::array<std::string_view, 2> w{};
        std::size_t n = 0, i = 0;
        while (n < w.size() && i < line.size()) {
            while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
            const std::size_t start = i;
            while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
            if (i > start) w[n++] = line.substr(start, i - start);
        }
        return w;
    }();
    std::string_view program = words[0].substr(words[0].rfind('/') + 1);
    if (program == "env") program = words[1];
    if (program == "bash" || program == "sh" || program == "dash" || program == "ksh" ||
        program == "zsh")
        return Language::bash;
    if (program.starts_with("python")) return Language::python;
    if (program == "node") return Language::javascript;
    return std::nullopt;
}

} // namespace

std::span<const Language> all_languages() {
    return k_order;
}

std::string_view language_name(Language language) {
    return info(language).name;
}

std::optional<Language> parse_language(std::string_view name) {
    const std::string key = lower(name);
    for (const LanguageInfo& l : k_languages) {
        if (key == l.name) return l.language;
        for (std::string_view alias : l.aliases)
            if (!alias.empty() && key == alias) return l.language;
    }
    return std::nullopt;
}

std::optional<Language> detect_language(std::string_view path, std::string_view head) {
    const std::string_view base = path.substr(path.rfind('/') + 1);
    const std::size_t dot = base.rfind('.');
    if (dot != std::string_view::npos && dot > 0) {
        const std::string ext = lower(base.substr(dot));
        for (const LanguageInfo& l : k_languages)
            for (std::string_view e : l.extensions)
                if (!e.empty() && ext == e) {
                    // `.h` is C's and C++'s: the code says which.
                    if (ext == ".h" && looks_like_cpp(head)) return Language::cpp;
                    return l.language;
                }
        return std::nullopt;
    }
    return from_shebang(head);
}

std::string supported_languages() {
    std::string out;
    for (Language language : k_order) {
        const LanguageInfo& l = info(language);
        if (!out.empty()) out += ", ";
        out += fmt::format("{} (", l.name);
        bool first = true;
        for (std::string_view e : l.extensions) {
            if (e.empty()) continue;
            out += first ? "" : " ";
            out += e;
            first = false;
        }
        out += ")";
    }
    return out;
}

std::string folded_body(Language language,
                        std::string_view body,
                        std::size_t first_line,
                        std::size_t last_line) {
    const std::string note =
        fmt::format("[sutra: body elided, lines {}-{}]", first_line, last_line);
    switch (language) {
    case Language::python:
        return "...  # " + note;
    case Language::bash:
        // A comment runs to the end of the line, so the closing brace goes on the next one.
        return "{ : # " + note + "\n}";
    case Language::json:
        if (body.starts_with('[')) return "[\"" + note + "\"]";
        return "{\"" + note + "\": null}";
    case Language::javascript:
    case Language::typescript:
    case Language::tsx:
    case Language::rust:
    case Language::go:
    case Language::c:
    case Language::cpp:
    case Language::java:
        return "{ /* " + note + " */ }";
    }
    return "{ /* " + note + " */ }";
}

} // namespace sutra::core::outline
