"""sutra for Hermes: compresses large tool output before the model reads it.

Installed by `sutra install --client hermes` into $HERMES_HOME/plugins/sutra/ (generated file,
sutra-hermes-plugin v1: edits are lost on the next install). Each hook call goes to
`sutra-host --adapter hermes` as JSON on stdin; its answer {"result": TEXT} becomes the
replacement. On any error, a timeout or an empty answer the hook returns None, so Hermes keeps
the original result.
"""

import hashlib
import json
import os
import subprocess
from collections import deque

SUTRA_HOST = "@SUTRA_HOST@"
TIMEOUT_S = 25  # below Hermes' plugins.hook_callback_timeout (30 s)

# Views this plugin gave transform_terminal_output: the terminal tool's result then carries one,
# and transform_tool_result must not compress it again.
_recent_views = deque(maxlen=64)


def _hermes_home():
    # The plugin lives in <HERMES_HOME>/plugins/sutra/, which names the profile even when
    # HERMES_HOME is unset in this process.
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _digest(text):
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _call(payload):
    try:
        payload["hermes_home"] = _hermes_home()
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        proc = subprocess.run(
            [SUTRA_HOST, "--adapter", "hermes"],
            input=data,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            timeout=TIMEOUT_S,
            check=False,
        )
        if proc.returncode != 0 or not proc.stdout:
            return None
        answer = json.loads(proc.stdout.decode("utf-8"))
        result = answer.get("result") if isinstance(answer, dict) else None
        return result if isinstance(result, str) else None
    except Exception:
        return None


def transform_tool_result(tool_name=None, args=None, result=None, task_id=None, **kwargs):
    try:
        if not isinstance(result, str) or not isinstance(tool_name, str):
            return None
        if tool_name == "terminal" and _recent_views:
            try:
                envelope = json.loads(result)
                output = envelope.get("output") if isinstance(envelope, dict) else None
                if isinstance(output, str) and _digest(output) in _recent_views:
                    return None
            except Exception:
                pass
        return _call(
            {
                "hook": "transform_tool_result",
                "tool_name": tool_name,
                "args": args if isinstance(args, dict) else {},
                "result": result,
                "status": kwargs.get("status"),
                "session_id": kwargs.get("session_id") if isinstance(kwargs.get("session_id"), str) else "",
            }
        )
    except Exception:
        return None


def transform_terminal_output(
    command=None, output=None, returncode=None, task_id=None, env_type=None, **kwargs
):
    try:
        if returncode is None:
            returncode = kwargs.get("exit_code")
        if not isinstance(output, str):
            return None
        view = _call(
            {
                "hook": "transform_terminal_output",
                "command": command if isinstance(command, str) else "",
                "output": output,
                "returncode": returncode if isinstance(returncode, int) else None,
                "session_id": kwargs.get("session_id") if isinstance(kwargs.get("session_id"), str) else "",
            }
        )
        if view is not None:
            _recent_views.append(_digest(view))
        return view
    except Exception:
        return None


def register(ctx):
    ctx.register_hook("transform_tool_result", transform_tool_result)
    ctx.register_hook("transform_terminal_output", transform_terminal_output)
