#!/usr/bin/env bash
# Runs a command with a display: the real one if there is one, else a private Xvfb server.
set -euo pipefail
if [ -n "${DISPLAY:-}" ] && xdpyinfo >/dev/null 2>&1; then
  exec "$@"
fi
exec xvfb-run -a -s "-screen 0 1280x800x24" "$@"
