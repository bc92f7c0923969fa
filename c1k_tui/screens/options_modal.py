"""The options dialog: flow, stops, pace, quick play, view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import (
    Static,
)

from c1k_tui.model.paths import FLOW_SHORT, FLOWS, PACES
from c1k_tui.screens.controls import Choice, ChoiceList, KeysFooter

if TYPE_CHECKING:
    from c1k_tui.model.session import Flow


STOP_WINDOWS = ("draw.start", "draw.post", "influence.start", "influence.response", "main.priority",
                "combat.declare_attackers", "combat.declare_blockers", "combat.post", "combat.exit",
                "end.start", "end.final")


@dataclass
class OptionsResult:
    flow: Flow
    fixed_view: bool
    quick_play: tuple[bool, bool] = (False, False)     # per seat (saved by player name)
    pace_ms: tuple[int, int] = (0, 0)


class OptionsModal(ModalScreen[OptionsResult | None]):
    """Flow options in one keyboard-first list: the mode, each player's stops, the view, quick play,
    pacing. ↑/↓ move, Space/Enter toggles, ctrl+s (or the Apply row) applies, Esc cancels."""

    BINDINGS = [Binding("escape", "close", "cancel"), Binding("ctrl+s", "save", "apply")]

    def __init__(self, flow: Flow, names: tuple[str, str], fixed_view: bool, can_fix: bool,
                 quick_play: tuple[bool, bool] = (False, False), pace_ms: tuple[int, int] = (0, 0),
                 hidden: bool = True, holder: int | None = None) -> None:
        super().__init__()
        #: with hands hidden, the player at the keyboard: only their own options are listed and changed
        #: (tui.md round 2: nobody unticks the other player's stops; changes are announced to them)
        self.holder = holder if holder in (0, 1) else None
        self.flow = flow
        self.names = names
        self.fixed_view = fixed_view
        self.can_fix = can_fix
        self.quick_play = quick_play
        self.pace_ms = pace_ms
        self.hidden = hidden

    @property
    def mode(self) -> str:
        """The mode the keyboard holder is under (their own full control, or the shared mode)."""
        return self.flow.mode if self.holder is None else self.flow.mode_for(f"p{self.holder + 1}")

    def choices(self) -> list[Choice]:
        out = [Choice("h-mode", "When the app passes for you" + (
            " (full control is yours alone; another mode needs the other player's consent)"
            if self.holder is not None else ""), "head")]
        for m in FLOWS:
            private = m == "auto" and self.hidden
            out.append(Choice(f"flow-{m}", FLOW_SHORT[m] + (" — open hands only: it reads the hand"
                                                           if private else ""),
                              "radio", "flow", self.mode == m, disabled=private))
        for i, (p, name) in enumerate((("p1", self.names[0]), ("p2", self.names[1]))):
            if self.holder is not None and i != self.holder:
                continue
            out.append(Choice(f"h-{p}", f"{name} ({p}): own options, saved under the name {name}", "head"))
            out.append(Choice(f"quick-{p}", "quick play: 1…9 play the card at once (otherwise they select, "
                                            "Enter plays)", "check", on=self.quick_play[i]))
            paces = PACES if self.pace_ms[i] in PACES else (*PACES, self.pace_ms[i])
            for ms in paces:
                out.append(Choice(f"pace-{p}-{ms}", "pace: off — passed windows are skipped at once" if not ms else
                                  f"pace: {ms} ms per passed window on the phase bar", "radio", f"pace-{p}",
                                  self.pace_ms[i] == ms))
            out.append(Choice(f"h-{p}-stops", f"stops of {name}: where {name} is asked (public)", "head"))
            for whose in ("own", "opp"):
                for w in STOP_WINDOWS:
                    key = f"{whose}:{w}"
                    label = f"{'my turn' if whose == 'own' else 'their turn'}: {w}"
                    out.append(Choice(f"{p}|{key}", label, "check", on=key in self.flow.stops[p]))
        out.append(Choice("h-view", "Table", "head"))
        out.append(Choice("fixed", "fixed view: p1 always at the bottom (open hands only)", "check",
                          on=self.fixed_view, disabled=not self.can_fix))
        out.append(Choice("apply", "Apply (ctrl+s)", "action"))
        out.append(Choice("cancel", "Cancel (esc)", "action"))
        return out

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="options-box"):
            yield Static(Text("Flow options (recorded in the match record)", style="bold"))
            yield Static("↑/↓ move · Space or Enter toggles · ctrl+s applies · Esc cancels", classes="dim")
            yield ChoiceList(self.choices(), id="options-list")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(ChoiceList).focus()

    def on_choice_list_activated(self, event: ChoiceList.Activated) -> None:
        if event.key == "apply":
            self.action_save()
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        cl = self.query_one(ChoiceList)
        mode = cl.radio("flow")[len("flow-"):] or self.mode
        mine = ("p1", "p2") if self.holder is None else (f"p{self.holder + 1}",)
        stops = {p: [c.key.split("|", 1)[1] for c in cl.choices if c.key.startswith(p + "|") and c.on]
                 if p in mine else list(self.flow.stops[p]) for p in ("p1", "p2")}
        paces = tuple((int(r.rsplit("-", 1)[1]) if (r := cl.radio(f"pace-{p}")) else 0) if p in mine
                      else self.pace_ms[i] for i, p in enumerate(("p1", "p2")))
        quick = tuple(cl.value(f"quick-{p}") if p in mine else self.quick_play[i] for i, p in enumerate(("p1", "p2")))
        from c1k_tui.model.session import Flow

        self.dismiss(OptionsResult(Flow(mode, stops), cl.value("fixed"), (quick[0], quick[1]),
                                   (paces[0], paces[1])))

    def action_close(self) -> None:
        self.dismiss(None)
