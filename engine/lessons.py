"""Lessons: scenarios (formats.md §4) with a goal written over the match's typed events.

A lesson file is a scenario plus a `[lesson]` table:

```toml
[lesson]
part = "basics"                     # basics | combat | realms: where it sits in the course
rules = ["OPP Fast", "C1K 6"]       # the rule ids it teaches (debrief, coverage)
briefing = "…"                      # a few lines before the learner starts
debrief = "…"                       # what just happened, said after completion
wrong = ["p2: pass", "p1: pass"]    # a plausible line that must NOT complete it (tests play it)

[[lesson.check]]                    # the goal: these events, in this order (others may come between)
kind = "resolve"                    # an Event kind (engine/events.py)
card = "Tide of Recall"             # a card name or a scenario alias: the event's source card
says = "Tide of Recall resolves"    # how the goal's step reads to the learner
# also: window = "combat.damage" (or a phase prefix "combat."), rule, actor = "p1"/"p2"/"game",
#       target = name/alias among the other cards involved, text = a substring, amount, detail

[lesson.expect]                     # optional: the position when the checks are met (scenario expect keys)

[[lesson.hint]]                     # shown with the engine's own "why not?" when a command is refused
rule = "OPP Slow"                   # for refusals under this rule ("" = any refusal)
text = "…"
```

The scenario's `[[step]]`s are the scripted solution: a test plays them and the lesson must be complete;
it plays `wrong` and the lesson must not be. Completion counts only events after the lesson's position
was set up, so a lesson can't be completed by what the set-up itself did.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from engine.actions import IllegalAction, MalformedCommand
from engine.cards import CardDB, suggest
from engine.game import Game
from engine.scenario import Scenario, ScenarioError, build, check_expect, load_scenario
from engine.state import WINDOW_INDEX, WINDOW_RULE, WINDOWS

PARTS = ("basics", "combat", "realms")
LESSON_KEYS = {"part", "rules", "briefing", "debrief", "wrong", "check", "expect", "hint"}
CHECK_KEYS = {"kind", "card", "target", "window", "rule", "actor", "text", "amount", "detail", "says"}
HINT_KEYS = {"rule", "text"}

#: the core timing sections a course must cover (C1K §1–§10 of the timing-windows seed)
C1K_SECTIONS: tuple[str, ...] = tuple(WINDOW_RULE) + ("C1K 6", "C1K 7", "C1K 8", "C1K 9", "C1K 10")
#: the Realm timing modifiers (C1K 9), each with its rule id
REALM_MODIFIERS: tuple[tuple[str, str], ...] = (
    ("Dominion", "KW Rally"), ("Dominion", "KW Conquer"),
    ("Veil", "KW Set"), ("Veil", "KW Ambush"), ("Veil", "KW Veilbind"),
    ("Ruin", "KW Decay"), ("Ruin", "KW Wither"),
    ("Genesis", "KW Growth"), ("Genesis", "KW Evolve"), ("Genesis", "KW Bloom"),
    ("Paradox", "KW Flux"), ("Paradox", "KW Thread"),
    ("Solace", "KW Pulse"), ("Solace", "KW Ward"),
    ("Null", "KW Suppress"), ("Null", "KW Nullify"), ("Null", "KW Voidcast"),
)
REALM_RULES = frozenset(r for _, r in REALM_MODIFIERS)


class EventLike(Protocol):
    """The fields of engine.events.Event a lesson reads."""

    @property
    def n(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def window(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def actor(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def cards(self) -> tuple[int, ...]: ...
    @property
    def amount(self) -> int: ...
    @property
    def detail(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Check:
    """One step of a lesson's goal: a pattern an event must match."""

    kind: str = ""
    card: str = ""
    target: str = ""
    window: str = ""
    rule: str = ""
    actor: str = ""
    text: str = ""
    amount: int | None = None
    detail: str = ""
    says: str = ""

    def describe(self) -> str:
        if self.says:
            return self.says
        bits = [self.kind or "an event"]
        if self.card:
            bits.append(self.card)
        if self.window:
            bits.append(f"in {self.window}")
        return " ".join(bits)


@dataclass(frozen=True, slots=True)
class Hint:
    rule: str
    text: str


@dataclass(frozen=True)
class Lesson:
    path: str
    title: str
    rule: str
    part: str
    rules: tuple[str, ...]
    goal: str
    briefing: str
    debrief: str
    checks: tuple[Check, ...]
    expect: dict[str, Any]
    hints: tuple[Hint, ...]
    solution: tuple[str, ...]
    wrong: tuple[str, ...]
    scenario: Scenario = field(repr=False)

    @property
    def key(self) -> str:
        """The lesson's stable name (its file name without `.scenario.toml`): how progress is saved."""
        return Path(self.path).name.removesuffix(".scenario.toml")


@dataclass(frozen=True)
class Progress:
    met: tuple[str, ...]          # the goal steps met so far, in order
    todo: tuple[str, ...]         # the goal steps still to come
    state_ok: bool                # the lesson's `expect` holds (True when it has none)
    failures: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.todo and self.state_ok


class LessonError(ScenarioError):
    pass


# -------------------------------------------------------------------- loading


def load_lesson(path: Path, db: CardDB | None = None) -> Lesson:
    """A lesson file: its scenario and its `[lesson]` table, every problem reported with the file."""
    scn = load_scenario(path, db)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:   # load_scenario read it already: cannot happen
        raise LessonError(str(path), [f"{path}: {err}"]) from err
    return lesson_from_scenario(scn, data)


def lesson_from_scenario(scn: Scenario, data: dict[str, Any]) -> Lesson:
    path = scn.path
    problems: list[str] = []
    head = data.get("scenario", {})
    les = data.get("lesson")
    if not isinstance(les, dict):
        raise LessonError(path, [f"{path}: a lesson needs a [lesson] table (part, rules, briefing, debrief, "
                                 f"check, wrong)"])
    for k in les:
        if k not in LESSON_KEYS:
            problems.append(f"{path}: unknown key 'lesson.{k}'{suggest(k, sorted(LESSON_KEYS))}")
    part = str(les.get("part", ""))
    if part not in PARTS:
        problems.append(f"{path}: lesson.part must be one of {', '.join(PARTS)}")
    checks: list[Check] = []
    for i, c in enumerate(les.get("check", []), 1):
        for k in c:
            if k not in CHECK_KEYS:
                problems.append(f"{path}: unknown key 'lesson.check[{i}].{k}'{suggest(k, sorted(CHECK_KEYS))}")
        w = str(c.get("window", ""))
        if w and w not in WINDOW_INDEX and not any(x.startswith(w) for x in WINDOWS if w.endswith(".")):
            problems.append(f"{path}: lesson.check[{i}].window '{w}' is not a window id (or a phase prefix "
                            f"such as 'combat.'){suggest(w, WINDOWS)}")
        kw = {k: str(v) for k, v in c.items() if k in CHECK_KEYS and k != "amount"}
        checks.append(Check(**kw, amount=int(c["amount"]) if "amount" in c else None))
    if not checks:
        problems.append(f"{path}: a lesson needs at least one [[lesson.check]]: its goal over the match's events")
    hints = []
    for i, h in enumerate(les.get("hint", []), 1):
        for k in h:
            if k not in HINT_KEYS:
                problems.append(f"{path}: unknown key 'lesson.hint[{i}].{k}'")
        hints.append(Hint(str(h.get("rule", "")), str(h.get("text", ""))))
    solution = tuple(str(st["do"]) for st in scn.steps if "do" in st)
    wrong = tuple(str(x) for x in les.get("wrong", []))
    if not solution:
        problems.append(f"{path}: a lesson's [[step]]s are its scripted solution: there is none")
    if not wrong:
        problems.append(f"{path}: lesson.wrong: a lesson ships a wrong line that must not complete it")
    rules = tuple(str(r) for r in les.get("rules", []))
    if not rules:
        problems.append(f"{path}: lesson.rules: name the rule ids the lesson exercises")
    for key in ("briefing", "debrief"):
        if not str(les.get(key, "")).strip():
            problems.append(f"{path}: lesson.{key} is missing")
    if not str(head.get("goal", "")).strip():
        problems.append(f"{path}: scenario.goal is missing (the lesson's goal in words)")
    if problems:
        raise LessonError(path, problems)
    return Lesson(path=path, title=scn.title, rule=scn.rule or rules[0], part=part, rules=rules,
                  goal=str(head.get("goal", "")), briefing=_prose(str(les["briefing"])),
                  debrief=_prose(str(les["debrief"])), checks=tuple(checks), expect=dict(les.get("expect", {})),
                  hints=tuple(hints), solution=solution, wrong=wrong, scenario=scn)


def _prose(text: str) -> str:
    """A TOML multi-line string as prose: lines joined, blank lines kept as paragraph breaks."""
    return "\n\n".join(" ".join(par.split()) for par in text.strip().split("\n\n"))


def load_course(folder: Path, db: CardDB | None = None) -> list[Lesson]:
    """Every lesson in a folder, in course order (the file names' order: basics → combat → Realms)."""
    from engine.cards import load_card_db

    base = db if db is not None else load_card_db()
    return [load_lesson(p, base) for p in sorted(folder.glob("*.scenario.toml"))]


# -------------------------------------------------------------------- the match's events


def events_of(g: Game) -> Sequence[EventLike]:
    """The match's typed events (engine/events.py), all of them: a lesson is played with open hands."""
    return g.events


# -------------------------------------------------------------------- the goal


def _names_for(g: Game, key: str) -> tuple[int | None, str]:
    """(the card id an alias names, or None; the lower-case name to look for)."""
    k = key.lower()
    cid = g.aliases.get(k)
    if cid is not None:
        return cid, g.card(cid).name.lower()
    d = g.db.get(key)
    return None, (d.name.lower() if d is not None else k)


def _card_matches(g: Game, key: str, ids: Iterable[int], text: str) -> bool:
    cid, name = _names_for(g, key)
    ids = list(ids)
    if cid is not None and cid in ids:
        return True
    if any(g.defs.get(i) is not None and g.card(i).name.lower() == name for i in ids):
        return cid is None or cid in ids
    return not ids and name in text.lower()


def matches(g: Game, c: Check, e: EventLike) -> bool:
    if c.kind and e.kind != c.kind:
        return False
    if c.window and not (e.window == c.window or (c.window.endswith(".") and e.window.startswith(c.window))):
        return False
    if c.rule and e.rule != c.rule:
        return False
    if c.actor:
        want = {"p1": 0, "p2": 1, "game": -1}.get(c.actor, -2)
        if e.actor != want:
            return False
    if c.text and c.text.lower() not in e.text.lower():
        return False
    if c.amount is not None and e.amount != c.amount:
        return False
    if c.detail and c.detail.lower() not in e.detail.lower():
        return False
    if c.card and not _card_matches(g, c.card, e.cards[:1], e.text):
        return False
    return not (c.target and not _card_matches(g, c.target, e.cards[1:], e.text))


def progress(lesson: Lesson, g: Game, since: int = 0) -> Progress:
    """How far the learner is: the goal's checks met in order by the events from `since` on."""
    evs = [e for e in events_of(g) if e.n >= since]
    i = 0
    for e in evs:
        if i < len(lesson.checks) and matches(g, lesson.checks[i], e):
            i += 1
    fails = tuple(check_expect(g, lesson.expect)) if lesson.expect and i == len(lesson.checks) else ()
    return Progress(tuple(c.describe() for c in lesson.checks[:i]), tuple(c.describe() for c in lesson.checks[i:]),
                    state_ok=not fails and i == len(lesson.checks), failures=fails)


def start(lesson: Lesson) -> tuple[Game, int]:
    """The lesson's position, and the index of the first event the learner's own play can produce."""
    g = build(lesson.scenario)
    return g, len(events_of(g))


@dataclass
class Played:
    game: Game
    since: int
    refusals: list[tuple[str, str, str]]    # (command, rule, reason)
    progress: Progress


def play(lesson: Lesson, commands: Iterable[str]) -> Played:
    """Play commands from the lesson's position (a refused one is noted and play goes on)."""
    g, since = start(lesson)
    refusals: list[tuple[str, str, str]] = []
    for cmd in commands:
        if g.is_terminal():
            break
        try:
            g.apply_command(cmd)
        except IllegalAction as err:
            refusals.append((cmd, err.rule, err.reason))
        except MalformedCommand as err:
            refusals.append((cmd, "", str(err)))
    return Played(g, since, refusals, progress(lesson, g, since))


# -------------------------------------------------------------------- coaching


def hint(lesson: Lesson, g: Game, rule: str, reason: str, since: int = 0) -> str:
    """For a refused command: the engine's own "why not?" (rule and reason), the lesson's hint for that
    rule, and the goal's next step."""
    lines = [f"why not? {reason} ({rule})" if rule else f"?? {reason}"]
    own = [h.text for h in lesson.hints if h.rule == rule] or [h.text for h in lesson.hints if not h.rule]
    lines += own[:1]
    nxt = progress(lesson, g, since).todo
    if nxt:
        lines.append(f"next: {nxt[0]}")
    return "\n".join(lines)


def exercised(g: Game, since: int = 0) -> list[str]:
    """The rule ids the learner was shown since `since` (the windows entered and the rules beside what
    happened in them), in the order first seen."""
    out: list[str] = []
    for v in windows_entered(events_of(g), since):
        for r in (v.rule, *(r for _, rules in v.happened for r in rules)):
            if r not in out:
                out.append(r)
    return out


def debrief(lesson: Lesson, g: Game, since: int = 0) -> str:
    """The lesson's debrief and the rule ids it exercised: its own, then any others the play touched."""
    seen = exercised(g, since)
    ids = list(lesson.rules) + [r for r in seen if r not in lesson.rules]
    return f"{lesson.debrief}\n\nRules exercised: {', '.join(ids)}"


# -------------------------------------------------------------------- the learning flow: windows entered


@dataclass(frozen=True)
class WindowVisit:
    """One window as it was entered: its id, its rule, and what happened in it (in order), each line with
    the rule ids shown beside it."""

    turn: int
    window: str
    rule: str
    happened: tuple[tuple[str, tuple[str, ...]], ...]
    first_event: int

    def line(self) -> str:
        what = " · ".join(f"{text} ({' · '.join(rules)})" if rules else text for text, rules in self.happened)
        return f"T{self.turn} {self.window} ({self.rule}): {what or 'nothing happened'}"

    def rules(self) -> set[str]:
        return {self.rule} | {r for _, rules in self.happened for r in rules}


#: event kinds the learning flow does not list (the priority bookkeeping; windows are the headings)
QUIET_KINDS = frozenset({"priority", "pass", "window"})


def shown_rules(e: EventLike, window_rule: str, simultaneous: bool = False) -> tuple[str, ...]:
    """The rule ids shown beside an event in the learning flow: its own rule when it is not the window's,
    and the section it belongs to: C1K 10 for a refusal, C1K 9 for a Realm keyword, C1K 7 for an Interrupt,
    C1K 6 for an item resolving from the stack, C1K 8 for a trigger that joined others at the same moment."""
    out: list[str] = []
    if e.rule and e.rule != window_rule:
        out.append(e.rule)
    extra = {"refusal": "C1K 10", "interrupt": "C1K 7", "counter": "C1K 7", "resolve": "C1K 6"}.get(e.kind)
    if e.rule in REALM_RULES:
        extra = "C1K 9"
    for r in (extra, "C1K 8" if simultaneous else None):
        if r and r not in out and r != window_rule:
            out.append(r)
    return tuple(out)


def windows_entered(events: Sequence[EventLike], since: int = 0) -> list[WindowVisit]:
    """Every window entered from event `since` on — turn-based windows with no decision included — with
    what happened in it (not the priority/pass bookkeeping) and the rule ids shown for each line."""
    out: list[WindowVisit] = []
    cur: dict[str, Any] | None = None
    prev_kind = ""
    for e in events:
        if e.n < since:
            continue
        if e.kind == "window":
            if cur is not None:
                out.append(WindowVisit(cur["turn"], cur["window"], cur["rule"], tuple(cur["lines"]), cur["n"]))
            rule = WINDOW_RULE[WINDOW_INDEX[e.window]] if e.window in WINDOW_INDEX else e.rule
            cur = {"turn": e.turn, "window": e.window, "rule": rule, "lines": [], "n": e.n}
            prev_kind = ""
            continue
        if cur is None and since > 0 and e.window in WINDOW_INDEX:   # `since` fell inside a window
            cur = {"turn": e.turn, "window": e.window, "rule": WINDOW_RULE[WINDOW_INDEX[e.window]], "lines": [],
                   "n": e.n}
        if cur is not None and e.kind not in QUIET_KINDS and e.text:
            together = e.kind == "trigger" and prev_kind == "trigger"
            cur["lines"].append((e.text.strip(), shown_rules(e, cur["rule"], together)))
            prev_kind = e.kind
        elif e.kind in QUIET_KINDS:
            prev_kind = e.kind
    if cur is not None:
        out.append(WindowVisit(cur["turn"], cur["window"], cur["rule"], tuple(cur["lines"]), cur["n"]))
    return out


def windows_seen(g: Game, player: int, since: int = 0) -> list[WindowVisit]:
    """The learning flow for one player of an ordinary match (hidden hands): the windows entered from
    event `since` on, with only what `player` may know of them (`events_for`): the opponent's draws read
    "draws a card", a hidden card is never named."""
    from engine.events import events_for

    return windows_entered(events_for(g, player, since, renumber=False), since)


# -------------------------------------------------------------------- coverage


def live_rules(events: Sequence[EventLike], since: int = 0) -> set[str]:
    """The rule ids the learning flow shows live while these events happen: each window entered, and the
    rule ids beside each line of what happened in it (see `shown_rules`)."""
    out: set[str] = set()
    for v in windows_entered(events, since):
        out |= v.rules()
    return out


@dataclass(frozen=True)
class CoverageRow:
    section: str
    text: bool
    lessons: tuple[str, ...]
    live: bool

    @property
    def ok(self) -> bool:
        return self.text and bool(self.lessons) and self.live


def coverage(lessons: Sequence[Lesson], doc_ids: Iterable[str], live: dict[str, set[str]],
             sections: Sequence[str] = C1K_SECTIONS) -> list[CoverageRow]:
    """Sections × (learner text in the rules document | a lesson that teaches it | shown live while a
    lesson's solution plays). `live` maps a lesson's key to the rule ids its solution showed live."""
    docs = set(doc_ids)
    rows = []
    for sec in sections:
        teaching = tuple(les.key for les in lessons if sec in les.rules)
        shown = any(sec in ids for ids in live.values())
        rows.append(CoverageRow(sec, sec in docs, teaching, shown))
    return rows
