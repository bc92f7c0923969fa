"""The engine's own house (issue #7, docs/architecture.md "Layers"): the rules live in small modules that
call only downward. Each rule module imports (at run time: `if TYPE_CHECKING:` blocks are types only)
engine modules of the foundation or of a lower layer — never one above it, never a service module
(view, AI, records, scenarios …). A rule that needs a higher layer's work is handed a callback through a
table the higher layer fills (pipeline stages, effect verbs, turn steps, continuations)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"

#: plain data and text, below every rule: no rule module among them
FOUNDATION = ("canonical", "rng", "cards", "values", "actions", "events", "state", "continuations", "decks", "chunked",
              "face", "safeio", "errors")

#: the rule modules, lowest first (docs/architecture.md has the same list, with what each one holds)
LAYERS = (
    "core",        # the match state and its small queries (engine-internal API)
    "triggers",    # queueing triggered abilities (C1K 8)
    "zones",       # moving cards: draw, enter play, leave play, graveyard
    "pipeline",    # the event pipeline: damage, heal, destroy through its stages (rules.md §4)
    "keywords",    # every keyword's handler, in rules.md §6 order
    "voidcast",    # Null's delayed casting (KW Voidcast)
    "targets",     # target candidates and target slots (C1K 6)
    "legality",    # refusals: why an action is not legal now
    "options",     # legal actions and explanations
    "sba",         # state-based actions
    "decisions",   # asking a player: priority, Interrupts, permissions
    "effects",     # one function per effect verb, in a table
    "interrupts",  # asking, using or declining an Interrupt (C1K 7)
    "paradox",     # Flux and Thread (Paradox)
    "stack",       # triggers to the stack, and resolving the top item
    "combat",      # declarations' steps and combat damage (C1K 4)
    "turn",        # the turn manager: the only code that advances windows
    "priority",    # passing, and the Endless Loop watch
    "parsing",     # command text to actions, from the typist's view (rules.md §7a)
    "commands",    # carrying out a player's action
    "game",        # the façade
)


def _runtime_imports(path: Path) -> list[tuple[int, str]]:
    """(line, engine module) of every import outside `if TYPE_CHECKING:` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            typing_only |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "engine":
                out += [(node.lineno, a.name) for a in node.names]
            elif node.module.startswith("engine."):
                out.append((node.lineno, node.module.split(".")[1]))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[1]) for a in node.names if a.name.startswith("engine.")]
    return out


@pytest.mark.parametrize("module", LAYERS)
def test_each_rule_module_imports_only_modules_below_it(module: str) -> None:
    allowed = set(FOUNDATION) | set(LAYERS[:LAYERS.index(module)])
    bad = [f"line {n}: engine.{m}" for n, m in _runtime_imports(ENGINE / f"{module}.py") if m not in allowed]
    assert not bad, f"engine/{module}.py imports modules at or above its layer: {bad}"


def test_the_foundation_imports_no_rule_module() -> None:
    for module in FOUNDATION:
        bad = [m for _, m in _runtime_imports(ENGINE / f"{module}.py") if m not in FOUNDATION]
        assert not bad, f"engine/{module}.py (foundation) imports {bad}"


def test_every_engine_module_has_a_place() -> None:
    services = {"__init__", "view", "ai", "sampling", "selfplay", "scenario", "lessons", "record", "validation", "vectors",
                "cardset", "schemas"}
    found = {p.stem for p in ENGINE.glob("*.py")}
    assert found == set(FOUNDATION) | set(LAYERS) | services, "add the new module to LAYERS (and docs/architecture.md)"


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text("from typing import TYPE_CHECKING\nfrom engine.turn import goto\nfrom engine import stack\n"
                 "if TYPE_CHECKING:\n    from engine.game import Game\n", encoding="utf-8")
    assert _runtime_imports(f) == [(2, "turn"), (3, "stack")]


def test_keywords_py_lists_every_keyword_of_the_rules_in_their_order() -> None:
    """engine/keywords.py is where a newcomer looks for a keyword: its table names every keyword of
    docs/rules.md §6, in the same order, and where its rule lives (each name is then checked)."""
    root = ENGINE.parent
    rules = re.findall(r"^### `KW (\w+)`", (root / "docs" / "rules.md").read_text(encoding="utf-8"), flags=re.M)
    import engine.keywords

    doc = engine.keywords.__doc__ or ""
    rows = [line.split("|")[1:4] for line in doc.splitlines() if line.startswith("| ") and "---" not in line][1:]
    listed = [k.strip() for row in rows for k in row[0].split(",")]
    assert listed == rules, "keywords.py's table must list the keywords of rules.md §6, in order"
    for _, here, elsewhere in rows:
        for name in re.findall(r"`(\w+)`", here):
            assert hasattr(engine.keywords, name), f"keywords.py's table names {name}, which it doesn't define"
        for mod, name in re.findall(r"(\w+)\.(\w+)", elsewhere):
            if name != "py" and (ENGINE / f"{mod}.py").exists():
                module = __import__(f"engine.{mod}", fromlist=[name])
                assert hasattr(module, name), f"keywords.py's table names {mod}.{name}, which doesn't exist"


def _every_import(path: Path) -> set[str]:
    """The engine modules a module imports in any way: at run time, inside a function, or for types only."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "engine":
                out |= {a.name for a in node.names if (ENGINE / f"{a.name}.py").exists()}
            elif node.module.startswith("engine."):
                out.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[1] for a in node.names if a.name.startswith("engine.")}
    return out - {path.stem}


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each circle of imports (a strongly connected group of two or more modules), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_no_import_circle_in_the_engine_not_even_for_types() -> None:
    """issue #32 item 8: card text (`describe_effects`, `mode_words`) lives beside the card model in
    engine/cards.py, so no engine module imports one that imports it back — at run time, inside a
    function or for types only (the package's `__init__` gathers the public names and is left out)."""
    graph = {p.stem: _every_import(p) for p in ENGINE.glob("*.py") if p.stem != "__init__"}
    assert import_circles(graph) == []


def test_the_circle_check_sees_a_circle() -> None:
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
