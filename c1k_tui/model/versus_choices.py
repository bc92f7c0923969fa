"""The opponents the start screen offers (no engine import: the start screen's first frame never waits for
the engine). `c1k_tui/model/versus_session.py` turns an opponent spec into an agent."""

from __future__ import annotations

#: (label, opponent spec) — see c1k_tui/model/versus_session.py `agent_spec` for the forms
OPPONENTS: tuple[tuple[str, str], ...] = (
    ("human (hot-seat)", "human"),
    ("AI — search, level 2 (default)", "ai"),
    ("AI — search, level 1 (quick)", "ai:1"),
    ("AI — search, level 3", "ai:3"),
    ("AI — search, level 4 (slow)", "ai:4"),
    ("AI — greedy (one-ply lookahead)", "ai:greedy"),
    ("AI — random (legal moves at random)", "ai:random"),
)

__all__ = ["OPPONENTS"]
