"""The errors the kernel and the games raise, each naming what went wrong and where.

Models: illegal actions (with the rule clause that forbids them), rule gaps (where the
rulebook is silent and no option decides), a game whose checks and legal actions
disagree (an engine defect), and bad input: unknown options or values,
malformed notation, broken spec, data or trace files, traces that do not replay,
output paths that cannot be written, and an optional extra a command needs but that is not
installed.

Leaves out: the CLI's presentation of these errors (rulecheck/cli/__init__.py turns them into one line
on stderr and a non-zero exit, never a traceback).
"""

from __future__ import annotations

from typing import Any


class RulecheckError(Exception):
    """Base of every error rulecheck raises on purpose. Subclasses keep their constructor's
    arguments in `args`, so an error raised in a worker process or on a Dask cluster arrives
    whole."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._arguments)

    @property
    def _arguments(self) -> tuple[Any, ...]:
        return self.args


class IllegalAction(RulecheckError):
    """An action the rules forbid in this state; `clause` is the id of the rule that forbids it."""

    def __init__(self, clause: str, reason: str, action: object | None = None) -> None:
        self.clause = clause
        self.reason = reason
        self.action = action
        subject = f"illegal action {str(action)!r}" if action is not None else "illegal action"
        super().__init__(f"{subject}: {reason} [{clause}]")

    @property
    def _arguments(self) -> tuple[Any, ...]:
        return (self.clause, self.reason, self.action)


class RuleGap(RulecheckError):
    """Strict mode: the rulebook says nothing here and no option decides. `gap` names the finding."""

    def __init__(self, gap: str, detail: str, state: Any) -> None:
        self.gap = gap
        self.detail = detail
        self.state = state
        super().__init__(f"rule gap {gap}: {detail}")

    @property
    def _arguments(self) -> tuple[Any, ...]:
        return (self.gap, self.detail, self.state)


class RulesDisagree(AssertionError):
    """An engine defect, not bad input: a game's checks accept an action that its own list of
    legal actions leaves out. The shared API checker and the generic checks report it."""


class OptionError(RulecheckError, ValueError):
    """An unknown option, a value an option does not allow, or a malformed NAME=VALUE."""


class NotationError(RulecheckError, ValueError):
    """Action text that does not parse."""


class EncodingError(RulecheckError, ValueError):
    """A state encoding that does not decode to the game's state type."""


class SpecError(RulecheckError, ValueError):
    """A broken clause catalogue (specs/<game>.toml) or an unknown clause id."""


class DataError(RulecheckError, ValueError):
    """A data file (cards, boards, improvements) that is malformed: names the file, the entry and the field."""


class OutputError(RulecheckError):
    """An output path that cannot be written: a folder where a file is wanted, a file where a
    folder is wanted, a missing folder, or one this process cannot write in."""


class ScenarioError(RulecheckError, ValueError):
    """A scenario file that is malformed or describes a position the rules make impossible:
    names the file, the line and the field, and the clause or property the position breaks."""


class TraceError(RulecheckError, ValueError):
    """A trace file that is malformed, belongs to another game, or does not replay."""


class ExtraMissing(RulecheckError):
    """A command needs an optional extra that is not installed (matplotlib for pictures): names
    the extra and how to install it."""
