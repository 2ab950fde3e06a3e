"""The ``mindtable`` command line."""

from mindtable.cli.app import app, main

__all__ = ["app", "main"]
