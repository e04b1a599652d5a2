"""`memgui models install|status`: the offline default models (assembled/converted once, verified)."""
from __future__ import annotations

import json

from ..config import models_install_hint
from .common import EXIT_BAD_INPUT, EXIT_OK, print_text


def register(subparsers) -> None:
    p = subparsers.add_parser("models", help="install or show the offline default models")
    p.add_argument("action", choices=["install", "status"])
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..core.decide import model_files as decider_model
    from ..core.vectors import embedder_model

    status = {}
    failed = False
    for name, module in (("embedder", embedder_model), ("decider", decider_model)):
        try:
            path = module.ensure_default_model() if args.action == "install" else module.default_model_path()
            status[name] = {"path": str(path) if path else None, "present": bool(path and path.exists())}
        except Exception as exc:  # report and continue: one missing model must not hide the other
            status[name] = {"path": None, "present": False, "error": str(exc)}
            failed = True
    if args.json:
        print_text(json.dumps(status, indent=2))
    else:
        for name, info in status.items():
            print_text(f"{name}: {info.get('path') or 'missing'}" + (f"  ({info['error']})" if info.get("error") else ""))
        if args.action == "status" and not all(info["present"] for info in status.values()):
            print_text(f"to install the missing models: {models_install_hint()}")
    return EXIT_BAD_INPUT if failed and args.action == "install" else EXIT_OK
