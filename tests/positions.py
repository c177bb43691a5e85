"""What the position-format tests of every game share: a `fail` that keeps what a reader refused."""

from collections.abc import Sequence
from typing import Any


class Refused(Exception):
    """A position a game's reader refused: the path into the document, the message and the rule."""

    def __init__(self, path: Sequence[str | int], message: str, rule: str) -> None:
        super().__init__(f"{list(path)}: {message} [{rule}]")
        self.path = tuple(path)
        self.message = message
        self.rule = rule


def fail(path: Sequence[str | int], message: str, rule: str) -> Any:
    """The `fail` a game's `read` is given in tests: raises Refused."""
    raise Refused(path, message, rule)
