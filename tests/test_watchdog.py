"""sd_notify over a real AF_UNIX datagram socket, as systemd would listen for it."""

from __future__ import annotations

import os
import socket

import pytest

from companion.watchdog import Watchdog, notify, watchdog_interval


@pytest.fixture
def listener(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield str(path), sock
    sock.close()


def received(sock) -> list[str]:
    out = []
    sock.setblocking(False)
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except BlockingIOError:
        pass
    finally:
        sock.settimeout(2)
    return out


def test_notify_sends_the_message_to_the_socket(listener):
    path, sock = listener
    assert notify("READY=1", {"NOTIFY_SOCKET": path})
    assert sock.recv(4096) == b"READY=1"


def test_abstract_socket_names_start_with_at():
    name = f"companion-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert notify("STATUS=hello", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(4096) == b"STATUS=hello"
    finally:
        sock.close()


def test_without_systemd_everything_is_a_quiet_no_op():
    dog = Watchdog({})
    assert not dog.enabled
    assert not dog.ready("up")
    assert not dog.kick()
    assert not notify("READY=1", {})


def test_a_vanished_socket_is_reported_not_raised(tmp_path, caplog):
    assert not notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert "cannot notify systemd" in caplog.text
    assert not notify("READY=1", {"NOTIFY_SOCKET": "relative/path"})


def test_watchdog_interval_honours_usec_and_pid():
    me = str(os.getpid())
    assert watchdog_interval({"WATCHDOG_USEC": "20000000"}) == 20.0
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": me}) == 20.0
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({}) is None


def test_kicks_are_rate_limited_to_half_the_interval(listener):
    path, sock = listener
    now = [100.0]
    dog = Watchdog({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"}, clock=lambda: now[0])
    assert dog.period == 5.0
    assert dog.ready("watching the table")
    assert received(sock) == ["READY=1\nSTATUS=watching the table"]
    sent = []
    for _ in range(40):  # a 4 fps main loop for 10 s
        now[0] += 0.25
        sent.append(dog.kick())
    assert sent.count(True) == 2  # at 5 s and 10 s after READY
    assert received(sock) == ["WATCHDOG=1", "WATCHDOG=1"]


def test_status_and_stopping(listener):
    path, sock = listener
    dog = Watchdog({"NOTIFY_SOCKET": path})
    assert dog.status("camera lost\nretrying")
    assert dog.stopping("bye")
    assert received(sock) == ["STATUS=camera lost retrying", "STOPPING=1\nSTATUS=bye"]
    assert not dog.kick()  # no WatchdogSec=: nothing to feed


def test_a_socket_nobody_reads_times_out_instead_of_freezing_the_loop(listener, caplog):
    """Linux queues only a few datagrams on a socket (net.unix.max_dgram_qlen); once the listener
    stops reading, a blocking send would hang the game's main loop for good."""
    path, sock = listener
    env = {"NOTIFY_SOCKET": path}
    results = []
    while len(results) < 256 and (not results or results[-1]):
        results.append(notify("WATCHDOG=1", env))
    assert results[0] is True
    assert results[-1] is False  # the queue filled up and the send gave up
    assert "cannot notify systemd" in caplog.text
    assert received(sock)  # what was queued is still delivered
