"""The example commands of README.md, docs/*.md and every registered game's page (wherever its
declaration puts it), run as written and compared with the output the page shows, so the docs
cannot go stale.

An example is a ```console block: each line that starts with `$ ` is a command (a line ending in
` \\` goes on in the next), and the lines after it, up to the next command or the end of the
block, are what it prints, standard output and standard error together, in the order written.
In the expected output:

- `...` on a line of its own matches any number of lines, none included;
- `[...]` inside a line matches any text within that line (timings, paths, digests);
- `[exit N]` as the last line says the command exits with status N; without it, it must exit 0.

Trailing spaces and trailing blank lines are ignored, and a line rewritten in place (a progress
bar's carriage returns) counts as its last version, as a terminal shows it. A block opened as ```console extra=NAME
needs that optional extra (`draw`, `dask`, `openspiel`): its examples are skipped, saying so,
only when the extra's module is not installed.

The commands of one page run in page order in one fresh folder, so a file one writes is there
for the next; the folder links `scenarios/` and `tests/` of the checkout, as a reader runs them
from its root. A command `rulecheck ...` with no shell syntax runs in this process, through
`rulecheck.cli.main`, with `python` first on PATH; anything else runs in a shell.

A ```console block that cannot be run (text before its first command, an unknown extra) and a
`$ ` line anywhere else (in another fenced block, indented in a list, in the text) are errors:
every command shown is run.

    python -m tests.docs_examples [PAGE ...]            # run the examples, print each mismatch
    python -m tests.docs_examples --update [PAGE ...]   # rewrite the pages' outputs as they now are

`--update` keeps a page's expected output where it still matches; otherwise it writes the new
output, keeping each line that still matches its pattern and each `...` over the lines it
now covers, so wildcards stay where they still fit. It names every example it rewrote, and
says so when one's exit status changed (a command that now fails would otherwise be written
down as failing): read the diff, and put back any `[...]` a changed line lost.

Leaves out: console blocks indented inside lists (an error, as above), and commands that read
standard input.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parents[1]
PROMPT = "$ "
ANY_LINES = "..."
ANY_TEXT = "[...]"
EXIT = re.compile(r"\[exit (\d+)\]")
FENCE = re.compile(r"```(\S*)\s*(.*)")
EXTRAS = {"draw": "matplotlib", "dask": "distributed", "openspiel": "pyspiel"}
"""Each optional extra of pyproject.toml an example may need, and the module that shows it is installed."""
LINKED = ("scenarios", "tests")
"""The checkout's folders an example may read, linked into the folder the examples run in."""
SHELL_PUNCTUATION = set("();<>|&")
COLUMNS = "100"
"""The terminal width the commands see (argparse wraps its help to it)."""
TIMEOUT = 300
"""The most seconds a shell command may take."""


class DocsError(Exception):
    """A page's example that cannot be run as written, with the page and line."""


@attrs.frozen
class Example:
    """One command of a page and the output the page shows for it."""

    page: Path
    line: int
    """The line number of the command, from 1."""
    command: str
    expected: tuple[str, ...]
    """The expected output's lines, patterns included, without the exit line."""
    exit: int
    extra: str | None
    span: tuple[int, int]
    """The page's lines (indices from 0, end excluded) that hold the expected output and exit line."""

    @property
    def where(self) -> str:
        return f"{self.page.name}:{self.line}"


@attrs.frozen
class Result:
    example: Example
    exit: int
    output: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return self.exit == self.example.exit and matches(self.example.expected, self.output)

    def explain(self) -> str:
        shown = "\n".join(f"    {line}" for line in _with_exit(self.example.expected, self.example.exit))
        got = "\n".join(f"    {line}" for line in _with_exit(self.output, self.exit))
        return f"{self.example.where}: $ {self.example.command}\n  expected:\n{shown}\n  got:\n{got}"


def pages() -> list[Path]:
    """README.md, every page of docs/ in order of name, then each registered game's page that lies
    elsewhere (tests/fixtures/toy_game/toy-game.md, when that game is registered)."""
    from rulecheck.registry import DECLARATIONS

    found = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    declared = sorted(ROOT / d.tested.page for d in DECLARATIONS.values() if d.tested is not None)
    return found + [page for page in declared if page not in found]


def examples(page: Path) -> list[Example]:
    """Every example of a page, in page order; DocsError on a block that cannot be run, and on
    a command line anywhere else (in another fenced block, an indented one, or the text)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Example] = []
    index = 0
    while index < len(lines):
        opened = FENCE.fullmatch(lines[index])
        if opened is None:
            _no_command(page, lines, index)
            index += 1
            continue
        end = next((i for i in range(index + 1, len(lines)) if lines[i].startswith("```")), None)
        if end is None:
            raise DocsError(f"{page.name}:{index + 1}: a fenced block that is never closed")
        if opened.group(1) == "console":
            found.extend(_console_block(page, lines, index, end, opened.group(2)))
        else:
            for i in range(index + 1, end):
                _no_command(page, lines, i)
        index = end + 1
    return found


def _no_command(page: Path, lines: list[str], index: int) -> None:
    if lines[index].lstrip().startswith(PROMPT):
        raise DocsError(
            f"{page.name}:{index + 1}: a command ({PROMPT.strip()} ...) outside a ```console block at the"
            " start of a line; write it as a console example, or leave the prompt off a synopsis"
        )


def _console_block(page: Path, lines: list[str], fence: int, end: int, attributes: str) -> Iterator[Example]:
    extra = None
    for word in attributes.split():
        name, _, value = word.partition("=")
        if name != "extra" or value not in EXTRAS:
            raise DocsError(
                f"{page.name}:{fence + 1}: {word!r} is not an attribute of a console block;"
                f" the one there is extra=NAME, NAME one of {', '.join(sorted(EXTRAS))}"
            )
        extra = value
    starts = [i for i in range(fence + 1, end) if lines[i].startswith(PROMPT)]
    if not starts or starts[0] != fence + 1:
        raise DocsError(f"{page.name}:{fence + 2}: a console block must start with a command ({PROMPT}...)")
    for number, start in enumerate(starts):
        stop = starts[number + 1] if number + 1 < len(starts) else end
        command = lines[start][len(PROMPT) :]
        first = start + 1
        while command.endswith("\\") and first < stop:
            command = command[:-1].rstrip() + " " + lines[first].strip()
            first += 1
        if command.endswith("\\"):
            raise DocsError(f"{page.name}:{start + 1}: the command goes on past its block")
        output = [line.rstrip() for line in lines[first:stop]]
        while output and not output[-1]:
            output.pop()
        status = 0
        if output and (marked := EXIT.fullmatch(output[-1])):
            status = int(marked.group(1))
            output.pop()
        yield Example(page, start + 1, command.strip(), tuple(output), status, extra, (first, stop))


def _line_pattern(line: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in line.split(ANY_TEXT)))


def matches(expected: Sequence[str], output: Sequence[str]) -> bool:
    """Whether output's lines are what the expected lines, with their wildcards, describe."""
    patterns = [None if line == ANY_LINES else _line_pattern(line) for line in expected]
    reachable = {0}  # how many output lines the patterns so far can have matched
    for pattern in patterns:
        if pattern is None:
            reachable = set(range(min(reachable), len(output) + 1)) if reachable else set()
        else:
            reachable = {n + 1 for n in reachable if n < len(output) and pattern.fullmatch(output[n])}
    return len(output) in reachable


def refreshed(expected: Sequence[str], output: Sequence[str]) -> list[str]:
    """The new expected output: the output, except that a line still matching its old pattern
    keeps the pattern, and lines where the old text had `...` stay covered by it."""
    patterns = [None if line == ANY_LINES else _line_pattern(line) for line in expected]
    paired = [[p is not None and p.fullmatch(line) is not None for line in output] for p in patterns]
    # best[i][j]: the most old lines from i on that pair, in order, with new lines from j on
    best = [[0] * (len(output) + 1) for _ in range(len(expected) + 1)]
    for i in range(len(expected) - 1, -1, -1):
        for j in range(len(output) - 1, -1, -1):
            both = best[i + 1][j + 1] + 1 if paired[i][j] else 0
            best[i][j] = max(both, best[i + 1][j], best[i][j + 1])
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < len(expected) and j < len(output):
        if paired[i][j] and best[i][j] == best[i + 1][j + 1] + 1:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    written: list[str] = []
    last = (-1, -1)
    for i, j in [*pairs, (len(expected), len(output))]:
        if ANY_LINES in expected[last[0] + 1 : i]:
            written.append(ANY_LINES)
        else:
            written.extend(output[last[1] + 1 : j])
        written.extend(expected[i : i + 1])
        last = (i, j)
    return written


def _with_exit(lines: Sequence[str], status: int) -> list[str]:
    return [*lines, f"[exit {status}]"] if status else list(lines)


def needs(example: Example) -> str | None:
    """Why an example cannot run here (its extra is not installed), or None."""
    if example.extra is None or importlib.util.find_spec(EXTRAS[example.extra]) is not None:
        return None
    return f"needs the {example.extra} extra ({EXTRAS[example.extra]} is not installed)"


@contextlib.contextmanager
def _environment(folder: Path) -> Iterator[None]:
    """The current folder, PATH and COLUMNS an example runs with."""
    saved = dict(os.environ), Path.cwd()
    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    os.environ["COLUMNS"] = COLUMNS
    os.chdir(folder)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved[0])
        os.chdir(saved[1])


def _in_process(command: str) -> list[str] | None:
    """The arguments of a command run through rulecheck.cli.main, or None for one a shell runs."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words = list(lexer)
    if words[:1] != ["rulecheck"] or any(set(word) <= SHELL_PUNCTUATION for word in words):
        return None
    return words[1:]


def run(command: str) -> tuple[int, list[str]]:
    """Run one command in the current folder: its exit status and its output's lines."""
    argv = _in_process(command)
    if argv is None:
        done = subprocess.run(
            command, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT
        )  # bytes: text mode would turn a carriage return into a new line
        status, text = done.returncode, done.stdout.decode("utf-8", errors="replace")
    else:
        from rulecheck.cli import main

        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
            try:
                status = main(argv)
            except SystemExit as stop:  # argparse: --help, --version, a usage error
                status = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
            except Exception:  # noqa: BLE001 - a doc example's traceback is its output
                traceback.print_exc(file=buffer)
                status = 1
        text = buffer.getvalue()
    lines = [line.rsplit("\r", 1)[-1].rstrip() for line in text.split("\n")]  # what a terminal leaves of it
    while lines and not lines[-1]:
        lines.pop()
    return status, lines


def run_page(
    page: Path, folder: Path, linked: Mapping[str, Path] | None = None
) -> tuple[list[Result], list[tuple[Example, str]]]:
    """Run every example of a page in `folder`, where each name of `linked` is a link to its folder
    (default: LINKED, the checkout's): the results, and the examples skipped with why."""
    found = examples(page)
    for name, target in (linked if linked is not None else {name: ROOT / name for name in LINKED}).items():
        (folder / name).symlink_to(target, target_is_directory=True)
    results: list[Result] = []
    skipped: list[tuple[Example, str]] = []
    with _environment(folder):
        for example in found:
            reason = needs(example)
            if reason is not None:
                skipped.append((example, reason))
                continue
            status, output = run(example.command)
            results.append(Result(example, status, tuple(output)))
    return results, skipped


def update(page: Path, results: Sequence[Result]) -> list[Result]:
    """Rewrite the expected output of every example of the page that no longer matches; those examples."""
    lines = page.read_text(encoding="utf-8").splitlines()
    stale = [result for result in results if not result.passed]
    for result in sorted(stale, key=lambda r: r.example.span, reverse=True):
        start, stop = result.example.span
        kept = lines[stop:]
        lines[start:] = _with_exit(refreshed(result.example.expected, result.output), result.exit)
        lines.extend(kept)
    if stale:
        page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.docs_examples", description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", type=Path, help="pages to run (default: README.md and docs/*.md)")
    parser.add_argument("--update", action="store_true", help="rewrite each stale expected output in place")
    args = parser.parse_args(argv)
    failed = 0
    for page in [path.resolve() for path in args.pages] or pages():
        with tempfile.TemporaryDirectory(prefix="docs-") as folder:
            try:
                results, skipped = run_page(page, Path(folder))
            except DocsError as error:
                print(error)
                failed += 1
                continue
        for example, reason in skipped:
            print(f"{example.where}: skipped, {reason}: $ {example.command}")
        if args.update:
            stale = update(page, results)
            for result in stale:
                status = (
                    result.exit
                    if result.exit == result.example.exit
                    else f"now {result.exit}, was {result.example.exit}"
                )
                print(f"{result.example.where}: rewritten (exit status {status}): $ {result.example.command}")
            print(f"{page.name}: {len(results)} examples run, {len(stale)} outputs rewritten")
        else:
            for result in results:
                if not result.passed:
                    print(result.explain())
                    failed += 1
            print(f"{page.name}: {len(results)} examples run")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
