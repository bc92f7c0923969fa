"""The boundary between the engine and the people at the terminal (issue #7, rules.md §7a): `c1k_tui/`
imports only the engine's public face (`engine`, and the service modules in `engine.PUBLIC_MODULES`),
and reads no private member of `Game` — what a player may know comes from `engine.observe` and
`engine.events_for`.

No file is exempt: the allow-lists below are empty and must stay so (a test says so). The scan's
own test shows it finds each kind of violation.
"""

from __future__ import annotations

import ast
import sys
import warnings
from pathlib import Path

import pytest

import engine
from engine.cards import CardDB
from engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "c1k_tui"

#: members of Game that code outside the engine may use (the façade)
PUBLIC_GAME = frozenset({
    "new", "apply", "apply_command", "parse", "legal_actions", "why_not", "current_player", "is_terminal",
    "outcome", "decision", "clone", "snapshot", "snapshot_bytes", "state_hash", "events", "log_lines",
    "record", "options", "window", "phase",
    "turn",   # the turn number: a public fact (every view shows it), read where a view would cost too much
})

#: (file, engine module) imports exempt from the rule: none
ALLOWED_IMPORTS: dict[str, frozenset[str]] = {}

#: (file, private Game member) reads exempt from the rule: none
ALLOWED_PRIVATE: dict[str, frozenset[str]] = {}


def _private_members() -> frozenset[str]:
    g = Game(CardDB())
    names = {n for n in dir(Game) if not n.startswith("__")} | set(vars(g))
    return frozenset(n for n in names if n not in PUBLIC_GAME)


PRIVATE = _private_members()


def _is_game(expr: ast.expr) -> bool:
    """A name the app uses for a match: g, game, …game (s.game, self.session.game)."""
    text = ast.unparse(expr)
    last = text.rsplit(".", 1)[-1]
    return last in ("g", "game", "gm", "before", "after", "prev", "nxt") or last.endswith("game")


def scan() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    imports: dict[str, set[str]] = {}
    private: dict[str, set[str]] = {}
    for path in sorted(APP.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), rel)
        for node in ast.walk(tree):
            mods: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == "engine":   # a name of the public face, or a public service module
                    mods = [f"engine.{a.name}" for a in node.names if a.name not in engine.__all__]
                elif node.module.startswith("engine."):
                    mods = [node.module]
            elif isinstance(node, ast.Import):
                mods = [a.name for a in node.names if a.name.startswith("engine.")]
            for m in mods:
                if m not in engine.PUBLIC_MODULES:
                    imports.setdefault(rel, set()).add(m)
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE and _is_game(node.value):
                private.setdefault(rel, set()).add(node.attr)
    return imports, private


def _check(found: dict[str, set[str]], allowed: dict[str, frozenset[str]], what: str) -> None:
    new = {f: sorted(v - allowed.get(f, frozenset())) for f, v in found.items()}
    new = {f: v for f, v in new.items() if v}
    assert not new, (f"{what} outside the engine's public face (use `from engine import …`, engine.observe or "
                     f"engine.events_for; or add to the public face): {new}")
    gone = {f: sorted(v - found.get(f, set())) for f, v in allowed.items()}
    gone = {f: v for f, v in gone.items() if v}
    if gone:
        warnings.warn(f"ported — remove from the allow-list in tests/test_boundary.py: {gone}", stacklevel=2)


def test_the_app_imports_only_the_engines_public_face() -> None:
    imports, _ = scan()
    _check(imports, ALLOWED_IMPORTS, "imports")


def test_the_app_reads_no_private_member_of_game() -> None:
    _, private = scan()
    _check(private, ALLOWED_PRIVATE, "reads of Game internals")


def test_no_file_is_exempt() -> None:
    assert ALLOWED_IMPORTS == {} and ALLOWED_PRIVATE == {}


def test_the_public_face_exports_what_it_names() -> None:
    for name in engine.__all__:
        assert hasattr(engine, name), name
    for mod in engine.PUBLIC_MODULES:
        __import__(mod)
    assert {"Game", "observe", "events_for", "Event", "PlayerView", "IllegalAction", "MalformedCommand",
            "RulesLoopError", "Outcome", "Termination"} <= set(engine.__all__)
    assert not PUBLIC_GAME & {"perms", "zone", "defs", "blocks", "rng", "players", "owner", "stack"}


def test_the_scan_finds_what_it_is_meant_to_find(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "c1k_tui"
    pkg.mkdir()
    (pkg / "bad.py").write_text("from engine.state import HAND\nfrom engine import game, record, observe\n"
                                "import engine.pipeline\nx = s.game.perms\ny = g.zone[3]\nz = view.zone\nu = nxt.stack\n"
                                "w = g.state_hash()\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "APP", pkg)
    imports, private = scan()
    assert imports == {"c1k_tui/bad.py": {"engine.state", "engine.game", "engine.pipeline"}}
    assert private == {"c1k_tui/bad.py": {"perms", "zone", "stack"}}
