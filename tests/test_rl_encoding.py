"""engine.rl.encoding (docs/rl.md): the observation's layout as the doc states it, and what it encodes."""

from __future__ import annotations

import re
from pathlib import Path

from engine import find_deck, load_card_db, load_deck, observe
from engine.game import Game
from engine.rl.encoding import MAX_ACTIONS, Encoder, action_mask, legal_actions
from engine.state import MatchOptions

ROOT = Path(__file__).resolve().parent.parent


def _game(seed: int = 1) -> tuple[Encoder, Game]:
    db = load_card_db()
    g = Game.new(db, load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db), seed,
                 MatchOptions())
    return Encoder(db), g


def test_rl_md_states_the_encoders_layout() -> None:
    """Every row of docs/rl.md's layout table names segments with their offsets and record shapes."""
    enc, _ = _game()
    doc = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ((?:`\w+`(?:, )?)+) \| ([\d, ]+) \| (\d+) × (\w+)", doc, flags=re.M)
    stated = {}
    for names, offsets, count, width in rows:
        for name, off in zip(re.findall(r"`(\w+)`", names), offsets.split(", "), strict=True):
            stated[name] = (int(off), int(count), None if width == "cards" else int(width))
    actual = {s.name: (s.offset, s.count, None if s.name.endswith(("graveyard", "void")) else len(s.fields))
              for s in enc.layout}
    assert stated == actual
    assert f"int32[{enc.size}]" in doc


def test_the_vector_holds_the_viewers_hand_and_only_counts_of_the_opponents() -> None:
    enc, g = _game()
    p = g.current_player()
    vec = enc.encode(observe(g, p))
    assert len(vec) == enc.size
    hand = enc.segment("hand")
    width = len(hand.fields)
    mine = g.players[p].hand
    cards = [vec[hand.offset + i * width + 1] for i in range(len(mine))]
    assert cards == [enc.card_ids.index(g.card(c).id) + 1 for c in mine]
    opp = enc.segment("opponent")
    assert vec[opp.offset + opp.fields.index("hand_size")] == len(g.players[1 - p].hand)


def test_the_mask_covers_the_legal_list_for_the_decider_only() -> None:
    _, g = _game(3)
    p = g.current_player()
    n = len(legal_actions(g))
    assert n == min(len(g.legal_actions()), MAX_ACTIONS)
    assert action_mask(g, p) == [1] * n + [0] * (MAX_ACTIONS - n)
    assert action_mask(g, 1 - p) == [0] * MAX_ACTIONS
