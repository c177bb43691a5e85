"""What the position-format tests of every game share: a `fail` that keeps what a reader refused,
and the check that a state written and read back is the same state."""

import tomllib
from collections.abc import Sequence
from typing import Any

import tomli_w

from rulecheck.core.game import Game
from rulecheck.registry import declaration


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


def reads_back(game: Game[Any, Any], state: Any, through_toml: bool = False) -> None:
    """Assert that the game's position format reads `state`'s written document back as `state`,
    with `through_toml` after a round trip through a TOML file's text."""
    position = declaration(game.name).position_format()
    document = position.write(game, state)
    if through_toml:
        document = tomllib.loads(tomli_w.dumps({"position": document}))["position"]
    assert position.read(game, document, fail) == state, document
