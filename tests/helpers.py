"""Small helpers shared by several test files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from engine.cards import CardDB
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.rng import SplitMix64
from engine.selfplay import random_action


def paths_of(d: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path into nested dicts and lists (the fuzz tests mutate the value at one of them)."""
    out = [prefix]
    if isinstance(d, dict):
        for k, v in d.items():
            out += paths_of(v, (*prefix, k))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            out += paths_of(v, (*prefix, i))
    return out


def mid_match(db: CardDB, seed: int, steps: int, decks: tuple[str, str], salt: int) -> Game:
    """A match `steps` random actions in (the random agent seeded with `seed ^ salt`)."""
    d = [load_deck(find_deck(n), db) for n in decks]
    g = Game.new(db, d[0], d[1], seed)
    agent = SplitMix64(seed ^ salt)
    for _ in range(steps):
        if g.is_terminal():
            break
        g.apply(random_action(g, agent))
    return g


def bench_module(script: str, name: str) -> Any:
    """A script of bench/ (not a package) imported as module `name`."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parent.parent / "bench" / script)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
