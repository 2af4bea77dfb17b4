#!/usr/bin/env python3
"""Chooses the must-keep lines of one real output, mechanically (stdin -> stdout, one a line).

Every line is compared without ANSI escapes and without leading or trailing blanks. There is no
cap: a case with 800 errors has 800 must-keep lines. A line must stay visible when it is:

  1. a diagnostic with a location: file:line[:col], path(line,col), `at file:line`, or an
     eslint/stylelint-style `  12:3  error` (`✖`, `⚠`) row, with an error/failure/warning word
     on the same line, or under a header that names the place (shellcheck's `In FILE line 12:`,
     the nearest line above with less indentation); or a finding in the GNU form with a label
     or a code for its severity (`FILE:12:5: style: …`, `FILE:12:5: E1120: …`,
     `FILE:12:5: E711 …`). A compiler's `file:line: note:` is context, not a diagnostic;
  2. an error or failure verdict: `error:`/`error[E…]:`/`error TS1234`, a line starting with
     `error` (after asterisks: eunit's `**error:{assertEqual,…`), a test's line ending with its
     verdict after an ellipsis (eunit's `m_tests: split_test...*failed*`), `Error:`, `fatal:`, `panicked at`, FAIL/FAILED/ERROR as words, `npm error …`,
     `CMake Error`, or an exception line (`KeyError: 'x'`, `AssertionError`, the first unindented
     line after `Traceback (most recent call last):`, pytest's `E   …Error` lines, a JVM's
     `Exception in thread …` and `Caused by: …`, the message Rust prints on the line below
     `panicked at PLACE:`), or a memory checker's finding (`definitely lost in loss record`, `Invalid read`, `uninitialised
     value`);
  3. a verdict or summary: `N passed`/`N failed`/`N passing`/`N failing`, `Found N errors`, `N problems (…)`,
     `Fetched … in …s`, `-- Build files have been written to`, `+++ exited with N +++`,
     `ERROR SUMMARY`, `definitely lost`, `make: ***`, `npm error code`, `Ran N tests in`,
     `FAILED (failures=N)`, `OK`, `added N packages`, `Built target`;
  4. a process exit line (`exited with code N`, `Segmentation fault`, `Killed`, …), or the
     indented location line right below a kept line (`--> src/main.rs:2:19`, `at app.js:3:5`);
  5. a failure verdict of a vocabulary with no failure word (TAP's `not ok N`), or a log's
     error tag in capitals as a word of its own (`npm ERR!`, `CRIT`, `CRITICAL:`, `SEVERE:`);
  6. a memory checker's finding (valgrind's `==PID== Invalid read of size 4`, a sanitizer's
     `ERROR: AddressSanitizer: …`) and the first frame of its stack that names a source file
     (`by 0x…: MyString::Length() const (mystring.h:9)`, `#0 0x… in ring_put ring.c:10`): where
     the program went wrong, past the checker's and the C library's frames;
  7. a checker's verdict about one file: a warning or `would reformat` that names a file's path
     (prettier's `[warn] src/a.js`, black's `would reformat /x/y.py`);
  8. a finding named by its place and its rule, with no severity word: `path:12:5 MD013/…`
     (markdownlint), `path:12:  …  [whitespace/comma] [4]` (cpplint), or a line naming a rule in
     brackets with its place in the block below it (bandit's `>> Issue: [B101:assert_used] …`
     over `   Location: path:12`, both kept);
  9. a place alone on its line, `FILE:L:C:` (a file with an extension), whose error follows
     within 5 lines at the same depth, with only blank lines and deeper-indented code and caret
     lines between (gfortran's `m000.f90:42:23:` over `   42 | x = …`, `      |  1` and
     `Error: Symbol …`): the error line alone does not say where;
 10. a doctest failure: `File "calc.py", line 16, in calc` directly over `Failed example:`, both
     kept, with the example below them and the value below `Got:`; and the exception line of a
     traceback indented under `Exception raised:` (the first line back at the traceback's depth);
 11. a message that ends by naming its file and line in words: `… at mod018.pl line 8.` (perl,
     also before `, near "…"`), `… in /x/index.php on line 12` (PHP); a message, not a place
     alone (Test::More's `#   at t/01-title.t line 38.` is the place of the failure above it);
 12. a merge conflict, `CONFLICT (content): Merge conflict in f000.txt` (git), and a path
     still unmerged in git status (`both modified:   f006.txt`, `deleted by us:   f.txt`);
 13. a concurrency checker's finding, a line naming a `data race` or a `deadlock` or ending
     `violated` (helgrind's `Possible data race during read of size 8 …`, `Thread #3: lock order
     "…" violated`, ThreadSanitizer's `WARNING: ThreadSanitizer: data race`), and, as in 6, the
     first frame below it that names a source file (`by 0x109218: worker (race.c:10)`), past
     blank lines and subtitles (`Observed (incorrect) order is: …`), up to the next separator;
 14. a compiler's count of its errors: `14 warnings and 1 error generated.`, `2 errors
     generated.` (clang);
 15. a row in the GNU form with no severity word, label or code, `PATH:12:5: message` (luacheck's
     `src/m005.lua:11:10: accessing undefined variable 'total_2'`, go vet's); not an explanatory
     label (`note:`, `information:`), nor a listing of matches (`path:12:5:code`, no blank);
 16. the last non-empty line.
Error words inside flags, paths and identifiers (`-Werror`, `-Wno-error=x`, `errors.h`,
`src/error/`, `on_error`, `error_code`, `.error()`) do not count: each word must stand alone.

Lines longer than 2000 bytes are not taken whole (no view could show a 2 MB line whole). For a
JSON document (possibly after a few lines of stderr), substrings are taken instead: the text of
each eslint message of severity 2 (with its "line" and "column" when eslint wrote them compactly
after it) and of each npm error summary or `problems` entry, as it appears in the JSON (escaped).
Every must-keep entry is checked to occur in the (ANSI-free) output itself.
"""
import json
import re
import sys

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)")
MAX_LINE = 2000

# A word that is not part of a flag, a path, a file name or an identifier.
def word(w):
    return r"(?<![\w./=-])" + w + r"(?![\w/=-]|\.\w)"

LOCATION = re.compile(
    r"(?:[\w.@~+-]*[\w/]\.[A-Za-z]\w*|\w[\w./@~+-]*/[\w.@~+-]+|<[\w ]+>):\d+(?::\d+)?\b"  # file:line[:col]
    r"|[\w./@~+-]+\.\w+\(\d+,\d+\)"  # path(line,col)
    r"|\bat \S+:\d+"  # at file:line
    r"|^\s*\d+:\d+\s+(?:error|warning|\u2716|\u26a0)\s"  # eslint/stylelint stylish row
    r"|(?:File|file) \"[^\"]+\", line \d+"
)
SEVERITY = re.compile(
    "|".join(
        [word(w) for w in ("error", "errors", "Error", "ERROR", "warning", "Warning", "WARNING",
                           "fatal", "FAIL", "FAILED", "failed", "failure", "panicked")]
        + [r"\b\w*(?:Error|Exception|Warning)\b", "\u2716", "\u26a0"]
    )
)
VERDICT = re.compile(
    "|".join(
        [
            r"(?:^|\s)(?:fatal )?error(?:\[\w+\])?:",  # gcc/clang/rustc
            r"\berror TS\d+",  # tsc
            r"^\**error" + r"(?![\w/=-]|\.\w)",  # a line that starts with the word (eunit: `**error:`)
            r"\.\.\.\s*\*?(?:failed|FAILED)\*?$",  # a test's line ending in its verdict (eunit)
            r"(?:^|\s)Error:",  # node, go, many CLIs
            r"(?:^|\s)fatal:",  # git
            r"\bpanicked at\b",
            word("FAIL"),
            word("FAILED"),
            word("ERROR"),
            r"^npm (?:error|ERR!)",
            r"^CMake Error\b",
            r"^\s*E\s+\w*(?:Error|Exception)\b",  # pytest
            r"^(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)(?: \[\w+\])?(?::|$)",  # an exception line
            r"^Exception in thread\b",  # a JVM's uncaught exception
            r"^Caused by: ",  # and its cause
            # a memory checker's finding: a leak, a bad access, an uninitialised read
            r"\bdefinitely lost in loss record\b",
            r"\bInvalid (?:read|write|free)\b",
            r"\buninitialised value",
        ]
    )
)
SUMMARY = re.compile(
    "|".join(
        [
            r"\b\d+ (?:passed|failed|passing|failing)\b",
            r"^Found \d+ errors?\b",
            r"\b\d+ problems? \(",
            r"^Fetched .* in \S+s\b",
            r"^\d+ upgraded, \d+ newly installed",
            r"^-- Build files have been written to",
            r"^-- Configuring incomplete",
            r"\+\+\+ (?:exited with \d+|killed by \w+)",
            r"ERROR SUMMARY:",
            r"definitely lost:",
            r"^make(?:\[\d+\])?: \*\*\*",
            r"^npm (?:error|ERR!) code\b",
            r"^Ran \d+ tests? in\b",
            r"^FAILED \(",
            r"^OK\b",
            r"^(?:added|removed|changed|up to date)\b.* in \d",
            r"^\[\s*\d+%\] Built target\b",
            r"^\d+ (?:warnings? and \d+ )?errors? generated\.",  # clang
        ]
    )
)
EXIT = re.compile(
    r"\bexit(?:ed with)? (?:code|status) \d+|\bProcess finished with exit code\b"
    r"|^Segmentation fault\b|\(core dumped\)|^Killed\b|returned non-zero exit status \d+"
)


PANIC_PLACE = re.compile(r"\bpanicked at \S+:\d+:\d+:$")
NOTE = re.compile(r":\d+(?::\d+)?:\s+note:")  # a compiler's note: context, not a diagnostic

TAP_FAILURE = re.compile(r"^not ok(?:\s|$)")
ERROR_TAG = re.compile(r"(?<![\w])(?:ERR|ERRO|CRIT|CRITICAL|EMERG|SEVERE|FATL)(?![\w])")
# A memory checker's finding, whose stack follows it (the prefix `==PID==` is stripped first).
MEMORY_FINDING = re.compile(
    r"\bInvalid (?:read|write|free)\b|\buninitialised value|\bdefinitely lost in loss record\b"
    r"|\bERROR: \w*Sanitizer\b|\bMismatched free\b|\bConditional jump or move depends\b")
# A concurrency checker's finding (helgrind, DRD, ThreadSanitizer), whose stack follows it.
CONCURRENCY_FINDING = re.compile(r"\bdata race\b|\bdeadlock\b|\bviolated$")
CHECKER_PREFIX = re.compile(r"^(?:==|--|\*\*)\d+(?:==|--|\*\*) ?")
# A path with a slash and a file extension, as a word of its own.
PATH = re.compile(r"(?:^|\s)[\[(]?[\w.@~+-]*/[\w./@~+-]*\.[A-Za-z]\w{0,7}[\])]?(?=[\s:,;.]|$)")
CHECKER_VERDICT = re.compile(r"\bwould reformat\b|\bwould be reformatted\b")
WARN = re.compile(r"(?i)(?<![\w./-])warn(?:ing)?(?![\w/-])")
CODE = r"[A-Z]{1,4}\d{2,5}(?=[\s/:\]]|$)"
BRACKETED_RULE = re.compile(r"\[(?:" + CODE + r"|[\w-]+/[\w/-]+\])")
# `path:12[:5][:]` opening the line, then a code as the first word, or a bracketed rule later.
CODED = re.compile(r"^[^\s:]*[./][^\s:]*:\d+(?::\d+)?:?\s+(?:\[?" + CODE + r"|.*" +
                   BRACKETED_RULE.pattern + r")")

# A finding in the GNU form with a label or a code instead of a severity word: cppcheck's
# `FILE:12:5: style: …`, pylint's `FILE:12:5: E1120: …`, flake8's `FILE:12:5: E711 …`.
LABELLED = re.compile(
    r"^[^\s:]*[./][^\s:]*:\d+:\d+: "
    r"(?:(?!(?:note|help|info|hint|remark|information):)[A-Za-z]{1,20}:|[A-Z]{1,4}\d{2,5}(?=[ :]|$))"
)
# The place a block of findings is about, on the line they sit under (shellcheck's
# `In FILE line 12:`, a stylish linter's file name is not one: its rows carry LINE:COL).
HEADER_PLACE = re.compile(r"\S*[./]\S* line \d+")
# A place alone on its line, its message below (gfortran): `m000.f90:42:23:`.
PLACE_ONLY = re.compile(r"^(?:[\w.@~+-]*/)*[\w.@~+-]*\w\.[A-Za-z]\w*:\d+(?::\d+)?:$")
# A message ending by naming its file and line in words: perl's `… at mod018.pl line 8.` (or
# `…, near "…"` after it), PHP's `… in /x/index.php on line 12`; not a place with no message
# before it (Test::More's `#   at t/01-title.t line 38.` under its `#   Failed test`).
FILE_LINE_IN_WORDS = re.compile(
    r"\w.*?\s(?:at (?:\S*/)?[\w.@~+-]*\w\.[A-Za-z]\w*|in (?:\S*/)?[\w.@~+-]*\w\.[A-Za-z]\w* on)"
    r" line \d+(?:\.?$|, near \"|,? <\w+> (?:line|chunk) \d+\.$)")
CONFLICT = re.compile(r"^CONFLICT \([\w/ -]+\): |^(?:both (?:modified|added|deleted)|"
                      r"(?:deleted|added) by (?:us|them)):\s+\S")
DOCTEST_PLACE = re.compile(r'^File "[^"]+", line \d+, in \S+$')
GNU_ROW = re.compile(r"^[^\s:]*[./][^\s:]*:\d+:\d+: (?!(?:note|help|info|hint|remark|information):)\S")


def keep_line(line, parent=""):
    if VERDICT.search(line) or SUMMARY.search(line) or EXIT.search(line) or LABELLED.search(line):
        return True
    if TAP_FAILURE.search(line) or ERROR_TAG.search(line) or CODED.search(line):
        return True
    if FILE_LINE_IN_WORDS.search(line) or CONFLICT.search(line) or CONCURRENCY_FINDING.search(line):
        return True
    if GNU_ROW.search(line) and "://" not in line.split(" ", 1)[0]:
        return True
    if CHECKER_VERDICT.search(line) or (WARN.search(line) and PATH.search(line)):
        return True
    located = LOCATION.search(line) or HEADER_PLACE.search(parent)
    return bool(located and SEVERITY.search(line) and not NOTE.search(line))


def indent(raw_line):
    raw_line = CHECKER_PREFIX.sub("", raw_line, count=1)
    return len(raw_line) - len(raw_line.lstrip(" \t"))


def first_place_below(raw, i, reach, subtitle):
    """The index of the first line naming a source place in the indented block below raw[i]
    (one line of the same depth may come first when `subtitle`), or None."""
    depth = indent(raw[i])
    for j in range(i + 1, min(len(raw), i + 1 + reach)):
        body = CHECKER_PREFIX.sub("", raw[j], count=1)
        if not body.strip():
            return None
        if indent(raw[j]) <= depth and not (subtitle and j == i + 1):
            return None
        if indent(raw[j]) > depth and LOCATION.search(body):
            return j
    return None


def first_frame_below(raw, i, reach):
    """The index of the first deeper-indented line naming a source place below a concurrency
    finding raw[i], past blank lines and subtitles, before the next separator or finding."""
    depth = indent(raw[i])
    for j in range(i + 1, min(len(raw), i + 1 + reach)):
        body = CHECKER_PREFIX.sub("", raw[j], count=1).strip()
        if re.match(r"^[-=*]{8,}$", body) or CONCURRENCY_FINDING.search(body):
            return None
        if body and indent(raw[j]) > depth and LOCATION.search(body):
            return j
    return None


def place_over_error(raw, lines, i):
    """Whether raw[i] is a place alone on its line whose error follows within 5 lines at its
    depth, with only blank lines and deeper-indented lines (code, carets) between."""
    if not PLACE_ONLY.search(lines[i]):
        return False
    depth = indent(raw[i])
    for j in range(i + 1, min(len(raw), i + 6)):
        if not lines[j] or indent(raw[j]) > depth:
            continue
        return indent(raw[j]) == depth and bool(VERDICT.search(lines[j]))
    return False


def json_keeps(text):
    """Substrings of a JSON document that must stay visible, or None when it is not JSON."""
    start = next((i for i, ch in enumerate(text) if ch in "[{" and (i == 0 or text[i - 1] == "\n")), -1)
    if start < 0:
        return None
    try:
        doc = json.loads(text[start:])
    except ValueError:
        return None
    found = []

    def escaped(s):
        return json.dumps(s, ensure_ascii=False)[1:-1]

    def walk(v, key=None):
        if isinstance(v, dict):
            if v.get("severity") == 2 and isinstance(v.get("message"), str):
                # The message with its position, as eslint writes it, so each error is its own
                # must-keep; the bare message text when the document is laid out otherwise.
                at = '"message":"%s","line":%s,"column":%s' % (
                    escaped(v["message"]), v.get("line"), v.get("column"))
                found.append(at if at in text else escaped(v["message"]))
            if key == "error" and isinstance(v.get("summary"), str) and v["summary"]:
                found.append(escaped(v["summary"].split("\n")[0]))
            for k, x in v.items():
                walk(x, k)
        elif isinstance(v, list):
            if key == "problems":
                found.extend(escaped(x) for x in v if isinstance(x, str))
            for x in v:
                walk(x, key if key == "problems" else None)

    walk(doc)
    return [f for f in found if len(f) <= MAX_LINE]


def pick(data):
    text = data.decode("utf-8", "replace")
    raw = [ANSI.sub("", l).rstrip() for l in text.split("\n")]
    lines = [l.strip() for l in raw]
    keep = []
    in_trace = False
    kept_above = False
    open_lines = []  # (indentation, line): the lines a later, deeper line sits under
    paragraph = ""  # the first line after the last blank one
    for at, (r, line) in enumerate(zip(raw, lines)):
        # A memory checker's finding, and a rule named over its place: the first place below.
        body = CHECKER_PREFIX.sub("", line, count=1)
        if MEMORY_FINDING.search(body) or (BRACKETED_RULE.search(line) and not LOCATION.search(line)):
            memory = bool(MEMORY_FINDING.search(body))
            j = first_place_below(raw, at, 60 if memory else 6, memory)
            if j is not None and len(lines[j]) <= MAX_LINE:
                if not memory:
                    keep.append(line)
                keep.append(lines[j])
        if CONCURRENCY_FINDING.search(body.strip()):
            j = first_frame_below(raw, at, 30)
            if j is not None and len(lines[j]) <= MAX_LINE:
                keep.append(lines[j])
        parent = ""
        if not line:
            paragraph = ""
        else:
            paragraph = paragraph or line
            while open_lines and open_lines[-1][0] >= indent(r):
                open_lines.pop()
            if indent(r) > 0 and open_lines:
                parent = open_lines[-1][1] + "\n" + paragraph
            open_lines.append((indent(r), line))
        if len(line) > MAX_LINE:
            continue
        if line.startswith("Traceback (most recent call last):"):
            in_trace = True
            trace_depth = indent(r)
            continue
        if in_trace:
            # Frames and their code are indented; the exception is the first line that is not
            # (deeper than the `Traceback` line: doctest indents the whole traceback).
            if not r or indent(r) > trace_depth or line.startswith("[Previous line repeated"):
                continue
            in_trace = False
            if indent(r) == trace_depth:
                keep.append(line)
                continue
        # A doctest failure: its place, the example, and the value it gave.
        if DOCTEST_PLACE.search(line) and at + 2 < len(lines) and lines[at + 1] == "Failed example:":
            keep.extend([line, lines[at + 1], lines[at + 2]])
        if line == "Got:" and at + 1 < len(lines) and lines[at + 1] and indent(raw[at + 1]) > indent(r):
            keep.append(lines[at + 1])
        if place_over_error(raw, lines, at):
            keep.append(line)
        if keep_line(line, parent) or (body != line and keep_line(body.strip(), parent)):
            keep.append(line)
            kept_above = True
            # Rust prints a panic's message on the line below `panicked at PLACE:`.
            if PANIC_PLACE.search(line) and at + 1 < len(lines) and lines[at + 1] and \
                    len(lines[at + 1]) <= MAX_LINE:
                keep.append(lines[at + 1])
            continue
        # The location of the error on the line above (rustc's `--> src/main.rs:2:19`, a stack's
        # `at app.js:12:5`): the header alone does not say where.
        if kept_above and r.startswith((" ", "\t")) and LOCATION.search(line) and \
                re.match(r"(?:-->|at)\s", line):
            keep.append(line)
        kept_above = False
    j = json_keeps(text)
    if j:
        keep.extend(j)
    last = next((l for l in reversed(lines) if l), "")
    if last and len(last) <= MAX_LINE and sum(c.isalnum() for c in last) >= 3:
        keep.append(last)
    clean = ANSI.sub("", text)
    seen, unique = set(), []
    for k in keep:
        if k and k not in seen and k in clean:
            seen.add(k)
            unique.append(k)
    return unique


if __name__ == "__main__":
    sys.stdout.write("".join(k + "\n" for k in pick(sys.stdin.buffer.read())))
