"""The ``rosenblatt`` command: ``build_parser()`` and ``main(argv=None) -> int``."""

from ._main import build_parser, main

__all__ = ["build_parser", "main"]
