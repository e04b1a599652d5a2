#!/bin/sh
# Qt (offscreen platform) needs a few shared libraries and a font that a bare Debian/Ubuntu lacks.
# Install the missing ones with apt-get when we can (root or passwordless sudo); otherwise say what to run.
set -u
PKGS="libegl1 libgl1 libx11-6 libxkbcommon0 libfontconfig1 libfreetype6 libglib2.0-0 libdbus-1-3 fonts-dejavu-core"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "system libraries for Qt: present"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "memgui needs these system libraries for Qt (install them with your package manager):$missing" >&2
    exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
echo "installing system libraries for Qt:$missing"
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing; }; then
    echo "could not install:$missing — run: sudo apt-get install$missing" >&2
    exit 1
fi
