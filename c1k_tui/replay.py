"""`c1k replay FILE`: step forward and back through a match record in the match screen's widgets.

Each position is the record replayed up to that command (a state is only ever made by sending the
record's commands to the engine). Positions already seen are kept, so stepping back is instant.
A replay is a review: both hands are shown.
"""

from __future__ import annotations

from textual.binding import Binding

from c1k_tui.match_screen import MatchScreen
from c1k_tui.session import game_from_record
from c1k_tui.view import match_view
from engine.actions import IllegalAction
from engine.cards import CardDB
from engine.game import Game
from engine.record import MatchRecord


class ReplayScreen(MatchScreen, inherit_bindings=False):
    BINDINGS = [
        Binding("right,n,space", "step(1)", "next"),
        Binding("left,p,backspace", "step(-1)", "back"),
        Binding("ctrl+right", "step(10)", "+10", show=False),
        Binding("ctrl+left", "step(-10)", "-10", show=False),
        Binding("home", "jump(0)", "start"),
        Binding("end", "jump(-1)", "end"),
        Binding("r", "rules", "rules/log"),
        Binding("question_mark", "app.help", "help", show=False),
        Binding("q,escape", "app.quit", "quit"),
        Binding("up", "move(0,-1)", show=False),
        Binding("down", "move(0,1)", show=False),
        Binding("pageup", "scroll_rules(-1)", show=False),
        Binding("pagedown", "scroll_rules(1)", show=False),
    ]

    def __init__(self, record: MatchRecord, db: CardDB) -> None:
        super().__init__("REPLAY")
        self.record = record
        self.db = db
        self.index = 0
        start, _ = game_from_record(record, db, 0)
        self.states: dict[int, Game] = {0: start}

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#command").display = False
        self.show()

    def game_at(self, i: int) -> Game:
        if i in self.states:
            return self.states[i]
        k = max(j for j in self.states if j <= i)
        g = self.states[k].clone()
        for j in range(k, i):
            try:
                g.apply_command(self.record.commands[j])
            except IllegalAction:
                pass
            self.states[j + 1] = g.clone()
        return self.states[i]

    def show(self) -> None:
        g = self.game_at(self.index)
        n = len(self.record.commands)
        p = g.current_player()
        auto = frozenset(i for i in self.record.options.get("auto", []) if isinstance(i, int))
        self.view = match_view(g, p if p in (0, 1) else 0, open_hands=True, bottom=0, auto=auto)
        last = self.record.commands[self.index - 1] if self.index else "(start)"
        self.status = f"[b]REPLAY[/b] {self.index}/{n} · last: [b]{last}[/b] · ←/→ step · Home/End · q quits"

    def action_step(self, d: int) -> None:
        self.index = max(0, min(len(self.record.commands), self.index + d))
        self.show()

    def action_jump(self, i: int) -> None:
        self.index = len(self.record.commands) if i < 0 else i
        self.show()

    def _deciding(self) -> bool:
        return False
