#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (playwright-core drives /usr/bin/chromium; no
# test tool ever downloads its own browser). Does nothing when it is already there.
set -euo pipefail
CHROMIUM=/usr/bin/chromium
[[ -x $CHROMIUM ]] && exit 0
die() { echo "[chromium] $*" >&2; exit 1; }
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null && sudo -n true 2>/dev/null ||
    die "$CHROMIUM is missing and installing it needs root; run: sudo apt-get install -y chromium"
  sudo=(sudo -n)
fi
command -v apt-get >/dev/null || die "$CHROMIUM is missing and apt-get is not available to install it"
echo "[chromium] installing Debian's chromium with apt-get (browser tests)"
if [[ -z "$(apt-cache policy chromium 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v none)" ]]; then
  "${sudo[@]}" apt-get update
fi
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends chromium ||
  die "apt-get could not install chromium (see the apt output above)"
[[ -x $CHROMIUM ]] || die "chromium was installed but $CHROMIUM is missing"
"$CHROMIUM" --version
