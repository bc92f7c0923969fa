"""The App only routes (issue 27, "First: the flow lives in the model, the App only routes"): what is shown
next, prompts, undo and flow consent, the lesson's checks and each seat's options are decided in
`c1k_tui/model/flow.py`; `screens/app.py` pushes the screens those values name, starts timers and routes
messages. The guard reads the App's source: it stays under 500 lines (Posting's App is the example), it
imports the engine for types only, and it never reads the game itself nor sends a command but through the
model. `router_breaches` is a function so that the same check can be run on an older App (it fails on the
App of before the move: 1,163 lines, the engine imported and `observe` called in its methods).
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "c1k_tui" / "screens" / "app.py"
MAX_LINES = 500

#: what only the model may call: reading a player's view of the game, sending to the engine, undoing,
#: the recap and summary builders, the lesson's checks
MODEL_ONLY = {"observe", "undo_check", "undo", "run_autos", "summarise", "lesson_for", "status", "progress",
              "flow_change", "set_flow", "pass_until", "mode_label", "match_view", "log_for"}


def _type_checking_block(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def router_breaches(source: str) -> list[str]:
    """Why the App in `source` is more than a router (empty: it is one)."""
    breaches = []
    lines = source.count("\n")
    if lines >= MAX_LINES:
        breaches.append(f"{lines} lines (under {MAX_LINES}: the flow's decisions go to the model)")
    tree = ast.parse(source)
    typed = {id(n) for top in tree.body if _type_checking_block(top) for n in ast.walk(top)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in typed:
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            for name in names:
                if name == "engine" or name.startswith("engine."):
                    breaches.append(f"line {node.lineno}: imports {name} (the engine: for types only)")
        if isinstance(node, ast.Call):
            f = node.func
            called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            owner = f.value if isinstance(f, ast.Attribute) else None
            # (the model, or the AI seats' controller, which the App hosts: screens/versus.py)
            through_model = isinstance(owner, ast.Attribute) and owner.attr in ("match", "versus") or \
                isinstance(owner, ast.Name) and owner.id == "m"
            if called in MODEL_ONLY and not through_model:
                breaches.append(f"line {node.lineno}: calls {called}() (the model's)")
            if called == "send" and isinstance(owner, ast.Name) and owner.id == "s":
                breaches.append(f"line {node.lineno}: sends to the session itself (the model sends)")
    return breaches


def test_the_app_only_routes() -> None:
    assert router_breaches(APP.read_text(encoding="utf-8")) == []


def test_the_guard_sees_a_breach() -> None:
    """The check itself can fail: an App that reads the game and imports the engine is caught."""
    breach = APP.read_text(encoding="utf-8") + (
        "\n\ndef peek(app: C1KApp) -> object:\n"
        "    from engine import observe\n\n"
        "    return observe(app.game, 1).hand\n")
    got = router_breaches(breach)
    assert any("imports engine" in b for b in got) and any("observe()" in b for b in got), got
