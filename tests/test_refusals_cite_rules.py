"""rules.md §3 (explanations) and C1K 10: every refusal the engine can produce — and every decision and
event — names a rule that docs/rules.md has a section for, and the log shows neither internal names nor
a rule id twice. Checked two ways: in the source (every `Refusal`, `IllegalAction` and `Decision` the
engine builds, with its rule as a literal or from one of a few places that hold rule ids), and in play
(random matches, with every listed action and a spread of illegal ones asked about at each decision)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine import Activate, Attack, Block, Choose, Decline, Interrupt, Pass, Play, SetCard, events_for
from engine.actions import Action
from engine.cards import INTERRUPT_EVENT_TEXT, load_card_db
from engine.decks import find_deck, load_deck
from engine.game import Game
from engine.rng import SplitMix64
from engine.sampling import random_action
from engine.state import WINDOW_RULE

ROOT = Path(__file__).resolve().parent.parent
RULE_IDS = frozenset(m.group(1) for m in re.finditer(r"^#{2,4}\s+`([^`]+)`",
                                                     (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), re.M))
#: where a rule id may come from other than a literal: a pending decision's rule, a refusal passed on, the
#: window's rule — each of them checked here on its own
PASSED_ON = {"d.rule", "r.rule", "g.pending.rule", "WINDOW_RULE[w]", "err.rule"}
#: the constructors that carry a rule, and the position of their rule argument
CARRIERS = {"Refusal": 0, "IllegalAction": 0, "Decision": 3, "ask": 3}
#: carriers that take the rule from their caller (checked at their calls, as carriers themselves)
PASS_THROUGH = {("decisions.py", "rule")}


def _rule_args() -> list[tuple[str, int, ast.expr]]:
    out: list[tuple[str, int, ast.expr]] = []
    for path in sorted((ROOT / "engine").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CARRIERS:
                i = CARRIERS[node.func.id]
                arg = node.args[i] if len(node.args) > i else next(
                    (k.value for k in node.keywords if k.arg == "rule"), None)
                if arg is not None:
                    out.append((path.name, node.lineno, arg))
    return out


def _locals(path: str, name: str) -> list[str]:
    """The string literals a local name is ever assigned in `path` (`rule = "AS Unit play"` …)."""
    tree = ast.parse((ROOT / "engine" / path).read_text(encoding="utf-8"))
    vals: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            vals += _values(node.value)
    return vals


def _values(e: ast.expr) -> list[str]:
    """The strings an expression may evaluate to: a literal, or either branch of `a if cond else b`."""
    if isinstance(e, ast.IfExp):
        return _values(e.body) + _values(e.orelse)
    return [e.value] if isinstance(e, ast.Constant) and isinstance(e.value, str) else ["<not a literal>"]


def test_every_refusal_decision_and_window_in_the_source_names_a_rule_of_rules_md() -> None:
    bad: list[str] = []
    seen = 0
    for path, line, arg in _rule_args():
        seen += 1
        if isinstance(arg, ast.Constant):
            if arg.value not in RULE_IDS:
                bad.append(f"engine/{path}:{line}: {arg.value!r} is not a rule id of docs/rules.md")
        elif isinstance(arg, ast.Name) and (path, arg.id) in PASS_THROUGH:
            continue
        elif isinstance(arg, ast.Name):
            vals = _locals(path, arg.id)
            if not vals or any(v not in RULE_IDS for v in vals):
                bad.append(f"engine/{path}:{line}: {arg.id} = {vals}: not rule ids of docs/rules.md")
        elif ast.unparse(arg) not in PASSED_ON:
            bad.append(f"engine/{path}:{line}: the rule {ast.unparse(arg)} can't be checked here")
    assert seen > 90 and not bad, "\n".join(bad)
    assert not set(WINDOW_RULE) - RULE_IDS


def _candidates(g: Game, p: int) -> list[Action]:
    """The listed actions and a spread of illegal ones: every card id with every command."""
    acts: list[Action] = list(g.legal_actions()) if g.current_player() == p else []
    for c in sorted(g.defs)[1::3]:   # (card numbers are drawn at random: every third one, and the next)
        acts += [Play(c), Activate(c), Activate(c, 2), SetCard(c), Attack((c,)), Block(((c, c + 1),)),
                 Interrupt(c)]
    acts += [Pass(), Decline(), Choose((1,)), Choose((99,)), Attack(()), Block(())]
    return acts


def test_every_refusal_in_play_names_a_rule_of_rules_md_and_no_log_line_shows_an_internal_name() -> None:
    db = load_card_db()
    decks = ["ironbound", "emberfall", "null-silence", "paradox-flux", "veil-masquerade", "solace-null-wardens"]
    bad: set[str] = set()
    asked = 0
    for seed in range(6):
        a, b = decks[seed % len(decks)], decks[(seed + 1) % len(decks)]
        g = Game.new(db, load_deck(find_deck(a), db), load_deck(find_deck(b), db), seed)
        rng = SplitMix64(seed)
        steps = 0
        while not g.is_terminal() and steps < 400:
            assert g.decision.rule in RULE_IDS, g.decision
            if steps % 7 == 0:
                for p in (0, 1):
                    for act in _candidates(g, p):
                        r = g.why_not(act, p)
                        asked += 1
                        if r is not None and r.rule not in RULE_IDS:
                            bad.add(f"{act} by p{p + 1} in {g.window}: {r}")
            g.apply(random_action(g, rng))
            steps += 1
        for p in (-1, 0, 1):
            for e in events_for(g, p):
                if e.rule not in RULE_IDS:
                    bad.add(f"event {e.kind} cites {e.rule!r}: {e.text}")
                if e.text.rstrip().endswith(f"({e.rule})"):
                    bad.add(f"event {e.kind} shows its rule twice: {e.text} ({e.rule})")
                for name in INTERRUPT_EVENT_TEXT:
                    if name in e.text:
                        bad.add(f"event {e.kind} shows the internal name {name}: {e.text}")
    assert asked > 1000 and not bad, "\n".join(sorted(bad))
