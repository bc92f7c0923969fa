"""One family of errors (docs/architecture.md "Errors"): every error c1k raises on purpose descends from
`C1KError`, in one of two branches —

- `BadInput`: a file or a command that isn't what was expected (a broken card, deck, scenario, lesson,
  record or report file, a malformed command, a file that isn't read, a value the encoding refuses);
- `RulesError`: the rules refuse something (an illegal action) or can't go on (a rules loop).

Each error also keeps the built-in base it had before the family existed (a `CardFileError` is still a
`ValueError`, a `ReadRefused` still an `OSError`), so code that catches those goes on catching them. An
entry point catches `C1KError` and shows its message; anything else is a bug."""

from __future__ import annotations

__all__ = ["BadInput", "C1KError", "RulesError"]


class C1KError(Exception):
    """The root of every error c1k raises on purpose: its message is meant for the user."""


class BadInput(C1KError):
    """A file or a command that isn't what was expected; the message names the file or line and what was
    expected. Nothing in a game changes."""


class RulesError(C1KError):
    """The rules refuse an action now, or a chain of rules can't come to an end."""
