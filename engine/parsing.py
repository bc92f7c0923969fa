"""Command text to actions (docs/formats.md §1), resolved from what the typist may see (rules.md §7a): a
command for the other seat, or for a seat that isn't deciding, is refused before any name is looked up;
a hidden card's id or name gets the answer of one that exists nowhere.
"""

from __future__ import annotations

from engine.actions import (
    Action,
    Command,
    IllegalAction,
    MalformedCommand,
    command_to_action,
    parse_command,
)
from engine.core import MatchState
from engine.legality import turn_refusal
from engine.state import (
    player_name,
)


def parse(g: MatchState, text: str, typist: int | None = None) -> tuple[int | None, Action]:
    """Parse command text, resolving names, aliases and p1/p2 from what the typing player may see
    (rules.md §7a). Returns (the acting player: the prefix, else `typist`; None if neither, action).

    `typist` (0 / 1) is the player at the keyboard; None: the prefix's player, else the one deciding
    (scenarios, records — a record replays with the acting seat's view). Before any name is looked
    up, a command is refused (IllegalAction) if it is typed for the other player, or for a player who
    is not the one to decide (Concede excepted), so a name's answer never depends on hidden cards of
    a seat that isn't acting."""
    cmd = parse_command(text)
    player = None
    if cmd.player is not None:
        player = player_ref(g, cmd.player)
        if player is None:
            raise MalformedCommand(f"unknown player prefix '{cmd.player}:'; expected p1: or p2:")
    if typist is not None and player is not None and player != typist:
        raise IllegalAction("C1K 10", f"{g.players[typist].name} can't give {g.players[player].name}'s "
                                      "commands (type your own, without a prefix)")
    if typist is not None and player is None:
        player = typist
    actor = player if player is not None else g.current_player()
    if g.outcome is not None:
        raise IllegalAction("RULES 1", f"the match is over ({g.outcome})")
    if cmd.verb != "concede":
        r = turn_refusal(g, actor)
        if r is not None:
            raise IllegalAction(r.rule, r.reason)
    return player, to_action(g, cmd, actor)


def player_ref(g: MatchState, word: str) -> int | None:
    w = word.lower()
    for p in (0, 1):          # the seats first: a player named "p2" in seat 1 doesn't capture "p2"
        if w == player_name(p):
            return p
    for p in (0, 1):
        if w == g.players[p].name.lower():
            return p
    return None


def to_action(g: MatchState, cmd: Command, actor: int) -> Action:
    def resolve(raw: str, role: str) -> int:
        return resolve_ref(g, raw, role, actor)

    return command_to_action(cmd, resolve)


def resolve_ref(g: MatchState, raw: str, role: str, actor: int) -> int:
    """The card id `raw` names for `actor`, from what `actor` may see: an id or name of a card hidden
    from them gets exactly the answer of one that exists nowhere (rules.md §7a)."""
    a = max(actor, 0)
    if raw.startswith("#"):
        if raw[1:].isascii() and raw[1:].isdigit() and len(raw) <= 10 and g.exists(int(raw[1:])) \
                and g.visible_to(int(raw[1:]), a):
            return int(raw[1:])
        raise MalformedCommand(f"'{raw}' is not a card you can see")
    key = raw.lower()
    if key in g.aliases and g.visible_to(g.aliases[key], a):
        return g.aliases[key]
    p = player_ref(g, key)
    if p is not None:
        return g.players[p].champion
    if role == "hand":   # a copy in hand (or Set) first; the graveyard only if none (OPP permissions)
        pool = g.players[a].hand + g.players[a].set_cards
        if not any(g.card(c).name.lower() == key or g.card(c).id == key for c in pool):
            pool = g.players[a].graveyard + (pool if not any(
                g.card(c).name.lower() == key or g.card(c).id == key for c in g.players[a].graveyard)
                else [])
    elif role == "attacker":
        pool = g.players[g.active].units()
    elif role == "blocker":
        pool = g.players[1 - g.active].units()
    elif role == "source":   # (a Nullify Action is used from the hand)
        pool = g.permanents(a) + g.permanents(1 - a) + g.players[a].hand
    else:
        pool = [c for q in (a, 1 - a) for c in g.permanents(q)]
    matches = [c for c in pool if g.card(c).name.lower() == key or g.card(c).id == key]
    if not matches:
        # a hint only from what the actor may see: never a card in a library or the opponent's hand/Set
        everywhere = [i for i, d in sorted(g.defs.items()) if d is not None and d.name.lower() == key
                      and g.visible_to(i, a)]
        if everywhere:
            raise MalformedCommand(f"no '{raw}' here (the command needs a card in the {role} role); "
                                   f"use its id, e.g. #{everywhere[0]}")
        from engine.cards import suggest

        names = sorted({g.card(c).name for c in pool})
        raise MalformedCommand(f"no card called '{raw}' among {', '.join(names) or 'nothing'}"
                               f"{suggest(raw, names)}")
    if len(matches) > 1 and role != "hand":
        raise MalformedCommand(f"'{raw}' is ambiguous: {', '.join(g.label(c) for c in matches)}; use the id")
    return min(matches)


__all__ = [
    "parse", "player_ref", "resolve_ref", "to_action",
]
