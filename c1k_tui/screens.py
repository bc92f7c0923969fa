"""The other screens: start, hand-off, game over, help, lessons, and the modal prompts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    Footer,
    Input,
    Label,
    OptionList,
    RadioButton,
    RadioSet,
    Select,
    SelectionList,
    Static,
)
from textual.widgets.option_list import Option

from c1k_tui.paths import FLOW_TEXT, FLOWS

if TYPE_CHECKING:
    from c1k_tui.session import Flow

HELP_TEXT = """[b]Council of 1000 — keys[/b]

[b]Acting[/b]
  space        pass priority
  enter        on a hand card: play it (then pick its slot / targets: ◎ marks what is legal)
               on your unit, relic or Champion: activate its ability
               attackers: toggle the unit · blockers: pick your unit, then the attacker it blocks
  1…9          pick hand card 1…9
  c            confirm the declaration (attack … / block …)
  n            attack none / block none
  a            attackers: toggle all
  i            answer the Interrupt / choice prompt (it also opens by itself)
  esc          cancel the pick in progress
  :  or  /     type a command (formats.md §1); → or Tab completes from the legal commands
               extra words: legal, why, help · concede (asks first)

[b]Looking[/b]
  arrows (hjkl) move the cursor: the rules panel shows the card, "why not?" and its rules
  r            rules ⇄ log tab      g  graveyards (public)
  o            flow options: auto-pass, stops, full control; fixed/turning view
  u            undo the last command (both players agree; only if it revealed nothing hidden)
  ?            this help           ctrl+q  quit (the match is autosaved after every command)

[b]Marks[/b] (never colour alone)
  ▶ cursor · ◎ legal target / slot / may attack / may block · » picked · ✓ attacking (chosen) · ⛨ blocking
  ⚔atk attacking · ⤳dep deploying (can't attack this turn) · z exhausted · ★ active player
  hand: ✓ playable now, ✗ not now · ◆ cost, F/S Fast/Slow

[b]Hot-seat[/b]
  When the player who must decide changes, a hand-off screen hides everything private: pass the
  keyboard and press Enter. The opponent's hand shows only its size. (--open-hands turns this off.)

[b]Undo[/b]
  Undo replays the match record without its last command. It is offered only when that command
  revealed no hidden information: nothing was drawn, played or discarded from a hand or library, and
  nothing random happened (no shuffle, random discard or Flux). Both players must agree.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q,enter", "dismiss", "close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Static(Text.from_markup(HELP_TEXT))
        yield Footer()

    def action_dismiss(self, result: Any = None) -> Any:  # type: ignore[override]
        return self.dismiss(None)


class HandoffScreen(Screen[None]):
    """Opaque: shows only public facts. Enter hands the screen to the next player."""

    AUTO_FOCUS = ""
    BINDINGS = [Binding("enter", "go", "show my screen"), Binding("space", "go", show=False)]

    def __init__(self, name: str, player: str, what: str, rule: str, turn: int, window: str) -> None:
        super().__init__()
        self.player_name = name
        self.lines = (name, player, what, rule, turn, window)

    def compose(self) -> ComposeResult:
        name, player, what, rule, turn, window = self.lines
        with Vertical(id="handoff-box"):
            who = name if name == player else f"{name} ({player})"
            yield Static(Text(f"Pass to {who}", style="bold"), id="handoff-title")
            yield Static(Text.assemble(f"{name} to decide: ", (what, "bold"), f"   ({rule})"))
            yield Static(Text(f"Turn {turn} · {window}", style="dim"))
            yield Static("")
            yield Static(Text.assemble(("press Enter", "bold reverse"), f" when {name} has the keyboard"))
        yield Footer()

    def on_mount(self) -> None:
        self.app.clear_notifications()

    def action_go(self) -> None:
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
            self.app.exit(message=self.error)
        elif self.ready:
            self.dismiss(None)
        else:
            self.wanted = True


class ConfirmModal(ModalScreen[bool]):
    BINDINGS = [Binding("y", "yes", "yes"), Binding("n,escape", "no", "no")]

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
    """A choice of exactly N options (e.g. discard down to hand size): space marks, Enter confirms."""

    BINDINGS = [Binding("enter", "confirm", "confirm"), Binding("escape", "close", "back to the board")]

    def __init__(self, title: str, labels: list[str], count: int, can_decline: bool, rule: str) -> None:
        super().__init__()
        self.title_text, self.labels, self.count, self.can_decline, self.rule = title, labels, count, can_decline, rule

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text.assemble((self.title_text, "bold"), (f"   {self.rule}", "cyan")))
            yield Static(f"Mark exactly {self.count} with space, then Enter."
                         + (" (d declines)" if self.can_decline else ""))
            yield SelectionList[int](*[(f"{i + 1}. {lab}", i + 1) for i, lab in enumerate(self.labels)],
                                     id="multi")
            yield Static(id="multi-msg")
        yield Footer()

    def action_confirm(self) -> None:
        sel = sorted(self.query_one("#multi", SelectionList).selected)
        if len(sel) != self.count:
            self.query_one("#multi-msg", Static).update(f"marked {len(sel)}; mark exactly {self.count}")
            return
        self.dismiss("choose " + " ".join(str(s) for s in sel))

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


class OptionsModal(ModalScreen[OptionsResult | None]):
    """Flow options: the mode (stops / auto-pass / full control), each player's stops, the view."""

    BINDINGS = [Binding("escape", "close", "cancel"), Binding("ctrl+s", "save", "apply")]

    def __init__(self, flow: Flow, names: tuple[str, str], fixed_view: bool, can_fix: bool) -> None:
        super().__init__()
        self.flow = flow
        self.names = names
        self.fixed_view = fixed_view
        self.can_fix = can_fix

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="options-box"):
            yield Static(Text("Flow options (recorded in the match record)", style="bold"))
            yield Static("The app never skips a window: it sends an explicit pass for you, shown '(auto)' in the log.",
                         classes="dim")
            with RadioSet(id="flow-mode"):
                for m in FLOWS:
                    yield RadioButton(FLOW_TEXT[m], value=self.flow.mode == m, id=f"flow-{m}")
            for p, name in (("p1", self.names[0]), ("p2", self.names[1])):
                yield Label(f"Stops of {name} ({p}) — windows where {name} is asked even with nothing of the "
                            "opponent's on the stack (mode 'stops' only):")
                items = []
                for whose in ("own", "opp"):
                    for w in STOP_WINDOWS:
                        key = f"{whose}:{w}"
                        label = f"{'my turn' if whose == 'own' else 'their turn'}: {w}"
                        items.append((label, key, key in self.flow.stops[p]))
                yield SelectionList[str](*items, id=f"stops-{p}")
            yield Checkbox("fixed view: p1 always at the bottom (open hands only)", value=self.fixed_view,
                           id="fixed", disabled=not self.can_fix)
            with Horizontal(classes="buttons"):
                yield Button("Apply (ctrl+s)", id="apply", variant="primary")
                yield Button("Cancel (esc)", id="cancel")
        yield Footer()

    def action_save(self) -> None:
        rs = self.query_one("#flow-mode", RadioSet)
        idx = rs.pressed_index if rs.pressed_index >= 0 else FLOWS.index(self.flow.mode)
        stops = {p: list(self.query_one(f"#stops-{p}", SelectionList).selected) for p in ("p1", "p2")}
        from c1k_tui.session import Flow

        self.dismiss(OptionsResult(Flow(FLOWS[idx], stops), self.query_one("#fixed", Checkbox).value))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "apply":
            self.action_save()
        else:
            self.dismiss(None)

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


class GameOverScreen(Screen[str]):
    """The outcome and a summary; save the record, rematch, new match, review, quit."""

    BINDINGS = [Binding("r", "choose('rematch')", "rematch"), Binding("n", "choose('new')", "new match"),
                Binding("v", "choose('review')", "review (replay)"), Binding("s", "save", "save record"),
                Binding("q", "choose('quit')", "quit")]

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
        t.append(f"turns: {s.turns} · commands: {s.commands}\n")
        for i, name in enumerate(s.players):
            t.append(f"\n{name}: damage dealt {s.damage_by_player[i]} · cards played {len(s.played[i])}\n",
                     style="bold")
            if s.played[i]:
                t.append("  played: " + ", ".join(s.played[i]) + "\n")
        if s.damage:
            t.append("\ndamage by source\n", style="bold")
            for src, n in sorted(s.damage.items(), key=lambda kv: -kv[1])[:12]:
                t.append(f"  {n:>3}  {src}\n")
        with VerticalScroll(id="gameover-box"):
            yield Static(t)
            yield Static(f"The record is autosaved: {self.save_hint}", classes="dim")
            with Horizontal(classes="save-row"):
                yield Input(placeholder="save the record as… (a path), Enter", id="save-path")
            with Horizontal(classes="buttons"):
                yield Button("Rematch (r)", id="rematch", variant="primary")
                yield Button("New match (n)", id="new")
                yield Button("Review (v)", id="review")
                yield Button("Quit (q)", id="quit")
            yield Static(id="save-msg")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))

    def action_choose(self, what: str) -> None:
        self.dismiss(what)

    def action_save(self) -> None:
        self.query_one("#save-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        if not path:
            return
        try:
            self.app.save_record_as(Path(path).expanduser())  # type: ignore[attr-defined]
            self.query_one("#save-msg", Static).update(f"saved to {path}")
        except OSError as err:
            self.query_one("#save-msg", Static).update(f"could not save: {err}")
        self.set_focus(None)


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


class StartScreen(Screen[StartChoice | str]):
    """Pick decks (bundled, or a file path), seed, names and options."""

    BINDINGS = [Binding("ctrl+s", "start", "start"), Binding("f2", "lessons", "lessons"),
                Binding("f3", "resume", "resume last")]

    def __init__(self, decks: list[str], default: StartChoice, can_resume: bool, error: str = "") -> None:
        super().__init__()
        self.decks = decks
        self.default = default
        self.can_resume = can_resume
        self.error = error

    def compose(self) -> ComposeResult:
        d = self.default
        opts = [(n, n) for n in self.decks]
        with VerticalScroll(id="start-box"):
            yield Static(Text("Council of 1000 — new match", style="bold"), id="start-title")
            yield Static("Two players at one terminal. Tab moves between fields; Enter (or ctrl+s) starts.",
                         classes="dim")
            with Horizontal(classes="row"):
                yield Label("p1 deck", classes="lab")
                yield Select(opts, value=d.deck_a if d.deck_a in self.decks else Select.BLANK, id="deck-a",
                             allow_blank=True, prompt="(a file path below)")
                yield Input(value="" if d.deck_a in self.decks else d.deck_a, placeholder="or a deck file path",
                            id="file-a")
            with Horizontal(classes="row"):
                yield Label("p2 deck", classes="lab")
                yield Select(opts, value=d.deck_b if d.deck_b in self.decks else Select.BLANK, id="deck-b",
                             allow_blank=True, prompt="(a file path below)")
                yield Input(value="" if d.deck_b in self.decks else d.deck_b, placeholder="or a deck file path",
                            id="file-b")
            with Horizontal(classes="row"):
                yield Label("names", classes="lab")
                yield Input(value=d.p1, id="name-a")
                yield Input(value=d.p2, id="name-b")
            with Horizontal(classes="row"):
                yield Label("seed", classes="lab")
                yield Input(value="", placeholder="random (shown at game over)", id="seed", type="integer")
            with RadioSet(id="start-flow"):
                for m in FLOWS:
                    yield RadioButton(FLOW_TEXT[m], value=d.flow == m, id=f"start-flow-{m}")
            yield Checkbox("open hands (teaching, solo playtesting: no hiding, no hand-off screen)",
                           value=d.open_hands, id="open-hands")
            yield Checkbox("practice mode (a refused action never moves priority)", value=d.practice, id="practice")
            with Horizontal(classes="buttons"):
                yield Button("Start (ctrl+s)", id="start", variant="primary")
                yield Button("Lessons (F2)", id="lessons")
                yield Button("Resume last (F3)", id="resume", disabled=not self.can_resume)
                yield Button("Quit", id="quit")
            yield Static(self.error, id="start-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    def _deck(self, which: str) -> str:
        path = self.query_one(f"#file-{which}", Input).value.strip()
        if path:
            return path
        sel = self.query_one(f"#deck-{which}", Select).value
        return str(sel) if sel is not Select.BLANK and sel is not None else ""

    def action_start(self) -> None:
        a, b = self._deck("a"), self._deck("b")
        if not a or not b:
            self.query_one("#start-error", Static).update("pick a deck for each player (or type a file path)")
            return
        try:
            typed = self.query_one("#seed", Input).value.strip()
            seed = int(typed) % 2**64 if typed else self.default.seed   # the seed stays hidden (rules.md §7)
        except ValueError:
            seed = self.default.seed
        rs = self.query_one("#start-flow", RadioSet)
        flow = FLOWS[rs.pressed_index] if rs.pressed_index >= 0 else "stops"
        self.dismiss(StartChoice(a, b, seed, self.query_one("#name-a", Input).value.strip() or "p1",
                                 self.query_one("#name-b", Input).value.strip() or "p2",
                                 self.query_one("#open-hands", Checkbox).value,
                                 self.query_one("#practice", Checkbox).value, flow))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id
        if bid == "start":
            self.action_start()
        elif bid in ("lessons", "resume", "quit"):
            self.dismiss(str(bid))

    def action_lessons(self) -> None:
        self.dismiss("lessons")

    def action_resume(self) -> None:
        if self.can_resume:
            self.dismiss("resume")

    def show_error(self, msg: str) -> None:
        self.query_one("#start-error", Static).update(Text(msg, style="bold red"))


@dataclass
class LessonInfo:
    path: Path
    title: str
    rule: str
    goal: str


class LessonsScreen(Screen[LessonInfo | None]):
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
        yield OptionList(*opts, id="lesson-list")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.lessons[int(event.option.id or 0)])

    def action_close(self) -> None:
        self.dismiss(None)
