"""How far the TypeScript port (conformance/PORT.md, issue #33) follows fresh matches: the map of what to port next.

    python bench/port_tally.py [N] [--seed S] [--max-commands M] [--vanilla K] [--golden] [--vary-options] [--gate]
                               [--keep DIR]

Makes N fresh match records with the Python engine — bundled deck pairs in turn (every ordered pair, mirrors
included), greedy against greedy and random against random alternately, seeds S, S+1, … (default: from the
clock, printed), with the default match options or (`--vary-options`) options varied from record to record —
and replays them all with `conformance/replay`. Prints how many replay to their last hash
(exit 0), how many stop at a rule not ported yet (exit 3) and the commonest such rules, and how many commands
replayed before the stop; any record that *differs* (exit 1) or is refused (exit 2) is a port bug, listed.

`--vanilla K` adds K greedy matches of the deck in conformance/fixtures/vanilla/ (units and relics with no
effect: every rule they use is ported, so each must replay to its last hash). `--golden` adds the record
tests/test_records.py saves (ironbound against emberfall, seed 7, 60 random commands with a refused attempt).
`--gate` (CI): exit 1 if any record differs or is refused, or a vanilla record does not replay to its last
hash; a record that stops at a rule not ported yet is no failure (the gate is "everything ported replays
exactly, nothing unported is guessed").
"""

from __future__ import annotations

import argparse
import collections
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import record as rec  # noqa: E402
from engine.actions import IllegalAction, Play  # noqa: E402
from engine.ai import agent_policy, make_agent  # noqa: E402
from engine.cards import CardDef, bundled_cards_dir, load_card_db  # noqa: E402
from engine.decks import bundled_deck_paths, find_deck, load_deck  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rng import SplitMix64  # noqa: E402
from engine.selfplay import random_action  # noqa: E402
from engine.state import COMPENSATION_CHOICES, MatchOptions  # noqa: E402

VANILLA = ROOT / "conformance" / "fixtures" / "vanilla"


#: per record made: the cards with effects or abilities (or Actions) it plays, activates, Sets or uses as an
#: Interrupt (what the port needs beyond the spine to follow it to the end)
NEEDS: dict[str, set[str]] = {}


def play(g: Game, recorder: rec.Recorder, agent: str, seed: int, max_commands: int, name: str = "") -> str:
    """Plays the match to its end or `max_commands`; returns the record's JSON (and notes NEEDS[name])."""
    needs = NEEDS.setdefault(name, set())
    policy = agent_policy(make_agent("greedy", seed), make_agent("greedy", seed + 1)) if agent == "greedy" else None
    rng = SplitMix64(seed)
    while not g.is_terminal() and len(g.record) < max_commands:
        action = policy(g) if policy is not None else random_action(g, rng)
        card = getattr(action, "card", None) or getattr(action, "source", None)
        if card is not None and g.defs.get(card) is not None and resolves(g.card(card)):
            needs.add(g.card(card).id)
        g.apply(action)
    return recorder.record(g).to_json()


def resolves(c: CardDef) -> bool:
    """A card whose play or use needs the resolution (effects, abilities, a Voidcast cost: engine/effects.py,
    stack.py, triggers.py) — beyond the spine, whose keywords are ported (conformance/PORT.md)."""
    return c.type == "action" or bool(c.effect or c.abilities) or c.voidcast is not None


def options_for(k: int) -> MatchOptions:
    """Match options varied by k (--vary-options): who goes first, the compensation, the first draw, slots,
    the actor keeping priority, a turn limit."""
    return MatchOptions(first=("p1", "p2", "random")[k % 3], compensation=COMPENSATION_CHOICES[k % len(COMPENSATION_CHOICES)],
                        first_player_draws=k % 4 == 1, unit_slots=(6, 4, 7)[k % 5 % 3], relic_slots=(3, 2)[k % 2],
                        actor_keeps_priority=k % 7 == 3, max_turns=(0, 0, 12)[k % 3])


def bundled_record(k: int, seed: int, max_commands: int, vary: bool = False) -> tuple[str, str]:
    """The k-th fresh record: deck pair k (in turn), greedy (even k) or random (odd k); default options, or
    options varied by k."""
    db = load_card_db()
    paths = bundled_deck_paths()
    a, b = paths[k % len(paths)], paths[(k // len(paths)) % len(paths)]
    da, db_ = load_deck(a, db), load_deck(b, db)
    da.player, db_.player = "p1", "p2"
    opts = options_for(k) if vary else MatchOptions()
    g = Game.new(db, da, db_, seed, opts)
    agent = "greedy" if k % 2 == 0 else "random"
    name = f"{k:03d}-{a.stem}-{b.stem}-{agent}-{seed}"
    return name, play(g, rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g), agent, seed, max_commands, name)


def vanilla_record(seed: int, max_commands: int) -> str:
    vdb = load_card_db([bundled_cards_dir(), VANILLA / "cards"])
    da, db_ = load_deck(VANILLA / "vanilla.toml", vdb), load_deck(VANILLA / "vanilla.toml", vdb)
    da.player, db_.player = "p1", "p2"
    opts = MatchOptions(compensation="card", first=("p1", "p2", "random")[seed % 3])
    g = Game.new(vdb, da, db_, seed, opts)
    return play(g, rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g), "greedy", seed, max_commands)


def golden_record() -> str:
    """tests/test_records.py `_match()`: 60 random commands, a refused attempt at command 4 (C1K 10)."""
    db = load_card_db()
    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    decks[0].player, decks[1].player = "p1", "p2"
    g = Game.new(db, decks[0], decks[1], 7)
    recorder = rec.Recorder(rec.Start.of_decks(decks, 7), g)
    agent = SplitMix64(7)
    while len(g.record) < 60 and not g.is_terminal():
        if len(g.record) == 3 and g.pending.kind == "priority":
            try:
                g.apply(Play(9999), g.current_player())
            except IllegalAction:
                continue
        g.apply(random_action(g, agent))
    return recorder.record(g).to_json()


_LINE = re.compile(r"^(ok |DIFFERS |REFUSED )?(\S+?\.json)(: |:$)(.*)$")
_MATCHED = re.compile(r"the first state and (\d+) command\(s\) match; command \d+ of (\d+) '([^']*)': not ported yet: (.*)$")


def replay(paths: list[Path]) -> dict[str, tuple[int, str]]:
    """`conformance/replay` over the records: {file name: (exit code of its own, its line)}."""
    res = subprocess.run(["bash", str(ROOT / "conformance" / "replay"), *map(str, paths)], capture_output=True,
                         text=True, timeout=3600)
    out: dict[str, tuple[int, str]] = {}
    for line in res.stdout.splitlines():
        m = _LINE.match(line)
        if m is None:
            continue
        code = {"ok ": 0, "DIFFERS ": 1, "REFUSED ": 2}.get(m.group(1) or "", 3)
        out[Path(m.group(2)).name] = (code, m.group(4))
    missing = [p.name for p in paths if p.name not in out]
    if missing:
        raise SystemExit(f"conformance/replay gave no verdict for {', '.join(missing[:5])}:\n{res.stdout[-2000:]}"
                         f"{res.stderr[-2000:]}")
    return out


def reason_of(text: str) -> str:
    """The rule a stop names, without the card numbers (so that stops at the same rule are counted together)."""
    return re.sub(r"#\d+", "#n", text)


def gate_failures(verdicts: dict[str, tuple[int, str]], all_ported: set[str]) -> list[str]:
    """The records the gate fails on: any that differs (1) or is refused (2), and any of `all_ported` (records
    that need only ported rules) that does not replay to its last hash. A stop at a rule not ported yet (3)
    is no failure."""
    return sorted(name for name, (code, _) in verdicts.items() if code in (1, 2) or (name in all_ported and code != 0))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, nargs="?", default=40, help="fresh records of bundled decks (default 40)")
    ap.add_argument("--seed", type=int, default=None, help="the first seed (default: from the clock)")
    ap.add_argument("--max-commands", type=int, default=300)
    ap.add_argument("--vanilla", type=int, default=0, help="greedy matches of the vanilla deck (all ported)")
    ap.add_argument("--golden", action="store_true", help="the record tests/test_records.py saves")
    ap.add_argument("--vary-options", action="store_true", help="vary the match options from record to record")
    ap.add_argument("--gate", action="store_true", help="exit 1 on a record that differs or is refused")
    ap.add_argument("--keep", type=Path, default=None, help="write the records here (kept)")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    print(f"seed {seed} (again: python bench/port_tally.py {args.n} --seed {seed} --max-commands {args.max_commands}"
          f"{f' --vanilla {args.vanilla}' if args.vanilla else ''}{' --golden' if args.golden else ''}{' --vary-options' if args.vary_options else ''})")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        paths: list[Path] = []
        vanilla: set[str] = set()
        for k in range(args.n):
            name, text = bundled_record(k, seed + k, args.max_commands, args.vary_options)
            paths.append(folder / f"{name}.json")
            paths[-1].write_text(text, encoding="utf-8")
        for k in range(args.vanilla):
            paths.append(folder / f"vanilla-{seed + k}.json")
            paths[-1].write_text(vanilla_record(seed + k, args.max_commands), encoding="utf-8")
            vanilla.add(paths[-1].name)
        if args.golden:
            paths.append(folder / "golden-test-records.json")
            paths[-1].write_text(golden_record(), encoding="utf-8")
        verdicts = replay(paths)
    codes = collections.Counter(code for code, _ in verdicts.values())
    stops: collections.Counter[str] = collections.Counter()
    verbs: collections.Counter[str] = collections.Counter()
    done = total = 0
    for code, text in verdicts.values():
        m = _MATCHED.search(text)
        if code == 3 and m is not None:
            stops[reason_of(m.group(4))] += 1
            verbs[m.group(3).split(":", 1)[1].split()[0]] += 1
            done += int(m.group(1))
            total += int(m.group(2))
        elif code == 0:
            whole = re.search(r"and (\d+) commands\)", text)
            done += int(whole.group(1)) if whole else 0
            total += int(whole.group(1)) if whole else 0
    print(f"{len(verdicts)} records: {codes[0]} replay to their last hash, {codes[3]} stop at a rule not ported yet, "
          f"{codes[1]} differ, {codes[2]} refused as malformed")
    if total:
        print(f"commands replayed before the stop: {done} of {total} ({100 * done / total:.1f}%)")
    if verbs:
        print("the command at the stop: " + ", ".join(f"{v} {n}" for v, n in verbs.most_common()))
    modules: collections.Counter[str] = collections.Counter()
    for reason, count in stops.items():
        found = re.findall(r"\((engine/[^)]*)\)", reason)
        modules[found[-1] if found else "?"] += count
    print("the stops by the Python modules they need:")
    for mods, count in modules.most_common():
        print(f"  {count:4d}  {mods}")
    print("the commonest stops:")
    for reason, count in stops.most_common(12):
        print(f"  {count:4d}  {reason}")
    needed = [cards for name, cards in NEEDS.items() if name]
    if needed and codes[3]:
        print(f"beyond the first stop: the cards with effects or abilities each record uses (played, "
              f"activated, Set, Interrupts) — {sum(not c for c in needed)} of {len(needed)} records use none; "
              f"the median record uses {statistics.median(len(c) for c in needed):.0f}; the cards most records need:")
        per_card = collections.Counter(c for cards in needed for c in cards)
        print("  " + ", ".join(f"{c} {n}" for c, n in per_card.most_common(15)))
        order = [c for c, _ in per_card.most_common()]
        for k in (1, 5, 10, 20, 40):
            have = set(order[:k])
            print(f"  with the {k} most needed ported: {sum(cards <= have for cards in needed)} of {len(needed)} records "
                  "need no other card with effects")
    bad = gate_failures(verdicts, vanilla)
    for name in bad:
        print(f"PORT BUG? {name}: {verdicts[name][1][:600]}")
    return 1 if args.gate and bad else 0


if __name__ == "__main__":
    sys.exit(main())
