#!/usr/bin/env python3
"""Recall and end-line agreement of `sutra outline` against Universal Ctags (measuring only).

usage: measure_vs_ctags.py SUTRA [--lang-force C++] [--write] FILE...

--write stores the ctags definitions compared against next to each file, as FILE.ctags
(kind, name, line, end line; tab-separated), for tests/outline_test.cpp, which checks the
same recall and end-line agreement without needing ctags.

For each ctags definition of the kinds below (functions, classes, structs, namespaces for the
C family; the language's main kinds otherwise) it looks for an outline symbol with the same
last name component whose lines hold the ctags line, and compares end lines. It also lists
outline names that are glued or bogus: whitespace inside, or a C/C++ function named like an
ALL_CAPS macro. Prints one line per file and a total.
"""
import json, re, subprocess, sys

KINDS = {
    "C++": {"function", "class", "struct", "namespace"},
    "C": {"function", "struct"},
    "Go": {"func", "type", "struct", "interface", "methodSpec", "var", "const"},
    "JavaScript": {"function", "class", "method"},
    "TypeScript": {"function", "class", "method", "interface", "alias", "enum"},
    "Rust": {"function", "struct", "enum", "trait", "module", "method"},
    "Python": {"function", "class", "member"},
    "Java": {"class", "method", "interface", "enum"},
}
MACRO = re.compile(r"^_*[A-Z][A-Z0-9_]*$")


def ctags(path, force):
    cmd = ["ctags", "--output-format=json", "--fields=+neKzl", "-o", "-"]
    if force:
        cmd.append("--language-force=" + force)
    out = subprocess.run(cmd + [path], capture_output=True, text=True, check=True).stdout
    tags = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    return [t for t in tags if t.get("_type") == "tag"]


def main():
    sutra, args = sys.argv[1], sys.argv[2:]
    force, write = None, False
    if args[:1] == ["--lang-force"]:
        force, args = args[1], args[2:]
    if args[:1] == ["--write"]:
        write, args = True, args[1:]
    total = [0, 0, 0, 0]  # wanted, found, with end, end agrees
    for path in args:
        run = subprocess.run([sutra, "outline", "--json", path], capture_output=True, text=True)
        syms = json.loads(run.stdout)["symbols"]
        tags = ctags(path, force)
        lang = tags[0]["language"] if tags else ""
        kinds = KINDS.get(lang, set())
        # Left out: ctags' names for anonymous namespaces and functions, and "functions" it
        # names after an unexpanded macro (GTEST_REPEATER_METHOD_, _GLIBCXX_NOEXCEPT_IF).
        # ctags takes `const r = {...}` inside a JavaScript method for a class: a class must
        # have the word on its line.
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
        want = [t for t in tags if t["kind"] in kinds and not t["name"].startswith("__anon")
                and not (t["kind"] == "class" and "class" not in lines[t["line"] - 1])
                and not (MACRO.match(t["name"]) and "_" in t["name"])]
        if write:
            with open(path + ".ctags", "w") as out:
                for t in want:
                    out.write(f'{t["kind"]}\t{t["name"]}\t{t["line"]}\t{t.get("end", 0)}\n')
        found = ends = agree = 0
        missing, bad_end = [], []
        for t in want:
            name = t["name"].split("::")[-1].replace(" ", "").lstrip("#")
            # A nested namespace a::b is one symbol holding both names.
            cands = [s for s in syms
                     if name in re.split(r"::|\.", s["name"].strip('"').replace(" ", "").lstrip("#"))
                     and s["first_line"] <= t["line"] <= s["last_line"]]
            if not cands:
                missing.append(f'{t["kind"]} {t["name"]}:{t["line"]}')
                continue
            found += 1
            s = min(cands, key=lambda s: t["line"] - s["first_line"])
            if "end" in t:
                ends += 1
                if t["end"] == s["last_line"]:
                    agree += 1
                else:
                    bad_end.append(f'{t["name"]}:{t["line"]} ctags {t["end"]} ours {s["last_line"]}')
        glued = [s["name"] for s in syms
                 if (re.search(r"\s", s["name"]) and "operator" not in s["name"])
                 or (s["kind"] in ("function", "method", "declaration")
                     and MACRO.match(s["name"].split("::")[-1]) and lang in ("C", "C++"))]
        print(f"{path}: {lang} recall {found}/{len(want)}, end lines {agree}/{ends}, "
              f"glued/bogus {len(glued)}")
        for m in missing[:8]:
            print("   missing", m)
        for b in bad_end[:5]:
            print("   end", b)
        for g in glued[:5]:
            print("   bogus", repr(g))
        for i, v in enumerate((len(want), found, ends, agree)):
            total[i] += v
    w, f, e, a = total
    print(f"TOTAL recall {f}/{w} = {100*f/max(w,1):.1f}%, end lines {a}/{e} = {100*a/max(e,1):.1f}%")


if __name__ == "__main__":
    main()
