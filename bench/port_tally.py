"""How far the TypeScript port (conformance/PORT.md, issue #33) follows fresh matches: the map of what to port next,
and (`--gate`) CI's proof that it follows every fresh record.

    python bench/port_tally.py [N] [--seed S] [--max-commands M] [--agents PAIRS] [--own K] [--scenarios K]
                               [--vanilla K] [--golden] [--vary-options] [--gate] [--jobs J] [--keep DIR]

Makes N fresh match records with the Python engine — bundled deck pairs in turn (every ordered pair, mirrors
included), seeds S, S+1, … (default: from the clock, printed), with the default match options or
(`--vary-options`) options varied from record to record, each seat played by an agent: the k-th record by the
k-th pair of `--agents` in turn (default `greedy,random`: greedy against greedy, then random against random;
`a/b` seats agent a as p1 and b as p2, e.g. `greedy,random,search:1,search:2,greedy/search:2`) — and replays
them all with `conformance/replay`. The records say which agents played them (`agents`, in the start hash).
Prints how many replay to their last hash (exit 0), how many stop at a rule not ported yet (exit 3) and the
commonest such rules, and how many commands replayed before the stop; any record that *differs* (exit 1) or
is refused (exit 2) is a port bug, listed. Also the cost: the CPU seconds the Python engine took to make them
and the port to replay them, and the wall time.

`--own K` adds K records of the decks of own cards in conformance/fixtures/ (vanilla, keywords, effects,
paradox-own, digits: the records carry the cards' definitions) against bundled decks and each other.
`--scenarios K` adds K records begun from a scenario's or lesson's position (tests/scenarios, decks/lessons,
in turn). `--vanilla K` adds K greedy matches of the deck in conformance/fixtures/vanilla/. `--golden` adds the
record tests/test_records.py saves (ironbound against emberfall, seed 7, 60 random commands with a refused
attempt). `--jobs J` (default 2) makes the records in J processes and replays them in J.
`--gate` (CI): exit 1 if any record does not replay to its last hash — one that differs, is refused, or stops
at a rule not ported yet (nothing fresh may stop: the port follows every record the engine makes).
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import re
import resource
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
from engine.cards import CardDB, CardDef, bundled_cards_dir, load_card_db  # noqa: E402
from engine.decks import bundled_deck_paths, find_deck, load_deck  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rng import SplitMix64  # noqa: E402
from engine.scenario import build, load_scenario  # noqa: E402
from engine.selfplay import random_action  # noqa: E402
from engine.state import COMPENSATION_CHOICES, MatchOptions  # noqa: E402

FIXTURES = ROOT / "conformance" / "fixtures"
VANILLA = FIXTURES / "vanilla"
#: the decks of own cards (conformance/fixtures/), played by --own
OWN_DECKS = (VANILLA / "vanilla.toml", *sorted((FIXTURES / "keywords").glob("*.toml")),
             *sorted((FIXTURES / "effects").glob("*.toml")), FIXTURES / "digits" / "digits.toml")
#: the scenarios and lessons --scenarios starts from, in turn
SCENARIO_DIRS = (ROOT / "tests" / "scenarios", ROOT / "decks" / "lessons")


#: per record made: the cards with effects or abilities (or Actions) it plays, activates, Sets or uses as an
#: Interrupt (what the port needs beyond the spine to follow it to the end)
NEEDS: dict[str, set[str]] = {}


def agents_of(pair: str) -> tuple[str, str]:
    """`greedy` → (greedy, greedy); `greedy/search:2` → (greedy, search:2)."""
    a, _, b = pair.partition("/")
    return a, b or a


def play(g: Game, recorder: rec.Recorder, agent: str, seed: int, max_commands: int, name: str = "") -> str:
    """Plays the match to its end or `max_commands`, each seat by its agent (`agent`: a pair, `agents_of`);
    returns the record's JSON, which names the agents (and notes NEEDS[name])."""
    needs = NEEDS.setdefault(name, set())
    specs = agents_of(agent)
    rng = SplitMix64(seed)
    agents = [None if spec == "random" else make_agent(spec, seed + i) for i, spec in enumerate(specs)]
    while not g.is_terminal() and len(g.record) < max_commands:
        p = g.current_player()
        one = agents[p]
        action = random_action(g, rng) if one is None else agent_policy(one, one)(g)
        card = getattr(action, "card", None) or getattr(action, "source", None)
        if card is not None and g.defs.get(card) is not None and resolves(g.card(card)):
            needs.add(g.card(card).id)
        g.apply(action)
    r = recorder.record(g)
    r.agents = {seat: (spec, seed + i) for i, (seat, spec) in enumerate(zip(("p1", "p2"), specs, strict=True))}
    return r.to_json()


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


def bundled_record(k: int, seed: int, max_commands: int, vary: bool = False,
                   agents: tuple[str, ...] = ("greedy", "random")) -> tuple[str, str]:
    """The k-th fresh record: deck pair k (in turn), played by the k-th pair of `agents` (in turn); default
    options, or options varied by k."""
    db = load_card_db()
    paths = bundled_deck_paths()
    a, b = paths[k % len(paths)], paths[(k // len(paths)) % len(paths)]
    return deck_record(db, (a, b), k, seed, max_commands, vary, agents[k % len(agents)], f"{k:03d}")


def deck_record(db: CardDB, decks: tuple[Path, Path], k: int, seed: int, max_commands: int, vary: bool, agent: str,
                tag: str) -> tuple[str, str]:
    """A record of a match of two deck files (its name, its JSON)."""
    da, db_ = load_deck(decks[0], db), load_deck(decks[1], db)
    da.player, db_.player = "p1", "p2"
    opts = options_for(k) if vary else MatchOptions()
    g = Game.new(db, da, db_, seed, opts)
    name = f"{tag}-{decks[0].stem}-{decks[1].stem}-{agent.replace('/', '-').replace(':', '')}-{seed}"
    return name, play(g, rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g), agent, seed, max_commands, name)


def own_record(k: int, seed: int, max_commands: int, vary: bool, agents: tuple[str, ...]) -> tuple[str, str]:
    """The k-th record of a deck of own cards (OWN_DECKS in turn) against a bundled deck (even k) or another
    deck of own cards (odd k)."""
    db = load_card_db([bundled_cards_dir(), VANILLA / "cards", FIXTURES / "keywords" / "cards",
                       FIXTURES / "effects" / "cards", FIXTURES / "digits" / "cards"])
    own = OWN_DECKS[k % len(OWN_DECKS)]
    other = bundled_deck_paths()[k % 11] if k % 2 == 0 else OWN_DECKS[(k * 5 + 3) % len(OWN_DECKS)]
    pair = (own, other) if k % 4 < 2 else (other, own)
    return deck_record(db, pair, k, seed, max_commands, vary, agents[k % len(agents)], f"own{k:03d}")


def scenario_paths() -> list[Path]:
    return sorted(p for d in SCENARIO_DIRS for p in d.rglob("*.scenario.toml"))


def scenario_record(k: int, seed: int, max_commands: int, agents: tuple[str, ...]) -> tuple[str, str]:
    """The k-th record begun from a scenario's or lesson's position (every file of SCENARIO_DIRS in turn)."""
    paths = scenario_paths()
    path = paths[k % len(paths)]
    scn = load_scenario(path)
    g = build(scn)
    agent = agents[k % len(agents)]
    name = f"scn{k:03d}-{path.name.removesuffix('.scenario.toml')}-{agent.replace('/', '-').replace(':', '')}-{seed}"
    recorder = rec.Recorder(rec.Start.of_scenario(path.relative_to(ROOT).as_posix(), scn.data), g)
    return name, play(g, recorder, agent, seed, max_commands, name)


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


Task = tuple[str, int, int, int, bool, tuple[str, ...]]


def make(task: Task) -> tuple[str, str, set[str], float]:
    """One record (a worker of --jobs): (file name, JSON, the cards with effects it used, CPU seconds)."""
    kind, k, seed, max_commands, vary, agents = task
    t0 = time.process_time()
    if kind == "bundled":
        name, text = bundled_record(k, seed, max_commands, vary, agents)
    elif kind == "own":
        name, text = own_record(k, seed, max_commands, vary, agents)
    elif kind == "scenario":
        name, text = scenario_record(k, seed, max_commands, agents)
    elif kind == "vanilla":
        name, text = f"vanilla-{seed}", vanilla_record(seed, max_commands)
    else:
        name, text = "golden-test-records", golden_record()
    return f"{name}.json", text, NEEDS.get(name, set()) if kind != "vanilla" else set(), time.process_time() - t0


_LINE = re.compile(r"^(ok |DIFFERS |REFUSED )?(\S+?\.json)(: |:$)(.*)$")
_MATCHED = re.compile(r"the first state and (\d+) command\(s\) match; command \d+ of (\d+) '([^']*)': not ported yet: (.*)$")


def replay(paths: list[Path], jobs: int = 1) -> dict[str, tuple[int, str]]:
    """`conformance/replay` over the records, in `jobs` processes at once: {file name: (exit code of its own,
    its line)}."""
    subprocess.run(["bash", "-c", "cd conformance && . ./build.sh"], cwd=ROOT, check=True, timeout=900)   # once
    chunks = [paths[i::jobs] for i in range(jobs) if paths[i::jobs]]
    procs = [subprocess.Popen(["bash", str(ROOT / "conformance" / "replay"), *map(str, c)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for c in chunks]
    stdout = stderr = ""
    for proc in procs:
        o, e = proc.communicate(timeout=3600)
        stdout, stderr = stdout + o, stderr + e
    out: dict[str, tuple[int, str]] = {}
    for line in stdout.splitlines():
        m = _LINE.match(line)
        if m is None:
            continue
        code = {"ok ": 0, "DIFFERS ": 1, "REFUSED ": 2}.get(m.group(1) or "", 3)
        out[Path(m.group(2)).name] = (code, m.group(4))
    missing = [p.name for p in paths if p.name not in out]
    if missing:
        raise SystemExit(f"conformance/replay gave no verdict for {', '.join(missing[:5])}:\n{stdout[-2000:]}"
                         f"{stderr[-2000:]}")
    return out


def reason_of(text: str) -> str:
    """The rule a stop names, without the card numbers (so that stops at the same rule are counted together)."""
    return re.sub(r"#\d+", "#n", text)


def gate_failures(verdicts: dict[str, tuple[int, str]]) -> list[str]:
    """The records the gate fails on: every one that does not replay to its last hash — it differs (1), is
    refused (2) or stops at a rule not ported yet (3)."""
    return sorted(name for name, (code, _) in verdicts.items() if code != 0)


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int, nargs="?", default=40, help="fresh records of bundled decks (default 40)")
    ap.add_argument("--seed", type=int, default=None, help="the first seed (default: from the clock)")
    ap.add_argument("--max-commands", type=int, default=300)
    ap.add_argument("--agents", default="greedy,random",
                    help="the agents of the k-th record, in turn: a,b,… (a/b: p1 a, p2 b); default greedy,random")
    ap.add_argument("--own", type=int, default=0, help="records of the fixtures' decks of own cards")
    ap.add_argument("--scenarios", type=int, default=0, help="records begun from scenarios' and lessons' positions")
    ap.add_argument("--vanilla", type=int, default=0, help="greedy matches of the vanilla deck")
    ap.add_argument("--golden", action="store_true", help="the record tests/test_records.py saves")
    ap.add_argument("--vary-options", action="store_true", help="vary the match options from record to record")
    ap.add_argument("--gate", action="store_true", help="exit 1 on a record that does not replay to its last hash")
    ap.add_argument("--jobs", type=int, default=2, help="processes that make and replay the records (default 2)")
    ap.add_argument("--keep", type=Path, default=None, help="write the records here (kept)")
    args = ap.parse_args(argv)
    agents = tuple(a for a in args.agents.split(",") if a)
    for pair in agents:
        for spec in agents_of(pair):
            make_agent(spec)          # an unknown agent is refused here, before any record is made
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    print(f"seed {seed} (again: python bench/port_tally.py {args.n} --seed {seed} --max-commands {args.max_commands}"
          f"{f' --agents {args.agents}' if args.agents != 'greedy,random' else ''}"
          f"{f' --own {args.own}' if args.own else ''}{f' --scenarios {args.scenarios}' if args.scenarios else ''}"
          f"{f' --vanilla {args.vanilla}' if args.vanilla else ''}{' --golden' if args.golden else ''}"
          f"{' --vary-options' if args.vary_options else ''})", flush=True)
    tasks: list[Task] = [("bundled", k, seed + k, args.max_commands, args.vary_options, agents) for k in range(args.n)]
    tasks += [("own", k, seed + 100_000 + k, args.max_commands, args.vary_options, agents) for k in range(args.own)]
    tasks += [("scenario", k, seed + 200_000 + k, args.max_commands, False, agents) for k in range(args.scenarios)]
    tasks += [("vanilla", k, seed + k, args.max_commands, False, ("greedy",)) for k in range(args.vanilla)]
    tasks += [("golden", 0, 7, 60, False, ("random",))] if args.golden else []
    wall, cpu0 = time.perf_counter(), time.process_time() + cpu_children()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        if args.jobs > 1:
            with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                made = pool.map(make, tasks, chunksize=4)
        else:
            made = [make(t) for t in tasks]
        paths: list[Path] = []
        used: dict[str, set[str]] = {}     # per record: the cards with effects it used (NEEDS, from each worker)
        for name, text, needs, _ in made:
            paths.append(folder / name)
            paths[-1].write_text(text, encoding="utf-8")
            used[name] = needs
        made_wall = time.perf_counter() - wall
        made_cpu = time.process_time() + cpu_children() - cpu0
        cpu1 = cpu_children()
        verdicts = replay(paths, max(1, args.jobs))
        replay_cpu = cpu_children() - cpu1
    commands = sum(text.count('\n  {"do": ') for _, text, _, _ in made)
    by_agents: dict[str, list[float]] = {}
    for task, (_, _, _, cpu) in zip(tasks, made, strict=True):
        by_agents.setdefault(task[5][task[1] % len(task[5])] if task[0] in ("bundled", "own", "scenario") else task[0],
                             []).append(cpu)
    print(f"cost: made {len(made)} records ({commands} commands) in {made_cpu:.1f} CPU s of Python "
          f"({made_wall:.1f} s wall), replayed them in {replay_cpu:.1f} CPU s of TypeScript (Node.js, tsc checks "
          f"included); {time.perf_counter() - wall:.1f} s wall in all, {args.jobs} job(s)")
    print("  CPU s to make a record, median (max) by agents: " + ", ".join(
        f"{a} {statistics.median(c):.2f} ({max(c):.2f}, {len(c)} records)" for a, c in by_agents.items()))
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
        elif code == 3:            # at the start (how the match began), before any command
            stops[reason_of(text.removeprefix("not ported yet: "))] += 1
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
    needed = [cards for name, cards in used.items() if not name.startswith(("vanilla-", "golden-"))]
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
    bad = gate_failures(verdicts)
    for name in bad:
        print(f"{'PORT BUG' if verdicts[name][0] in (1, 2) else 'NOT FOLLOWED'}: {name}: {verdicts[name][1][:600]}")
    return 1 if args.gate and bad else 0


if __name__ == "__main__":
    sys.exit(main())
