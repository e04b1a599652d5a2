"""The reviewer window (PySide6). The only package that imports Qt; it holds no business logic."""
