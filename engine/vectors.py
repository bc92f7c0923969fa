"""The determinism contract's test vectors (docs/determinism.md): what another implementation checks
itself against. `build_vectors()` gives every vector file's content, `render(data)` its text; the CLI
(`c1k vectors OUT`, c1k_tui/cli/vectors.py) writes them, conformance/check runs the TypeScript checker on
them, and tests/test_vectors.py regenerates them and compares with the committed copies in
conformance/vectors/, so they can't go stale silently:

- generator.json: SplitMix64 outputs, `below(n)` draws, shuffles and derived seeds;
- setup.json: how a seed and two decks become the first state (card numbering, libraries, hands);
- snapshots.json: values with their canonical bytes and SHA-256 (synthetic ones and match states);
- matches.json: recorded random matches (decks, seed, options, commands) with the state hash before
  the first command and after every command.

Every integer that may exceed 2^53 (seeds, generator outputs and states) is a decimal string, so a
plain `JSON.parse` reads every file exactly. This module reads the engine's state directly (card
numbering, zones, the generator): it is the engine describing itself, not a player's view.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine.actions import IllegalAction, Pass, Play
from engine.canonical import ENCODING, canonical_bytes
from engine.cards import CardDB, load_card_db
from engine.decks import Deck, bundled_deck_paths, load_deck
from engine.game import Game
from engine.rng import SplitMix64, derive_seed
from engine.selfplay import random_action
from engine.state import ZONE_NAMES, MatchOptions, player_name

#: version of the vector files' layout (not of the encoding: that is engine.canonical.ENCODING)
VECTORS_VERSION = 2

GEN_SEEDS = (0, 1, 1234567, 1 << 63, (1 << 64) - 1,
             # four random 64-bit seeds (from the OS's entropy once, then fixed here)
             12708989318828103804, 11072144519991571924, 14165571736167651406, 4361586558826566368)
BELOW_N = (1, 2, 3, 6, 7, 10, 40, 1000, (1 << 32) + 1, (1 << 63) + 1, (1 << 64) - 1)
SHUFFLE_LENGTHS = (0, 1, 2, 5, 10, 40, 52)

#: deck pairs of the recorded matches: every bundled deck plays both seats
MATCH_COMMANDS = 80        # commands per recorded match (capped so the files stay small)
SNAPSHOT_DECKS = ("ironbound", "emberfall")


def _u64(n: int) -> str:
    return str(n)


def generator_vectors() -> dict[str, Any]:
    outputs = []
    for s in GEN_SEEDS:
        r = SplitMix64(s)
        outs = [_u64(r.next()) for _ in range(8)]
        outputs.append({"seed": _u64(s), "outputs": outs, "state_after": _u64(r.state)})
    below = []
    for s in GEN_SEEDS[:6]:
        for n in BELOW_N:
            r = SplitMix64(s)
            draws = [_u64(r.below(n)) for _ in range(6)]
            below.append({"seed": _u64(s), "n": _u64(n), "draws": draws, "state_after": _u64(r.state)})
    shuffles = []
    for s in GEN_SEEDS:
        for length in SHUFFLE_LENGTHS:
            r = SplitMix64(s)
            xs = list(range(length))
            r.shuffle(xs)
            shuffles.append({"seed": _u64(s), "length": length, "result": xs, "state_after": _u64(r.state)})
    derived = [{"base": _u64(b), "index": i, "seed": _u64(derive_seed(b, i))}
               for b in (0, 1, (1 << 64) - 1) for i in (0, 1, 2, 1000)]
    return {"format": "c1k-vectors/generator", "version": VECTORS_VERSION,
            "splitmix64": outputs, "below": below, "shuffle": shuffles, "derive_seed": derived}


def _deck_cards(deck: Deck) -> list[list[object]]:
    return [[cid, n] for cid, n in deck.counts.items()]


def _decks_for(db: CardDB) -> dict[str, Deck]:
    return {p.stem: load_deck(p, db) for p in bundled_deck_paths()}


def setup_vectors(db: CardDB, decks: dict[str, Deck]) -> dict[str, Any]:
    out = []
    names = sorted(decks)
    pairs = [(names[i], names[(i + 1) % len(names)]) for i in range(0, len(names), 2)]
    for k, (a, b) in enumerate(pairs):
        seed = GEN_SEEDS[k % len(GEN_SEEDS)]
        first = ("p1", "p2", "random")[k % 3]
        compensation = ("none", "card+coin+influence", "card", "coin", "card+coin", "influence+capacity")[k % 6]
        g = Game.new(db, decks[a], decks[b], seed, MatchOptions(first=first, compensation=compensation))
        players = []
        for p, deck in enumerate((decks[a], decks[b])):
            ps = g.players[p]
            players.append({
                "deck": a if p == 0 else b, "champion": deck.champion.id, "seat": deck.seat.id,
                "cards": _deck_cards(deck), "opening_hand": g.seat_mod(p, "opening_hand"),
                "library": list(ps.library), "hand": list(ps.hand),
            })
        out.append({"seed": _u64(seed), "first": first, "compensation": compensation,
                    "first_player": g.first_player, "players": players,
                    "cards": [[i, d.id if d else "", g.owner[i], ZONE_NAMES[g.zone[i]]]
                              for i, d in sorted(g.defs.items()) if i],
                    "rng_after": _u64(g.rng.state), "state_hash": g.state_hash()})
    return {"format": "c1k-vectors/setup", "version": VECTORS_VERSION, "setups": out}


def _synthetic() -> list[tuple[str, object]]:
    big = (1 << 64) - 1
    return [
        ("empty object", {}),
        ("booleans become 0 and 1", {"exhausted": True, "practice": False, "flags": [True, False, True]}),
        ("absent values are left out", {"choice": None, "outcome": None, "turn": 3, "nested": {"x": None}}),
        ("integers at the safe boundary", {"max_safe": (1 << 53) - 1, "min_safe": -((1 << 53) - 1),
                                           "two_53": 1 << 53, "minus_two_53": -(1 << 53), "zero": 0, "neg": -1}),
        ("64-bit generator state and seed", {"seed": big, "rng": 0x9E3779B97F4A7C15, "small_seed": 42}),
        ("keys sort by code point", {"b": 1, "a": 2, "B": 3, "_": 4, "aa": 5, "é": 6, "\uffff": 7,
                                     "\U0001F600": 8, "": 9, "10": 10, "9": 11}),
        ("string escapes", {"s": 'quote " backslash \\ newline \n tab \t cr \r bs \b ff \f nul \x00 '
                                 'us \x1f del \x7f'}),
        ("unicode names", {"players": [{"name": "Zoë", "life": 20}, {"name": "ナナ 🂡", "life": 19}],
                           "line separator": "a\u2028b\u2029c", "combining": "e\u0301"}),
        ("nested lists", {"stack": [[1, "card", 5, 0, 0, -1, [7, 8], 0, "", 0, -1, [3, 4]]], "blocks": [[]]}),
    ]


def _find_state(db: CardDB, decks: dict[str, Deck], want: str) -> Game:
    """The first state of a random match (over the deck pairs and seeds, in order) where `want` holds."""
    names = sorted(decks)
    for seed in range(200):
        a, b = names[seed % len(names)], names[(seed * 7 + 3) % len(names)]
        g = Game.new(db, decks[a], decks[b], seed, MatchOptions(max_turns=40))
        agent = SplitMix64(seed)
        while not g.is_terminal():
            if getattr(g, want) if want != "outcome" else False:
                return g
            g.apply(random_action(g, agent))
        if want == "outcome":
            return g
    raise AssertionError(f"no random match reached a state with '{want}'")


def snapshot_vectors(db: CardDB, decks: dict[str, Deck]) -> dict[str, Any]:
    items: list[tuple[str, object]] = list(_synthetic())
    a, b = (decks[n] for n in SNAPSHOT_DECKS)
    items.append(("match start, seed 0", Game.new(db, a, b, 0).snapshot()))
    g = Game.new(db, a, b, (1 << 64) - 1)
    agent = SplitMix64(7)
    for _ in range(120):
        g.apply(random_action(g, agent))
    items.append(("mid-match, seed 2^64-1, after 120 random commands", g.snapshot()))
    for want in ("choice", "intr", "resolving", "void_items", "outcome"):
        items.append((f"a state with {want}", _find_state(db, decks, want).snapshot()))
    out = []
    for name, value in items:
        data = canonical_bytes(value)
        out.append({"name": name, "input": json.dumps(value, ensure_ascii=False),
                    "bytes": data.decode("utf-8"), "sha256": hashlib.sha256(data).hexdigest()})
    return {"format": "c1k-vectors/snapshots", "version": VECTORS_VERSION, "snapshots": out}


def _refused_attempt(g: Game, actor: int, kind: int) -> str | None:
    """A well-formed command the rules refuse now (None if this kind can't be made here)."""
    if kind == 0:   # out of priority order: refused before anything is looked up; changes nothing
        return f"{player_name(1 - actor)}: {Pass()}"
    for cid in g.players[actor].hand:   # a card of one's own hand that can't be played now
        if g.why_not(Play(cid), actor) is not None:
            return f"{player_name(actor)}: {Play(cid)}"
    return None


def match_vectors(db: CardDB, decks: dict[str, Deck]) -> dict[str, Any]:
    names = sorted(decks)
    pairs = [(names[i], names[(i + 1) % len(names)]) for i in range(len(names))]
    pairs += [(names[(i + 3) % len(names)], names[i]) for i in range(len(names))]
    out = []
    for k, (a, b) in enumerate(pairs):
        seed = derive_seed(20261126, k)
        # two short matches end at a turn limit, so the vectors also cover a finished match
        options = MatchOptions(max_turns=3 if k % 11 == 10 else 0, first=("p1", "random", "p2")[k % 3])
        g = Game.new(db, decks[a], decks[b], seed, options)
        agent = SplitMix64(seed ^ 0x5EED)
        hashes = [g.state_hash()]
        commands: list[str] = []
        refused: list[int] = []
        while not g.is_terminal() and len(commands) < MATCH_COMMANDS:
            actor = g.current_player()
            if agent.below(10) == 0:
                # a refused attempt (C1K §10): out of priority order (changes nothing), or playing a card
                # of one's hand that can't be played now (priority passes to the opponent if held)
                bad = _refused_attempt(g, actor, len(refused) % 2)
                if bad is not None:
                    try:
                        g.apply_command(bad)
                    except IllegalAction:
                        refused.append(len(commands))
                        commands.append(bad)
                        hashes.append(g.state_hash())
                        continue
                    raise AssertionError(f"{bad!r} was not refused")
            action = random_action(g, agent)
            commands.append(f"{player_name(actor)}: {action}")
            g.apply(action)
            hashes.append(g.state_hash())
        out.append({
            "name": f"{a} vs {b}", "seed": _u64(seed), "options": options.to_dict(),
            "decks": [{"name": decks[n].name, "champion": decks[n].champion.id, "seat": decks[n].seat.id,
                       "cards": _deck_cards(decks[n])} for n in (a, b)],
            "commands": commands, "refused": refused, "hashes": hashes,
            "outcome": str(g.outcome) if g.outcome else "",
        })
    return {"format": "c1k-vectors/matches", "version": VECTORS_VERSION, "matches": out}


def build_vectors() -> dict[str, dict[str, Any]]:
    """Every vector file's content, by file name."""
    db = load_card_db()
    decks = _decks_for(db)
    files = {
        "generator.json": generator_vectors(),
        "setup.json": setup_vectors(db, decks),
        "snapshots.json": snapshot_vectors(db, decks),
        "matches.json": match_vectors(db, decks),
    }
    for data in files.values():
        data["encoding"] = ENCODING
    return files


def render(data: dict[str, Any]) -> str:
    """A vector file's text: the header's fields, then each vector on a line of its own."""
    lines = []
    for key, value in data.items():
        if isinstance(value, list):
            body = ",\n".join("  " + json.dumps(v, ensure_ascii=False, separators=(",", ":")) for v in value)
            lines.append(f" {json.dumps(key)}: [\n{body}\n ]")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


__all__ = ["VECTORS_VERSION", "build_vectors", "render"]
