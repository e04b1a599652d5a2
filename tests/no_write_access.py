"""Running a check where file permission bits hold. Root ignores them (CAP_DAC_OVERRIDE), and the tests may run
as root: then the check runs in a child process whose capability bounding set lacks the overrides (dropped with
prctl before exec, so the child's root has no CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH or CAP_FOWNER and is held
to the owner's bits like anyone else). `enforced(folder)` proves it in the child: a test that cannot make
the bits hold fails, it never passes without exercising them."""
from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

_PR_CAPBSET_DROP = 24
_OVERRIDES = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
ROOT = os.geteuid() == 0


def _drop_overrides() -> None:  # pragma: no cover - runs in the child between fork and exec
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in _OVERRIDES:
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def run_held_to_permissions(argv: list[str], *, env: dict[str, str] | None = None,
                            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`argv` run with permission bits enforced (see the module doc); text output captured."""
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env,
                          preexec_fn=_drop_overrides if ROOT else None)


def run_python_held_to_permissions(code: str, *args: str, env: dict[str, str] | None = None,
                                   timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return run_held_to_permissions([sys.executable, "-c", code, *args], env=env, timeout=timeout)


ENFORCED_CHECK = '''
import sys
from pathlib import Path
try:
    Path(sys.argv[1], ".probe").write_text("x")
except OSError:
    pass
else:
    Path(sys.argv[1], ".probe").unlink()
    print("permission bits are not enforced here", file=sys.stderr)
    sys.exit(97)
'''


def make_unwritable(folder: Path) -> None:
    os.chmod(folder, 0o555)


def make_writable(folder: Path) -> None:
    os.chmod(folder, 0o755)
