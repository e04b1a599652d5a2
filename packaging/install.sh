#!/bin/sh
# Installs this memgui app (the folder this script is in) for the current user: a `memgui` command in
# ~/.local/bin, linked to this folder's executable, and the desktop entry with its icon. The folder stays where
# it is; to uninstall, delete the three files this prints. PREFIX (default ~/.local) moves all of them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${PREFIX:-$HOME/.local}
apps="$prefix/share/applications"
icons="$prefix/share/icons/hicolor/scalable/apps"
mkdir -p "$prefix/bin" "$apps" "$icons"
ln -sf "$here/memgui" "$prefix/bin/memgui"
# The entry names the executable by its full path, so it starts even when ~/.local/bin is not on PATH.
sed "s|^Exec=memgui|Exec=\"$here/memgui\"|" "$here/memgui.desktop" > "$apps/memgui.desktop"
cp "$here/memgui.svg" "$icons/memgui.svg"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$apps" || true
printf 'installed:\n  %s\n  %s\n  %s\n' "$prefix/bin/memgui" "$apps/memgui.desktop" "$icons/memgui.svg"
