"""PySide6 6.12.0 on CPython 3.11 drops a reference to None on every void C++ call (and to True on every
Signal.emit); a long session then aborts with "Fatal Python error: none_dealloc". memgui pins 6.11.x, which
does not leak: a session must survive far more calls than None starts with (≈7,000 references)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import os
os.environ["QT_QPA_PLATFORM"] = "offscreen"
import memgui.gui
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication([])
w = QWidget()
class O(QObject):
    s = Signal(int)
o = O()
o.s.connect(lambda v: None)
for _ in range(60_000):
    w.update()
    o.s.emit(1)
app.processEvents()
print("alive")
"""


def test_a_long_session_of_qt_calls_does_not_abort():
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert proc.stdout.strip() == "alive"
