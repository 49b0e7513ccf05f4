#!/usr/bin/env bash
# Remove the Table Companion kiosk service (run by `make uninstall`).
#
#   bash systemd/uninstall.sh [--dry-run] [--purge]
#
#   default      removes the service, the app, the venv, the launcher and caches; KEEPS your
#                games, journal and calibration (/var/lib/companion), your /etc/companion/config.toml
#                and the `companion` user that owns them
#   --purge      removes those as well
#   --dry-run    print every step, change nothing
#   DESTDIR=dir  act on a staged tree: no systemctl, no userdel
set -euo pipefail

PREFIX=/opt/companion
UNIT=companion.service
ROOT="${DESTDIR:-}"
ROOT="${ROOT%/}"
DRY_RUN=0 PURGE=0

usage() { sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "uninstall.sh: unknown option $arg" >&2; usage >&2; exit 2 ;;
    esac
done

say() { printf '==> %s\n' "$*"; }
run() {
    printf '  + %s\n' "$*"
    [ "$DRY_RUN" = 1 ] || "$@"
}

if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "uninstall.sh: run as root" >&2; exit 1; }
    exec sudo -- bash "${BASH_SOURCE[0]}" "$@"
fi

if [ -z "$ROOT" ] && command -v systemctl >/dev/null; then
    say "stop and disable $UNIT"
    run systemctl disable --now "$UNIT" || true
fi

say "service, app, venv, launcher"
run rm -f "$ROOT/etc/systemd/system/$UNIT"
run rm -rf "$ROOT/etc/systemd/system/$UNIT.d"
# Only our own link: a different /usr/local/bin/companion is somebody else's.
link="$ROOT/usr/local/bin/companion"
if [ -L "$link" ] && [ "$(readlink "$link")" = "$PREFIX/bin/companion" ]; then
    run rm -f "$link"
fi
run rm -rf "$ROOT$PREFIX"
run rm -rf "$ROOT/usr/local/share/fonts/companion"
run rm -rf "$ROOT/var/cache/companion" "$ROOT/var/lib/companion/kivy"

if [ "$PURGE" = 1 ]; then
    say "purge: games, journal, calibration, config and the companion user"
    run rm -rf "$ROOT/var/lib/companion" "$ROOT/etc/companion"
    run rm -f "$ROOT/etc/sysusers.d/companion.conf"
    if [ -z "$ROOT" ] && id companion >/dev/null 2>&1; then
        run userdel companion
        getent group companion >/dev/null && run groupdel companion
    fi
else
    echo "  = kept $ROOT/var/lib/companion (games, journal, calibration), $ROOT/etc/companion and the companion user; --purge removes them"
fi

if [ -z "$ROOT" ] && command -v systemctl >/dev/null; then
    run systemctl daemon-reload
fi
say "done"
