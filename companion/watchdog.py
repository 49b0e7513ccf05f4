"""systemd notification (sd_notify) over $NOTIFY_SOCKET with the standard library only.

The kiosk unit is Type=notify with WatchdogSec=: the app says READY=1 once the camera and screen are
up, then calls `Watchdog.kick()` from its *main loop* (every frame is fine: kicks are rate-limited to
half the watchdog interval). A hung loop stops the kicks and systemd restarts the service; a thread
that kicked on a timer would hide exactly the hang we want caught.

A slow start-up step (the observers compiling their kernels on a cold numba cache) comes *before*
READY=1, announced with `preparing()`: STATUS says what the kiosk is doing and EXTEND_TIMEOUT_USEC
gives the step its own time beyond TimeoutStartSec=, step by step, so a slow Pi is not killed for
compiling while a step that really hangs still is. The watchdog only starts at READY=1.

Outside systemd ($NOTIFY_SOCKET unset) every call is a cheap no-op, so `companion run` in a terminal
behaves the same.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

# systemd reads its notify socket promptly; one that does not (a stuck manager, a full queue) must
# not freeze the game's main loop, so a send gives up after this long and reports it.
SEND_TIMEOUT_SECONDS = 0.5


def notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send one sd_notify datagram ("READY=1", "WATCHDOG=1", "STATUS=..."); False when not under
    systemd or the socket is gone. Never raises: a notification failure must not stop the game."""
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # abstract socket namespace
        address = "\0" + address[1:]
    elif not address.startswith("/"):
        log.warning("watchdog: NOTIFY_SOCKET=%r is neither a path nor @abstract; ignored", address)
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.settimeout(SEND_TIMEOUT_SECONDS)
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
        return True
    except OSError as exc:
        log.warning("watchdog: cannot notify systemd at %s (%s)", env.get("NOTIFY_SOCKET"), exc)
        return False


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds of WatchdogSec= for this process, from $WATCHDOG_USEC (None: no watchdog)."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    pid = env.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):  # meant for another process (e.g. our parent shell)
        return None
    return int(usec) / 1_000_000


class Watchdog:
    """READY, STATUS, STOPPING and rate-limited WATCHDOG pings for the service manager."""

    def __init__(self, environ: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self._env = dict(os.environ if environ is None else environ)
        self._clock = clock
        interval = watchdog_interval(self._env)
        # Ping at half the interval, as sd_watchdog_enabled(3) recommends.
        self.period = interval / 2 if interval else None
        self._last_kick: float | None = None

    @property
    def enabled(self) -> bool:
        return bool(self._env.get("NOTIFY_SOCKET"))

    def ready(self, status: str = "") -> bool:
        message = "READY=1" + (f"\nSTATUS={status}" if status else "")
        sent = notify(message, self._env)
        self._last_kick = self._clock()
        return sent

    def preparing(self, status: str, seconds: float) -> bool:
        """Before READY=1: a start-up step begins that may take up to `seconds` (the start timeout
        is extended to that from now; systemd never shortens it below TimeoutStartSec=)."""
        usec = max(1, int(seconds * 1_000_000))
        return notify(f"EXTEND_TIMEOUT_USEC={usec}\nSTATUS=" + status.replace("\n", " "), self._env)

    def status(self, text: str) -> bool:
        return notify("STATUS=" + text.replace("\n", " "), self._env)

    def kick(self) -> bool:
        """Tell systemd the main loop is alive; True when a ping was actually sent."""
        if self.period is None:
            return False
        now = self._clock()
        if self._last_kick is not None and now - self._last_kick < self.period:
            return False
        self._last_kick = now
        return notify("WATCHDOG=1", self._env)

    def stopping(self, status: str = "") -> bool:
        return notify("STOPPING=1" + (f"\nSTATUS={status}" if status else ""), self._env)
