"""Everything that is not Qt. Never import PySide6 here (tests/test_layering.py enforces it)."""
