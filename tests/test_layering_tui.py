"""The app's own house (issue #18): `c1k_tui/` in folders that show its layers, calling only downward.

- `model/`: the hot-seat table, sessions, views and recaps — no Textual, no Typer, no Rich (issue #32
  item 9: text comes as plain pieces with a kind, `model/styled.py`, styled in `screens/` and `cli/`),
  nothing of the screens or the CLI: it takes commands and returns values, so its rules are tested as
  plain functions.
- `sim/`: simulation as a library both the CLI and the Lab use — the engine only.
- `screens/`: the Textual shell; it may use the model and sim, never the CLI.
- `cli/`: the Typer entry points; they may use everything below.
And no import circle among the app's modules — not even through the imports of `if TYPE_CHECKING:` blocks
(issue #27: the app and the AI seats' controller imported each other, one of them for a type only): a
module that needs a type of a module above it names what it needs as a Protocol. And the text loop
against the AI (`c1k play --vs ai --text`) never loads Textual.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "c1k_tui"

#: each layer and the layers (of c1k_tui) and outside packages it may import
ALLOWED = {
    "model": ({"model"}, {"engine", "platformdirs"}),
    # (rich: the report as renderables, which both the CLI and the Lab show; the `c1k simulate` command
    # and its options are in cli/simulate_cmd.py)
    "sim": ({"sim", "model"}, {"engine", "plotext", "ray", "rich"}),
    "screens": ({"screens", "model", "sim"}, {"engine", "rich", "textual"}),
    "cli": ({"cli", "screens", "model", "sim"}, {"engine", "rich", "typer", "textual", "click"}),
}


#: (module, import) pairs that break the order, each with its reason: keep this short
EXCEPTIONS: set[tuple[str, str]] = set()


def _runtime_imports(tree: ast.Module, types: bool = False) -> list[str]:
    """Every module imported at run time (at the top or inside a function), and with `types` those of
    `if TYPE_CHECKING:` blocks too."""
    out: list[str] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if not types and isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                out.extend(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                out.append(child.module)
                if child.module in ("c1k_tui", "c1k_tui.model", "c1k_tui.screens", "c1k_tui.cli", "c1k_tui.sim"):
                    out.extend(f"{child.module}.{a.name}" for a in child.names)
            visit(child)

    visit(tree)
    return out


def scan(root: Path = APP, types: bool = False) -> dict[str, list[str]]:
    """module name (c1k_tui.layer.mod) -> the modules it imports at run time (with `types`, for types too)."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        name = ".".join(p for p in rel.parts if p != "__init__")
        found[name] = _runtime_imports(ast.parse(path.read_text(encoding="utf-8")), types)
    return found


def breaches(found: dict[str, list[str]]) -> list[str]:
    out: list[str] = []
    stdlib = __import__("sys").stdlib_module_names
    for mod, imports in found.items():
        parts = mod.split(".")
        if len(parts) < 3:
            continue
        layers, outside = ALLOWED.get(parts[1], (set(), set()))
        for imp in imports:
            top = imp.split(".")[0]
            if top == "c1k_tui":
                bits = imp.split(".")
                if len(bits) >= 2 and bits[1] in ALLOWED and bits[1] not in layers and (mod, imp) not in EXCEPTIONS:
                    out.append(f"{mod} imports {imp}")
            elif top not in stdlib and top not in outside and top not in ("decks", "pydantic"):
                out.append(f"{mod} imports {imp}")
    return out


def cycles(found: dict[str, list[str]]) -> list[list[str]]:
    mods = set(found)
    edges = {m: sorted({i for i in imps if i in mods and i != m}) for m, imps in found.items()}
    out: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in edges[m]:
            if state.get(n) == 1:
                out.append(stack[stack.index(n):] + [n])
            elif n not in state:
                dfs(n)
        stack.pop()
        state[m] = 2

    for m in sorted(mods):
        if m not in state:
            dfs(m)
    return out


def test_each_layer_imports_only_downward() -> None:
    found = scan()
    assert {m.split(".")[1] for m in found if m.count(".") >= 2} <= set(ALLOWED), "a module outside the layers"
    assert breaches(found) == []


def test_the_model_never_imports_textual_typer_or_rich() -> None:
    found = scan()
    model = {m: imps for m, imps in found.items() if m.startswith("c1k_tui.model.")}
    assert len(model) >= 8
    assert [(m, i) for m, imps in model.items() for i in imps
            if i.split(".")[0] in ("textual", "typer", "rich")] == []


def test_no_import_cycle_in_the_app() -> None:
    assert cycles(scan()) == []


def test_no_import_circle_even_for_types() -> None:
    assert cycles(scan(types=True)) == []


def test_the_text_loop_against_the_ai_loads_no_textual() -> None:
    """`c1k play --vs ai --text` (and piped `--ai-vs-ai`) build a VersusSession: a model class, no screen."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from c1k_tui.cli import versus_play\n"
            "from c1k_tui.model import builders, versus_session\n"
            "print(sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=APP.parent).stdout.strip()
    assert out == "[]", f"Textual loaded by the text loop against the AI: {out}"


def test_the_guard_sees_a_breach(tmp_path: Path) -> None:
    """A model module that imports Textual, and two modules that import each other, are caught."""
    pkg = tmp_path / "c1k_tui"
    (pkg / "model").mkdir(parents=True)
    (pkg / "model" / "bad.py").write_text("from textual.app import App\nfrom c1k_tui.model import worse\n")
    (pkg / "model" / "worse.py").write_text("def f():\n    from c1k_tui.model.bad import App\n")
    found = scan(pkg)
    assert breaches(found) == ["c1k_tui.model.bad imports textual.app"]
    assert cycles(found) == [["c1k_tui.model.bad", "c1k_tui.model.worse", "c1k_tui.model.bad"]]
    # a circle closed by an import for a type only: not one at run time, one all the same
    (pkg / "model" / "a.py").write_text("def f():\n    from c1k_tui.model import b\n")
    (pkg / "model" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                        "    from c1k_tui.model.a import f\n")
    assert ["c1k_tui.model.a", "c1k_tui.model.b", "c1k_tui.model.a"] not in cycles(scan(pkg))
    assert ["c1k_tui.model.a", "c1k_tui.model.b", "c1k_tui.model.a"] in cycles(scan(pkg, types=True))
