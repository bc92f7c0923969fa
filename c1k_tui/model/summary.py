"""The game-over summary of a match: the outcome, turns, damage dealt by source and player, the cards
played — from the public typed events, read through `observe` only (no Textual: the game-over screen
shows it, tests read it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine import Event, Game


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




def card_names(g: Game) -> dict[int, tuple[str, int]]:
    """Card id -> (name, owner) of every card either player may see now (both views: at game over
    nothing is hidden that matters to a summary), read through `observe` only."""
    from engine import observe

    out: dict[int, tuple[str, int]] = {}
    for viewer in (0, 1):
        v = observe(g, viewer)
        for side in (v.me, v.opponent):
            p = side.player
            out[side.champion] = (side.champion_name, p)
            for u in side.units + side.relics:
                if u is not None:
                    out[u.cid] = (u.name, p)
            for c in side.graveyard_cards + side.void_cards:
                out[c.cid] = (c.name, p)
        for h in v.hand:
            out[h.cid] = (h.name.removesuffix(" [Set]"), viewer)
    return out


def names_on_stack(events: Sequence[Event]) -> dict[int, tuple[str, int]]:
    """Card id -> (name, player) as each public stack line names the card it puts on the stack
    ("The Coin #806 → stack (p2)")."""
    out: dict[int, tuple[str, int]] = {}
    for e in events:
        if e.kind == "stack" and e.cards and e.actor in (0, 1):
            text = e.text.strip()
            at = text.find(f" #{e.cards[0]}")
            if at > 0:
                out.setdefault(e.cards[0], (text[:at], e.actor))
    return out


def summarise(g: Game) -> MatchSummary:
    """Turns, damage by source, and the cards each player played — from the public typed events."""
    from engine import events_for, observe

    events = events_for(g, -1)
    # a card no longer to be seen anywhere (a token that ceased to exist, a card that went back to a hidden
    # zone and so has a new number) is named as the public stack line named it when it was played
    names = {**names_on_stack(events), **card_names(g)}
    players = (observe(g, 0).me.name, observe(g, 1).me.name)
    champions = {observe(g, 0).me.champion: 0, observe(g, 1).me.champion: 1}
    damage: dict[str, int] = {}
    by_player = [0, 0]
    to_champions = [0, 0]        # by the player whose card dealt it
    to_units = [0, 0]
    played: tuple[list[str], list[str]] = ([], [])
    for e in events:
        if e.kind == "damage" and e.amount:
            if e.detail == "Deck Exhaustion":
                damage["Deck Exhaustion"] = damage.get("Deck Exhaustion", 0) + e.amount
                continue
            src = e.cards[0] if e.cards else 0
            name, owner = names.get(src, (f"card #{src}", e.actor))
            label = f"{name} #{src} ({players[owner] if owner in (0, 1) else 'the game'})" if src else "the game"
            damage[label] = damage.get(label, 0) + e.amount
            if owner in (0, 1):
                by_player[owner] += e.amount
                if len(e.cards) > 1 and e.cards[1] in champions:
                    to_champions[owner] += e.amount
                else:
                    to_units[owner] += e.amount
        elif e.kind == "play" and e.cards and e.actor in (0, 1):
            name = names.get(e.cards[0], (f"#{e.cards[0]}", e.actor))[0]
            played[e.actor].append(name + (" (permission)" if e.command < 0 else ""))
    v = observe(g, 0)
    outcome = outcome_words(v.winner, v.termination or "", players) if v.outcome is not None else "not over"
    return MatchSummary(outcome, v.turn, v.commands, (v.side(0).name, v.side(1).name), damage,
                        (by_player[0], by_player[1]), played, v.seed, life=(v.side(0).life, v.side(1).life),
                        to_champions=(to_champions[0], to_champions[1]), to_units=(to_units[0], to_units[1]))
