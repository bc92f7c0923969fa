"""Jobs of `c1k simulate` (docs/formats.md §7): one match each, named by (pair, index), with its own seed;
`run_job` plays one in a worker and returns a small `JobResult`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import BadInput

DEFAULT_MAX_TURNS = 200


class SimulateError(BadInput):
    """A problem with the command's input: shown as a message, never a traceback."""



@dataclass(frozen=True)
class Job:
    index: int           # position in the whole run
    pair: int
    k: int               # match number within the pair
    deck_a: str          # the decks' contents (JSON of name, champion, seat, cards), never a path
    deck_b: str
    agent_a: str
    agent_b: str
    seed: int
    a_first: bool        # deck A sits in p1 (seats alternate within a pair)
    max_turns: int
    cards: tuple[str, ...] = ()   # own card files (--cards and the decks' card_files), besides the bundled set
    #: the second player's compensation (MatchOptions.compensation, RULES Second player); None: the rules' default
    compensation: str | None = None


@dataclass
class JobResult:
    index: int
    winner: str          # "a" | "b" | "draw"
    termination: str
    turns: int
    actions: int
    a_first: bool
    drawn_a: list[str] = field(default_factory=list)
    drawn_b: list[str] = field(default_factory=list)
    played_a: list[str] = field(default_factory=list)
    played_b: list[str] = field(default_factory=list)
    error: str = ""
    opening_a: list[str] = field(default_factory=list)   # card ids of the opening hand
    opening_b: list[str] = field(default_factory=list)
    #: per card id, the damage its instances dealt this match: [to Champions, to units] (after prevention)
    damage_a: dict[str, list[int]] = field(default_factory=dict)
    damage_b: dict[str, list[int]] = field(default_factory=dict)
    #: per card id, the Influence its owner paid for it: to play or Set it, its activated abilities and
    #: Interrupts (a play by a free permission pays nothing)
    spent_a: dict[str, int] = field(default_factory=dict)
    spent_b: dict[str, int] = field(default_factory=dict)


_CACHE: dict[str, Any] = {}


def _card_db(cards: Sequence[str] = ()) -> Any:
    """The bundled set plus these own card files (cached per process; `_CACHE["db"]`: the last one)."""
    from engine.cardset import load_cards

    key = "db:" + "\n".join(cards)
    if key not in _CACHE:
        _CACHE[key] = load_cards([Path(c) for c in cards])
    _CACHE["db"] = _CACHE[key]
    return _CACHE[key]


def _load(path: str, cards: Sequence[str] = ()) -> Any:
    from engine import load_deck

    db = _card_db(cards)
    key = "deck:" + path + "\n" + "\n".join(cards)
    if key not in _CACHE:
        _CACHE[key] = load_deck(Path(path), db, playtest=True)
    return _CACHE[key]


def start_job(job: Job) -> tuple[Any, tuple[Any, Any]]:
    """The job's match before its first action, and its agents by seat (p1, p2)."""
    from engine import Game, MatchOptions, derive_seed
    from engine.ai import make_agent

    deck_a, deck_b = _load(job.deck_a, job.cards), _load(job.deck_b, job.cards)
    first, second = (deck_a, deck_b) if job.a_first else (deck_b, deck_a)
    options = MatchOptions(max_turns=job.max_turns)
    if job.compensation is not None:
        options = MatchOptions(max_turns=job.max_turns, compensation=job.compensation)
    game = Game.new(_card_db(job.cards), first, second, job.seed, options)
    ag_a = make_agent(job.agent_a, derive_seed(job.seed, 1))
    ag_b = make_agent(job.agent_b, derive_seed(job.seed, 2))
    return game, ((ag_a, ag_b) if job.a_first else (ag_b, ag_a))


def influence_paid(game: Any, p: int, a: Any) -> tuple[str, int] | None:
    """(card id, Influence) that action `a` by seat `p` pays as it is applied, or None when it pays
    nothing for a card (a pass, an attack …). Read before the action: the engine takes the same costs."""
    from engine import influence_paid as paid

    got = paid(game, p, a)
    return None if got is None else (game.card(got[0]).id, got[1])


def damage_by_card(game: Any) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Per seat, per card id of the seat's cards: [damage to Champions, damage to units] they dealt,
    from the match's typed damage events (damage by the rules, with no source card, is nobody's)."""
    out: tuple[dict[str, list[int]], dict[str, list[int]]] = ({}, {})
    champions = {game.players[0].champion, game.players[1].champion}
    for e in game.events:
        if e.kind != "damage" or len(e.cards) < 2 or not e.cards[0] or e.actor not in (0, 1):
            continue
        row = out[e.actor].setdefault(game.card(e.cards[0]).id, [0, 0])
        row[0 if e.cards[1] in champions else 1] += e.amount
    return out


def run_job(job: Job) -> JobResult:
    """Play one match (in a worker). Pure: the result depends only on the job."""
    from engine.ai import play_match

    game, agents = start_job(job)
    seat_a = 0 if job.a_first else 1
    from engine import observe

    db = _card_db(job.cards)          # the opening hands, as each player sees their own (the public face)
    opening = [sorted(db.lookup(h.name).id for h in observe(game, p).hand) for p in (0, 1)]
    spent: tuple[dict[str, int], dict[str, int]] = ({}, {})

    def pay(p: int, a: Any) -> None:
        paid = influence_paid(game, p, a)
        if paid is not None:
            spent[p][paid[0]] = spent[p].get(paid[0], 0) + paid[1]

    try:
        r = play_match(game, agents, on_decision=pay)
    except Exception as err:  # a rules error in one match is reported, not a crash of the whole run
        return JobResult(job.index, "draw", "error", game.turn, 0, job.a_first, error=f"{type(err).__name__}: {err}")
    if r.winner is None:
        w = "draw"
    else:
        w = "a" if r.winner == seat_a else "b"
    return JobResult(job.index, w, r.termination, r.turns, r.actions, job.a_first,
                     list(r.drawn[seat_a]), list(r.drawn[1 - seat_a]),
                     list(r.played[seat_a]), list(r.played[1 - seat_a]), "",
                     opening[seat_a], opening[1 - seat_a], *_by_side(damage_by_card(game), seat_a),
                     *_by_side(spent, seat_a))


def _by_side(per_seat: tuple[Any, Any], seat_a: int) -> tuple[Any, Any]:
    return per_seat[seat_a], per_seat[1 - seat_a]

