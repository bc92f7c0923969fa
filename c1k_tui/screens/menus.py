"""The other screens: start, hand-off, game over, help, lessons, and the modal prompts."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    Footer,
    Input,
    Label,
    OptionList,
    RadioSet,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from c1k_tui.model.cardset import join_paths, split_paths
from c1k_tui.model.marks import Marks
from c1k_tui.model.paths import FLOW_SHORT, FLOWS, PACES
from c1k_tui.model.safetext import escape_text
from c1k_tui.model.versus_choices import OPPONENTS
from c1k_tui.screens.controls import Choice, ChoiceList, GlyphCheckbox, GlyphRadio, LogView

if TYPE_CHECKING:
    from c1k_tui.model.cardset import Pool
    from c1k_tui.model.session import Flow
    from engine import CardDB

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
        yield Footer()

    def action_dismiss(self, result: Any = None) -> Any:
        return self.dismiss(None)


class HandoffScreen(Screen[None]):
    """Opaque: shows only public facts — and the public recap of what happened since the incoming player
    last decided (the outgoing player reads it too; the private part waits on the next screen).
    Enter hands the screen to the next player — Enter only, and not in the first moments: Space passes
    priority on the table and Enter plays, so a double press there must not carry on through this screen
    and show the next player's hand to the one who just acted (rules.md §7a: hidden information)."""

    AUTO_FOCUS = ""
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]     # 80×24: the recap takes the rows left
    #: seconds after it appears during which Enter is taken for the tail of the outgoing player's keys
    #: (a double press, a key repeat) and ignored (tests set 0; tests/tui/test_handoff_guard.py checks it)
    GUARD_S = 0.5

    BINDINGS = [Binding("enter", "go", "show my screen"),
                Binding("up", "scroll(-1)", show=False), Binding("down", "scroll(1)", show=False),
                Binding("pageup", "page(-1)", show=False), Binding("pagedown", "page(1)", show=False),
                Binding("home", "page(-1000)", show=False), Binding("end", "page(1000)", show=False)]

    def __init__(self, name: str, player: str, what: str, rule: str, turn: int, window: str,
                 recap: Text | None = None) -> None:
        super().__init__()
        self.player_name = name
        self.lines = (name, player, what, rule, turn, window)
        self.shown_at = time.monotonic()   # (set again when it is shown)
        self.recap = recap

    def compose(self) -> ComposeResult:
        name, player, what, rule, turn, window = self.lines
        with Vertical(id="handoff-box"):
            who = name if name == player else f"{name} ({player})"
            yield Static(Text(f"Pass to {who}", style="bold"), id="handoff-title")
            yield Static(Text.assemble(f"{name} to decide: ", (what, "bold"), f"   ({rule})"))
            yield Static(Text(f"Turn {turn} · {window}", style="dim"))
            # above the recap, so a long recap never pushes it off a small screen
            yield Static(Text.assemble(("press Enter", "bold reverse"), f" when {name} has the keyboard",
                                       ("  (↑/↓ PgUp/PgDn: the recap)" if self.recap is not None else "", "dim")),
                         id="handoff-go")
            if self.recap is not None:
                with VerticalScroll(id="handoff-recap"):
                    yield Static(self.recap)
        yield Footer()

    def action_scroll(self, d: int) -> None:
        for w in self.query("#handoff-recap"):
            w.release_anchor()
            w.scroll_relative(y=d, animate=False, immediate=True)

    def action_page(self, d: int) -> None:
        """PgUp/PgDn: a page of the recap (one row kept for context); Home/End: its ends."""
        for w in self.query("#handoff-recap"):
            w.release_anchor()
            w.scroll_relative(y=d * max(1, w.scrollable_content_region.height - 1), animate=False,
                              immediate=True)

    def on_mount(self) -> None:
        self.app.clear_notifications()
        self.shown_at = time.monotonic()
        # the recap opens at its newest lines (what just happened), and stays there as it is laid out;
        # ↑/PgUp for the earlier ones
        for w in self.query("#handoff-recap"):
            w.anchor()

    def action_go(self) -> None:
        if time.monotonic() - self.shown_at < self.GUARD_S:
            return   # the outgoing player's own key, still arriving: the screen stays
        self.dismiss(None)


class SplashScreen(Screen[None]):
    """The first frame: the match about to start, shown while the rules engine loads in the background.
    Enter (or any key the player presses meanwhile) waits for it; nothing private is shown."""

    AUTO_FOCUS = ""
    BINDINGS = [Binding("enter", "go", "begin")]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines
        self.ready = False
        self.wanted = False
        self.error = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff-box"):
            yield Static(Text("Council of 1000", style="bold"), id="handoff-title")
            for line in self.lines:
                yield Static(line)
            yield Static("")
            yield Static(Text("loading the rules engine…", style="dim"), id="splash-state")
        yield Footer()

    def on_mount(self) -> None:
        self.call_after_refresh(self.app.start_build)  # type: ignore[attr-defined]

    def set_ready(self) -> None:
        self.ready = True
        self.query_one("#splash-state", Static).update(Text.assemble(("press Enter", "bold reverse"), " to begin"))
        if self.wanted:
            self.dismiss(None)

    def set_error(self, error: str) -> None:
        self.error = error
        self.query_one("#splash-state", Static).update(Text(f"{error}\n\npress Enter to quit", style="bold red"))

    def action_go(self) -> None:
        if self.error:
            self.app.exit(return_code=2, message=self.error)
        elif self.ready:
            self.dismiss(None)
        else:
            self.wanted = True


class ConfirmModal(ModalScreen[bool]):
    BINDINGS = [Binding("y", "yes", "yes"), Binding("n,escape", "no", "no"),
                Binding("left,up", "app.focus_previous", show=False),
                Binding("right,down", "app.focus_next", show=False)]

    def __init__(self, title: str, body: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.title_text, self.body, self.yes, self.no = title, body, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text, style="bold"))
            yield Static(self.body)
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="primary")
                yield Button(f"{self.no} (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()      # Enter alone never agrees to something irreversible

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)


class PromptModal(ModalScreen[str | None]):
    """A list of answers (Interrupts, Thread modes, abilities, a single choice); returns the command."""

    BINDINGS = [Binding("escape", "close", "back to the board")]

    def __init__(self, title: str, body: str, options: list[tuple[str, str]], rule: str = "") -> None:
        super().__init__()
        self.title_text, self.body, self.options, self.rule = title, body, options, rule

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text.assemble((self.title_text, "bold"), (f"   {self.rule}" if self.rule else "", "cyan")))
            if self.body:
                yield Static(self.body)
            yield OptionList(*[Option(label, id=str(i)) for i, (label, _) in enumerate(self.options)],
                             id="prompt-options")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.options[int(event.option.id or 0)][1])

    def action_close(self) -> None:
        self.dismiss(None)


class MultiChoiceModal(ModalScreen[str | None]):
    """A choice of exactly N options (e.g. discard down to hand size, the order of Flux triggers): ↑/↓
    move, Space marks, Enter confirms; a Decline row when the choice may be declined. The marks are kept
    in marking order (`model.marks.Marks`): an order choice numbers them 1st, 2nd… and sends that order."""

    BINDINGS = [Binding("escape", "close", "back to the board")]

    def __init__(self, title: str, labels: list[str], count: int, can_decline: bool, rule: str) -> None:
        super().__init__()
        self.marks = Marks.for_choice(labels, count, rule)
        self.title_text, self.can_decline = title, can_decline
        self.rule = self.marks.rule_shown or rule

    def compose(self) -> ComposeResult:
        m = self.marks
        rows = [Choice(str(i), m.row(i), "check") for i in range(1, len(m.labels) + 1)]
        rows.append(Choice("confirm", f"Confirm ({m.summary()})", "action"))
        if self.can_decline:
            rows.append(Choice("decline", "Decline", "action"))
        with Vertical(classes="dialog"):
            yield Static(Text.assemble((self.title_text, "bold"), (f"   {self.rule}", "cyan")))
            yield Static(m.hint())
            yield ChoiceList(rows, enter="confirm", id="multi")
            yield Static(m.summary(), id="multi-msg")
        yield Footer()

    def on_mount(self) -> None:
        cl = self.query_one(ChoiceList)
        cl.focus()
        self.watch(cl, "version", self._marked, init=False)

    def _marked(self) -> None:
        cl = self.query_one(ChoiceList)
        m = self.marks
        m.sync({int(c.key) for c in cl.choices if c.kind == "check" and c.on})
        for c in cl.choices:
            if c.kind == "check":
                c.label = m.row(int(c.key))
            elif c.key == "confirm":
                c.label = f"Confirm ({m.summary()})"
        self.query_one("#multi-msg", Static).update(m.summary())
        cl.refresh()

    def on_choice_list_activated(self, event: ChoiceList.Activated) -> None:
        if event.key == "decline":
            self.dismiss("decline")
            return
        self._marked()
        why = self.marks.problem()
        if why:
            self.query_one("#multi-msg", Static).update(why)
            return
        self.dismiss(self.marks.command())

    def action_close(self) -> None:
        self.dismiss(None)


class GraveyardModal(ModalScreen[None]):
    BINDINGS = [Binding("escape,g,q,enter", "close", "close")]

    def __init__(self, text: Text) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Static(self.text)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


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
        yield Footer()

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


@dataclass
class MatchSummary:
    outcome: str
    turns: int
    commands: int
    players: tuple[str, str]
    damage: dict[str, int] = field(default_factory=dict)          # source label -> damage dealt
    damage_by_player: tuple[int, int] = (0, 0)
    played: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    seed: int | None = None       # the StateSeed: shown once the match is over (rules.md §7)
    life: tuple[int, int] = (0, 0)             # final life totals
    to_champions: tuple[int, int] = (0, 0)     # damage each player's cards dealt to Champions …
    to_units: tuple[int, int] = (0, 0)         # … and to units


def outcome_words(winner: int | None, termination: str, names: tuple[str, str]) -> str:
    """The outcome in one line, each name once: "Ana wins — Tomas conceded", "a draw — both Champions fell"."""
    if winner is None:
        why = {"both_defeated": "both Champions fell", "turn_limit": "the turn limit was reached",
               "endless_loop": "an endless loop: the position repeated with only passes (rules.md §1)",
               "conceded": "conceded"}.get(termination, termination.replace("_", " "))
        return f"A draw — {why}"
    loser = names[1 - winner]
    why = {"conceded": f"{loser} conceded", "champion_defeated": f"{loser}'s Champion fell",
           "turn_limit": "the turn limit was reached",
           "both_defeated": "both Champions fell"}.get(termination, termination.replace("_", " "))
    return f"{names[winner]} wins — {why}"


class GameOverScreen(Screen[str]):
    """The outcome and a summary; save the record, rematch, new match, review, quit."""

    AUTO_FOCUS = ""

    BINDINGS = [Binding("r", "choose('rematch')", "rematch"), Binding("n", "choose('new')", "new match"),
                Binding("v", "choose('review')", "review (replay)"), Binding("s", "save", "save record"),
                Binding("q", "choose('quit')", "quit"), Binding("escape", "leave_field", "leave the field"),
                Binding("left,up", "app.focus_previous", show=False),
                Binding("right,down", "app.focus_next", show=False)]

    def __init__(self, summary: MatchSummary, save_hint: str, lesson: bool = False) -> None:
        super().__init__()
        self.summary = summary
        self.save_hint = save_hint
        self.lesson = lesson

    def compose(self) -> ComposeResult:
        s = self.summary
        t = Text()
        t.append("MATCH OVER\n", style="bold reverse")
        t.append(f"{s.outcome}\n\n", style="bold")
        t.append(f"turns: {s.turns} · commands: {s.commands}")
        if s.seed is not None:
            t.append(f" · seed: {s.seed}")
        t.append("\n\n")
        w = max(6, *(len(n) for n in s.players))
        t.append(f"{'':<{w}}  {'life':>4}  {'damage to Champions':>19}  {'to units':>8}  {'cards played':>12}\n",
                 style="bold")
        for i, name in enumerate(s.players):
            t.append(f"{name:<{w}}  {s.life[i]:>4}  {s.to_champions[i]:>19}  {s.to_units[i]:>8}  "
                     f"{len(s.played[i]):>12}\n")
        for i, name in enumerate(s.players):
            if s.played[i]:
                t.append(f"\n{name} played: ", style="bold")
                t.append(", ".join(s.played[i]) + "\n")
        if s.damage:
            t.append("\ndamage by source\n", style="bold")
            for src, n in sorted(s.damage.items(), key=lambda kv: -kv[1])[:12]:
                t.append(f"  {n:>3}  {src}\n")
        with VerticalScroll(id="gameover-box"):
            yield Static(t)
            yield Static(self.save_hint, classes="dim")
            yield Static("s: save the record as (type a path, Enter) — in the field every key types; Esc leaves it",
                         classes="dim")
            with Horizontal(classes="save-row"):
                yield Input(placeholder="e.g. my-record.json", id="save-path")
            with Horizontal(classes="buttons"):
                yield Button("Rematch (r)", id="rematch", variant="primary")
                yield Button("New match (n)", id="new")
                yield Button("Review (v)", id="review")
                yield Button("Quit (q)", id="quit")
            yield Static(id="save-msg")
        yield Footer()

    def on_mount(self) -> None:
        # the keys first: the save field takes the focus only on `s` (a hotkey meant for the screen must
        # never become a file name: r typed into it, then Enter, saved a file named "r"); no button has
        # it either, so a late Enter from the last move of the match does nothing here
        self.set_focus(None)
        self.query_one("#gameover-box", VerticalScroll).scroll_home(animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))

    def _typing(self) -> bool:
        return isinstance(self.focused, Input)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # hotkeys never fire while the save field has the focus (its letters are typed into it)
        if action in ("choose", "save") and self._typing():
            return False
        return True

    def action_leave_field(self) -> None:
        if self._typing():
            self.query_one("#rematch", Button).focus()

    def action_choose(self, what: str) -> None:
        if self._typing():
            return
        self.dismiss(what)

    def action_save(self) -> None:
        self.query_one("#save-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from engine.record import WouldReplace, allow_replace

        path = event.value.strip()
        if not path:
            return
        target = Path(path).expanduser()
        if getattr(self, "_confirm", None) == target:        # asked: Enter again on the same file replaces it
            allow_replace(target)
        self._confirm: Path | None = None
        try:
            self.app.save_record_as(target)  # type: ignore[attr-defined]
            self.query_one("#save-msg", Static).update(f"saved to {escape_text(path)}")
        except WouldReplace:
            self._confirm = target
            self.query_one("#save-msg", Static).update(
                f"{escape_text(path)} exists and is not a match record: Enter again to replace it, or type another file")
            return
        except OSError as err:
            self.query_one("#save-msg", Static).update(f"could not save: {escape_text(err.strerror or str(err))}")
            return
        self.query_one("#rematch", Button).focus()


@dataclass
class StartChoice:
    deck_a: str
    deck_b: str
    seed: int
    p1: str
    p2: str
    open_hands: bool
    practice: bool
    flow: str
    opponent: str = "human"      # who plays p2: human, or an AI (c1k_tui/screens/versus.py: ai, ai:1…4, ai:greedy, ai:random)
    cards: tuple[str, ...] = ()  # own card files or folders (the start screen's *own cards*; --cards)


def deck_label(value: str) -> str:
    """A deck list's label: a bundled deck by name, a deck file by its path (the end of a long one)."""
    return value if len(value) <= 24 else "…" + value[-23:]


#: what the start screen's messages add to an unknown card
UNKNOWN_CARD_HINT = "a card of your own: its file or folder goes in 'own cards', or in the deck's [deck] card_files"


class StartScreen(Screen[StartChoice | str]):
    """Pick decks (bundled, or a file path), own cards, seed, names and options.

    *own cards* holds card files or folders (as `--cards`; prefilled from it, and with the card files a chosen
    deck file names). Enter there, or leaving it, loads them: the deck lists then offer the deck files found
    beside them, and a card that doesn't load is a message naming its file. Start checks both decks against
    that pool first — a problem is a message here, and nothing typed is lost. F4 (the Lab) and F5 (the deck
    builder) open over this screen with the same cards and come back to it as it was."""

    # Enter starts from every field, as the screen (and the README) says: a priority binding, so a deck
    # Select doesn't open its list on Enter (↓ or Space opens it) and a checkbox doesn't toggle (Space
    # does). It stands aside on a button (Enter presses it), in an open list (Enter picks) and in a text
    # field (its own Enter starts, through on_input_submitted; in *own cards* it loads them).
    BINDINGS = [Binding("ctrl+s", "start", "start"), Binding("enter", "enter_start", "start", priority=True),
                Binding("f2", "lessons", "lessons"),
                Binding("f3", "resume", "resume"), Binding("f4", "lab", "lab"),
                Binding("f5", "builder", "decks"), Binding("f6", "own_cards", "cards")]

    class CardsChanged(Message):
        """The own cards this screen loaded: from now on this run's own cards (the app's card set)."""

        def __init__(self, paths: list[str]) -> None:
            super().__init__()
            self.paths = paths

    class Open(Message):
        """Open the Lab or the deck builder over this screen (the app pushes it; closing it comes back here):
        with these own cards, deck files and card set, and `then` called with the deck the builder saved."""

        def __init__(self, what: str, cards: list[str], decks: list[str], db: CardDB | None = None,
                     then: Callable[[Path | None], None] | None = None) -> None:
            super().__init__()
            self.what = what
            self.cards = cards
            self.decks = decks
            self.db = db
            self.then = then

    def __init__(self, decks: list[str], default: StartChoice, can_resume: bool, error: str = "",
                 cards: Sequence[str] = ()) -> None:
        super().__init__()
        self.decks = decks
        self.default = default
        self.can_resume = can_resume
        self.error = error
        self.cards = list(cards or default.cards)
        self.found: list[str] = []                   # deck files beside the own cards …
        self.saved: list[str] = []                   # … and saved from the deck builder (F5)
        self.deck_files: list[str] = []              # both: the deck lists after the bundled decks
        self.auto: dict[str, list[str]] = {"a": [], "b": []}   # card files added because that deck names them
        self.loaded: str | None = None               # the own-cards text last loaded
        self.pool: Pool | None = None

    def compose(self) -> ComposeResult:
        d = self.default
        opts = [(n, n) for n in self.decks]
        with VerticalScroll(id="start-box"):
            yield Static(Text("Council of 1000 — new match", style="bold"), id="start-title")
            yield Static("Two players at one terminal. Tab moves between fields; Enter (or ctrl+s) starts; "
                         "↓ or Space opens a list.", classes="dim")
            for side, who, deck in (("a", "p1", d.deck_a), ("b", "p2", d.deck_b)):
                with Horizontal(classes="row"):
                    yield Label(f"{who} deck", classes="lab")
                    yield Select(opts, value=deck if deck in self.decks else Select.NULL, id=f"deck-{side}",
                                 allow_blank=True, prompt="(a file path below)")
                    yield Input(value="" if deck in self.decks else deck, placeholder="or a deck file path",
                                id=f"file-{side}")
            with Horizontal(classes="row"):
                yield Label("own cards", classes="lab")
                yield Input(value=join_paths(self.cards), id="own-cards",
                            placeholder="card files or folders, space between (Enter loads them)")
            yield Static("", id="start-cards")
            yield Static(self.error, id="start-error")
            with Horizontal(classes="row"):
                yield Label("names", classes="lab")
                yield Input(value=d.p1, id="name-a")
                yield Input(value=d.p2, id="name-b")
            with Horizontal(classes="row"):
                yield Label("p2 is", classes="lab")
                yield Select([(label, spec) for label, spec in OPPONENTS], value=d.opponent if d.opponent in
                             {spec for _, spec in OPPONENTS} else "human", id="opponent", allow_blank=False)
            with Horizontal(classes="row"):
                yield Label("seed", classes="lab")
                yield Input(value="", placeholder="random (shown at game over)", id="seed", type="integer")
            with RadioSet(id="start-flow"):
                for m in FLOWS:
                    yield GlyphRadio(FLOW_SHORT[m], value=d.flow == m, id=f"start-flow-{m}")
            yield GlyphCheckbox("open hands (teaching, solo: no hiding, no hand-off screen)",
                                value=d.open_hands, id="open-hands")
            yield GlyphCheckbox("practice mode (a refused action never moves priority)", value=d.practice,
                                id="practice")
            with Horizontal(classes="buttons"):
                yield Button("Start (ctrl+s)", id="start", variant="primary")
                yield Button("Lessons (F2)", id="lessons")
                yield Button("Resume last (F3)", id="resume", disabled=not self.can_resume)
                yield Button("Lab (F4)", id="lab")
                yield Button("Decks (F5)", id="builder")
                yield Button("Quit", id="quit")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#start-cards", Static).display = False
        self.query_one("#start-error", Static).display = False
        if self.error:
            self.show_error(self.error)
        # the first field, so the screen opens at its top (focusing Start scrolled a small terminal down)
        self.query_one("#deck-a", Select).focus()
        self.query_one("#start-box", VerticalScroll).scroll_home(animate=False)
        if self.cards or any(Path(self._deck(s)).is_file() for s in ("a", "b")):
            # own cards (--cards, or a deck file's card_files): loaded once the first frame is painted
            self.call_after_refresh(self._first_load)

    def _first_load(self) -> None:
        for side in ("a", "b"):
            self._deck_cards(side)
        if self.loaded is None:
            self.load_cards()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "enter_start":
            from textual.widgets._select import SelectOverlay

            f = self.focused
            return not isinstance(f, (Button, Input, SelectOverlay))
        return True

    def action_enter_start(self) -> None:
        self.action_start()

    def _deck(self, which: str) -> str:
        path = self.query_one(f"#file-{which}", Input).value.strip()
        if path:
            return path
        sel = self.query_one(f"#deck-{which}", Select).value
        return str(sel) if sel is not Select.NULL and sel is not None else ""

    # ---------------------------------------------------------------- own cards

    def _cards_input(self) -> Input:
        return self.query_one("#own-cards", Input)

    def _deck_cards(self, side: str) -> None:
        """The card files the deck of `side` names join *own cards* (those the side's earlier deck added
        leave it, unless something else put them there)."""
        deck = self._deck(side)
        if not self.auto[side] and not Path(deck).expanduser().is_file():
            return                      # a bundled deck, or a path not typed in full (nothing to load yet)
        from c1k_tui.model.cardset import named_card_files
        from engine import CardFileError

        try:
            named = [str(p) for p in named_card_files(deck)]
        except CardFileError as err:
            self.show_error(str(err))
            named = []
        field = self._cards_input()
        try:
            typed = split_paths(field.value)
        except ValueError:
            return                      # a half-typed quote: the field is the designer's; Enter says why
        if named == self.auto[side]:
            return
        other = set(self.auto["b" if side == "a" else "a"])
        keep = [p for p in typed if p not in self.auto[side] or p in other or p in self.cards]
        self.auto[side] = [p for p in named if p not in keep]
        keep += self.auto[side]
        if keep != typed:
            field.value = join_paths(keep)
            self.load_cards()

    def load_cards(self) -> Pool | None:
        """Load *own cards* (with the card files the chosen decks name): the deck lists offer the deck files
        beside them, and a problem is a message naming the file. None if they don't load."""
        from c1k_tui.model.cardset import load_pool
        from engine import CardFileError

        text = self._cards_input().value
        try:
            paths = split_paths(text)
            pool = load_pool([Path(p).expanduser() for p in paths], [self._deck("a"), self._deck("b")])
        except (ValueError, OSError) as err:          # CardFileError is a ValueError
            self.pool = None
            self.loaded = None
            self.query_one("#start-cards", Static).display = False
            why = "\n".join(err.problems) if isinstance(err, CardFileError) else str(err)
            self.show_error(f"own cards: {why}")
            return None
        self.pool, self.loaded = pool, text
        self.clear_error()
        status = self.query_one("#start-cards", Static)
        status.update(Text(pool.summary()))
        status.display = bool(pool.files)
        self.found = [str(d) for d in pool.decks]
        self._set_deck_files()
        self.post_message(self.CardsChanged(paths))
        return pool

    def _set_deck_files(self) -> None:
        """The deck lists: the bundled decks, then the deck files found and saved (each list keeps its choice
        if it is still offered)."""
        files = [f for f in dict.fromkeys(self.found + self.saved) if f not in self.decks]
        if files == self.deck_files:
            return
        self.deck_files = files
        opts = [(n, n) for n in self.decks] + [(deck_label(f), f) for f in files]
        for side in ("a", "b"):
            sel = self.query_one(f"#deck-{side}", Select)
            value = sel.value
            with sel.prevent(Select.Changed):
                sel.set_options(opts)
                if value in self.decks or value in files:
                    sel.value = value

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id in ("file-a", "file-b"):
            self._deck_cards(event.input.id[-1])

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("deck-a", "deck-b"):
            self._deck_cards(event.select.id[-1])

    def on_input_blurred(self, event: Input.Blurred) -> None:
        if event.input.id == "own-cards" and event.input.value != self.loaded:
            self.load_cards()

    def action_own_cards(self) -> None:
        self._cards_input().focus()

    def _ready_pool(self) -> Pool | None:
        """The pool of *own cards* as typed now (loaded again if the text changed)."""
        if self.pool is not None and self._cards_input().value == self.loaded:
            return self.pool
        return self.load_cards()

    # ---------------------------------------------------------------- starting

    def action_start(self) -> None:
        from c1k_tui.model.cardset import check_decks
        from engine import CardFileError

        a, b = self._deck("a"), self._deck("b")
        if not a or not b:
            self.show_error("pick a deck for each player (or type a file path)")
            return
        pool = self.load_cards()         # with the card files these decks name
        if pool is None:
            return
        try:
            check_decks(pool.db, [a, b])
        except (FileNotFoundError, CardFileError) as err:
            msg = str(err)
            self.show_error(msg + (f"\n({UNKNOWN_CARD_HINT})" if "unknown card" in msg else ""))
            return
        try:
            typed = self.query_one("#seed", Input).value.strip()
            seed = int(typed) % 2**64 if typed else self.default.seed   # the seed stays hidden (rules.md §7)
        except ValueError:
            seed = self.default.seed
        rs = self.query_one("#start-flow", RadioSet)
        flow = FLOWS[rs.pressed_index] if rs.pressed_index >= 0 else "stops"
        self.dismiss(StartChoice(a, b, seed, escape_text(self.query_one("#name-a", Input).value.strip()) or "p1",
                                 escape_text(self.query_one("#name-b", Input).value.strip()) or "p2",
                                 self.query_one("#open-hands", Checkbox).value,
                                 self.query_one("#practice", Checkbox).value, flow,
                                 str(self.query_one("#opponent", Select).value),
                                 tuple(split_paths(self._cards_input().value))))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "own-cards":
            self.load_cards()
            return
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id
        if bid == "start":
            self.action_start()
        elif bid == "lab":
            self.action_lab()
        elif bid == "builder":
            self.action_builder()
        elif bid in ("lessons", "resume", "quit"):
            self.dismiss(str(bid))

    def action_lessons(self) -> None:
        self.dismiss("lessons")

    def action_lab(self) -> None:
        """The Lab, over this screen, with these own cards and their decks; Esc there comes back to this screen
        as it was."""
        if self._ready_pool() is None:
            return
        # the deck files beside the own cards (and saved from F5) join its deck list, not marked
        self.post_message(self.Open("lab", split_paths(self._cards_input().value),
                                    [f for f in self.deck_files if Path(f).is_file()]))

    def action_builder(self) -> None:
        """The deck builder, over this screen, with the same card pool; a deck saved there joins the lists."""
        pool = self._ready_pool()
        if pool is None:
            return
        self.post_message(self.Open("builder", split_paths(self._cards_input().value), [], pool.db, self._built))

    def _built(self, saved: Path | None) -> None:
        if saved is not None:
            self.saved.append(str(saved))
            self._set_deck_files()
            self.show_note(f"✓ {saved} is in the deck lists")

    def action_resume(self) -> None:
        if self.can_resume:
            self.dismiss("resume")

    # ---------------------------------------------------------------- messages

    #: at most this many lines of problems on the screen (`c1k validate` lists them all)
    MAX_LINES = 8

    def show_error(self, msg: str) -> None:
        lines = msg.splitlines()
        if len(lines) > self.MAX_LINES:
            lines = lines[:self.MAX_LINES] + [f"… and {len(lines) - self.MAX_LINES} more (c1k validate lists "
                                               "every problem)"]
        err = self.query_one("#start-error", Static)
        err.update(Text("✗ " + "\n".join(lines), style="bold red"))
        err.display = True
        self.call_after_refresh(lambda: err.scroll_visible(animate=False))

    def show_note(self, msg: str) -> None:
        err = self.query_one("#start-error", Static)
        err.update(Text(msg, style="bold green"))     # not the error colour: the ✓ says it went well
        err.display = True

    def clear_error(self) -> None:
        err = self.query_one("#start-error", Static)
        err.update("")
        err.display = False


@dataclass
class LessonInfo:
    path: Path
    title: str
    rule: str
    goal: str


#: the lessons screen's last entry: a whole match against the AI in the learning flow
VS_AI = "vs-ai"


class LessonsScreen(Screen[LessonInfo | str | None]):
    BINDINGS = [Binding("escape,q", "close", "back")]

    def __init__(self, lessons: list[LessonInfo], done: set[str] | None = None) -> None:
        super().__init__()
        self.lessons = lessons
        self.done = done or set()

    def compose(self) -> ComposeResult:
        yield Static(Text("Lessons — one timing window or rule each. Enter starts one (full control, open hands).",
                          style="bold"), id="lessons-title")
        opts = []
        for i, les in enumerate(self.lessons):
            mark = "✓ " if les.path.name in self.done else "  "
            opts.append(Option(Text.assemble(mark, (f"{i + 1:>2}. {les.title}", "bold"), (f"  {les.rule}", "cyan"),
                                             "\n      ", (les.goal, "dim")), id=str(i)))
        opts.append(Option(Text.assemble(("  ▶ Practice match against the AI", "bold"), ("  learning flow", "cyan"),
                                         "\n      ", ("A whole match (Ironbound against the AI's Emberfall) "
                                                     "with every window shown as it is entered, each with its rule "
                                                     "id; practice mode: a refused action never moves priority.",
                                                     "dim")), id=VS_AI))
        yield OptionList(*opts, id="lesson-list")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == VS_AI:
            self.dismiss(VS_AI)
            return
        self.dismiss(self.lessons[int(event.option.id or 0)])

    def action_close(self) -> None:
        self.dismiss(None)


def log_rows(lines: tuple[str, ...]) -> list[tuple[int, str, str]]:
    """(turn, window, line) for each log line: the "T5 combat.damage" headers give turn and window."""
    turn, window = 0, ""
    out = []
    for line in lines:
        head = line.split(" ", 1)
        if len(head) == 2 and head[0][:1] == "T" and head[0][1:].isdigit() and "." in head[1] and " " not in head[1]:
            turn, window = int(head[0][1:]), head[1]
        out.append((turn, window, line))
    return out


def _turn_range(s: str) -> tuple[int, int] | None:
    """"5" -> (5, 5), "5-7" -> (5, 7); None if `s` is not a turn or a range of turns."""
    a, dash, b = s.partition("-")
    if not a.isdigit() or (dash and not b.isdigit()) or len(s) > 12:
        return None
    return int(a), int(b or a)


def filter_log(lines: tuple[str, ...], query: str, names: tuple[str, str] = ("p1", "p2")) -> tuple[str, ...]:
    """The log lines matching a filter: `t5` or `t5-7` (turns; also `turn 5`, `turn 5-7`), `w:combat`
    (window), `p1` / `p2` (that player's commands and lines naming them), other words searched (all must
    appear, any case)."""
    turns: tuple[int, int] | None = None
    window = ""
    player = -1
    words: list[str] = []
    toks = query.split()
    for i, tok in enumerate(toks):
        low = tok.lower()
        if low in ("turn", "turns", "t") and i + 1 < len(toks) and _turn_range(toks[i + 1]) is not None:
            continue                               # "turn 2": the number that follows is the turn
        if i > 0 and toks[i - 1].lower() in ("turn", "turns", "t") and _turn_range(low) is not None:
            turns = _turn_range(low)
        elif low[:1] == "t" and _turn_range(low[1:]) is not None:
            turns = _turn_range(low[1:])
        elif low.startswith("w:"):
            window = low[2:]
        elif low in ("p1", "p2"):
            player = int(low[1]) - 1
        else:
            words.append(low)
    if turns is None and not window and player < 0 and not words:
        return lines
    out = []
    for turn, win, line in log_rows(lines):
        low = line.lower()
        if turns is not None and not turns[0] <= turn <= turns[1]:
            continue
        if window and window not in win:
            continue
        if player >= 0:
            me = f"p{player + 1}"
            if not (low.startswith(me + ":") or f" {me} " in f" {low} " or names[player].lower() in low):
                continue
        if any(w not in low for w in words):
            continue
        out.append(f"T{turn} {win} │ {line.strip()}" if win and not line.startswith(f"T{turn} ") else line)
    return tuple(out)


class LogScreen(Screen[None]):
    """The whole log, full width: lines wrap; ↑/↓ scroll a line, PgUp/PgDn a page, Home/End; `/` types a
    filter — turns (t5, t5-7), a window (w:combat), a player (p1), words to search."""

    AUTO_FOCUS = ""
    BINDINGS = [Binding("escape,q,L", "close", "back to the table"),
                Binding("slash,f", "filter", "filter / search"),
                Binding("up,k", "scroll(-1)", show=False), Binding("down,j", "scroll(1)", show=False),
                Binding("pageup", "page(-1)", "page up"), Binding("pagedown", "page(1)", "page down"),
                Binding("home", "end(0)", show=False), Binding("end", "end(1)", show=False)]

    def __init__(self, lines: tuple[str, ...], viewer: str, names: tuple[str, str] = ("p1", "p2"),
                 title: str = "LOG") -> None:
        super().__init__()
        self.all_lines = lines
        self.viewer = viewer
        self.names = names
        self.title_text = title

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble((self.title_text, "bold reverse"), f"  as {self.viewer} may read it · ",
                                   ("/", "bold"), " filter: t5 · turn 5-7 · w:combat · p1 · words"), id="log-head")
        yield LogView(id="full-log")
        yield Static(id="log-count", classes="dim")
        yield Input(placeholder="filter (Enter keeps it, Esc leaves the field)", id="log-filter")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#full-log", LogView).lines_ = self.all_lines
        self._count(len(self.all_lines))

    def _count(self, n: int) -> None:
        self.query_one("#log-count", Static).update(f"{n} of {len(self.all_lines)} lines")

    def on_input_changed(self, event: Input.Changed) -> None:
        shown = filter_log(self.all_lines, event.value, self.names)
        self.query_one("#full-log", LogView).lines_ = shown
        self._count(len(shown))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.set_focus(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if isinstance(self.focused, Input) and action != "close":
            return False
        return True

    def action_close(self) -> None:
        if isinstance(self.focused, Input):
            self.set_focus(None)
            return
        self.dismiss(None)

    def action_filter(self) -> None:
        self.query_one("#log-filter", Input).focus()

    def action_scroll(self, d: int) -> None:
        self.query_one("#full-log", LogView).scroll_lines(d)

    def action_page(self, d: int) -> None:
        self.query_one("#full-log", LogView).scroll_page(d)

    def action_end(self, newest: int) -> None:
        self.query_one("#full-log", LogView).follow(bool(newest))
