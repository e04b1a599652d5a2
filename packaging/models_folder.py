"""`make bundle`, second half: dist/memgui-models/, the offline models beside the app, ready to install with no
network: `dist/memgui/memgui models install --from dist/memgui-models` (the bundled app also finds the folder by
itself when it is beside it). Made from the models `make setup` installed (memgui.core.decide.models_folder), with
their licences. Usage: python packaging/models_folder.py DEST"""
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # memgui from this checkout
sys.path.insert(0, str(HERE))

from collect_licenses import models_licences  # noqa: E402

from memgui.core.decide.models_folder import write_models_folder  # noqa: E402

README = """memgui's offline models: the embedder (all-MiniLM-L6-v2, GGUF) and the decider (Qwen2.5-Coder-1.5B-Instruct
Q4_K_M, GGUF), with MANIFEST.json (sizes and SHA-256) and licenses/.

Install them for this user (into ~/.local/share/memgui/models/, checked while copying; no network):

    ../memgui/memgui models install --from .

When this folder sits beside the app's folder (memgui/ and memgui-models/ side by side), `memgui models install`
finds it by itself, and the window's banner and `memgui models status` print the exact line. An archive of this
folder (.tar, .tar.gz, .tgz) installs the same way: memgui models install --from memgui-models.tar.gz
Once installed, this folder can be deleted.
"""


def main(dest: str) -> int:
    out = Path(dest)
    with tempfile.TemporaryDirectory() as tmp:
        manifest = write_models_folder(out, licenses=models_licences(Path(tmp) / "licenses"))
    (out / "README.txt").write_text(README, encoding="utf-8")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"models folder: {out}/ ({size / 2**20:.0f} MiB; {manifest.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
