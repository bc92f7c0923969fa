"""Writes conformance/fixtures/: the Python engine's own output, which the TypeScript port's layer checks
(conformance/src/layers.ts) must reproduce. Reproducible: the same engine writes the same bytes.

    python conformance/fixtures.py [OUT_DIR]      (default: conformance/fixtures; run from the repository)

- cards.json: the bundled card DB as the engine uses it (every field, defaults filled in) and each card's
  content digest (engine/cardset.py);
- decks.json: each bundled deck file: name, Champion, Seat, [cards] in file order, the library it makes;
- turn-table.json: the turn structure table's rows and the structures the Seats' turn hooks make;
  loop-keys.json: the Endless Loop watch's loop key of states of three records below; loop-keys-effects.json:
  the same for three of the effects records (stack items, the Void, Thread branches, Interrupts, Flux);
- commands.json: every command of the records below, parsed (engine/actions.py Command) and printed back,
  plus hand-written spellings and malformed lines with their message (formats.md §1; a misspelt verb's
  "did you mean");
- logs.json: the whole match log of some records and what each player reads of it, and what each player
  reads of every scenario's (engine/events.py); suggestions.json: engine/cards.py suggest (difflib) on
  misspelt names, ids, keywords and verbs;
- first-states.json: the first state of matches of every deck pair with varied seeds and options (its
  canonical bytes and hash: docs/determinism.md §2–§5);
- records/*.json: match records (formats.md §6), for `conformance/replay`: random matches (random-*) and
  matches of passes, "attack none" and cleanup discards only, up to the first decision that needs another
  command (passes-*); and matches of the decks in fixtures/vanilla/ (cards with no effect) in which a
  player plays one of them whenever they can, and otherwise passes, attacks with nothing or discards (plays-*),
  greedy-against-greedy matches of that deck (combat-*), and such matches with attempts the rules refuse
  (refusals-*); greedy and random matches of the decks in fixtures/keywords/ (bundled units whose only
  rules are keywords: keywords-*), and matches of passes to the end of both libraries (Deck Exhaustion:
  exhaustion-*); and matches of the deck in fixtures/effects/ (bundled cards whose plays have effects and
  no keyword), greedy and random (effects-*), and against fixtures/effects/counters.toml (Nullify Actions,
  a relic with an Interrupt: counters-*); and matches of fixtures/effects/paradox.toml (Flux, Thread,
  Voidcast: paradox-*) and of paradox-own.toml (own cards: trigger_target and thread choices: own-*);
  matches begun from a scenario's or lesson's position (scenario-*: SCENARIO_STARTS, and OWN_POSITION with own
  cards) and matches of fixtures/digits/digits.toml, whose card ids are all digits (digits-*);
- scenarios.json: the verdict of `c1k scenario check` (passed, or failed and at which step) on every scenario
  of tests/scenarios, decks/lessons and fixtures/scenarios (the port's own, some failing on purpose).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine import record as rec
from engine.actions import (
    Action,
    Activate,
    Attack,
    Block,
    Choose,
    Concede,
    Decline,
    IllegalAction,
    Interrupt,
    MalformedCommand,
    Pass,
    Play,
    SetCard,
    command_to_action,
    parse_command,
)
from engine.ai import agent_policy, make_agent
from engine.cards import CardDB, CardDef, CardFileError, bundled_cards_dir, load_card_db
from engine.cardset import card_digest
from engine.decks import bundled_deck_paths, load_deck
from engine.events import events_for, log_lines_for
from engine.game import Game
from engine.priority import loop_key
from engine.rng import SplitMix64
from engine.scenario import ScenarioError, build, check_files, load_scenario, scenario_paths
from engine.selfplay import random_action
from engine.state import COMPENSATION_CHOICES, TURN_TABLE, WINDOWS, MatchOptions
from engine.turn import seat_structure


def card_json(c: CardDef, digest: str) -> dict[str, Any]:
    return {
        "id": c.id, "name": c.name, "type": c.type, "realm": c.realm, "cost": c.cost, "speed": c.speed,
        "power": c.power, "health": c.health, "life": c.life, "voidcast": c.voidcast,
        "keywords": dict(c.keywords), "text": c.text,
        "effect": [e.model_dump() for e in c.effect], "abilities": [a.model_dump() for a in c.abilities],
        "modifiers": dict(c.modifiers), "token": c.token, "evolve": c.evolve.model_dump() if c.evolve else None,
        "act": [i for i, _ in c.act], "branches": c.branches, "nullify": c.hand_interrupt is not None,
        "digest": digest,
    }


def command_json(text: str) -> dict[str, Any]:
    try:
        cmd = parse_command(text)
    except MalformedCommand as err:
        return {"text": text, "malformed": str(err)}   # the message, "did you mean" included
    out: dict[str, Any] = {"text": text, "verb": cmd.verb, "player": cmd.player, "refs": list(cmd.refs),
                           "pairs": [list(p) for p in cmd.pairs], "targets": list(cmd.targets),
                           "numbers": list(cmd.numbers), "slot": cmd.slot, "mode": cmd.mode,
                           "voidcast": cmd.voidcast}
    try:
        out["printed"] = str(command_to_action(cmd))
    except MalformedCommand:
        out["printed"] = None   # names, not ids: printing needs a game
    return out


#: spellings a person types (formats.md §1) and lines that are not commands
TYPED = [
    "PASS", "  pass  ", "p2: pass", "P1:pass", "play \"Ash Warden\" slot 2 target #7 target p2 mode 1 pay voidcast",
    "play 'ash warden'", "activate #12 2 target #3", "activate #12", "attack #1 #2 #3", "attack NONE",
    "block #4->#5, #6 -> #7", "block none", "interrupt #9 target #2", "decline", "choose 3 1 2", "set #44",
    "concede", "Mira: play #3", "play #3 Slot 1", "block #1 -> #2,#3->#4",
    "", "pass now", "play", "play #x", "play #1234567", "choose", "choose a", "choose 1234567", "set #1 #2",
    "attack", "block #1 #2", "block #1 -> ", "play \"unclosed", "fly #3", "play #3 slot", "play #3 slot two",
    "activate #3 target", "interrupt #3 mode 2", "play #3 pay mana", "choose ²", "play #²", "a b: pass",
    "attak none", "pas", "concde", "chose 1", "p1: intrerupt #3", "ATACK #1", "xyzzy", "blokc none",
]


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "fixtures")
    (out / "records").mkdir(parents=True, exist_ok=True)
    db = load_card_db()
    cards = [card_json(db.by_id[i], card_digest(db, i)) for i in sorted(db.by_id)]
    write(out / "cards.json", {"format": "c1k-fixtures/cards", "cards": cards})
    decks = []
    for p in bundled_deck_paths():
        d = load_deck(p, db)
        decks.append({"file": p.name, "name": d.name, "champion": d.champion.id, "seat": d.seat.id,
                      "cards": [[k, v] for k, v in d.counts.items()], "library": [c.id for c in d.library]})
    write(out / "decks.json", {"format": "c1k-fixtures/decks", "decks": decks})
    paths = bundled_deck_paths()
    states = []
    for k in range(len(paths) * len(paths)):
        a, b = k % len(paths), (k // len(paths)) % len(paths)
        seed = (k * 0x9E3779B97F4A7C15 + 17) % 2**64
        opts = MatchOptions(first=("p1", "p2", "random")[k % 3], first_player_draws=k % 4 == 3,
                            compensation=COMPENSATION_CHOICES[k % len(COMPENSATION_CHOICES)],
                            unit_slots=(6, 4, 7)[k % 5 % 3], relic_slots=(3, 2)[k % 2], max_turns=k % 3)
        g = Game.new(db, load_deck(paths[a], db), load_deck(paths[b], db), seed, opts)
        states.append({"decks": [paths[a].name, paths[b].name], "seed": str(seed), "options": opts.to_dict(),
                       "bytes": g.snapshot_bytes().decode("utf-8"), "hash": g.state_hash()})
    write(out / "first-states.json", {"format": "c1k-fixtures/first-states", "states": states})
    texts: list[str] = []
    for k, (a, b, seed) in enumerate([(0, 1, 7), (2, 3, 11), (4, 5, 12345), (1, 4, 2**63 + 5)]):
        da, db_ = load_deck(paths[a], db), load_deck(paths[b], db)
        da.player, db_.player = "p1", "p2"
        g = Game.new(db, da, db_, seed)
        recorder = rec.Recorder(rec.Start.of_decks([da, db_], seed), g)
        agent = SplitMix64(seed ^ 0x5EED)
        while len(g.record) < 200 and not g.is_terminal():
            g.apply(random_action(g, agent))
        r = recorder.record(g)
        (out / "records" / f"random-{k}.json").write_text(r.to_json(), encoding="utf-8")
        texts += [c["do"] for c in json.loads(r.to_json())["commands"]]
    # records of passes, "attack none" and the cleanup discard only, to the first decision that needs
    # anything else (or 120 commands)
    for k, (a, b, seed, first) in enumerate([(0, 1, 3, "p1"), (5, 2, 2**64 - 1, "p2"), (3, 3, 99, "random")]):
        da, db_ = load_deck(paths[a], db), load_deck(paths[b], db)
        da.player, db_.player = "p1", "p2"
        opts = MatchOptions(first=first, first_player_draws=k == 2)
        g = Game.new(db, da, db_, seed, opts)
        recorder = rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g)
        while not g.is_terminal() and len(g.record) < 120:
            legal = [a for a in g.legal_actions() if isinstance(a, Pass | Choose) or (isinstance(a, Attack) and not a.units)]
            if not legal:
                break
            after = g.clone()
            after.apply(legal[0])
            # it leads to a decision other than priority, attackers or the cleanup discard: stop before it
            if after.pending.kind not in ("priority", "attackers", "none") and not (
                    after.choice is not None and after.choice.kind == "discard"):
                break
            g.apply(legal[0])
        r = recorder.record(g)
        (out / "records" / f"passes-{k}.json").write_text(r.to_json(), encoding="utf-8")
    # records of passes, "attack none", cleanup discards and plays of units and relics with no effect,
    # no ability and no keyword (the port's next layer, conformance/PORT.md): a play whenever there is one
    vanilla = Path(__file__).parent / "fixtures" / "vanilla"
    vdb = load_card_db([bundled_cards_dir(), vanilla / "cards"])
    for k, seed in enumerate([5, 2**64 - 3, 4242]):
        da, db_ = load_deck(vanilla / "vanilla.toml", vdb), load_deck(vanilla / "vanilla.toml", vdb)
        da.player, db_.player = "p1", "p2"
        g = Game.new(vdb, da, db_, seed)
        agent = SplitMix64(seed ^ 0x5EED)
        recorder = rec.Recorder(rec.Start.of_decks([da, db_], seed), g)
        while not g.is_terminal() and len(g.record) < 160:
            moves = [a for a in g.legal_actions() if isinstance(a, Pass | Choose) or (isinstance(a, Attack) and not a.units)
                     or (isinstance(a, Play) and plain(g.card(a.card)))]
            if not moves:
                break
            plays = [a for a in moves if isinstance(a, Play)]
            act = plays[agent.below(len(plays))] if plays else moves[0]   # a play when there is one
            after = g.clone()
            after.apply(act)
            if after.pending.kind not in ("priority", "attackers", "none") and not (
                    after.choice is not None and after.choice.kind == "discard"):
                break
            g.apply(act)
        r = recorder.record(g)
        (out / "records" / f"plays-{k}.json").write_text(r.to_json(), encoding="utf-8")
    # greedy against greedy with those decks (no Coin: it is an Action), to the end or 300 commands:
    # plays, attacks, blocks, combat damage and destroyed units (combat-*)
    for k, seed in enumerate([8, 2**63 + 11, 777]):
        (out / "records" / f"combat-{k}.json").write_text(vanilla_greedy(vdb, vanilla, k, seed, None), encoding="utf-8")
    # greedy against greedy with those decks, and at one priority decision in three an attempt the rules
    # refuse (a card that isn't playable now or is hidden, a declaration out of its window, a choice that
    # isn't asked, a slot, target, mode or Voidcast payment it can't have): refused attempts stay in the
    # record and pass priority (C1K 10); the refusal's text is in the command hash (refusals-*)
    for k, seed in enumerate([31, 2**64 - 7, 9090]):
        text = vanilla_greedy(vdb, vanilla, k, seed, SplitMix64(seed ^ 0xBAD))
        (out / "records" / f"refusals-{k}.json").write_text(text, encoding="utf-8")
    # the verdict of `c1k scenario check` on every scenario (the tests', the lessons', and the port's own in
    # fixtures/scenarios/, some of which fail on purpose): `conformance/replay --scenarios --verdicts`
    # compares the port's verdict on each file with it
    root = Path(__file__).resolve().parent.parent
    here = [Path("tests/scenarios"), Path("decks/lessons"), Path("conformance/fixtures/scenarios")]
    verdicts = [{"path": Path(r.path).as_posix(), "ok": r.ok, "steps_run": r.steps_run}
                for r in check_files([root / p for p in here])]
    for v in verdicts:
        v["path"] = Path(str(v["path"])).relative_to(root).as_posix()
    write(out / "scenarios.json", {"format": "c1k-fixtures/scenarios", "scenarios": verdicts})
    spine_records(out)
    # matches of the decks in fixtures/effects/, to the end or 300 commands, greedy against greedy (k 0, 2)
    # and random against random (k 1): effects.toml (bundled cards whose plays have effects: triggers on
    # play, death, damage, heal and phase starts; Actions with targets; permissions; no keyword) against
    # itself (effects-*); against counters.toml (Nullify Actions from the hand, a relic with an Interrupt:
    # Interrupts asked, used and declined, C1K 7; counters-*); paradox.toml (Flux, Thread, Voidcast, a reroll
    # Interrupt) against itself and (k 1) against effects.toml (paradox-*)
    # and paradox-own.toml (own cards: a death trigger's target chosen as it goes on the stack, a Thread in a
    # start-of-End trigger) against itself (own-*)
    edb = load_card_db([bundled_cards_dir(), vanilla / "cards", Path(__file__).parent / "fixtures" / "effects" / "cards"])
    for name, seeds, usual, random_pair in (
            ("effects", (21, 2**64 - 77, 90210), ("effects", "effects"), ("effects", "effects")),
            ("counters", COUNTER_SEEDS, ("effects", "counters"), ("counters", "effects")),
            ("paradox", PARADOX_SEEDS, ("paradox", "paradox"), ("paradox", "effects")),
            ("own", (400, 400, 400), ("paradox-own", "paradox-own"), ("paradox-own", "paradox-own"))):
        for k, seed in enumerate(seeds):
            text = effects_match(edb, random_pair if k == 1 else usual, seed, ("p1", "p2", "random")[k], k == 1)
            (out / "records" / f"{name}-{k}.json").write_text(text, encoding="utf-8")
    scenario_records(out, edb)
    # matches of fixtures/digits/digits.toml (units whose ids are all digits between the deck's entries: the
    # library in the file's order, docs/determinism.md §8 e), greedy against greedy, against itself and (k 1)
    # the vanilla deck, to the end or 300 commands (digits-*)
    ddb = load_card_db([bundled_cards_dir(), vanilla / "cards", Path(__file__).parent / "fixtures" / "digits" / "cards"])
    for k, seed in enumerate((42, 2**64 - 42)):
        da = load_deck(Path(__file__).parent / "fixtures" / "digits" / "digits.toml", ddb)
        db_ = load_deck(vanilla / "vanilla.toml" if k == 1 else Path(__file__).parent / "fixtures" / "digits" / "digits.toml", ddb)
        da.player, db_.player = "p1", "p2"
        opts = MatchOptions(compensation="card", first=("p1", "random")[k])
        g = Game.new(ddb, da, db_, seed, opts)
        recorder = rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g)
        policy = agent_policy(make_agent("greedy", seed), make_agent("greedy", seed + 1))
        while not g.is_terminal() and len(g.record) < 300:
            g.apply(policy(g))
        (out / "records" / f"digits-{k}.json").write_text(recorder.record(g).to_json(), encoding="utf-8")
    # the loop key of states of those records whenever the stack, the Void, a Thread branch, an Interrupt
    # question or a paused resolution holds something, and every 25th command (docs/determinism.md §8 g)
    keys = []
    for name in ("counters-1.json", "paradox-0.json", "paradox-1.json"):
        for i, g in enumerate(rec.replay_iter(rec.load(out / "records" / name), edb)):
            if g.stack or g.void_items or g.threads or g.intr is not None or g.resolving is not None or i % 25 == 0:
                keys.append({"record": name, "commands": i, "key": loop_key(g)})
    write(out / "loop-keys-effects.json", {"format": "c1k-fixtures/loop-keys", "keys": keys})
    match_logs(out)
    suggestions(out)
    unique = list(dict.fromkeys(texts))   # each text once, first appearance first
    write(out / "commands.json", {"format": "c1k-fixtures/commands",
                                  "commands": [command_json(t) for t in unique + TYPED]})


#: the records whose whole match log logs.json holds: effects and permissions (effects-1, random), Interrupts
#: asked, used and declined (counters-1), Flux outcomes redrawn, Thread branches and Voidcast (paradox-0,
#: paradox-1), own cards with trigger_target and thread choices (own-0), keywords (keywords-greedy-0, -random-4,
#: keywords-options-1: other match options), attempts the rules refuse (refusals-0), Deck Exhaustion
#: (exhaustion-0) and an endless loop of evolutions (evolve-loop-0)
LOG_RECORDS = ("effects-1", "counters-1", "paradox-0", "paradox-1", "own-0", "keywords-greedy-0", "keywords-random-4",
               "keywords-options-1", "refusals-0", "exhaustion-0", "evolve-loop-0")


def match_logs(out: Path) -> None:
    """logs.json: the whole match log of LOG_RECORDS, replayed by the Python engine — every event with every
    field (engine/events.py Event but its index), and the English log each player and a spectator may read
    (events.log_lines_for: hidden information, rules.md §7a), and events.events_for's numbers of each
    player's view from the middle of the match on (renumbered). Each event is one line."""
    here = Path(__file__).parent / "fixtures"
    db = load_card_db([bundled_cards_dir(), here / "vanilla" / "cards", here / "effects" / "cards",
                       here / "keywords" / "cards"])
    parts = []
    for name in LOG_RECORDS:
        g = rec.replay(rec.load(out / "records" / f"{name}.json"), db)
        events = [[e.kind, e.turn, e.window, e.rule, e.actor, e.private_to, e.text, e.public_text, list(e.cards),
                   e.amount, e.detail, e.command] for e in g.events]
        views = {str(p): log_lines_for(g, p) for p in (-1, 0, 1)}
        # events_for's numbering from the middle of the match on: each event's n and command as the player
        # may know them (renumbered: no gaps where a hidden event was)
        half = len(g.events) // 2
        numbers = {str(p): [[e.n, e.command] for e in events_for(g, p, half)] for p in (-1, 0, 1)}
        parts.append("  {\"record\": " + json.dumps(f"{name}.json") + ",\n   \"events\": [\n"
                     + ",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in events) + "\n   ],\n"
                     + "   \"views\": {\n" + ",\n".join(
                         f"    {json.dumps(k)}: [\n" + ",\n".join("     " + json.dumps(line, ensure_ascii=False)
                                                               for line in v) + "\n    ]" for k, v in views.items())
                     + "\n   },\n   \"numbers\": {\n" + ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in numbers.items())
                     + "\n   }\n  }")
    # every scenario the port runs (tests/scenarios, decks/lessons, fixtures/scenarios): each step's command
    # played in turn (a malformed or refused one too, as `c1k scenario check` would, but to the last step
    # whatever the expectations say), then the log each player and a spectator reads
    root = Path(__file__).resolve().parent.parent
    scns = []
    for path in scenario_paths([root / "tests/scenarios", root / "decks/lessons", root / "conformance/fixtures/scenarios"]):
        try:
            g = build(load_scenario(path))
        except (ScenarioError, CardFileError):
            continue   # a broken file: no match, no log
        for st in load_scenario(path).steps:
            if "do" in st:
                try:
                    g.apply_command(str(st["do"]))
                except (MalformedCommand, IllegalAction):
                    pass
        views = {str(p): log_lines_for(g, p) for p in (-1, 0, 1)}
        scns.append("  {\"scenario\": " + json.dumps(path.relative_to(root).as_posix()) + ",\n   \"views\": {\n" + ",\n".join(
            f"    {json.dumps(k)}: [\n" + ",\n".join("     " + json.dumps(line, ensure_ascii=False) for line in v) + "\n    ]"
            for k, v in views.items()) + "\n   }\n  }")
    (out / "logs.json").write_text('{"format": "c1k-fixtures/logs",\n "records": [\n' + ",\n".join(parts) + "\n ],\n"
                                   + ' "scenarios": [\n' + ",\n".join(scns) + "\n ]\n}\n", encoding="utf-8")


def misspell(word: str, r: SplitMix64) -> str:
    """`word` with one to three typing slips drawn from `r`: a letter dropped, doubled, swapped with the next,
    replaced, or the case changed."""
    chars = list(word)
    for _ in range(1 + r.below(3)):
        if not chars:
            break
        i = r.below(len(chars))
        slip = r.below(5)
        if slip == 0 and len(chars) > 1:
            del chars[i]
        elif slip == 1:
            chars.insert(i, chars[i])
        elif slip == 2 and i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif slip == 3:
            chars[i] = "abcdefghijklmnopqrstuvwxyz éß"[r.below(29)]
        else:
            chars[i] = chars[i].swapcase()
    return "".join(chars)


def suggestions(out: Path) -> None:
    """suggestions.json: engine/cards.py suggest — difflib.get_close_matches(word, choices, n=1, cutoff=0.5) —
    and get_close_matches with n=3 (the order of equal scores) and with cutoff 0 (the 3 best ratios), for misspelt card names, ids, keywords and
    command verbs (drawn from a generator: reproducible), hand-picked cases (ties, no match, an empty word,
    non-ASCII), and words of 200 code points or more (difflib's autojunk drops a long word's popular
    characters from its index)."""
    from difflib import get_close_matches

    from engine.actions import COMMAND_VERBS
    from engine.cards import KEYWORDS, suggest

    db = load_card_db([bundled_cards_dir()])
    names = sorted({c.name for c in db.by_id.values()})
    ids = sorted(db.by_id)
    sets: dict[str, list[str]] = {"names": names, "ids": ids, "keywords": list(KEYWORDS), "verbs": list(COMMAND_VERBS),
                                  "names+ids": ids + names}
    r = SplitMix64(2026)
    cases: list[tuple[str, str]] = []
    for key, pool in (("names", names), ("ids", ids), ("keywords", list(KEYWORDS)), ("verbs", list(COMMAND_VERBS))):
        for _ in range(150 if key in ("names", "ids") else 60):
            cases.append((misspell(pool[r.below(len(pool))], r), key))
    for _ in range(40):   # the names of two cards run together, or a name cut short
        a, b = names[r.below(len(names))], names[r.below(len(names))]
        cases.append((a[: 1 + r.below(len(a))] + b[r.below(len(b)):], "names+ids"))
    long_words = ["Plain Brute " * 20, "e" * 250, "Ember Sprite" + "x" * 200, "ab" * 150, "Gravecaller Acolyte" * 12,
                  ("The " + names[0]) * 15, "z" * 199 + "Plain Brute", "é" * 220 + "Ember"]
    cases += [(w, k) for w in long_words for k in ("names", "keywords", "long")]
    sets["long"] = [w[: 60 + 7 * i] + "!" * i for i, w in enumerate(long_words)] + [w[::-1] for w in long_words]
    cases += [(w, k) for w in ("", " ", "a", "ab", "ba", "attak", "pas", "PASS", "stike", "strik", "decay 2", "ward",
                               "Émber", "ember sprite", "EMBER SPRITE", "Ｅmber", "𝔈mber Sprite", "tough ")
              for k in ("names", "keywords", "verbs")]
    cases += [("abc", "ties"), ("abd", "ties"), ("xbc", "ties"), ("ab", "ties")]
    sets["ties"] = ["abd", "abe", "abf", "xbc", "abc ", "bac", "acb"]
    rows = [{"word": w, "choices": k, "close3": get_close_matches(w, sets[k], n=3, cutoff=0.5),
             "best3": get_close_matches(w, sets[k], n=3, cutoff=0.0), "suggest": suggest(w, sets[k])} for w, k in cases]
    write(out / "suggestions.json", {"format": "c1k-fixtures/suggestions", "choices": sets, "cases": rows})


def vanilla_greedy(vdb: CardDB, vanilla: Path, k: int, seed: int, attempt: SplitMix64 | None) -> str:
    """A greedy-against-greedy match of the vanilla deck (`first` p1, p2, random by k), to its end or 300
    commands; with `attempt`, an attempt the rules refuse at one priority decision in three. Its record."""
    da, db_ = load_deck(vanilla / "vanilla.toml", vdb), load_deck(vanilla / "vanilla.toml", vdb)
    da.player, db_.player = "p1", "p2"
    opts = MatchOptions(compensation="card", first=("p1", "p2", "random")[k])
    g = Game.new(vdb, da, db_, seed, opts)
    recorder = rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g)
    policy = agent_policy(make_agent("greedy", seed), make_agent("greedy", seed + 1))
    while not g.is_terminal() and len(g.record) < 300:
        if attempt is not None and g.pending.kind == "priority" and attempt.below(3) == 0:
            tries = [a for a in attempts(g, g.pending.player) if g.why_not(a, g.pending.player) is not None]
            if tries:
                try:
                    g.apply(tries[attempt.below(len(tries))], g.pending.player)
                except IllegalAction:
                    continue
                raise AssertionError("an attempt meant to be refused was accepted")
        g.apply(policy(g))
    return recorder.record(g).to_json()


def attempts(g: Game, p: int) -> list[Action]:
    """Actions for seat p to try at a priority decision, most of them refused (fixtures refusals-*)."""
    me, op = g.players[p], g.players[1 - p]
    cards = [c for c in (me.hand[:2] + op.hand[:1] + me.library[:1] + me.graveyard[:1] + op.graveyard[:1]
                         + me.units()[:1] + op.units()[:1] + [me.champion, op.seat]) if c]
    out: list[Action] = [Play(c) for c in cards]
    out += [Play(9999), Attack((9999,)), Block(((9999, 9998),)), Choose((1,)), Decline(), Activate(me.champion),
            Activate(9999), Interrupt(me.champion)]
    for c in me.hand[:2]:
        out += [Play(c, slot=9), Play(c, slot=1), Play(c, targets=(op.champion,)), Play(c, voidcast=True),
                Play(c, mode=1), SetCard(c)]
    out += [Attack((u,)) for u in me.units()[:1]] + [SetCard(9999)]
    return out


def effects_match(vdb: CardDB, decks: tuple[str, str], seed: int, first: str, random_play: bool) -> str:
    """The record of a match of two decks of fixtures/effects/ (random or greedy play) as JSON."""
    da, db_ = (load_deck(Path(__file__).parent / "fixtures" / "effects" / f"{name}.toml", vdb) for name in decks)
    da.player, db_.player = "p1", "p2"
    opts = MatchOptions(first=first)
    g = Game.new(vdb, da, db_, seed, opts)
    recorder = rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g)
    policy = agent_policy(make_agent("greedy", seed), make_agent("greedy", seed + 1))
    agent = SplitMix64(seed ^ 0x5EED)
    while not g.is_terminal() and len(g.record) < 300:
        g.apply(random_action(g, agent) if random_play else policy(g))
    return recorder.record(g).to_json()


#: the seeds of the counters-* records: matches in which Interrupts are used (in play and from the hand, and
#: when attackers are declared), and a player is asked with no usable Interrupt in hand (a Nullify card in
#: the library: rules.md §7a) and declines
COUNTER_SEEDS = (113, 123, 120)

#: the seeds of the paradox-* records: matches in which Flux outcomes are redrawn by an Interrupt, a player
#: orders their simultaneous Flux triggers, Thread branches resolve and (1) a Voidcast Action goes to the Void
PARADOX_SEEDS = (323, 336, 317)


def spine_records(out: Path) -> None:
    """turn-table.json and the records of the port's spine (conformance/PORT.md): greedy-against-greedy and
    random matches of the decks in fixtures/keywords/ (units whose only rules are keywords), and matches of
    passes, "attack none" and cleanup discards to the end of a library (Deck Exhaustion)."""
    rows = [{"id": w.id, "kind": w.kind, "rule": w.rule, "steps": list(w.steps), "trigger": w.trigger}
            for w in TURN_TABLE]
    hooks = [dict(c.modifiers) for c in sorted(load_card_db().by_id.values(), key=lambda c: c.id)
             if c.type == "seat"] + [{"extra_combat_phases": 2, "skip_combat_exit": 1},
                                     {"skip_influence_response": 1, "skip_draw_post": 1, "skip_combat_exit": 1}]
    structures = [{"modifiers": m, "structure": [WINDOWS[w] for w in seat_structure(m)]} for m in hooks]
    write(out / "turn-table.json", {"format": "c1k-fixtures/turn-table", "rows": rows, "structures": structures})
    here = Path(__file__).parent / "fixtures"
    kdb = load_card_db([bundled_cards_dir(), here / "vanilla" / "cards", here / "keywords" / "cards"])
    decks = {p.stem: p for p in sorted((here / "keywords").glob("*.toml"))}
    pairs = [("ruin-veil", "genesis-solace"), ("genesis-solace", "dominion-solace"), ("dominion-solace", "ruin-veil"),
             ("ruin-veil", "ruin-veil"), ("genesis-solace", "genesis-solace"), ("dominion-solace", "dominion-solace")]
    # (no Coin: it is an Action with an effect; `first` varies)
    for k, (a, b) in enumerate(pairs):
        for agent in ("greedy", "random"):
            seed = 1000 + 37 * k + (agent == "random")
            da, db_ = load_deck(decks[a], kdb), load_deck(decks[b], kdb)
            da.player, db_.player = "p1", "p2"
            opts = MatchOptions(compensation="card", first=("p1", "p2", "random")[k % 3])
            g = Game.new(kdb, da, db_, seed, opts)
            recorder = rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g)
            if agent == "greedy":
                policy = agent_policy(make_agent("greedy", seed), make_agent("greedy", seed + 1))
                while not g.is_terminal() and len(g.record) < 600:
                    g.apply(policy(g))
            else:
                rnd = SplitMix64(seed ^ 0x5EED)
                while not g.is_terminal() and len(g.record) < 600:
                    g.apply(random_action(g, rnd))
            (out / "records" / f"keywords-{agent}-{k}.json").write_text(recorder.record(g).to_json(), encoding="utf-8")
    # the match options the spine reads: the actor keeps priority, a turn limit, small boards (a unit with no
    # empty slot goes to the graveyard), the first player's first draw, other compensations
    for k, opts in enumerate([
            MatchOptions(actor_keeps_priority=True, max_turns=9, compensation="card+influence"),
            MatchOptions(unit_slots=3, relic_slots=1, first_player_draws=True, first="p2",
                         compensation="card+influence+capacity"),
            MatchOptions(unit_slots=2, first="random", compensation="none", max_turns=14)]):
        a, b = pairs[k]
        seed = 2000 + k
        da, db_ = load_deck(decks[a], kdb), load_deck(decks[b], kdb)
        da.player, db_.player = "p1", "p2"
        g = Game.new(kdb, da, db_, seed, opts)
        recorder = rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g)
        policy = agent_policy(make_agent("greedy", seed), make_agent("random", seed + 1))
        while not g.is_terminal() and len(g.record) < 600:
            if k == 1 and len(g.record) == 90:   # the player who is not deciding concedes
                g.apply(Concede(), 1 - g.current_player())
                break
            g.apply(policy(g))
        (out / "records" / f"keywords-options-{k}.json").write_text(recorder.record(g).to_json(), encoding="utf-8")
    # Evolve round and round (two own cards that evolve into each other): the first Loop Egg played ends the
    # match in a draw (endless_loop); a player plays an Egg as soon as they can, otherwise greedy
    da, db_ = load_deck(decks["evolve-loop"], kdb), load_deck(decks["evolve-loop"], kdb)
    da.player, db_.player = "p1", "p2"
    opts = MatchOptions(compensation="card")
    g = Game.new(kdb, da, db_, 3003, opts)
    recorder = rec.Recorder(rec.Start.of_decks([da, db_], 3003, opts), g)
    policy = agent_policy(make_agent("greedy", 3003), make_agent("greedy", 3004))
    while not g.is_terminal() and len(g.record) < 600:
        eggs = [a for a in g.legal_actions() if isinstance(a, Play) and g.card(a.card).id == "loop-egg"]
        g.apply(eggs[0] if eggs else policy(g))
    (out / "records" / "evolve-loop-0.json").write_text(recorder.record(g).to_json(), encoding="utf-8")
    # Deck Exhaustion: nobody plays a card; the libraries run out and the exhaustions end the match
    for k, (a, b, seed) in enumerate([("dominion-solace", "ruin-veil", 31), ("genesis-solace", "dominion-solace", 2**64 - 7)]):
        da, db_ = load_deck(decks[a], kdb), load_deck(decks[b], kdb)
        da.player, db_.player = "p1", "p2"
        opts = MatchOptions(compensation="card", first=("p2", "random")[k])
        g = Game.new(kdb, da, db_, seed, opts)
        recorder = rec.Recorder(rec.Start.of_decks([da, db_], seed, opts), g)
        while not g.is_terminal():
            g.apply(next(a for a in g.legal_actions()
                         if isinstance(a, Pass | Choose) or (isinstance(a, Attack) and not a.units)))
        (out / "records" / f"exhaustion-{k}.json").write_text(recorder.record(g).to_json(), encoding="utf-8")
    # the Endless Loop watch's loop key (priority.loop_key) of states of three of these records: at the start,
    # every 25th command and whenever the stack holds something (docs/determinism.md §8 g)
    keys = []
    for name in ("keywords-greedy-0.json", "keywords-random-4.json", "exhaustion-0.json"):
        for i, g in enumerate(rec.replay_iter(rec.load(out / "records" / name), kdb)):
            if g.stack or i % 25 == 0:
                keys.append({"record": name, "commands": i, "key": loop_key(g)})
    write(out / "loop-keys.json", {"format": "c1k-fixtures/loop-keys", "keys": keys})


#: the scenarios and lessons the scenario-* records start from (inline [[card]] tables in the first two)
SCENARIO_STARTS = ("tests/scenarios/combat/c1k-4.4-on-kill-and-on-death-apnap.scenario.toml",
                   "tests/scenarios/combat/rb-3.1-overwhelm-excess-uses-remaining-health.scenario.toml",
                   "decks/lessons/04-interrupts.scenario.toml", "decks/lessons/10-play-triggers.scenario.toml",
                   "decks/lessons/06-draw-and-deck-exhaustion.scenario.toml",
                   "tests/scenarios/rb-3.1-barrier-vs-overwhelm.scenario.toml")

#: a position written here (not a file): own cards of fixtures/effects/cards/ in hands, library and play (the
#: record carries their definitions), an inline card, a 64-bit seed, who goes first drawn from it
OWN_POSITION: dict[str, Any] = {
    "scenario": {"title": "own cards", "seed": 2**64 - 99, "turn": 4, "window": "main.priority",
                 "options": {"first": "random", "compensation": "card", "unit_slots": 5}},
    "card": [{"id": "port-sentry", "name": "Port Sentry", "type": "unit", "cost": 1, "power": 1, "health": 3,
              "keywords": ["guard"], "text": "Guard"}],
    "p1": {"name": "Ada", "influence": 5, "life": 14,
           "hand": ["Spiteful Shade", "Omen Loom", "Port Sentry", "Fork in the Hour"],
           "library": ["Spiteful Shade", "Port Sentry", "Coin of Two Faces", "Omen Loom", "Spiteful Shade"],
           "board": [{"card": "Spiteful Shade", "as": "shade"}, {"card": "Port Sentry", "damage": 1}],
           "relics": ["Omen Loom"]},
    "p2": {"name": "Grace", "influence": 4, "capacity": 6,
           "hand": ["Port Sentry", "Spiteful Shade", "Probability Storm"],
           "library": ["Omen Loom", "Spiteful Shade", "Port Sentry", "Spiteful Shade", "Port Sentry"],
           "board": [{"card": "Spiteful Shade", "exhausted": True}], "graveyard": ["Spiteful Shade"]},
}


def scenario_records(out: Path, edb: CardDB) -> None:
    """Records of matches begun from a scenario's position (record.py Start.of_scenario, as `c1k play
    --scenario` and a lesson make them): each scenario of SCENARIO_STARTS and OWN_POSITION, greedy against
    greedy (even k) or random (odd k), to the match's end or 200 commands (scenario-*)."""
    from engine.scenario import build, load_scenario, scenario_from_data

    root = Path(__file__).resolve().parent.parent
    starts = [(name, load_scenario(root / name)) for name in SCENARIO_STARTS]
    starts.append(("<own cards>", scenario_from_data(json.loads(json.dumps(OWN_POSITION)), "<own cards>", edb)))
    for k, (name, scn) in enumerate(starts):
        g = build(scn)
        recorder = rec.Recorder(rec.Start.of_scenario(name, scn.data), g)
        seed = 500 + k
        policy = agent_policy(make_agent("greedy", seed), make_agent("greedy", seed + 1))
        agent = SplitMix64(seed)
        while not g.is_terminal() and len(g.record) < 200:
            g.apply(policy(g) if k % 2 == 0 else random_action(g, agent))
        (out / "records" / f"scenario-{k}.json").write_text(recorder.record(g).to_json(), encoding="utf-8")


def plain(c: CardDef) -> bool:
    """A unit or relic that only stands on the board: no effect, ability, keyword or Voidcast cost."""
    return c.type in ("unit", "relic") and not (c.effect or c.abilities or c.keywords or c.voidcast is not None
                                                or c.evolve is not None)


def write(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
