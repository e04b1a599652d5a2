"""memgui — review, merge and audit an AI agent's long-term memory."""

import os

__version__ = "0.1.0"

# libgomp reads this once, at the first `import llama_cpp` in the process: with its default spinning
# workers a 2-thread llama.cpp on a busy 2-core laptop embedded ≈3 texts/s instead of ≈32 (docs/benchmarks.md).
os.environ.setdefault("OMP_WAIT_POLICY", "passive")
