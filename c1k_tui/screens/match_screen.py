"""The match screen: both boards, Champions, the deciding player's hand, the stack, the timing window,
the rules panel and the log — and the keyboard/mouse grammar that turns picks into commands.

The screen never talks to the engine. It renders the `MatchView` the app gives it, keeps the state of a
pick in progress (a card and its targets, toggled attackers, blocker pairs), and posts `SendCommand(text)` with
a docs/formats.md §1 command — the same text the log shows — for the app to send.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.suggester import Suggester
from textual.widgets import Input, Static, TabbedContent, TabPane
from textual.widgets._tabbed_content import ContentTabs

from c1k_tui.model import rulesdoc
from c1k_tui.model.completion import VERBS, History, completions, visible_names
from c1k_tui.model.view import HandCard, MatchView, SideView, UnitView
from c1k_tui.screens import messages
from c1k_tui.screens.controls import KeysFooter
from c1k_tui.screens.widgets import (
    BoardRow,
    ChipsRow,
    CommandLine,
    HandGrid,
    LogView,
    PhaseBar,
    RulesPanel,
    SpotClicked,
    StackView,
    TitleBar,
    WindowLine,
)
from engine import MAX_COMMAND_CHARS, Action, Activate, Interrupt, Play, SetCard

if TYPE_CHECKING:
    from c1k_tui.model.flow import LessonCheck

Spot = tuple[Any, ...]


@dataclass
class Pick:
    """A play or activation being put together: the candidate legal actions, what is chosen so far."""

    kind: str                      # play | activate
    source: int
    cands: list[Action]
    slot: int | None = None        # 0-based, units/relics
    targets: tuple[int, ...] = ()
    needs_slot: bool = False

    def step(self) -> str:
        if self.needs_slot and self.slot is None:
            return "slot"
        n = len(self.targets)
        if any(len(_targets(a)) > n for a in self.cands if _targets(a)[:n] == self.targets):
            return "target"
        return "done"

    def next_targets(self) -> set[int]:
        n = len(self.targets)
        return {_targets(a)[n] for a in self.cands if len(_targets(a)) > n and _targets(a)[:n] == self.targets}

    def command(self) -> str:
        if self.kind == "play":
            a = next(a for a in self.cands if isinstance(a, Play) and a.targets == self.targets)
            s = f"play #{a.card}"
            if self.slot is not None:
                s += f" slot {self.slot + 1}"
            s += "".join(f" target #{t}" for t in a.targets)
            if a.mode is not None:
                s += f" mode {a.mode}"
            return s
        return str(next(x for x in self.cands if _targets(x) == self.targets))


def _targets(a: Action) -> tuple[int, ...]:
    return a.targets if isinstance(a, (Play, Activate, Interrupt)) else ()


class LegalSuggester(Suggester):
    """Completes the command line from the deciding player's legal commands, the command verbs and the
    names of the cards the typist may see (c1k_tui/model/completion.py): the grey suggestion is what Tab
    gives first."""

    VERBS = VERBS

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.commands: tuple[str, ...] = ()
        self.names: tuple[str, ...] = ()       # cards the typist may see (rules.md §7a)

    def candidates(self, value: str) -> list[str]:
        return completions(value, self.commands, self.names)

    async def get_suggestion(self, value: str) -> str | None:
        if len(value) > MAX_COMMAND_CHARS:      # (a long line costs nothing per key: #23)
            return None
        for c in self.candidates(value):
            if c.lower().startswith(value.lower()):
                return value + c[len(value):]
        return None


class MatchScreen(Screen[None]):
    """The match: rendered from `view`; picks become `Send` messages."""

    AUTO_FOCUS = ""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (112, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]

    BINDINGS = [
        Binding("space", "pass", "pass"),
        Binding("p", "pass_until", "pass until…"),
        Binding("enter", "select", "select"),
        Binding("escape", "cancel", "cancel", show=False),
        Binding("c", "confirm", "confirm"),
        Binding("n", "none", "none", show=False),
        Binding("a", "attack_all", "all attack", show=False),
        Binding("i", "interrupt", "answer: Enter or i"),      # shown only while a question waits
        Binding("s", "set_card", "Set (Veil)", show=False),
        Binding("colon", "command", "command", show=False),    # (the command line says "press : to type")
        Binding("slash", "command", "command", show=False),
        Binding("u", "app.undo", "undo"),
        Binding("r", "rules", "rules"),
        Binding("R", "rule_book", "rule book", show=False),   # the rule browser, at the rule on screen
        Binding("o", "app.options", "options", show=False),
        Binding("g", "app.graveyards", "graveyards", show=False),
        Binding("L", "app.full_log", "log", show=True),
        Binding("w", "recap_full", "what happened", show=False),   # the recap, full screen
        Binding("question_mark", "app.help", "help"),
        Binding("pageup", "scroll_rules(-1)", show=False),
        Binding("pagedown", "scroll_rules(1)", show=False),
        Binding("up", "move(0,-1)", "up", show=False),
        Binding("down", "move(0,1)", "down", show=False),
        Binding("left", "move(-1,0)", "left", show=False),
        Binding("right", "move(1,0)", "right", show=False),
        Binding("k", "move(0,-1)", show=False),
        Binding("j", "move(0,1)", show=False),
        Binding("h", "move(-1,0)", show=False),
        Binding("l", "move(1,0)", show=False),
        *[Binding(str(d), f"hand({d - 1})", show=False) for d in range(1, 10)],
        Binding("0", "hand(9)", show=False),          # the 10th hand card (widgets.hand_key)
    ]

    # `var`: setting these calls their watchers but never repaints the whole screen
    view: var[MatchView | None] = var(None, always_update=True)
    status: var[str] = var("")
    goal: var[str] = var("")

    class Refused(Message):
        """The screen refused a pick before sending (it would be illegal): reason and rule shown."""

    def __init__(self, title_extra: str = "", lesson: bool = False, **kw: Any) -> None:
        super().__init__(**kw)
        self.title_extra = title_extra
        self.lesson = lesson            # a lesson: its own tab (c1k_tui/screens/lesson_pane.py), shown first
        self.quick_play = False         # the keyboard holder's option: 1…9 play at once (set by the App)
        self.cursor: Spot | None = None
        self.pick: Pick | None = None
        self.attack_sel: list[int] = []
        self.block_pairs: dict[int, int] = {}
        self.block_pick: int | None = None
        self.refusal_rule = ""
        self.suggester = LegalSuggester()
        self.histories: dict[int, History] = {}     # ↑/↓: each player's own earlier commands
        self._decision_key: tuple[Any, ...] = ()
        self.recap_text = Text()

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        yield PhaseBar(id="phases")
        yield WindowLine(id="window")
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield BoardRow(1, id="top-units", classes="board")
                yield ChipsRow(1, id="top-line", classes="chips")
                yield ChipsRow(0, id="bottom-line", classes="chips")
                yield BoardRow(0, id="bottom-units", classes="board")
                yield Static(id="hand-label")
                yield HandGrid(id="hand")
                yield Static(id="other-hand")
            with Vertical(id="side"):
                yield StackView(id="stack")
                with TabbedContent(id="tabs", initial="tab-lesson" if self.lesson else "tab-rules"):
                    if self.lesson:
                        from c1k_tui.screens.lesson_pane import LessonPane

                        with TabPane("Lesson", id="tab-lesson"):
                            yield LessonPane(id="lesson-pane")
                    with TabPane("Rules", id="tab-rules"):
                        yield RulesPanel(id="card-info")
                        yield RulesPanel(id="rules")
                    with TabPane("Log", id="tab-log"):
                        yield LogView(id="log")
                    with TabPane("Recap", id="tab-recap"):
                        yield RulesPanel(id="recap")
        yield LogView(id="logstrip")
        yield Static(id="status")
        yield CommandLine(placeholder="type a command (pass · play #12 target #21 · attack #5 · …) — press : to type",
                          id="command", suggester=self.suggester, max_length=MAX_COMMAND_CHARS)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#title", TitleBar).extra = self.title_extra
        for w in self.query(ContentTabs):
            w.can_focus = False   # the arrow keys move the board cursor; r switches the tab, PgUp/PgDn scroll
        self.query_one("#recap", RulesPanel).more_hint = " · w: all"
        self._mark_tabs()
        self.set_focus(None)

    def on_screen_resume(self) -> None:
        if not isinstance(self.focused, CommandLine):
            self.set_focus(None)
        self._apply_marks()

    # ---------------------------------------------------------------- rendering

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers what answers the decision on screen: no pass while a question (an Interrupt,
        a choice) waits — only its prompt answers it, and `i` (or Enter) reopens it, shown only then — nor
        while the other player decides; `c confirm` where it confirms something."""
        v = self.view
        asked = v is not None and v.window.decider == v.viewer and v.window.decision in ("interrupt", "choice")
        deciding = v is None or v.window.decider == v.viewer
        if action == "pass":                  # (at a declaration Space says what answers it instead)
            return deciding and not asked
        if action == "pass_until":            # chosen only where one may pass; not while a pick goes on (its
            # "c confirm" takes the room, and the 80×24 footer keeps "quit")
            return v is None or (deciding and v.window.decision == "priority" and self.pick is None)
        if action == "interrupt":
            return asked
        if action == "confirm":         # declarations, questions and a pick in progress: the footer's room
            return v is None or self.pick is not None or (
                v.window.decider == v.viewer and v.window.decision in ("attackers", "blockers", "interrupt", "choice"))
        return True

    def watch_view(self, view: MatchView | None) -> None:
        if view is None:
            return
        self.refresh_bindings()
        key = (view.commands, view.window.decision, view.window.decider, view.window.index)
        if key != self._decision_key:
            self._decision_key = key
            self.pick = None
            self.block_pick = None
            self.attack_sel = []
            self.block_pairs = {}
            self._place_cursor(view)
        w = view.window
        if not self.query("#title"):      # torn down (a late timer as the app exits): nothing to draw on
            return
        self.query_one("#title", TitleBar).window = w
        self.query_one("#phases", PhaseBar).window = w
        self.query_one("#window", WindowLine).window = w
        for pos, side in (("top", view.top), ("bottom", view.bottom)):
            self._render_side(pos, side)
        self._render_hand(view)
        st = self.query_one("#stack", StackView)
        st.items = view.stack
        st.resolve_hint = view.stack_hint
        self._fit_stack()
        self.query_one("#log", LogView).lines_ = view.log
        self.query_one("#logstrip", LogView).lines_ = view.log[-60:]
        self.suggester.commands = tuple(str(a) for a in view.legal)
        self.suggester.names = visible_names(view.hand + (view.top_hand or ()), (view.bottom, view.top))
        self._clamp_cursor()
        self._apply_marks()
        self._render_rules()

    def _fit_stack(self) -> None:
        """At 80 columns an empty stack is hidden: the tabs (the recap above all) get the whole width."""
        st = self.query_one("#stack", StackView)
        show = not self.has_class("-narrow") or bool(self.view is not None and self.view.stack)
        if st.display != show:
            st.display = show

    def on_resize(self, event: Any) -> None:
        self.call_after_refresh(self._fit_stack)      # the -narrow class follows the new size

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._mark_tabs()

    def _mark_tabs(self) -> None:
        """The active tab is marked by a glyph (▸), not by colour or the underline alone."""
        tabs = self.query_one("#tabs", TabbedContent)
        panes = (("tab-lesson", "Lesson"),) if self.lesson else ()
        for pane, label in (*panes, ("tab-rules", "Rules"), ("tab-log", "Log"), ("tab-recap", "Recap")):
            tab = tabs.get_tab(pane)
            want = ("▸" if tabs.active == pane else " ") + label
            if str(tab.label) != want:
                tab.label = want

    def _render_side(self, pos: str, side: SideView) -> None:
        board = self.query_one(f"#{pos}-units", BoardRow)
        board.player = side.player
        board.units = side.units
        chips = self.query_one(f"#{pos}-line", ChipsRow)
        chips.player = side.player
        chips.side = side

    def _render_hand(self, view: MatchView) -> None:
        self.query_one("#hand", HandGrid).cards = view.hand
        # at 80×24 three rows hold nine cards in columns wide enough to read; a tenth gets a fourth row
        # (from the side panel) rather than a fourth column of cut names (app.tcss)
        self.set_class(len(view.hand) > 9, "-bighand")
        self._fit_status_row()
        me = view.bottom if view.bottom.player == view.viewer else view.top
        deciding = " (deciding)" if view.window.decider == view.viewer else ""
        label = Text.assemble((f"HAND — {me.name}{deciding}", "bold"),
                              ("  ✓ playable now · ✗ not now (Enter on it says why)", "dim"))
        if not view.hand:
            label.append("  (empty)", style="dim")
        self.query_one("#hand-label", Static).update(label, layout=False)
        other = self.query_one("#other-hand", Static)
        if view.top_hand is not None:
            o = view.top if view.top.player != view.viewer else view.bottom
            other.update(Text.assemble((f"{o.name}'s hand (open): ", "bold"),
                                       " · ".join(f"#{c.cid} {c.name} ◆{c.cost}" for c in view.top_hand)
                                       or "(empty)"), layout=False)
            if not other.display:
                other.display = True
        elif other.display:
            other.display = False

    def watch_status(self, status: str) -> None:
        """The message row: a refusal or a typing mistake too long for one row gets a second, so its rule
        id is never cut (80 columns). Other messages (a pick's instructions) keep one row: a change in the
        number of rows lays the whole screen out again, too slow for every pick and cancel (bench/tui_bench.py)."""
        w = self.query_one("#status", Static)
        text = Text.from_markup(status) if status else Text("")
        width = max(20, w.content_region.width or self.size.width - 2)
        refusal = "✗" in status or status.startswith("[b]??")
        rows = 2 if refusal and text.cell_len > width else 1
        if rows == 2:
            text = fit_rows(text, width, 2)
        if w.styles.height is None or w.styles.height.value != rows:
            w.styles.height = rows
            self._fit_status_row()
        w.update(text, layout=False)

    def _fit_status_row(self) -> None:
        """At 80×24 a second status row comes from the side panel when the hand's third row holds cards (5 or
        more in its three rows), else from that empty row (the side panel keeps the lesson's hint) (app.tcss)."""
        status = self.query_one("#status", Static).styles.height
        two = status is not None and status.value == 2
        self.set_class(two and self.view is not None and len(self.view.hand) > 4, "-status2")

    def watch_goal(self, goal: str) -> None:
        self._render_rules()

    # ---------------------------------------------------------------- spots and marks

    def rows(self) -> list[list[Spot]]:
        v = self.view
        if v is None:
            return []
        top, bot = v.top.player, v.bottom.player
        rows: list[list[Spot]] = [
            [("unit", top, i) for i in range(len(v.top.units))],
            [("champ", top)] + [("relic", top, i) for i in range(len(v.top.relics))],
            [("champ", bot)] + [("relic", bot, i) for i in range(len(v.bottom.relics))],
            [("unit", bot, i) for i in range(len(v.bottom.units))],
            [("hand", i) for i in range(len(v.hand))],
        ]
        return [r for r in rows if r]

    def side_of(self, p: int) -> SideView:
        assert self.view is not None
        return self.view.bottom if self.view.bottom.player == p else self.view.top

    def unit_at(self, spot: Spot) -> UnitView | None:
        if spot[0] == "unit":
            return self.side_of(spot[1]).units[spot[2]]
        if spot[0] == "relic":
            return self.side_of(spot[1]).relics[spot[2]]
        return None

    def card_at(self, spot: Spot | None) -> int:
        """The card id at a spot (0 for an empty slot)."""
        if spot is None or self.view is None:
            return 0
        if spot[0] == "hand":
            return self.view.hand[spot[1]].cid if spot[1] < len(self.view.hand) else 0
        if spot[0] == "champ":
            return self.side_of(spot[1]).champion
        u = self.unit_at(spot)
        return u.cid if u else 0

    def spot_of(self, cid: int) -> Spot | None:
        for row in self.rows():
            for s in row:
                if self.card_at(s) == cid:
                    return s
        return None

    def marks_for(self, spot: Spot) -> frozenset[str]:
        v = self.view
        if v is None:
            return frozenset()
        m: set[str] = set()
        if spot == self.cursor:
            m.add("cursor")
        cid = self.card_at(spot)
        w = v.window
        pk = self.pick
        if pk is not None:
            if spot[0] == "hand" and cid == pk.source:
                m.add("picked")
            if pk.step() == "slot" and spot[0] in ("unit", "relic") and spot[1] == v.viewer and cid == 0:
                want = "relic" if self._card_type(pk.source) == "relic" else "unit"
                if spot[0] == want:
                    m.add("legal")
            elif pk.step() == "target" and cid and cid in pk.next_targets():
                m.add("legal")
            if spot[0] != "hand" and cid == pk.source:
                m.add("picked")
        elif w.decision == "attackers" and w.decider == v.viewer and cid:
            if cid in self.attack_sel:
                m.add("toggled")
            elif cid in w.eligible:
                m.add("legal")
        elif w.decision == "blockers" and w.decider == v.viewer and cid:
            if cid in self.block_pairs:
                m.add("paired")
            elif self.block_pick is not None:
                if cid == self.block_pick:
                    m.add("picked")
                elif (self.block_pick, cid) in v.block_ok and cid not in self.block_pairs.values():
                    m.add("legal")
            elif cid in w.eligible:
                m.add("legal")
        return frozenset(m)

    def _apply_marks(self) -> None:
        v = self.view
        if v is None:
            return
        for pos, side in (("top", v.top), ("bottom", v.bottom)):
            p = side.player
            self.query_one(f"#{pos}-units", BoardRow).marks = tuple(
                self.marks_for(("unit", p, i)) for i in range(len(side.units)))
            self.query_one(f"#{pos}-line", ChipsRow).marks = (self.marks_for(("champ", p)),) + tuple(
                self.marks_for(("relic", p, i)) for i in range(len(side.relics)))
        self.query_one("#hand", HandGrid).marks = tuple(self.marks_for(("hand", i)) for i in range(len(v.hand)))

    def _card_type(self, cid: int) -> str:
        assert self.view is not None
        for c in self.view.hand:
            if c.cid == cid:
                return c.type
        return ""

    def _place_cursor(self, view: MatchView) -> None:
        w = view.window
        self.cursor = None
        if w.decider != view.viewer:
            return
        if w.decision in ("attackers", "blockers") and w.eligible:
            self.cursor = None
            for p in (view.bottom, view.top):
                for i, u in enumerate(p.units):
                    if u is not None and u.cid in w.eligible and self.cursor is None:
                        self.cursor = ("unit", p.player, i)
            return
        playable = [i for i, c in enumerate(view.hand) if c.playable]
        if playable:
            self.cursor = ("hand", playable[0])
        elif view.hand:
            self.cursor = ("hand", 0)

    def _clamp_cursor(self) -> None:
        rows = self.rows()
        if self.cursor is None or not rows:
            return
        if not any(self.cursor in r for r in rows):
            if self.cursor[0] == "hand" and rows[-1] and rows[-1][0][0] == "hand":
                self.cursor = rows[-1][min(self.cursor[1], len(rows[-1]) - 1)]
            else:
                self.cursor = None

    # ---------------------------------------------------------------- the rules panel

    def _render_rules(self) -> None:
        v = self.view
        if v is None:
            return
        # the card under the cursor (and "why not?") — small, repainted on every cursor move
        info = Text()
        cid = self.card_at(self.cursor)
        if self.cursor is not None and cid:
            info.append_text(self._card_info(cid))
        elif self.cursor is not None and self.cursor[0] in ("unit", "relic"):
            info.append(f"empty {self.cursor[0]} slot {self.cursor[2] + 1}", style="dim")
        else:
            info.append("move the cursor onto a card: what it does, and why not?", style="dim")
        card = self.query_one("#card-info", RulesPanel)
        if card.text != info:
            card.update(info)
        # the rule: the current window's (or the refused action's) — repainted only when it changes
        t = Text()
        if self.goal and not self.lesson:     # a lesson has its own pane (lesson_pane.py)
            t.append("GOAL  ", style="bold reverse")
            t.append(self.goal + "\n\n")
        rid = self.refusal_rule or v.window.rule
        sid, title, body = rulesdoc.section(rid)
        t.append(f"RULE {sid}", style="bold reverse")
        t.append(f"  {title}\n", style="bold")
        t.append(_plain(body))
        rules = self.query_one("#rules", RulesPanel)
        if rules.text != t:
            rules.update(t)

    def _card_info(self, cid: int) -> Text:
        v = self.view
        assert v is not None
        t = Text()
        hc: HandCard | None = next((c for c in v.hand if c.cid == cid), None)
        u = None
        for side in (v.bottom, v.top):
            for x in side.units + side.relics:
                if x is not None and x.cid == cid:
                    u = x
        champ = next((s for s in (v.bottom, v.top) if s.champion == cid), None)
        if hc is not None:
            kind = f"{hc.type}, ◆{hc.cost}, {hc.speed.capitalize()}"
            if hc.type == "unit":
                kind += f", {hc.power}/{hc.health}"
            t.append(f"#{cid} {hc.name}", style="bold")
            t.append(f" — {kind}\n")
            t.append(hc.text + "\n", style="italic")
            kws = hc.keywords
        elif u is not None:
            t.append(f"#{cid} {u.name}", style="bold")
            if u.type == "unit":
                t.append(f" — unit {u.power}/{u.health} (max {u.max_health}, damage {u.damage})\n")
            else:
                t.append(f" — {u.type}\n")
            t.append(u.text + "\n", style="italic")
            flags = [f for f, on in (("exhausted", u.exhausted), ("deploying: can't attack this turn (KW Charge)",
                                                                    u.deploying), ("attacking", u.attacking))
                     if on]
            flags += [s for s in u.statuses]
            if flags:
                t.append("state: " + ", ".join(flags) + "\n")
            kws = u.keywords
        elif champ is not None:
            t.append(f"#{cid} {champ.champion_name}", style="bold")
            t.append(f" — Champion of {champ.name}, life {champ.life}\n")
            t.append(champ.champion_text + "\n", style="italic")
            t.append(f"Seat: {champ.seat_name} — {champ.seat_text}\n", style="dim")
            kws = ()
        else:
            return t
        if kws:
            t.append("keywords: " + ", ".join(f"{k} ({rulesdoc.keyword_rule(k)})" for k in kws), style="dim")
            t.append("  R: their rules\n", style="dim bold")
        why = Text()
        for sub, what, legal, rule, reason in v.explain:
            if sub != cid:
                continue
            if legal:
                why.append(f"✓ {what}: legal now\n", style="green")
            else:
                why.append("✗ why not? ", style="yellow")
                why.append(f"{rule}", style="bold yellow")
                why.append(f" — {what}: {reason}\n", style="yellow")
        # the answer to "can I do this now?" comes right after the card's name line
        head, _, rest = t.plain.partition("\n")
        out = t[: len(head) + 1]
        out.append_text(why)
        out.append_text(t[len(head) + 1:])
        return out

    # ---------------------------------------------------------------- actions (keys)

    def _deciding(self) -> bool:
        v = self.view
        return v is not None and v.window.decider == v.viewer and v.window.outcome is None

    def _send(self, command: str) -> None:
        self.pick = None
        self.block_pick = None
        self.refusal_rule = ""
        self.post_message(messages.SendCommand(command))

    def _say(self, msg: str, rule: str = "") -> None:
        self.status = msg
        if rule:
            self.refusal_rule = rule
        self._render_rules()

    def action_move(self, dx: int, dy: int) -> None:
        rows = self.rows()
        if not rows:
            return
        choosable = self.legal_spots()
        if choosable:
            # choosing a slot, a target or an attacker to block: the arrows visit only what may be
            # chosen (slots and cards that can't be are skipped)
            i = choosable.index(self.cursor) if self.cursor in choosable else -1
            self.cursor = choosable[(i + (dx or dy)) % len(choosable)]
            self._apply_marks()
            self._render_rules()
            return
        if self.cursor is None:
            self.cursor = rows[-1][0]
        else:
            ri = next((i for i, r in enumerate(rows) if self.cursor in r), len(rows) - 1)
            ci = rows[ri].index(self.cursor) if self.cursor in rows[ri] else 0
            if dy:
                ri = max(0, min(len(rows) - 1, ri + dy))
                ci = min(ci, len(rows[ri]) - 1)
            else:
                ci = (ci + dx) % len(rows[ri])
            self.cursor = rows[ri][ci]
        self.refusal_rule = ""
        self._apply_marks()
        self._render_rules()

    def action_hand(self, i: int) -> None:
        """1…9 and 0 (the 10th) select a hand card (Enter plays it); with "quick play" on, they play at once."""
        v = self.view
        if v is None or i >= len(v.hand):
            return
        self.cursor = ("hand", i)
        self.refusal_rule = ""
        self._apply_marks()
        if self.quick_play:
            self.action_select()
            return
        c = v.hand[i]
        if not self._deciding():
            self.status = ""
        elif c.playable:
            self.status = f"[b]{i + 1}[/b] · {c.name} ◆{c.cost} — [b]Enter[/b] plays it · Esc cancels"
        else:
            why = self._why(c.cid, "play")
            self.status = (f"[b]{i + 1}[/b] · {c.name}: ✗ not now"
                           + (f" — {why[0]} ([b]{why[1]}[/b])" if why else ""))
        self._render_rules()

    def on_spot_clicked(self, event: SpotClicked) -> None:
        self.cursor = event.spot
        self._apply_marks()
        self.action_select()

    def action_cancel(self) -> None:
        cmd = self.query_one("#command", CommandLine)
        if cmd.has_focus:
            cmd.value = ""
            self.set_focus(None)
            return
        self.pick = None
        self.block_pick = None
        self.status = ""
        self.refusal_rule = ""
        self.refresh_bindings()
        self._apply_marks()
        self._render_rules()

    def action_pass(self) -> None:
        v = self.view
        if not self._deciding() or v is None:
            return
        if v.window.decision != "priority":
            keys = {"attackers": self._attack_status, "blockers": self._block_status}.get(v.window.decision)
            how = keys() if keys else v.window.allowed          # a declaration: the keys that answer it
            self._say(f"[b]✗ pass[/b] is not an answer here — {how} ({v.window.rule})", v.window.rule)
            return
        self._send("pass")

    def action_pass_until(self) -> None:
        """"Pass until…" (model/yields.py): a small chooser — the end of this combat, of this turn, or until
        something happens to me. The choice is sent as `pass until <kind>`, like a typed command."""
        v = self.view
        if not self._deciding() or v is None:
            return
        if v.window.decision != "priority":
            self._say(f"[b]✗ pass until…[/b] is chosen where you may pass: {v.window.allowed} ({v.window.rule})",
                      v.window.rule)
            return
        from c1k_tui.model.yields import until_options
        from c1k_tui.screens.prompt_modal import PromptModal

        body = ("You pass now, and the table passes for you until then: no hand-off for a pass. It ends at your "
                "next turn at the latest; your own Main Phase always stops. The other player is told.")

        def chosen(command: str | None) -> None:
            if command:
                self._send(command)

        self.app.push_screen(PromptModal("Pass until…", body, until_options(v.window.window)), chosen)

    def action_set_card(self) -> None:
        """Veil: Set the hand card under the cursor face down (KW Set)."""
        v = self.view
        if v is None or self.cursor is None or not self._deciding():
            return
        spot = self.cursor
        if spot[0] != "hand" or spot[1] >= len(v.hand):
            self._say("Set: put the cursor on a card in your hand with Ambush, then press s")
            return
        card = v.hand[spot[1]]
        if any(isinstance(a, SetCard) and a.card == card.cid for a in v.legal):
            self._send(f"set #{card.cid}")
            return
        self._say(f"[b]✗ Set {card.name}[/b]: only a Veil card with Ambush, in your own main.priority on an "
                  "empty stack, for 1 Influence ([b]KW Set[/b]) — not sent", "KW Set")

    def action_select(self) -> None:
        v = self.view
        if v is not None and self._deciding() and v.window.decision in ("interrupt", "choice"):
            self.post_message(messages.AskPrompt())     # Enter reopens a question's prompt, wherever the cursor
            return
        if v is None or self.cursor is None:
            return
        if not self._deciding():
            self._render_rules()
            return
        spot = self.cursor
        cid = self.card_at(spot)
        kind = v.window.decision
        if self.pick is not None:
            self._continue_pick(spot, cid)
            return
        if kind == "attackers":
            self._toggle_attacker(cid)
        elif kind == "blockers":
            self._block_select(cid)
        elif kind == "priority":
            if spot[0] == "hand":
                if spot[1] < len(v.hand):
                    self._start_play(v.hand[spot[1]])
            elif cid and spot[0] in ("unit", "relic", "champ") and spot[1] == v.viewer:
                self._start_activate(cid)
            else:
                self._render_rules()
        elif kind in ("interrupt", "choice"):
            self.post_message(messages.AskPrompt())

    def _why(self, cid: int, prefix: str) -> tuple[str, str] | None:
        assert self.view is not None
        for sub, what, legal, rule, reason in self.view.explain:
            if sub == cid and what.startswith(prefix) and not legal:
                return reason, rule
        return None

    def _start_play(self, card: HandCard) -> None:
        v = self.view
        assert v is not None
        cands = [a for a in v.legal if isinstance(a, Play) and a.card == card.cid]
        if not cands:
            if self.lesson:             # a lesson sends what the engine refuses: the refusal is the lesson
                self._send(f"play #{card.cid}")
                return
            why = self._why(card.cid, "play")
            reason, rule = why or ("it can't be played now", v.window.rule)
            self._say(f"[b]✗ {card.name}[/b]: {reason} ([b]{rule}[/b]) — not sent", rule)
            return
        modes = sorted({a.mode for a in cands if a.mode is not None})
        if len(modes) > 1:
            self.post_message(messages.PickMode(card, modes, list(cands)))
            return
        self.begin_pick(Pick("play", card.cid, list(cands), needs_slot=card.type in ("unit", "relic")))

    def begin_pick(self, pick: Pick) -> None:
        self.pick = pick
        self.refresh_bindings()                # `c confirm` joins the footer while a pick is open
        self._advance_pick()

    def _start_activate(self, cid: int) -> None:
        v = self.view
        assert v is not None
        cands = [a for a in v.legal if isinstance(a, Activate) and a.source == cid]
        if not cands:
            why = self._why(cid, "activate")
            if why is None:
                self._render_rules()
                self._say("nothing to activate here: Enter on a card in your hand plays it")
                return
            self._say(f"[b]✗ activate #{cid}[/b]: {why[0]} ([b]{why[1]}[/b]) — not sent", why[1])
            return
        ns = sorted({a.n for a in cands if isinstance(a, Activate)})
        if len(ns) > 1:
            self.post_message(messages.PickAbility(cid, ns, list(cands)))
            return
        self.begin_pick(Pick("activate", cid, list(cands)))

    def _advance_pick(self) -> None:
        pk = self.pick
        if pk is None:
            return
        step = pk.step()
        if step == "done":
            self._send(pk.command())
            return
        if step == "slot":
            want = "relic" if self._card_type(pk.source) == "relic" else "unit"
            empty = [s for r in self.rows() for s in r if s[0] == want and s[1] == self.view.viewer  # type: ignore[union-attr]
                     and self.card_at(s) == 0]
            if empty:
                self.cursor = empty[0]
            self.status = f"choose a {want} slot for #{pk.source} (◎ marks empty slots) — Enter · Esc cancels"
        else:
            targets = pk.next_targets()
            spots = self.target_order(pk)
            if spots and (self.cursor not in spots or not pk.targets):
                self.cursor = spots[0]
            self.status = (f"choose a target for #{pk.source} (◎ marks legal targets: "
                           f"{', '.join(f'#{t}' for t in sorted(targets))}) — Enter · Esc cancels")
        self._apply_marks()
        self._render_rules()

    def target_order(self, pk: Pick) -> list[Spot]:
        """The legal targets' spots in the order the cursor visits them: for harm the opponent's first,
        for help (heal, a buff, a granted status: `MatchView.helpful`) the player's own; each side in
        board order."""
        v = self.view
        assert v is not None
        targets = pk.next_targets()
        helps = any(a in v.helpful for a in pk.cands if _targets(a)[:len(pk.targets)] == pk.targets)
        first = v.viewer if helps else 1 - v.viewer
        board = [s for r in self.rows() for s in r if s[0] != "hand" and self.card_at(s) in targets]
        return ([s for s in board if s[1] == first] + [s for s in board if s[1] != first])

    def legal_spots(self) -> list[Spot]:
        """While something is being chosen (a slot, a target, the attacker a blocker blocks): the spots
        that may be chosen, in the order the arrows visit them. Empty when nothing is being chosen."""
        v = self.view
        if v is None:
            return []
        pk = self.pick
        if pk is not None and pk.step() == "target":
            return self.target_order(pk)
        if (pk is not None and pk.step() == "slot") or (
                v.window.decider == v.viewer and self.block_pick is not None and v.window.decision == "blockers"):
            return [s for r in self.rows() for s in r if "legal" in self.marks_for(s)]
        return []

    def _continue_pick(self, spot: Spot, cid: int) -> None:
        pk = self.pick
        assert pk is not None and self.view is not None
        step = pk.step()
        if step == "slot":
            want = "relic" if self._card_type(pk.source) == "relic" else "unit"
            if spot[0] == want and spot[1] == self.view.viewer and cid == 0:
                pk.slot = spot[2]
                self._advance_pick()
            else:
                self._say(f"pick an empty {want} slot of yours (◎), or Esc to cancel")
            return
        if step == "target":
            if cid and cid in pk.next_targets():
                pk.targets = pk.targets + (cid,)
                self._advance_pick()
            else:
                self._say("that is not a legal target (◎ marks them) — Esc cancels")

    def _toggle_attacker(self, cid: int) -> None:
        v = self.view
        assert v is not None
        if not cid:
            return
        if cid in self.attack_sel:
            self.attack_sel.remove(cid)
        elif cid in v.window.eligible:
            self.attack_sel.append(cid)
        else:
            why = self._why(cid, "attack")
            if why:
                self._say(f"[b]✗ #{cid}[/b] can't attack: {why[0]} ([b]{why[1]}[/b])", why[1])
            else:
                self._say(f"#{cid} is not one of your units that may attack")
            return
        self.status = self._attack_status()
        self._apply_marks()

    def _attack_status(self) -> str:
        if not self.attack_sel:
            return "attack: Enter toggles a unit (◎ may attack) · a all · c confirm · n attack none"
        return ("attack with " + " ".join(f"#{u}" for u in self.attack_sel)
                + " — c confirms · Enter toggles · n attack none")

    def action_attack_all(self) -> None:
        v = self.view
        if not self._deciding() or v is None or v.window.decision != "attackers":
            return
        if len(self.attack_sel) == len(v.window.eligible):
            self.attack_sel = []
        else:
            self.attack_sel = list(v.window.eligible)
        self.status = self._attack_status()
        self._apply_marks()

    def _block_select(self, cid: int) -> None:
        v = self.view
        assert v is not None
        if not cid:
            return
        if cid in self.block_pairs:
            del self.block_pairs[cid]
        elif self.block_pick is None:
            if cid in v.window.eligible:
                self.block_pick = cid
                self.status = f"#{cid} blocks which attacker? (◎) — Enter · Esc cancels"
                attackers = self.legal_spots()
                if attackers:
                    self.cursor = attackers[0]       # the cursor goes to the attackers it may block
                self._apply_marks()
                self._render_rules()
                return
            why = self._why(cid, "block")
            if why:
                self._say(f"[b]✗ #{cid}[/b] can't block: {why[0]} ([b]{why[1]}[/b])", why[1])
            else:
                self._say("Enter on one of your units (◎) to pick a blocker")
            return
        elif cid == self.block_pick:
            self.block_pick = None
        elif (self.block_pick, cid) in v.block_ok and cid not in self.block_pairs.values():
            self.block_pairs[self.block_pick] = cid
            self.block_pick = None
            free = [s for r in self.rows() for s in r if s[0] == "unit" and s[1] == v.viewer
                    and self.card_at(s) in v.window.eligible and self.card_at(s) not in self.block_pairs]
            if free:
                self.cursor = free[0]                # on to the next blocker still free
        else:
            reason, rule = self._block_why(self.block_pick, cid)
            self._say(f"[b]✗ #{self.block_pick}[/b] can't block #{cid}: {reason} ([b]{rule}[/b]) — pick one of "
                      "the ◎ attackers", rule)
            return
        self.status = self._block_status()
        self._apply_marks()

    def _block_why(self, b: int, a: int) -> tuple[str, str]:
        """Why blocker `b` can't be paired with `a` now: the engine's own rule and reason (C1K 4.2)."""
        assert self.view is not None
        other = next((x for x, y in self.block_pairs.items() if y == a), None)
        if other is not None:
            return f"each attacker can be blocked by at most one unit, and #{other} already blocks it", "C1K 4.2"
        for x, y, rule, reason in self.view.block_no:
            if (x, y) == (b, a):
                return reason, rule
        return f"#{a} is not attacking", "C1K 4.2"

    def _block_status(self) -> str:
        if not self.block_pairs:
            return "block: Enter on your unit, then on an attacker · c confirm · n block none"
        return ("block " + ", ".join(f"#{b} -> #{a}" for b, a in self.block_pairs.items())
                + " — c confirms · Enter on a blocker unpairs it · n block none")

    def action_confirm(self) -> None:
        v = self.view
        if not self._deciding() or v is None:
            return
        if v.window.decision == "attackers":
            self._send("attack " + " ".join(f"#{u}" for u in self.attack_sel) if self.attack_sel else "attack none")
        elif v.window.decision == "blockers":
            self._send("block " + ", ".join(f"#{b} -> #{a}" for b, a in self.block_pairs.items())
                       if self.block_pairs else "block none")
        elif self.pick is not None:
            self.action_select()
        elif v.window.decision in ("interrupt", "choice"):
            self.post_message(messages.AskPrompt())

    def action_none(self) -> None:
        v = self.view
        if not self._deciding() or v is None:
            return
        if v.window.decision == "attackers":
            self._send("attack none")
        elif v.window.decision == "blockers":
            self._send("block none")

    def action_interrupt(self) -> None:
        self.post_message(messages.AskPrompt())

    def action_command(self) -> None:
        self.query_one("#command", CommandLine).focus()

    def action_scroll_rules(self, d: int) -> None:
        tabs = self.query_one("#tabs", TabbedContent)
        if tabs.active == "tab-lesson":
            self.query_one("#lesson-pane", RulesPanel).scroll_page(d)
        elif tabs.active == "tab-rules":
            self.query_one("#rules", RulesPanel).scroll_page(d)
        elif tabs.active == "tab-recap":
            self.query_one("#recap", RulesPanel).scroll_page(d)
        else:
            self.query_one("#log", LogView).scroll_page(d)

    def rules_on_screen(self) -> list[str]:
        """The rule ids on screen, most pressing first: a refusal's, the keywords of the card under the
        cursor (hand or board), the current window's."""
        out = [self.refusal_rule] if self.refusal_rule else []
        out += [rulesdoc.keyword_rule(k) for k in self.keywords_at(self.cursor)]
        if self.view is not None:
            out.append(self.view.window.rule)
        return [r for i, r in enumerate(out) if r and r not in out[:i]]

    def keywords_at(self, spot: Spot | None) -> tuple[str, ...]:
        v = self.view
        cid = self.card_at(spot)
        if v is None or not cid:
            return ()
        for c in v.hand:
            if c.cid == cid:
                return tuple(c.keywords)
        for side in (v.bottom, v.top):
            for x in side.units + side.relics:
                if x is not None and x.cid == cid:
                    return tuple(x.keywords)
        return ()

    def action_rule_book(self) -> None:
        """R: the rule browser at the rule on screen — the card's keywords and the window's listed first."""
        from c1k_tui.screens.rule_screen import open_rule

        ids = self.rules_on_screen()
        open_rule(self.app, ids[0] if ids else "", ids)

    def on_click(self, event: Any) -> None:
        # a click on the card panel opens the rules of what it shows (the card's keywords first)
        w = getattr(event, "widget", None)
        if w is not None and w.id == "card-info" and self.keywords_at(self.cursor):
            self.action_rule_book()

    def action_rules(self) -> None:
        """r: the side tabs in turn — (lesson,) rules, log, recap."""
        tabs = self.query_one("#tabs", TabbedContent)
        first = "tab-lesson" if self.lesson else "tab-rules"
        tabs.active = {"tab-lesson": "tab-rules", "tab-rules": "tab-log", "tab-log": "tab-recap"}.get(tabs.active,
                                                                                                     first)

    def show_recap(self, text: Text, switch: bool = True) -> None:
        """The recap for the player who just took the keyboard (their private events included). At 80×24
        the panel has a few rows: it opens at the newest lines (PgUp for earlier ones, w: full screen), here
        and at 120×40 alike."""
        self.recap_text = text
        self.query_one("#recap", RulesPanel).update(text, at_end=True)
        if switch:
            self.query_one("#tabs", TabbedContent).active = "tab-recap"

    def picked(self, kind: str, cid: int, cands: list[Action], value: int, needs_slot: bool) -> None:
        """The branch (a "play") or the ability (an "activate") chosen in the App's prompt: go on picking."""
        self.begin_pick(Pick(kind, cid, [a for a in cands if isinstance(a, Play) and a.mode == value]
                             if kind == "play" else [a for a in cands if isinstance(a, Activate) and a.n == value],
                             needs_slot=needs_slot))

    def action_recap_full(self) -> None:
        """w: the recap (or, in the learning flow, the windows entered) last shown, full screen — on a
        small terminal the Recap tab has only a few rows."""
        from c1k_tui.screens.log_screen import LogScreen

        v = self.view
        if v is None:
            return
        lines = tuple(self.recap_text.plain.splitlines()) or ("(nothing to recap yet)",)
        self.app.push_screen(LogScreen(lines, v.bottom.name if v.bottom.player == v.viewer else v.top.name,
                                       title="WHAT HAPPENED"))

    def show_lesson(self, got: LessonCheck) -> None:
        """The lesson's goal panel, its pane (its own tab: a new hint, the coaching or the debrief brings it
        forward) and its status line (`MatchFlow.lesson_check`)."""
        from textual.css.query import NoMatches

        from c1k_tui.screens.lesson_pane import LessonPane

        self.goal = got.goal
        if got.line:
            self.status = got.line
        if not self.lesson:
            return
        try:
            pane = self.query_one("#lesson-pane", LessonPane)
        except NoMatches:
            return
        before, st = pane.status, got.st
        pane.show(st)
        if st.hint and (before is None or before.hint != st.hint) or (st.complete and not (
                before is not None and before.complete)):
            self.query_one("#tabs", TabbedContent).active = "tab-lesson"

    def history(self) -> History:
        """The command history of the player at the keyboard (each player's own)."""
        viewer = self.view.viewer if self.view is not None else 0
        return self.histories.setdefault(viewer, History())

    def keep_typed(self, command: str) -> None:
        """A typed command the app refused (not sent): it stays on the line, for editing."""
        cmd = self.query_one("#command", CommandLine)
        cmd.value = command
        cmd.cursor_position = len(command)
        cmd.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if not text:
            self.set_focus(None)
            return
        self.history().add(text)
        word = text.lower()
        if word in ("help", "?"):
            self.post_message(messages.ShowHelp())
            return
        if word in ("legal", "why"):
            self.query_one("#tabs", TabbedContent).active = "tab-rules"
            self._say("legal now: " + (" · ".join(self.suggester.commands) or "(nothing but concede)")
                      if word == "legal" else "why not? — move the cursor onto a card: the rules panel says")
            return
        if word == "rules" or word.startswith("rules "):   # the rule browser: `rules [ID or words]`
            from c1k_tui.screens.rule_screen import open_rule

            open_rule(self.app, text[6:].strip() or self.refusal_rule or (self.view.window.rule if self.view else ""))
            return
        self.set_focus(None)
        self.pick = None
        self.block_pick = None
        self.refusal_rule = ""
        self.post_message(messages.SendCommand(text, typed=True))

    def clear_private(self) -> None:
        """Forget everything typed or picked (before the device is handed over)."""
        self.query_one("#command", CommandLine).value = ""
        self.pick = None
        self.block_pick = None
        self.attack_sel = []
        self.block_pairs = {}
        self.status = ""
        self.refusal_rule = ""
        self.set_focus(None)


def fit_rows(text: Text, width: int, rows: int) -> Text:
    """`text` cut in its middle (…) until it wraps to at most `rows` rows of `width`: its end — a
    refusal's rule id, "not sent" — always stays in view."""
    from rich.console import Console

    console = Console(width=width, no_color=True, legacy_windows=False)
    if len(text.wrap(console, width)) <= rows:
        return text
    tail = min(len(text.plain) // 2, width)
    head = max(0, rows * width - tail - 4)
    while head > 0:
        cut = text[:head] + Text("… ") + text[len(text.plain) - tail:]
        if len(cut.wrap(console, width)) <= rows:
            return cut
        head -= 4
    return text[len(text.plain) - rows * width + 1:]


def _plain(md: str) -> str:
    """Markdown to plain text for the rules panel: backticks and bold markers dropped, paragraphs reflowed
    (list items and table rows keep their own lines)."""
    out: list[str] = []
    for line in md.replace("**", "").replace("`", "").splitlines():
        s = line.strip()
        starts_item = re.match(r"^([-*|]|\d+\.)", s) is not None
        if out and s and out[-1] and not starts_item and not out[-1].startswith("|"):
            out[-1] += " " + s
        else:
            out.append(s)
    return "\n".join(out)
