"""The boundary between the engine and the people at the terminal (issue #7, rules.md §7a): `c1k_tui/`
imports only the engine's public face (`engine`, and the service modules in `engine.PUBLIC_MODULES`),
and uses no member of a `Game` outside its public face — what a player may know comes from
`engine.observe` and `engine.events_for`.

The members are held by types: `engine.face.GameFace` declares the face, and a mypy plugin
(tests/mypy_public_face.py, named in pyproject.toml) makes any other member of a Game in `c1k_tui/` a
type error, however the Game was reached. The imports are held by the scan below. No file is exempt:
the allow-list is empty and must stay so (a test says so); each check is shown failing on a probe.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import engine
from engine.cards import CardDB
from engine.face import FACE_MEMBERS, GameFace
from engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "c1k_tui"

#: (file, engine module) imports exempt from the rule: none
ALLOWED_IMPORTS: dict[str, frozenset[str]] = {}


def _the_game_has_the_whole_face(g: Game) -> GameFace:
    return g   # mypy --strict over tests/ checks that Game satisfies the Protocol, member by member


def scan() -> dict[str, set[str]]:
    imports: dict[str, set[str]] = {}
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
    return imports


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
    _check(scan(), ALLOWED_IMPORTS, "imports")


def test_no_file_is_exempt() -> None:
    assert ALLOWED_IMPORTS == {}


def test_the_public_face_exports_what_it_names() -> None:
    for name in engine.__all__:
        assert hasattr(engine, name), name
    for mod in engine.PUBLIC_MODULES:
        __import__(mod)
    assert {"Game", "GameFace", "observe", "events_for", "Event", "PlayerView", "IllegalAction",
            "MalformedCommand", "RulesLoopError", "Outcome", "Termination"} <= set(engine.__all__)
    assert not FACE_MEMBERS & {"perms", "zone", "defs", "blocks", "rng", "players", "owner", "stack", "card"}
    g = Game(CardDB())
    assert all(hasattr(g, m) for m in FACE_MEMBERS)


def test_the_scan_finds_what_it_is_meant_to_find(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "c1k_tui"
    pkg.mkdir()
    (pkg / "bad.py").write_text("from engine.state import HAND\nfrom engine import game, record, observe\n"
                                "import engine.pipeline\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "APP", pkg)
    assert scan() == {"c1k_tui/bad.py": {"engine.state", "engine.game", "engine.pipeline"}}


@pytest.mark.slow   # one mypy run over a probe and the engine it imports (~20 s cold)
def test_the_type_checker_holds_the_app_to_the_public_face(tmp_path: Path) -> None:
    pkg = tmp_path / "c1k_tui"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    # reads of a Game's insides, through names the old name-based scan never looked at
    (pkg / "probe.py").write_text(
        "from engine import Game\n\n\n"
        "def probe(session: object, game: Game) -> object:\n"
        "    m = game\n"
        "    inside = m.perms\n"
        "    copy_zone = game.clone().zone\n"
        "    name = m.card(3).name\n"
        "    fine = (m.state_hash(), m.window, m.legal_actions(), m.decision.kind, m.turn)\n"
        "    return (inside, copy_zone, name, fine)\n", encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "--cache-dir", str(tmp_path / ".mypy_cache"), "c1k_tui/probe.py"],
                         capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "MYPYPATH": str(ROOT)})
    errors = [line for line in res.stdout.splitlines() if ": error:" in line]
    assert [e.split(": error: ")[1].split('"')[1] for e in errors] == ["perms", "zone", "card"], res.stdout
    assert all("public face (engine.face.GameFace)" in e for e in errors)
