#!/bin/sh
# What make test needs from the system, installed in one apt-get run (as root on Debian; elsewhere
# each missing piece is named and the tests that need it say why they skip):
#   gcc -m32 (gcc-multilib)  replays ILP32 counterexamples;
#   nvim                     drives the server through Neovim's built-in LSP client;
#   chromium, ripgrep and the headers code-server's native modules build against
#                            run the extension in a real VS Code (tests/vscode/install.sh).
set -u
need=""
echo 'int main(void){return 0;}' | gcc -m32 -x c -o /dev/null - 2>/dev/null || need="$need gcc-multilib"
command -v nvim >/dev/null || need="$need neovim"
for tool in chromium rg pkg-config make g++; do
  if ! command -v "$tool" >/dev/null; then
    case $tool in rg) need="$need ripgrep" ;; g++|make) need="$need build-essential" ;; *) need="$need $tool" ;; esac
  fi
done
pkg-config --exists x11 xkbfile libsecret-1 krb5-gssapi 2>/dev/null \
  || need="$need libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "system_deps.sh: installing$need"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need) >/dev/null 2>&1 \
    || echo "warning: apt-get could not install$need; the tests that need them will say why they skip"
else
  echo "warning: missing$need (install them as root); the tests that need them will say why they skip"
fi
exit 0
