"""Plays Hermes' plugin context (docs/adapters.md, "Hermes") around the __init__.py that
`sutra install --client hermes` wrote, and calls its hooks the way Hermes does, against the
real sutra-host. Usage: python3 hermes_harness.py INSTALLED_PLUGIN_DIR
"""

import importlib.util
import json
import os
import re
import subprocess
import sys

failures = 0


def check(name, fn):
    global failures
    try:
        fn()
        print(f"ok   {name}")
    except Exception as e:  # noqa: BLE001 - report every failure and go on
        failures += 1
        print(f"FAIL {name}: {type(e).__name__}: {e}")


class FakeContext:
    """The PluginContext surface a general plugin may use, recording every registration."""

    def __init__(self):
        self.hooks = {}
        self.tools = []
        self.middleware = []

    def register_hook(self, hook_name, callback):
        valid = {"pre_tool_call", "post_tool_call", "transform_tool_result",
                 "transform_terminal_output"}
        assert hook_name in valid, f"unknown hook {hook_name}"
        self.hooks.setdefault(hook_name, []).append(callback)

    def register_tool(self, name, toolset, schema, handler, **kwargs):
        self.tools.append(name)

    def register_middleware(self, kind, callback, **kwargs):
        self.middleware.append(kind)


def load(plugin_dir):
    # Hermes imports a directory plugin as a package named after its folder.
    spec = importlib.util.spec_from_file_location(
        "hermes_plugins.sutra", os.path.join(plugin_dir, "__init__.py"),
        submodule_search_locations=[plugin_dir])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def big_log():
    return "".join(f"test_case_{i % 9} ... ok\n" for i in range(800)) + "FAILED test_that_matters\n"


def envelope(output, exit_code=0):
    return json.dumps({"output": output, "exit_code": exit_code, "error": None})


# Markers name sutra's MCP tool while `sutra install` has registered it, else the CLI.
MARKS = ("sutra restore --namespace " + os.environ["EXPECT_NAMESPACE"] + " su_",
         'mcp_sutra_sutra_restore(id="su_')


def has_mark(text):
    return any(m in text for m in MARKS)

KW = dict(session_id="s1", tool_call_id="call_1", turn_id="t1", api_request_id="r1",
          duration_ms=12, status="ok", error_type=None, error_message=None,
          telemetry_schema_version="hermes.observer.v1")

plugin_dir = sys.argv[1]
module = load(plugin_dir)
ctx = FakeContext()
module.register(ctx)
tool_result = ctx.hooks["transform_tool_result"][0]
terminal_output = ctx.hooks["transform_terminal_output"][0]


def registers_both_hooks():
    assert set(ctx.hooks) == {"transform_tool_result", "transform_terminal_output"}
    assert ctx.tools == [] and ctx.middleware == []


def large_result_becomes_view():
    out = tool_result("terminal", {"command": "pytest"}, envelope(big_log(), 1), "task1", **KW)
    assert isinstance(out, str), out
    env = json.loads(out)
    assert env["exit_code"] == 1 and env["error"] is None
    assert has_mark(env["output"]), env["output"]
    assert "FAILED test_that_matters" in env["output"]
    assert len(out) < len(big_log()) / 3


def small_result_is_none():
    assert tool_result("terminal", {"command": "ls"}, envelope("a\nb\n"), "task1", **KW) is None


def mcp_result_becomes_text_view():
    out = tool_result("mcp_srv_tool", {}, big_log(), "task1", **KW)
    assert isinstance(out, str) and has_mark(out)


def restore_and_read_file_are_none():
    assert tool_result("terminal", {"command": "sutra restore su_1 --full"},
                       envelope(big_log()), "task1", **KW) is None
    assert tool_result("read_file", {"path": "/x"}, big_log(), "task1", **KW) is None
    assert tool_result("mcp_sutra_sutra_restore", {}, big_log(), "task1", **KW) is None


def terminal_output_hook():
    out = terminal_output("pytest", big_log(), 1, "task1", "local", **KW)
    assert isinstance(out, str) and has_mark(out)
    assert terminal_output(command="ls", output="a\n", returncode=0, task_id="t",
                           env_type="local") is None
    # The terminal tool's result then carries our view: it is not compressed again.
    assert tool_result("terminal", {"command": "pytest"}, envelope(out, 1), "task1", **KW) is None


def older_argument_names():
    out = terminal_output(command="pytest", output=big_log(), exit_code=1, cwd="/tmp")
    assert isinstance(out, str) and has_mark(out)


def bad_arguments_are_none():
    assert tool_result(None, None, None, None) is None
    assert tool_result("terminal", {}, 42, "t") is None
    assert terminal_output(None, None, None, None, None) is None


def missing_host_is_none():
    saved = module.SUTRA_HOST
    module.SUTRA_HOST = "/nonexistent/sutra-host"
    try:
        assert tool_result("terminal", {"command": "pytest"}, envelope(big_log()), "t", **KW) is None
        assert terminal_output("pytest", big_log(), 1, "t", "local") is None
    finally:
        module.SUTRA_HOST = saved


def marker_restores_the_original():
    text = big_log()
    out = terminal_output("pytest", text, 1, "task1", "local", **KW)
    cli = re.search(r"sutra restore (--namespace \S+ su_[0-9a-f]{32})( --(?:lines|bytes) \d+-\d+)?",
                    out)
    # The MCP form names no namespace: the registered server defaults to the profile's.
    mcp = re.search(r'mcp_sutra_sutra_restore\(id="(su_[0-9a-f]{32})", mode="(lines|bytes)", '
                    r'start=(\d+), end=(\d+)\)', out)
    assert cli or mcp, out
    if cli:
        base, extra = cli.group(1).split(), (cli.group(2) or "").split()
    else:
        base = ["--namespace", os.environ["EXPECT_NAMESPACE"], mcp.group(1)]
        extra = ["--" + mcp.group(2), "%s-%s" % mcp.group(3, 4)]
    run = lambda extra: subprocess.run([os.environ["SUTRA_BIN"], "restore", *base, *extra],
                                       capture_output=True, text=True, check=True).stdout
    assert run(["--all"]) == text
    if extra:
        got = run(extra)
        assert got and got in text, (out[:300], extra, got[:200])


def namespace_is_the_profile():
    store = os.path.join(os.environ["SUTRA_HOME"], "ns")
    expected = os.environ["EXPECT_NAMESPACE"]
    assert os.path.isdir(os.path.join(store, expected)), os.listdir(store)


for name, fn in [
    ("register() adds both transform hooks", registers_both_hooks),
    ("large terminal result -> envelope with a view and marker", large_result_becomes_view),
    ("small result -> None", small_result_is_none),
    ("large MCP result -> text view", mcp_result_becomes_text_view),
    ("restore output, read_file, sutra's MCP tools -> None", restore_and_read_file_are_none),
    ("transform_terminal_output, and no second compression", terminal_output_hook),
    ("older argument names (exit_code, cwd)", older_argument_names),
    ("bad arguments -> None", bad_arguments_are_none),
    ("sutra-host missing -> None", missing_host_is_none),
    ("one store namespace per profile", namespace_is_the_profile),
    ("a marker's command restores from the profile's store", marker_restores_the_original),
]:
    check(name, fn)

print("all hermes harness checks passed" if failures == 0 else f"{failures} check(s) failed")
sys.exit(1 if failures else 0)
