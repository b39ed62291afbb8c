# Two entry points for a fresh machine with Python >= 3.11 and gcc:
#   make run   -- set up .venv and verify the examples
#   make test  -- set up .venv and run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean test-deps vsix

# The VS Code extension, packaged with cbam and its Python libraries for one platform.
VSCE_TARGET ?= linux-x64
EXT  := vscode-extension
VSIX := $(EXT)/cbam-$(VSCE_TARGET).vsix
EXT_NODE := $(EXT)/node_modules/.package-lock.json
PY_SOURCES := $(shell find cbam engine server -name '*.py' -o -name '*.h') pyproject.toml setup.py

# The checkout is installed as a plain path entry (cbam/__init__.py finds engine/ and server/
# beside it): setuptools' default import hook costs every start-up 22 ms. Its 'compat' mode is
# transitional; where it is gone, the default mode works the same, only slower to start.
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]' --config-settings editable_mode=compat 2>/dev/null \
	  || $(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# mypy (configured in pyproject.toml) checks cbam, cbam.engine and cbam.server; it finds the
# latter two through these links, as it cannot read package-dir.
MYPY_LINKS := build/mypy/cbam/engine build/mypy/cbam/server
build/mypy/cbam/%:
	mkdir -p $(@D)
	ln -sfn ../../../$* $@

run: $(STAMP)
	$(BIN)/cbam verify examples/ --harness-dir build/harness || test $$? -eq 1
	@echo "(exit status 1 means a counterexample was found: buggy.c is meant to have one)"

$(EXT_NODE): $(EXT)/package-lock.json
	cd $(EXT) && npm ci --silent --no-audit --no-fund

$(VSIX): $(STAMP) $(EXT_NODE) $(PY_SOURCES) $(wildcard $(EXT)/src/*.ts) $(EXT)/package.json $(EXT)/.vscodeignore \
         $(EXT)/scripts/bundle_libs.py $(EXT)/README.md
	cd $(EXT) && npm run --silent build
	$(BIN)/python $(EXT)/scripts/bundle_libs.py --target $(VSCE_TARGET)
	cd $(EXT) && VSCE_TARGET=$(VSCE_TARGET) npm run --silent package

vsix: $(VSIX)

# What make test installs by itself (as root on Debian): gcc-multilib, neovim, Chromium and
# code-server (VS Code 1.100.3 from npm) for tests/test_vscode.py.
test-deps:
	@sh tests/system_deps.sh
	@sh tests/vscode/install.sh || echo "warning: could not install code-server; the VS Code test will say why"

# The real-VS-Code test runs after the rest, on a quiet machine: it measures start-up times.
test: $(STAMP) $(MYPY_LINKS)
	$(BIN)/ruff check cbam engine server tests bench
	$(BIN)/mypy
	@sh tests/run_all.sh $(BIN)

bench: $(STAMP)
	$(BIN)/python bench/svcomp_bench.py --timeout 60

lint: $(STAMP) $(MYPY_LINKS)
	$(BIN)/ruff check cbam engine server tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info $(EXT)/bundled $(EXT)/dist $(EXT)/out $(EXT)/*.vsix
