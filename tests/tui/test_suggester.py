"""The command line's completion knows every command of formats.md §1 (issue #7: it had drifted and never
suggested `set`)."""

from __future__ import annotations

import asyncio

import pytest

from c1k_tui.screens.match_screen import LegalSuggester
from engine import COMMAND_VERBS


@pytest.mark.parametrize("verb", COMMAND_VERBS)
def test_every_command_verb_is_completed(verb: str) -> None:
    s = LegalSuggester()
    got = asyncio.run(s.get_suggestion(verb[0]))
    # the first letter alone may complete another verb (pass / play): typing up to the verb's last letter
    # but one always completes to it
    got = asyncio.run(s.get_suggestion(verb[:-1])) if len(verb) > 1 else got
    assert got is not None and got.rstrip() == verb


def test_legal_commands_come_before_verbs() -> None:
    s = LegalSuggester()
    s.commands = ("set #12",)
    assert asyncio.run(s.get_suggestion("se")) == "set #12"
