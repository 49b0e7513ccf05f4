"""Subcommands of `companion`: one module each, registered by companion.cli."""
