#!/bin/sh
# Installs what tests/test_vscode.py runs the extension in: code-server (VS Code itself, served
# to a browser) from npm, built against Debian's development packages, puppeteer-core, and
# Debian's Chromium to show it. Idempotent: a finished install is kept under
# $CBAM_VSCODE_TEST_DIR (default ~/.cache/cbam-vscode-test), one folder per version.
# The recipe is in ../shared/docs/real-vscode.md of the workspace this project grew in.
set -eu

CODE_SERVER_VERSION=4.100.3   # VS Code 1.100.3; code-server 4.93.1-4.100.3 run on Node 20
PUPPETEER_VERSION=24.43.1     # the last major that runs on Node 18/20
RIPGREP_VERSION=1.15.11       # @vscode/ripgrep of code-server 4.100.3
BASE=${CBAM_VSCODE_TEST_DIR:-$HOME/.cache/cbam-vscode-test}
DIR=$BASE/code-server-$CODE_SERVER_VERSION

if [ -f "$DIR/.complete" ] && command -v chromium >/dev/null; then
  exit 0
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "install.sh: node and npm are needed for code-server" >&2
  exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then
  echo "install.sh: code-server $CODE_SERVER_VERSION needs Node 20, this is Node $node_major" >&2
  exit 1
fi

missing=""
for tool in chromium rg pkg-config make g++; do
  command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ] || ! pkg-config --exists x11 xkbfile libsecret-1 krb5-gssapi 2>/dev/null; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "install.sh: missing$missing (or X11/xkbfile/libsecret/krb5 headers); install them as root:" >&2
    echo "  apt-get install libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config build-essential ripgrep chromium" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev \
    pkg-config build-essential ripgrep chromium >/dev/null
fi

# @vscode/ripgrep downloads rg from GitHub when it is installed, which these machines cannot
# reach; it looks in this cache first, so Debian's rg goes there under the name it expects.
RG_CACHE=${TMPDIR:-/tmp}/vscode-ripgrep-cache-$RIPGREP_VERSION
mkdir -p "$RG_CACHE"
tar czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg

# Installed in place (native modules are built there); .complete marks a finished install.
rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
echo "install.sh: installing code-server $CODE_SERVER_VERSION and puppeteer-core $PUPPETEER_VERSION into $DIR (a few minutes)"
npm_config_yes=true npm install --silent --no-audit --no-fund --foreground-scripts --unsafe-perm \
  "code-server@$CODE_SERVER_VERSION" "puppeteer-core@$PUPPETEER_VERSION" >install.log 2>&1 || {
  tail -30 install.log >&2
  exit 1
}
./node_modules/.bin/code-server --config /dev/null --version >/dev/null
touch "$DIR/.complete"
