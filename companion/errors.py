"""Errors a user can act on. The CLI prints them as one line, never as a traceback."""

from __future__ import annotations


class CompanionError(Exception):
    """A problem the user can fix: the message names the file, key or line and what is expected."""

    exit_code = 2


class FormatError(CompanionError):
    """A file (save, config, calibration, card data) is not in the expected format."""

    def __init__(self, source: str, where: str, expected: str):
        self.source = source
        self.where = where
        self.expected = expected
        location = f"{source}: {where}" if where else source
        super().__init__(f"{location}: {expected}")


class ConfigError(FormatError):
    """The configuration file has a bad value."""


class NotYetAvailable(CompanionError):
    """A subcommand whose capability has not been built on this device yet."""

    exit_code = 3
