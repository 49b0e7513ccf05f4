#!/usr/bin/env bash
# Install Table Companion as a kiosk service (run on the Pi by `make install`).
#
#   bash systemd/install.sh [--dry-run] [--skip-deps] [--now]
#
#   --dry-run    print every step, change nothing
#   --skip-deps  no apt-get, no pip (offline staging, tests): the venv is made without pip
#   --now        also start the service (it takes over the screen and tty1 at once)
#   DESTDIR=dir  stage into dir (packaging, tests): no user creation, no systemctl, no chown
#
# Layout (the unit expects exactly this):
#   /opt/companion/app/               the application source (on the venv's path via a .pth file)
#   /opt/companion/venv/              python3 -m venv --system-site-packages (sees the OS picamera2)
#   /opt/companion/bin/companion      launcher = ExecStart; /usr/local/bin/companion links to it
#   /opt/companion/libexec/wait-for-devices   ExecStartPre
#   /etc/systemd/system/companion.service
#   /etc/sysusers.d/companion.conf    the `companion` user and its device groups
#   /etc/companion/config.toml        only if absent: never overwrites yours
#   /var/lib/companion/{games,calibration}    state ($STATE_DIRECTORY), kept by uninstall
set -euo pipefail

PREFIX=/opt/companion
UNIT=companion.service
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="${DESTDIR:-}"
ROOT="${ROOT%/}"
DRY_RUN=0 SKIP_DEPS=0 START_NOW=0

usage() { sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        --skip-deps) SKIP_DEPS=1 ;;
        --now) START_NOW=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $arg" >&2; usage >&2; exit 2 ;;
    esac
done

say() { printf '==> %s\n' "$*"; }
run() {  # print, then do unless --dry-run
    printf '  + %s\n' "$*"
    [ "$DRY_RUN" = 1 ] || "$@"
}
die() { echo "install.sh: $*" >&2; exit 1; }

if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "run as root (no sudo found)"
    say "root needed to create the user and install the service: re-running with sudo"
    exec sudo -- bash "${BASH_SOURCE[0]}" "$@"
fi

PYTHON="${PYTHON:-python3}"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "$PYTHON is older than 3.11 (Raspberry Pi OS Bookworm or newer is needed)"
PYVER="$("$PYTHON" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
IS_PI=0
grep -qs "Raspberry Pi" /proc/device-tree/model && IS_PI=1

# 1. System packages: venv, a CJK font (Japanese and Traditional Chinese), GL/EGL and mtdev for
#    Kivy on KMS/DRM, picamera2 from the OS on a Pi.
if [ -z "$ROOT" ] && [ "$SKIP_DEPS" = 0 ]; then
    say "system packages"
    packages=(python3-venv fonts-noto-cjk libgl1 libegl1 libgles2 libmtdev1)
    [ "$IS_PI" = 1 ] && packages+=(python3-picamera2)
    missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        run apt-get update -qq
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
fi

# 2. The user and its device groups (systemd-sysusers reads the same file at every boot).
say "user companion (groups video, render, input, gpio)"
run install -D -m 0644 "$SRC/systemd/companion.sysusers" "$ROOT/etc/sysusers.d/companion.conf"
[ -z "$ROOT" ] && run systemd-sysusers /etc/sysusers.d/companion.conf

# 3. The application: a fresh copy (old one swapped out only once the new one is complete).
say "application in $PREFIX/app"
run install -d -m 0755 "$ROOT$PREFIX" "$ROOT$PREFIX/bin" "$ROOT$PREFIX/libexec"
staging="$ROOT$PREFIX/app.new"
run rm -rf "$staging"
run install -d -m 0755 "$staging"
app_paths=()
for p in companion pyproject.toml README.md LICENSE hardware calibration docs systemd; do
    [ -e "$SRC/$p" ] && app_paths+=("$p")
done
if [ "$DRY_RUN" = 1 ]; then
    echo "  + copy ${app_paths[*]} from $SRC to $staging"
else
    tar -C "$SRC" --exclude=__pycache__ --exclude='*.pyc' -cf - "${app_paths[@]}" | tar -C "$staging" -xf -
fi
run rm -rf "$ROOT$PREFIX/app"
run mv "$staging" "$ROOT$PREFIX/app"

# 4. The venv. --system-site-packages lets it see the OS's picamera2 (and libcamera bindings).
say "venv in $PREFIX/venv"
venv="$ROOT$PREFIX/venv"
if [ ! -x "$venv/bin/python" ]; then
    if [ "$SKIP_DEPS" = 1 ]; then
        run "$PYTHON" -m venv --system-site-packages --without-pip "$venv"
    else
        run "$PYTHON" -m venv --system-site-packages "$venv"
    fi
fi
pth="$venv/lib/python$PYVER/site-packages/table-companion.pth"
if [ "$DRY_RUN" = 1 ]; then
    echo "  + write $PREFIX/app into $pth"
else
    install -d "$(dirname "$pth")"
    echo "$PREFIX/app" > "$pth"
fi
if [ "$SKIP_DEPS" = 0 ]; then
    deps="$("$PYTHON" -c 'import sys, tomllib; print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]))' "$SRC/pyproject.toml")"
    mapfile -t deps_list <<< "$deps"
    run "$venv/bin/python" -m pip install -q --upgrade pip
    run "$venv/bin/python" -m pip install -q "${deps_list[@]}"
    # Translations compiled now: at run time the app directory is read-only (ProtectSystem=strict).
    if [ -z "$ROOT" ]; then
        run "$venv/bin/python" -m companion.i18n compile
    else
        run env PYTHONPATH="$ROOT$PREFIX/app" "$venv/bin/python" -c \
            "from pathlib import Path; import companion.i18n as i; i.compile_catalogues(Path('$ROOT$PREFIX/app/companion/locale'))"
    fi
fi

# 5. Launcher (ExecStart), the device wait (ExecStartPre), a `companion` command for the admin.
say "launcher and helpers"
if [ "$DRY_RUN" = 1 ]; then
    echo "  + write $ROOT$PREFIX/bin/companion"
else
    cat > "$ROOT$PREFIX/bin/companion" <<LAUNCHER
#!/bin/sh
# Table Companion launcher (written by systemd/install.sh).
exec $PREFIX/venv/bin/python -m companion "\$@"
LAUNCHER
    chmod 0755 "$ROOT$PREFIX/bin/companion"
fi
run install -m 0755 "$SRC/systemd/wait-for-devices" "$ROOT$PREFIX/libexec/wait-for-devices"
run install -d -m 0755 "$ROOT/usr/local/bin"
run ln -sfn "$PREFIX/bin/companion" "$ROOT/usr/local/bin/companion"

# 6. Fonts shipped with the app (if any) for fontconfig; the CJK font itself comes from apt.
fonts=()
if [ -d "$SRC/companion/ui/fonts" ]; then
    while IFS= read -r -d '' f; do fonts+=("$f"); done < <(find "$SRC/companion/ui/fonts" -type f \( -name '*.ttf' -o -name '*.otf' -o -name '*.ttc' \) -print0)
fi
if [ "${#fonts[@]}" -gt 0 ]; then
    say "fonts"
    run install -d -m 0755 "$ROOT/usr/local/share/fonts/companion"
    run install -m 0644 "${fonts[@]}" "$ROOT/usr/local/share/fonts/companion/"
    [ -z "$ROOT" ] && command -v fc-cache >/dev/null && run fc-cache -f /usr/local/share/fonts/companion
fi

# 7. Config (only when absent), state directories, the unit.
say "config, state and unit"
run install -d -m 0755 "$ROOT/etc/companion"
if [ -e "$ROOT/etc/companion/config.toml" ]; then
    echo "  = keeping your $ROOT/etc/companion/config.toml"
else
    run install -m 0644 "$SRC/systemd/config.toml" "$ROOT/etc/companion/config.toml"
fi
run install -d -m 0750 "$ROOT/var/lib/companion" "$ROOT/var/lib/companion/games" "$ROOT/var/lib/companion/calibration"
[ -z "$ROOT" ] && run chown -R companion:companion /var/lib/companion
run install -D -m 0644 "$SRC/systemd/$UNIT" "$ROOT/etc/systemd/system/$UNIT"

# 7b. The observers' compiled kernels (numba), built now as the service's user into the cache the
#     unit names (NUMBA_CACHE_DIR), so the kiosk's first start does not spend its watchdog time
#     compiling. One rendered frame of every board does it; a failure here only costs that time.
if [ -z "$ROOT" ] && [ "$SKIP_DEPS" = 0 ]; then
    say "compiled kernels (one simulated frame of every board)"
    run install -d -m 0750 -o companion -g companion /var/cache/companion /var/cache/companion/numba
    run runuser -u companion -- env HOME=/var/lib/companion NUMBA_CACHE_DIR=/var/cache/companion/numba \
        "$PREFIX/venv/bin/python" -m companion bench vision --frames 1 --no-speed \
        || echo "  ! could not build them now; the first start will (it takes longer)"
fi

# 8. Enable (not start: starting takes over tty1 and the screen; reboot or use --now).
if [ -z "$ROOT" ]; then
    say "enable $UNIT"
    run systemctl daemon-reload
    run systemctl enable "$UNIT"
    if [ "$START_NOW" = 1 ]; then
        run systemctl restart "$UNIT"
    else
        echo "Installed. Start it with: sudo systemctl start companion (or reboot)."
    fi
    echo "Check the device with: sudo -u companion companion doctor"
else
    echo "Staged into $ROOT (no user created, systemctl not called)."
fi
