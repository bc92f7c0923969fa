"""The help screen: every key of the table."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import (
    Static,
)

from c1k_tui.screens.controls import KeysFooter

HELP_TEXT = """[b]Council of 1000 — keys[/b]

[b]Acting[/b]
  1…9 0, ←↑→↓ select a hand card (0: the 10th) / move the cursor
  enter        on a hand card: play it (then slot / targets: ◎ legal)
               on your unit, relic or Champion: activate its ability
               attackers: toggle · blockers: your unit, then the
               attacker it blocks
  space        pass priority
  p            pass until the combat ends, the turn ends or I am affected
  c            confirm the declaration (attack … / block …)
  n            attack none / block none
  a            attackers: toggle all
  s            Set the selected Ambush card face down (Veil)
  i  or enter  reopen the Interrupt / choice prompt (opens by itself)
  esc          cancel the pick in progress
  :  or  /     type a command (docs/formats.md §1); Tab completes commands
               and card names (again: the next one) · ↑/↓ your earlier
               commands · extra words: legal, why, help, concede
  An illegal play, picked or typed, is never sent: the app says why,
  a typed one stays on the line to edit, and you keep priority.
  (Quick play, in the options: 1…9 play at once.)

[b]Looking[/b]
  r            rules ⇄ log ⇄ recap  L  the full log (filter, search)
  w            what happened since you last decided, full screen
  R            the rule browser: the card's keywords, the window's rule
  PgUp/PgDn    scroll the rules or log tab
  g            graveyards (public)  o  flow options and stops
  u            undo your own last action (other agrees; nothing revealed)
  ?            this help            ctrl+q  quit (autosaved)

[b]Marks[/b] (never colour alone)
  ▶ cursor · ◎ legal target / slot / may attack / may block · » picked
  ✓ chosen attacker · ⛨ blocking · ⚔atk attacking · ⤳dep deploying
  z exhausted · ★ active player · hand: ✓ playable now, ✗ not now,
  ◆ cost, F/S Fast/Slow, [Set] a Set card · options: (●) chosen, [✓] on

[b]Hot-seat[/b]
  When the player who must decide changes, a hand-off screen hides all
  that is private and recaps what happened since that player last
  decided: pass the keyboard, then Enter. Whether a hand-off happens
  depends only on public facts (stops, the stack, what the opponent
  just did) — never on what a hand holds. Open hands turn hiding off.
  The learning flow (o, or play --flow learning) shows every window as
  it is entered: its id, its rule id and what happened in it.

[b]Undo[/b]
  Undo replays the match record without its last command, only if that
  command revealed nothing hidden (no card drawn, played or discarded
  from a hand or library; no shuffle, random discard or Flux). The
  request hands the keyboard to the other player, who agrees or not.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q,enter", "dismiss", "close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Static(Text.from_markup(HELP_TEXT))
        yield KeysFooter()

    def action_dismiss(self, result: Any = None) -> Any:
        return self.dismiss(None)
