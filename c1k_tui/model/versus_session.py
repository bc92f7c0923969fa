"""A match against an agent, without a screen: `VersusSession` (a `MatchSession` whose AI seats follow the
public flow), the opponent specs (`agent_spec`, `agent_label`), the agents' seeds and `transcript` (`c1k play
--ai-vs-ai` piped). No Textual: `c1k play --vs ai --text` uses it without loading the app; the app's
controller for the AI seats (thinking in a worker, pacing) is c1k_tui/screens/versus.py.

An *opponent spec* names who sits in a seat: `human`, or `ai` (the search agent at its default level),
`ai:1` … `ai:4` (search levels), `ai:greedy`, `ai:random` — or any agent spec of engine/ai.py after
`ai:` (`ai:search:3`, `ai:halving:2`). `agent_spec()` turns one into the agent spec `make_agent` takes.

`VersusSession` is a `MatchSession` in which an AI seat playing a human follows the public flow
(`fair_action` and the AI's fixed stops `AI_STOPS`, both in c1k_tui/model/seats.py): it is asked exactly
where a human in its seat would be asked with hands hidden — at its stops, when the human put something on
the stack or acted, at each declaration with a unit able to declare, and at every question the engine asks
(Interrupt, permission, choice: asked on public facts) — and elsewhere the flow passes for it at once,
without consulting its hand (rules.md §7a: *whether* the AI is seen deciding depends only on public facts).
Watching two agents, every decision is the agents'. Its record names the AI seats, their agent specs and
seeds (`agents` in the record), so `c1k resume` and `c1k replay` rebuild the same match; the agent's seed is
derived from the match seed, so the same match seed + the same human commands give the same match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from c1k_tui.model.pacing import LEVEL_FLOOR_MS
from c1k_tui.model.seats import AI_STOPS, ai_decided, fair_action, give_ai_stops
from c1k_tui.model.session import MatchSession, auto_action
from c1k_tui.model.versus_choices import OPPONENTS
from engine import InfoSet, make_agent, observe, player_name
from engine.errors import BadInput

if TYPE_CHECKING:
    from c1k_tui.model.recap import RecapWindow
    from c1k_tui.model.session import Flow
    from engine import Action, CardDB, Deck, MatchOptions
    from engine import record as rec

#: the agent when `--vs ai` names no level (the search agent at its default level)
DEFAULT_AI = "search"
#: ms between an AI's visible actions (its moves are shown at a readable pace); against a human also the
#: floor of every AI decision shown: no answer, forced or searched, appears sooner after it was asked
DEFAULT_PACE_MS = 700
WATCH_PACE_MS = 900
PACES_MS = (0, 150, 400, 700, 900, 1500, 3000)
#: event index offset of an agent seat's seed (derived from the match seed)
AGENT_SEED_SALT = 0xA1


def level_floor_ms(spec: str) -> int:
    """The floor an agent's level needs (0 for agents that don't search)."""
    agent = make_agent(spec)
    level = getattr(agent, "level", None)
    return LEVEL_FLOOR_MS.get(level, 0) if isinstance(level, int) else 0


class VersusError(BadInput, ValueError):
    """A bad opponent spec: shown as a message naming the accepted forms."""


def agent_spec(opponent: str, option: str = "--vs") -> str:
    """`human` → "" (a person); `ai` → the default agent; `ai:N` → search level N; `ai:NAME[:N]` → that
    agent. Raises VersusError naming the forms accepted."""
    text = opponent.strip().lower()
    if text in ("human", ""):
        return ""
    head, _, rest = text.partition(":")
    if head != "ai":
        raise VersusError(f"unknown opponent '{opponent}': use human, ai, ai:1 … ai:4, ai:greedy or ai:random")
    spec = DEFAULT_AI if not rest else (f"search:{rest}" if rest[:1].isdigit() else rest)
    try:
        make_agent(spec)
    except ValueError as err:
        raise VersusError(f"{option} {opponent}: {err} (use ai, ai:1 … ai:4, ai:greedy or ai:random)") from err
    return spec


def agent_label(spec: str) -> str:
    """How the screens name an agent: "AI (search:2)"."""
    name = make_agent(spec).name
    return f"AI ({name})"


def agent_seed(match_seed: int, seat: int) -> int:
    """The seed of the agent in `seat`: from the match seed, so the same match replays the same, through a
    one-way function (SHA-256 of the match seed and the seat), so that the agent's seed, which the record
    shows, says nothing of the match seed (the opening shuffle; rules.md §7)."""
    import hashlib

    data = b"c1k-agent-seed\0" + match_seed.to_bytes(8, "big") + bytes([AGENT_SEED_SALT, seat])
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big")


# -------------------------------------------------------------------- the session


class VersusSession(MatchSession):
    """A match in which agents play some seats (`agents`: seat → (agent spec, agent seed))."""

    def __init__(self, *args: Any, agents: dict[int, tuple[str, int]] | None = None, **kw: Any) -> None:
        self.agents: dict[int, tuple[str, int]] = dict(agents or {})
        super().__init__(*args, **kw)
        self._ai_stops()

    def _ai_stops(self) -> None:
        give_ai_stops(self.flow, self.agents)     # an AI seat's stops are the AI's own (public, fixed)

    def set_flow(self, flow: Flow) -> None:
        self.flow = flow
        self._ai_stops()
        self.run_autos()
        self.save()

    @classmethod
    def new_vs(cls, db: CardDB, decks: list[Deck], seed: int, options: MatchOptions | None,
               specs: dict[int, str], **kw: Any) -> VersusSession:
        """A new match from decks; `specs`: seat → agent spec (the seat's seed comes from the match's)."""
        agents = {p: (spec, agent_seed(seed, p)) for p, spec in specs.items() if spec}
        s = cls.new(db, decks, seed, options, agents=agents, **kw)
        assert isinstance(s, VersusSession)
        return s

    @classmethod
    def resume_vs(cls, record: rec.MatchRecord, db: CardDB, **kw: Any) -> VersusSession:
        """A saved match with AI seats: replayed (every hash checked) with its agents rebuilt."""
        agents = {0 if seat == "p1" else 1: (spec, seed) for seat, (spec, seed) in record.agents.items()}
        s = cls.from_record(record, db, agents=agents, **kw)
        assert isinstance(s, VersusSession)
        return s

    def is_ai(self, p: int) -> bool:
        return p in self.agents

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(p for p in (0, 1) if p not in self.agents)

    def record(self) -> rec.MatchRecord:
        r = super().record()
        r.agents = {player_name(p): a for p, a in sorted(self.agents.items())}
        return r

    def next_auto(self) -> Action | None:
        """The flow options' command (Session.run_autos sends them). Against an AI the human's forced
        passes are sent at once, as with open hands: no other person watches the screen, and the agent
        reads only its own information set, where a pass is a pass either way. The AI seat follows the
        public flow (`fair_action`), whether its hand is shown or not (the same AI either way); watching
        two agents, they decide everything."""
        g = self.game
        if g.is_terminal():
            return None
        if self.is_ai(g.current_player()):
            return fair_action(g, self.flow) if self.humans else None
        return auto_action(g, self.flow, hidden=not self.open_hands and len(self.humans) > 1)

    def undo_span(self) -> int:
        """Back to the human's last decision: the trailing commands of AI seats and of the flow options,
        and the human's own command before them."""
        cmds = self.game.record
        auto = set(self.auto)
        ai = {f"{player_name(p)}: " for p in self.agents}
        i = len(cmds) - 1
        while i >= 0 and (i in auto or cmds[i][:4] in ai):
            i -= 1
        return len(cmds) - i if i >= 0 else 0

    def undo_check(self, asker: int | None = None) -> tuple[bool, str]:
        """As for two humans, and against an AI one more rule (rules.md §7a): an undo may not take back a
        decision the AI made since — its answer came from its hidden cards, so asking it again (after
        another attack) would let the human compare two answers. Only public facts decide (issue #28 item
        7): whether the AI was asked (c1k_tui/model/seats.py `ai_decided`), never whether it had a choice —
        a forced answer blocks the undo too, or the answer would tell whether the AI held a playable card.
        The flow's passes for it (sent on public facts) are undone with the rest."""
        ok, why = super().undo_check(asker)
        if not ok or not self.agents or not self.humans:
            return ok, why
        cmds = self.game.record
        span = self.undo_span()
        if ai_decided(cmds[len(cmds) - span:], len(cmds) - span, set(self.auto), self.agents):
            return False, (f"'{cmds[len(cmds) - span]}' can't be undone: the AI has decided since, from its own "
                           "hidden cards — it can't be asked the same question again (rules.md §7a)")
        return ok, why

    def rematch(self, seed: int) -> VersusSession:
        """Same decks, a new seed, seats swapped — the agents move with their decks."""
        decks = [self.decks[1], self.decks[0]]
        specs = {1 - p: spec for p, (spec, _) in self.agents.items()}
        return VersusSession.new_vs(self.db, decks, seed, self.game.options, specs, flow=self.flow,
                                    save_path=self.save_path, open_hands=self.open_hands)


@dataclass(frozen=True)
class MoveLine:
    """What the status line says after an AI seat's move, in parts for the screen to style: `who` moved
    (named once) and what it did and what that caused (`said`), both plain text."""

    who: str
    said: str

    def __str__(self) -> str:
        return f"{self.who}: {self.said}"


def move_line(windows: tuple[RecapWindow, ...], seat: int, names: tuple[str, ...], who: str,
              limit: int = 160) -> MoveLine | None:
    """The status line after an AI seat's move: `who`, then what it did and what that caused (its own
    events and the game's, never the human's auto-passes). The events name their player ("AI draws a
    card", "p2: play #453"); each such lead (one of `names` or the seat's "p2", then ": " or " ") is
    dropped, so the line names the AI once: who "AI (search:1)", said "draws a card; goes second: +1
    Influence". None when the move did nothing the human may see."""
    leads = sorted({*names, player_name(seat)}, key=len, reverse=True)
    texts = []
    for w in windows:
        for e in w.entries:
            if e.actor not in (seat, -1) or e.kind == "note":
                continue
            text = e.text
            for lead in leads:
                if lead and text.startswith(lead) and text[len(lead):len(lead) + 1] in (":", " "):
                    text = text[len(lead):].removeprefix(":").lstrip()
                    break
            texts.append(text)
    said = "; ".join(t for t in texts if t)
    if not said:
        return None
    return MoveLine(who, said if len(said) <= limit else said[:limit - 3] + "…")


def resume_or_none(db: CardDB, record: rec.MatchRecord, **kw: Any) -> VersusSession | None:
    """A VersusSession for a record with AI seats, None for a record of two humans."""
    return VersusSession.resume_vs(record, db, **kw) if record.agents else None


def transcript(session: VersusSession, write: Any, max_actions: int = 20_000) -> None:
    """`c1k play --ai-vs-ai` with piped output: both agents play the match to its end; each command
    and the outcome are printed (both hands were open to the watcher: nothing is hidden here)."""
    g = session.game
    agents = {p: make_agent(spec, seed) for p, (spec, seed) in session.agents.items()}
    n = 0
    while not g.is_terminal() and n < max_actions:
        p = g.current_player()
        a = agents[p].act(InfoSet(g, p))
        turn, window = observe(g, p).turn, g.window
        session.send(a, p)
        if str(a) != "pass":
            write(f"T{turn} {window:<26} {player_name(p)}: {a}")
        n += 1
    v = observe(g, 0)
    if g.outcome is None:
        write(f"stopped after {n} decisions (turn {v.turn})")
        return
    who = "a draw" if v.winner is None else f"{player_name(v.winner)} ({agent_label(session.agents[v.winner][0])}) wins"
    write(f"{who} — {(v.termination or '').replace('_', ' ')} · turn {v.turn} · {len(g.record)} commands · "
          f"seed {v.seed}")


__all__ = ["AI_STOPS", "OPPONENTS", "VersusError", "VersusSession", "agent_label", "agent_seed", "agent_spec",
           "MoveLine", "fair_action", "move_line", "resume_or_none", "transcript"]
