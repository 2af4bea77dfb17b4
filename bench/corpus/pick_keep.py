#!/usr/bin/env python3
"""Chooses the must-keep lines of one real output, mechanically (stdin -> stdout, one a line).

A line must stay visible when it is:
  1. a diagnostic with a location: file:line[:col] and error/fail/Error:/warning: after it;
  2. a test or build verdict: starts with FAIL:, ERROR:, FAILED, make: *** / make[N]: ***,
     or npm error code / npm ERR! code;
  3. a traceback's exception line: the first unindented line after "Traceback (most recent
     call last):" and its frames;
  4. a leak or error summary from valgrind: "definitely lost:" or "ERROR SUMMARY:";
  5. the final summary: the last non-empty line, when it has at least 3 letters or digits.
Lines are compared without ANSI escapes and trailing blanks. At most 40 are kept (evenly
spread) so a single huge case cannot dominate the table.
"""
import re
import sys

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)")
LOCATED = re.compile(r"\S+:\d+(:\d+)?:?.*(error|fail|Error:|warning:)")
VERDICT = re.compile(r"^(FAIL:|ERROR:|FAILED|make(\[\d+\])?: \*\*\*|npm error code|npm ERR! code)")
VALGRIND = re.compile(r"(definitely lost:|ERROR SUMMARY:)")

lines = [ANSI.sub("", l).rstrip() for l in sys.stdin.buffer.read().decode("utf-8", "replace").split("\n")]
keep = []
in_trace = False
for line in lines:
    if line.startswith("Traceback (most recent call last):"):
        in_trace = True
        continue
    if in_trace:
        if line.startswith((" ", "\t")) or not line:
            continue
        in_trace = False
        keep.append(line)
        continue
    if LOCATED.search(line) or VERDICT.match(line) or VALGRIND.search(line):
        keep.append(line.strip())
last = next((l for l in reversed(lines) if l.strip()), "")
if sum(c.isalnum() for c in last) >= 3:
    keep.append(last.strip())

seen, unique = set(), []
for k in keep:
    if k and k not in seen:
        seen.add(k)
        unique.append(k)
if len(unique) > 40:
    step = len(unique) / 40
    unique = [unique[int(i * step)] for i in range(40)]
sys.stdout.write("".join(k + "\n" for k in unique))
