# Two entry points for a fresh machine with Python >= 3.11 and gcc:
#   make run   -- set up .venv and verify the examples
#   make test  -- set up .venv and run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean test-deps vsix vscode-test-deps

# The VS Code extension, packaged with cbam and its Python libraries for one platform.
VSCE_TARGET ?= linux-x64
EXT  := vscode-extension
VSIX := $(EXT)/cbam-$(VSCE_TARGET).vsix
EXT_NODE := $(EXT)/node_modules/.package-lock.json
PY_SOURCES := $(shell find cbam engine server -name '*.py' -o -name '*.h') pyproject.toml setup.py

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

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

# code-server (VS Code 1.100.3 from npm) and Debian's Chromium, for tests/test_vscode.py.
vscode-test-deps:
	@sh tests/vscode/install.sh || echo "warning: could not install code-server; the VS Code test will say why"

# gcc -m32 replays ILP32 counterexamples (Debian: gcc-multilib); Neovim's built-in LSP
# client drives the server in one end-to-end test (Debian: neovim); the extension runs in a
# real VS Code (code-server) in another.
test-deps: vscode-test-deps
	@if ! command -v nvim >/dev/null && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  (apt-get update -qq && apt-get install -y -qq neovim) >/dev/null 2>&1 \
	    || echo "warning: could not install neovim; the Neovim LSP test will be skipped"; \
	fi
	@if ! echo 'int main(void){return 0;}' | gcc -m32 -x c -o /dev/null - 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && apt-get install -y -qq gcc-multilib) >/dev/null 2>&1 \
	      || echo "warning: could not install gcc-multilib; ILP32 harness replays will be skipped"; \
	  else echo "warning: gcc -m32 unavailable; ILP32 harness replays will be skipped"; fi; \
	fi

# The real-VS-Code test runs after the rest, on a quiet machine: it measures start-up times.
test: $(STAMP) test-deps
	$(BIN)/ruff check cbam engine server tests bench
	@if command -v npm >/dev/null; then \
	  $(MAKE) --no-print-directory vsix && cd $(EXT) && CBAM_PYTHON=$(abspath $(BIN)/python) npm test --silent; \
	else echo "skipping the VS Code extension's build and tests: node/npm is not installed"; fi
	$(BIN)/pytest -n 2 --timeout=600 --durations=25 --ignore=tests/test_vscode.py
	$(BIN)/pytest --timeout=900 tests/test_vscode.py

bench: $(STAMP)
	$(BIN)/python bench/svcomp_bench.py --timeout 60

lint: $(STAMP)
	$(BIN)/ruff check cbam engine server tests bench

clean:
	rm -rf $(VENV) build *.egg-info $(EXT)/bundled $(EXT)/dist $(EXT)/out $(EXT)/*.vsix
