# A pytest-like run of 900 tests, 13 of them failing (exit 3); with `ok`, all pass (exit 0).
# The failing command of real_host.claude and real_host.claude_permissions.
import sys
out = ["collected 900 items\n"]
failing = {37, 101, 188, 250, 333, 409, 450, 512, 600, 677, 731, 802, 888}
for i in range(900):
    if i in failing:
        out += [f"tests/test_billing.py::test_round_cents_{i:04d} FAILED{' ' * 20}[{i * 100 // 900:3d}%]\n"]
    else:
        out.append(f"tests/test_module_{i % 30:02d}.py::test_case_{i:04d} PASSED{' ' * 24}[{i * 100 // 900:3d}%]\n")
out += ["=========================== short test summary info ============================\n"]
out += [f"FAILED tests/test_billing.py::test_round_cents_{i:04d} - AssertionError: assert {i + 1} == {i}\n" for i in sorted(failing)]
out.append("========================= 13 failed, 887 passed in 9.02s =========================\n")
if sys.argv[1:] == ["ok"]:
    out = [l.replace("FAILED", "PASSED") for l in out]
sys.stdout.write("".join(out))
sys.exit(0 if sys.argv[1:] == ["ok"] else 3)
