"""Shell completion for `c1k` (`c1k --install-completion`): deck names, rule ids, lesson numbers and agent
specs. Everything offered is public — the bundled decks, the rule book, the course — never a card of a
match. Light imports only: a completion runs the whole CLI for one word and must answer at once."""

from __future__ import annotations

from c1k_tui.model.paths import bundled_deck_names, lessons_dir

#: `--vs` (c1k_tui/model/versus_session.py `agent_spec`)
OPPONENTS = ("human", "ai", "ai:1", "ai:2", "ai:3", "ai:4", "ai:greedy", "ai:random")
#: `simulate --agent/--opponent`, `--agents A,B` (engine/ai.py `make_agent`)
AGENTS = ("random", "greedy", "search", "search:1", "search:2", "search:3", "search:4")


def _starting(words: list[str] | tuple[str, ...], incomplete: str) -> list[str]:
    low = incomplete.lower()
    return [w for w in words if w.lower().startswith(low)]


def decks(incomplete: str) -> list[str]:
    """Bundled deck names (a path is the shell's own business)."""
    if "/" in incomplete or incomplete.startswith("."):
        return []
    return _starting(bundled_deck_names(), incomplete)


def opponents(incomplete: str) -> list[str]:
    return _starting(OPPONENTS, incomplete)


def agents(incomplete: str) -> list[str]:
    return _starting(AGENTS, incomplete)


def agent_pairs(incomplete: str) -> list[str]:
    """`--agents A,B`: the first agent, then (after the comma) the second."""
    head, comma, tail = incomplete.rpartition(",")
    if not comma:
        return [a + "," for a in _starting(AGENTS, incomplete)]
    return [f"{head},{a}" for a in _starting(AGENTS, tail)]


def lessons(incomplete: str) -> list[tuple[str, str]]:
    """Lesson numbers, each with its file's name as the help the shell shows beside it."""
    files = sorted(lessons_dir().glob("*.scenario.toml"))
    out = []
    for i, f in enumerate(files, 1):
        if str(i).startswith(incomplete):
            out.append((str(i), f.name.removesuffix(".scenario.toml")))
    return out


def rule_ids(incomplete: str) -> list[str]:
    """Rule ids of docs/rules.md (`C1K 4.3`, `KW guard`), matched without regard to case."""
    from c1k_tui.model import rulesdoc

    return _starting(rulesdoc.all_ids(), incomplete)


def kinds(incomplete: str) -> list[str]:
    """`c1k schema KIND`."""
    from engine.schemas import KINDS

    return _starting(KINDS, incomplete)
