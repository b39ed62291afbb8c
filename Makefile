# Two entry points for a fresh machine with Python >= 3.11 and gcc:
#   make run   -- set up .venv and verify the examples
#   make test  -- set up .venv and run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean test-deps

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/cbam verify examples/ --harness-dir build/harness || test $$? -eq 1
	@echo "(exit status 1 means a counterexample was found: buggy.c is meant to have one)"

# gcc -m32 replays ILP32 counterexamples (Debian: gcc-multilib); Neovim's built-in LSP
# client drives the server in one end-to-end test (Debian: neovim).
test-deps:
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

test: $(STAMP) test-deps
	$(BIN)/ruff check cbam engine server tests bench
	@if [ -f vscode-extension/package.json ]; then \
	  if command -v npm >/dev/null; then \
	    cd vscode-extension && npm ci --silent --no-audit --no-fund && npm run --silent build \
	      && CBAM_PYTHON=$(abspath $(BIN)/python) npm test && npm run --silent package; \
	  else echo "skipping the VS Code extension's tests: node/npm is not installed"; fi; \
	fi
	$(BIN)/pytest -n 2 --timeout=600

bench: $(STAMP)
	$(BIN)/python bench/svcomp_bench.py --timeout 60

lint: $(STAMP)
	$(BIN)/ruff check cbam engine server tests bench

clean:
	rm -rf $(VENV) build *.egg-info
