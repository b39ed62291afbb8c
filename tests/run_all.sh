#!/bin/sh
# make test, after the virtual environment is set up: $1 is its bin folder.
#
# The VS Code side (code-server's install from npm, the .vsix, the extension's own unit tests)
# mostly waits on the network and builds native modules: it runs beside the Python suite, and
# the real-VS-Code test, which measures start-up times, runs last on a quiet machine.
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
mkdir -p build
sh tests/system_deps.sh
(
  set -e
  sh tests/vscode/install.sh || echo "warning: could not install code-server; the VS Code test will say why"
  if command -v npm >/dev/null; then
    make --no-print-directory vsix
    cd vscode-extension && CBAM_PYTHON="$ROOT/$BIN/python" npm test --silent
  else
    echo "skipping the VS Code extension's build and tests: node/npm is not installed"
  fi
) > build/vscode-side.log 2>&1 &
side=$!
status=0
"$BIN/pytest" -n 2 --timeout=600 --durations=25 --ignore=tests/test_vscode.py || status=1
wait $side || { echo "the VS Code extension's build or unit tests failed:"; status=1; }
cat build/vscode-side.log
[ $status = 0 ] || exit 1
"$BIN/pytest" --timeout=900 tests/test_vscode.py
