"""`c1k replay FILE`: step forward and back through a match record in the match screen's widgets.

Each position is the record replayed up to that command (a state is only ever made by sending the
record's commands to the engine). Positions already seen are kept, so stepping back is instant.
A replay is a review: both hands are shown.
"""

from __future__ import annotations

from rich.markup import escape
from textual.binding import Binding

from c1k_tui.model.matchnames import match_title, outcome_words
from c1k_tui.model.view import match_view
from c1k_tui.screens.match_screen import MatchScreen
from engine import CardDB, Game
from engine import record as rec
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
        Binding("q,escape", "close", "close"),
        Binding("up", "move(0,-1)", show=False),
        Binding("down", "move(0,1)", show=False),
        Binding("pageup", "scroll_rules(-1)", show=False),
        Binding("pagedown", "scroll_rules(1)", show=False),
    ]

    def __init__(self, record: MatchRecord, db: CardDB, back: bool = False) -> None:
        # the title names the decks and who sat where (a scenario has no decks: its seats)
        super().__init__("REPLAY" if record.start.scenario is not None else f"REPLAY · {match_title(record)}")
        self.back = back          # a review from the game-over screen: q / Esc go back to it
        self.record = record
        self.db = db
        self.index = 0
        self.error = ""
        start, _ = rec.begin(record, db)     # checked against the record's starting hash
        self.states: dict[int, Game] = {0: start}
        self.good = len(record.commands)      # how many commands replay to their recorded hashes

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#command").display = False
        self.show()

    def game_at(self, i: int) -> Game:
        """The state after the record's first i commands (each one's hash checked: the replay stops at
        the first that doesn't match, and says so)."""
        i = min(i, self.good)
        if i in self.states:
            return self.states[i]
        k = max(j for j in self.states if j <= i)
        g = self.states[k].clone()
        for j in range(k, i):
            try:
                rec.step(g, self.record, j)
            except rec.RecordError as err:
                self.good, self.error = j, str(err)
                return self.states[j]
            self.states[j + 1] = g.clone()
        return self.states[i]

    def show(self) -> None:
        g = self.game_at(self.index)
        self.index = min(self.index, self.good)
        n = len(self.record.commands)
        p = g.current_player()
        auto = frozenset(i for i, e in enumerate(self.record.entries) if e.auto)
        self.view = match_view(g, p if p in (0, 1) else 0, open_hands=True, bottom=0, auto=auto)
        last = self.record.commands[self.index - 1] if self.index else "(start)"
        seed = "" if self.record.start.scenario is not None else f" · seed {self.record.seed}"
        over = g.outcome   # the last position: who won and how, in words
        end = f"\n[b]{escape(outcome_words(over, self.record))}[/b]" if over is not None else ""
        self.status = (f"[b]REPLAY[/b] {self.index}/{n} · last: [b]{escape(last)}[/b]{seed} · ←/→ step · Home/End · "
                       + ("q back to the summary" if self.back else "q quits") + end
                       + (f"\n[red]{escape(self.error)}[/red]" if self.error else ""))

    def action_close(self) -> None:
        if self.back:
            self.dismiss(None)
        else:
            self.app.exit()

    def action_step(self, d: int) -> None:
        self.index = max(0, min(len(self.record.commands), self.index + d))
        self.show()

    def action_jump(self, i: int) -> None:
        self.index = len(self.record.commands) if i < 0 else i
        self.show()

    def _deciding(self) -> bool:
        return False
