"""engine/ is a pure, deterministic rules engine: no UI imports, no randomness or clocks of its own."""

import re
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def test_engine_does_not_import_textual_or_rich() -> None:
    code = (
        "import sys, engine, engine.game, engine.scenario, engine.record, engine.selfplay, engine.decks;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'typer'));"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"engine imported: {out}"


def test_engine_source_has_no_random_hash_clock_or_float_state() -> None:
    banned = [
        (r"^\s*(import random|from random import)", "the random module"),
        (r"(?<![\w.])hash\(", "hash()"),
        (r"\btime\.(time|perf_counter|monotonic)\(|datetime\.now\(", "the wall clock"),
        (r"\bdeepcopy\b", "deepcopy"),
    ]
    problems = []
    for f in sorted(ENGINE.rglob("*.py")):
        for n, line in enumerate(f.read_text().splitlines(), 1):
            for pattern, what in banned:
                if re.search(pattern, line):
                    problems.append(f"{f.name}:{n}: {what}: {line.strip()}")
    assert not problems, "\n".join(problems)


def test_engine_does_not_import_the_rl_extra() -> None:
    """The rl extra (PettingZoo, OpenSpiel, NumPy) is imported only by engine.rl's modules that need it:
    importing the engine, or engine.rl's pure encoding, brings none of them (docs/rl.md)."""
    code = (
        "import sys, engine, engine.game, engine.ai, engine.sampling, engine.scenario, engine.record, engine.rl,"
        " engine.rl.encoding;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('pettingzoo', 'pyspiel', 'open_spiel', 'numpy', 'gymnasium'));"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "", f"engine imported: {out}"
