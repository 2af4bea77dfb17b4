#!/usr/bin/env python3
"""Writes the committed seed corpora under fuzz/corpus/<target>/ (run from anywhere; idempotent).

Seeds are small and realistic: log excerpts from samples/, generated build and test logs,
diffs, JSON documents, hook payloads in each host's shape, MCP lines and TOML files.
The first byte of a compress/json/restore seed is the target's selector byte."""
import json, os, pathlib, shutil

root = pathlib.Path(__file__).resolve().parent.parent
out = root / "fuzz" / "corpus"


def write(target, name, data):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (d / name).write_bytes(data)


sample = (root / "samples" / "pytest-failure.log").read_bytes()
head = sample[:3000]
tail = sample[-3000:]
build = "".join(f"[{i}/120] Building CXX object src/f{i}.o\n" for i in range(1, 60))
build += "src/x.cpp:12:5: error: 'foo' was not declared in this scope\n   12 |     foo();\n      |     ^~~\n"
build += "".join(f"[{i}/120] Building CXX object src/f{i}.o\n" for i in range(60, 90))
ansi = "".join(f"\x1b[32mok\x1b[0m test_{i} passed\n" for i in range(40)) + "\x1b[31mFAILED\x1b[0m test_x\n"
redraw = "".join(f"\rDownloading {p}%" for p in range(0, 101, 5)) + "\ndone\n" * 30
trace = "Traceback (most recent call last):\n" + "".join(
    f'  File "/app/m{i}.py", line {i}, in f{i}\n    f{i + 1}()\n' for i in range(30)) + "ValueError: bad\n"
repeat = "retrying connection...\n" * 80 + "connected\n"
long_line = "x" * 5000 + "\nshort\n" * 30
diff = "diff --git a/a.c b/a.c\nindex 1..2 100644\n--- a/a.c\n+++ b/a.c\n@@ -1,3 +1,3 @@\n" + "".join(
    f"-old {i}\n+new {i}\n" for i in range(60))
utf8 = "".join(f"ligne {i}: éàü 日本語 ✓\n" for i in range(60))
texts = {"pytest_head": head, "pytest_tail": tail, "build": build.encode(), "ansi": ansi.encode(),
         "redraw": redraw.encode(), "traceback": trace.encode(), "repeat": repeat.encode(),
         "long_line": long_line.encode(), "diff": diff.encode(), "utf8": utf8.encode()}
for i, (name, data) in enumerate(texts.items()):
    write("compress", name, bytes([(i * 37) & 0x5F]) + data)

docs = {
    "array_of_objects": json.dumps([{"id": i, "name": f"item {i}", "ok": i % 3 == 0} for i in range(80)]),
    "indented": json.dumps({"results": [{"path": f"/src/f{i}.py", "line": i} for i in range(40)],
                            "total": 40}, indent=2),
    "long_string": json.dumps({"stdout": "line\n" * 600, "exit": 1}),
    "nested": json.dumps({"a": {"b": {"c": [[1, 2, [3, {"d": "é\u2028"}]]] * 20}}}),
    "escapes": json.dumps({"s": "\\u0000\"\\\t" * 200, "k": None, "n": -1.5e300}),
    "duplicates": '{"a":1,"a":2,"b":[' + ",".join(str(i) for i in range(300)) + "]}",
}
for i, (name, data) in enumerate(docs.items()):
    write("json", name, bytes([i * 5]) + data.encode())
    write("compress", "json_" + name, bytes([1]) + data.encode())
write("json", "lines", bytes([0]) + head)

out_text = head.decode("utf-8", "replace")
claude = {
    "bash": {"hook_event_name": "PostToolUse", "tool_name": "Bash", "session_id": "abc-123",
             "cwd": "/home/u/proj", "tool_input": {"command": "pytest -q"},
             "tool_response": {"stdout": out_text, "stderr": "warn\n", "interrupted": False,
                               "isImage": False}},
    "grep": {"hook_event_name": "PostToolUse", "tool_name": "Grep",
             "tool_response": {"mode": "content", "content": "a.py:1:x\n" * 100, "numLines": 100}},
    "mcp_text": {"hook_event_name": "PostToolUse", "tool_name": "mcp__db__query",
                 "tool_response": [{"type": "text", "text": build}]},
    "mcp_string": {"hook_event_name": "PostToolUse", "tool_name": "mcp__x__y", "tool_response": repeat},
    "persisted": {"hook_event_name": "PostToolUse", "tool_name": "Bash", "session_id": "s1",
                  "transcript_path": "/tmp/claude/projects/-home-u/s1.jsonl", "cwd": "/home/u",
                  "tool_input": {"command": "make"},
                  "tool_response": {"stdout": "preview", "persistedOutputPath":
                                    "/tmp/claude/projects/-home-u/s1/tool-results/x.txt",
                                    "persistedOutputSize": 12}},
    "restore": {"hook_event_name": "PostToolUse", "tool_name": "Bash",
                "tool_input": {"command": "sutra restore su_0123 --lines 1-5"},
                "tool_response": {"stdout": "x\n"}},
    "no_stdout": {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_response": {}},
}
codex = {
    "bash": {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "cargo test"},
             "tool_response": out_text},
    "shell": {"hook_event_name": "PostToolUse", "tool_name": "exec_command", "tool_input": {"command": "ls"},
              "tool_response": repeat},
    "object_response": {"hook_event_name": "PostToolUse", "tool_name": "shell", "tool_response": {"a": 1}},
}
opencode = {
    "bash": {"hook": "tool.execute.after", "input": {"tool": "bash", "args": {"command": "npm test"}},
             "output": {"output": out_text, "metadata": {"exit": 1}}},
    "grep": {"hook": "tool.execute.after", "input": {"tool": "grep"}, "output": {"output": build}},
    "mcp": {"hook": "tool.execute.after", "input": {"tool": "github_search"},
            "output": {"content": [{"type": "text", "text": repeat}, {"type": "text", "text": "b"}]}},
    "mcp_no_text": {"hook": "tool.execute.after", "input": {"tool": "x_y"},
                    "output": {"content": [{"type": "text"}]}},
    "truncated": {"hook": "tool.execute.after", "input": {"tool": "bash", "args": {"command": "make"}},
                  "output": {"output": "preview", "metadata": {"truncated": True,
                                                               "outputPath": "/tmp/d/opencode/tool-output/tool_abc"}},
                  "output_file_size": 100},
}
hermes = {
    "terminal_output": {"hook": "transform_terminal_output", "command": "pytest", "output": out_text,
                        "returncode": 1, "hermes_home": "/home/u/.hermes"},
    "terminal_result": {"hook": "transform_tool_result", "tool_name": "terminal",
                        "args": {"command": "make"},
                        "result": json.dumps({"output": build, "exit_code": 2, "error": None})},
    "terminal_bad_envelope": {"hook": "transform_tool_result", "tool_name": "terminal",
                              "result": json.dumps({"exit_code": 2})},
    "search": {"hook": "transform_tool_result", "tool_name": "search_files", "result": repeat,
               "hermes_home": "/home/u/.hermes/profiles/work"},
    "mcp": {"hook": "transform_tool_result", "tool_name": "mcp_db_query", "result": ansi},
}
for target, payloads in (("adapter_claude", claude), ("adapter_codex", codex),
                         ("adapter_opencode", opencode), ("adapter_hermes", hermes)):
    for name, p in payloads.items():
        write(target, name, json.dumps(p))
    write(target, "not_json", "{\"hook_event_name\": \"PostToolUse\", ")

# restore: selector, then 2- or 8-byte start/end/max_bytes, then the query (core), or NUL-split
# CLI arguments with @ID + one byte naming a stored original (selector bit 0x80).
write("restore", "core_bytes", bytes([0x00, 0, 10, 1, 0, 0, 100]))
write("restore", "core_lines", bytes([0x01, 0, 3, 0, 90, 0x10, 0]))
write("restore", "core_search", bytes([0x02, 0, 0, 0, 0, 0, 200]) + b"error")
write("restore", "core_full_long", bytes([0x07, 0, 0, 0, 0, 0xff, 0xff]))
write("restore", "core_hostile_id", bytes([0x40, 0, 0, 0, 0, 0, 0]) + b"su_../../etc/passwd")
for name, args in {"cli_lines": ["@ID\x00", "--lines", "2-30", "--max-bytes", "100"],
                   "cli_bytes": ["@ID\x01", "--bytes", "0-70010"],
                   "cli_all": ["@ID\x00", "--all"],
                   "cli_search": ["--search", "error", "@ID\x00"],
                   "cli_bad": ["su_zz", "--full", "--all"],
                   "cli_namespace": ["--namespace", "..", "@ID\x02"]}.items():
    write("restore", name, bytes([0x80]) + "\x00".join(args).encode())


def rpc(i, method, params=None):
    m = {"jsonrpc": "2.0", "id": i, "method": method}
    if params is not None:
        m["params"] = params
    return json.dumps(m)


mcp = {
    "session": "\n".join([
        rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "fuzz", "version": "1"}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        rpc(2, "tools/list"),
        rpc(3, "tools/call", {"name": "sutra_restore", "arguments": {"id": "@ID", "mode": "lines", "start": 1, "end": 20, "max_bytes": 100}}),
        rpc(4, "tools/call", {"name": "sutra_restore", "arguments": {"id": "@ID", "mode": "search", "query": "step 7"}}),
    ]) + "\n",
    "compress": rpc("c", "tools/call", {"name": "sutra_compress",
                                        "arguments": {"text": build, "mode": "concise"}}) + "\n",
    "stats": rpc(9, "tools/call", {"name": "sutra_stats", "arguments": {}}) + "\n",
    "bad": "not json\n[1,2]\n{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}\n" + rpc(5, "nope") + "\n",
    "discover": rpc(6, "server/discover") + "\n" + rpc(7, "ping", {"_meta": {"x": 1}}) + "\n",
}
for name, text in mcp.items():
    write("mcp", name, text)

# Deep nesting: 100,000 levels (200 KB) followed by another key, past every parser's depth limit
# (core/util/json_nesting.hpp); scripts/fuzz.sh gives these targets a max_len that holds it whole and
# fuzz/nesting.dict, so mutations keep reaching such depths.
deep = "[" * 100000 + "]" * 100000
write("json", "deep", bytes([0]) + ('{"a":' + deep + ',"b":1}').encode())
write("mcp", "deep", rpc(1, "ping", {"x": "@DEEP"}).replace('"@DEEP"', deep + ',"y":1') + "\n"
      + rpc(2, "ping") + "\n")
write("adapter_claude", "deep", json.dumps(
    {"hook_event_name": "PostToolUse", "tool_name": "Grep", "tool_input": {"pattern": "x"},
     "tool_response": {"mode": "content", "content": build, "extra": "@DEEP"}}).replace('"@DEEP"', deep))

write("config", "default", (root / "config" / "config.toml").read_bytes())
write("config", "set", '[compress]\nmode = "verbose"\nmin_bytes = 100\nkeep_patterns = ["FATAL", "oops"]\n'
      '[store]\nenabled = false\ndir = "~/s"\nttl_seconds = 60\n[restore]\nmax_bytes = 100\n'
      '[stats]\nenabled = true\n')
write("config", "bad_type", "[compress]\nmin_bytes = \"x\"\n")
write("config", "unknown", "[nope]\na = 1\n")
write("registry", "default", (root / "config" / "adapters.toml").read_bytes())
write("registry", "absolute", '[adapters.mine]\nmodule = "/opt/x/libmine.so"\n'
      '[adapters.rel]\nmodule = "../up/lib.so"\ndescription = "r"\n')
write("registry", "bad", "[adapters]\nclaude = 1\n")
