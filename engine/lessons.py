"""Lessons: scenarios (docs/formats.md §4) with a goal written over the match's typed events.

A lesson file is a scenario plus a `[lesson]` table:

```toml
[lesson]
part = "basics"                     # basics | combat | realms: where it sits in the course
rules = ["OPP Fast", "C1K 6"]       # the rule ids it teaches (debrief, coverage)
briefing = "…"                      # a few lines before the learner starts
debrief = "…"                       # what just happened, said after completion
wrong = [["p2: pass", "p1: pass"],  # plausible lines that must NOT complete it (tests play them all):
         ["p1: pass"]]              #   the other turn, the other player, another refusal, passing through

[[lesson.check]]                    # the goal: these events, in this order (others may come between)
kind = "resolve"                    # an Event kind (engine/events.py)
card = "Tide of Recall"             # a card name or a scenario alias: the event's source card
says = "Tide of Recall resolves"    # how the goal's step reads to the learner
actor = "p1"                        # who acted (or whom it concerns): "p1", "p2" or "game"
window = "main.priority"            # where: a window id (or a phase prefix such as "combat.")
# also: turn = "p1"/"p2" (whose turn it is), rule, target = name/alias among the other cards involved,
#       text = a substring, amount, detail, teaches = ["C1K 3.4"] (rule ids this step is the event of)
# A refusal check names the refused card and the rule; a damage or heal check matches only an amount
# that changed something (> 0). A check is met only up to the moment the solution met it (its turn and
# window): after that the lesson says it can no longer be completed — and sooner, at the event that made
# a step impossible (`blocked`: the card it needs left the hand, the decision was made otherwise, …).

[[lesson.check]]                    # a question the learner answers (`answer 2` or `answer draw.draw`)
ask = "Which item resolves first?"
options = ["Emberlash", "Tide of Recall"]
answer = "Tide of Recall"
at_step = 2                         # the solution answers it after its 2nd command
why = "Tide of Recall went on top of it: the last in resolves first (C1K 6)"   # said to a wrong answer

[lesson.expect]                     # optional: the position when the checks are met (scenario expect keys)

[[lesson.hint]]                     # shown with the engine's own "why not?" when a command is refused
rule = "OPP Slow"                   # for refusals under this rule ("" = any refusal)
text = "…"
```

A wrong answer loses the lesson at once (the coaching says `why`; `u` takes the answer back), and so does
changing a right answer to a wrong one: a question is passed only by a right answer, never by trying every
option.

The scenario's `[[step]]`s are the scripted solution: a test plays them and the lesson must be complete;
it plays `wrong` and the lesson must not be. Completion counts only events after the lesson's position
was set up, so a lesson can't be completed by what the set-up itself did.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from engine.actions import IllegalAction, MalformedCommand
from engine.cards import CardDB, CardFileError, read_toml, suggest
from engine.game import Game
from engine.scenario import Scenario, ScenarioError, build, check_expect, load_scenario
from engine.state import (
    BOARD,
    GONE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    RELICS,
    SET,
    STACK,
    VOID,
    WINDOW_INDEX,
    WINDOW_RULE,
    WINDOWS,
)

PARTS = ("basics", "combat", "realms")
LESSON_KEYS = {"part", "rules", "briefing", "debrief", "wrong", "check", "expect", "hint"}
CHECK_KEYS = {"kind", "card", "target", "window", "rule", "actor", "text", "amount", "detail", "says", "turn",
              "teaches", "ask", "options", "answer", "at_step", "why"}
QUESTION_KEYS = {"ask", "options", "answer", "at_step", "says", "teaches", "why"}
#: event kinds whose check must name a card (the act is a card's)
CARD_KINDS = frozenset({"play", "set", "activate", "attack", "block", "refusal", "resolve", "trigger", "damage",
                        "heal", "destroy", "interrupt", "counter", "discard", "move"})
PLAYERS = {"p1": 0, "p2": 1, "game": -1}
HINT_KEYS = {"rule", "text"}

#: the core timing sections a course must cover (C1K §1–§10 of the timing-windows seed)
C1K_SECTIONS: tuple[str, ...] = (*WINDOW_RULE[:7], "C1K 3.2", "C1K 3.3", "C1K 3.4", *WINDOW_RULE[7:],
                                  "C1K 6", "C1K 7", "C1K 8", "C1K 9", "C1K 10")
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
    @property
    def command(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Check:
    """One step of a lesson's goal: a pattern an event must match, or a question the learner answers."""

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
    turn: str = ""                      # whose turn it is ("p1"/"p2")
    teaches: tuple[str, ...] = ()       # rule ids this step is the event of (beyond the event's own)
    ask: str = ""                       # a question (then options/answer, not an event)
    options: tuple[str, ...] = ()
    answer: str = ""
    at_step: int = 0                    # the solution answers the question after this many commands
    why: str = ""                       # a question: why its answer is right, with the rule id

    @property
    def is_question(self) -> bool:
        return bool(self.ask)

    def describe(self) -> str:
        if self.says:
            return self.says
        if self.ask:
            return f"answer: {self.ask}"
        bits = [self.kind or "an event"]
        if self.card:
            bits.append(self.card)
        if self.window:
            bits.append(f"in {self.window}")
        return " ".join(bits)

    def question(self) -> str:
        """The question as the learner reads it, its options numbered."""
        opts = "  ".join(f"{i}) {o}" for i, o in enumerate(self.options, 1))
        return f"? {self.ask}  {opts}  (answer with `answer N`)"

    def accepts(self, text: str) -> bool:
        """Whether an answer (an option's number or its words) is this question's answer."""
        t = " ".join(text.lower().split())
        if t.isdigit() and 1 <= int(t) <= len(self.options):
            t = self.options[int(t) - 1].lower()
        return t == " ".join(self.answer.lower().split())


@dataclass(frozen=True, slots=True)
class Hint:
    rule: str
    text: str


@dataclass(frozen=True, slots=True)
class Answer:
    """A learner's answer to a lesson question: when (the number of events at the time), where, and what."""

    at: int
    turn: int
    window: int
    text: str

    def row(self) -> tuple[int, int, int, str]:
        """As saved with a lesson's session (JSON): (events at the time, turn, window index, answer)."""
        return (self.at, self.turn, self.window, self.text)


@dataclass(frozen=True, eq=False)
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
    solution: tuple[str, ...]           # the scenario's commands, with `answer ...` lines for the questions
    wrong: tuple[tuple[str, ...], ...]  # lines that must not complete it
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
    question: str = ""            # the next step's question, when it is one
    lost: str = ""                # why the lesson can no longer be completed ("" while it can)
    wrong_answer: str = ""        # the wrong answer that lost it, in the option's words ("" otherwise)
    wrong_to: str = ""            # the question it answered: `u` takes the answer back

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
        data, _ = read_toml(path, "lessons")
    except CardFileError as err:   # load_scenario read it already: only if it changed since
        raise LessonError(str(path), err.problems) from err
    return lesson_from_scenario(scn, data)


def _check_problems(path: str, i: int, c: dict[str, Any]) -> list[str]:
    """What a goal step lacks: a question needs its options and answer; an event step names the player,
    the window and the card or event (a refusal: the card and the rule)."""
    out: list[str] = []
    where = f"{path}: lesson.check[{i}]"
    for k in c:
        if k not in CHECK_KEYS:
            out.append(f"{where}: unknown key '{k}'{suggest(k, sorted(CHECK_KEYS))}")
    if "ask" in c:
        extra = sorted(k for k in c if k not in QUESTION_KEYS)
        if extra:
            out.append(f"{where}: a question takes only {', '.join(sorted(QUESTION_KEYS))}, not {', '.join(extra)}")
        opts = c.get("options", [])
        if not isinstance(opts, list) or len(opts) < 2:
            out.append(f"{where}.options: a question offers at least 2 options")
        elif str(c.get("answer", "")) not in [str(o) for o in opts]:
            out.append(f"{where}.answer: must be one of the options {opts}")
        if not str(c.get("why", "")).strip():
            out.append(f"{where}.why: a question says why its answer is right, with the rule id (the coaching "
                       f"for a wrong answer)")
        return out
    w = str(c.get("window", ""))
    if not w:
        out.append(f"{where}: name the window (window = \"main.priority\", or a phase prefix \"combat.\")")
    elif w not in WINDOW_INDEX and not (w.endswith(".") and any(x.startswith(w) for x in WINDOWS)):
        out.append(f"{where}.window '{w}' is not a window id (or a phase prefix such as 'combat.')"
                   f"{suggest(w, WINDOWS)}")
    for who in ("actor", "turn"):
        if who in c and str(c[who]) not in PLAYERS:
            out.append(f"{where}.{who} must be p1, p2 or game, got {c[who]!r}")
    if "actor" not in c and "turn" not in c:
        out.append(f"{where}: name the player (actor = \"p1\"/\"p2\"/\"game\", or turn = whose turn)")
    kind = str(c.get("kind", ""))
    if not kind and not c.get("rule"):
        out.append(f"{where}: name the event (kind = an event kind, or rule = the rule id it happens under)")
    if kind in CARD_KINDS and not c.get("card") and not c.get("target") and not c.get("text"):
        out.append(f"{where}: a '{kind}' step names its card (card = a name or an alias)")
    if kind == "refusal" and not c.get("rule"):
        out.append(f"{where}: a refusal step names the rule it is refused under (rule = \"OPP Slow\")")
    return out


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
        problems += _check_problems(path, i, c)
        kw = {k: str(v) for k, v in c.items() if k in CHECK_KEYS and k not in ("amount", "teaches", "options",
                                                                                  "at_step")}
        checks.append(Check(**kw, amount=int(c["amount"]) if "amount" in c else None,
                            teaches=tuple(str(r) for r in c.get("teaches", [])),
                            options=tuple(str(o) for o in c.get("options", [])),
                            at_step=int(c.get("at_step", 0))))
    if not any(not c.is_question for c in checks):
        problems.append(f"{path}: a lesson needs at least one [[lesson.check]] over the match's events: its goal")
    hints = []
    for i, h in enumerate(les.get("hint", []), 1):
        for k in h:
            if k not in HINT_KEYS:
                problems.append(f"{path}: unknown key 'lesson.hint[{i}].{k}'")
        hints.append(Hint(str(h.get("rule", "")), str(h.get("text", ""))))
    commands = [str(st["do"]) for st in scn.steps if "do" in st]
    for q in sorted((c for c in checks if c.is_question), key=lambda c: -c.at_step):
        if not 0 <= q.at_step <= len(commands):
            problems.append(f"{path}: a question's at_step {q.at_step} is not within the solution's "
                            f"{len(commands)} commands")
        commands.insert(max(0, min(q.at_step, len(commands))), f"answer {q.answer}")
    solution = tuple(commands)
    raw_wrong = les.get("wrong", [])
    if raw_wrong and all(isinstance(x, str) for x in raw_wrong):
        raw_wrong = [raw_wrong]                      # one line, written flat
    wrong = tuple(tuple(str(x) for x in line) for line in raw_wrong if isinstance(line, list))
    if not any(c.get("do") for c in scn.steps):
        problems.append(f"{path}: a lesson's [[step]]s are its scripted solution: there is none")
    if not wrong:
        problems.append(f"{path}: lesson.wrong: a lesson ships wrong lines that must not complete it")
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


def course_files(folder: Path) -> list[Path]:
    """The lesson files of a folder in course order (the file names' order: basics → combat → Realms),
    unread: lesson N of the course is the N-th."""
    return sorted(folder.glob("*.scenario.toml"))


def load_course(folder: Path, db: CardDB | None = None) -> list[Lesson]:
    """Every lesson in a folder, in course order (`course_files`)."""
    from engine.cards import load_card_db

    base = db if db is not None else load_card_db()
    return [load_lesson(p, base) for p in course_files(folder)]


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
    if cid is not None:
        lineage = {cid}            # (the numbers it had before entering a hidden zone: rules.md §7a)
        while cid in g.earlier_numbers:
            cid = g.earlier_numbers[cid]
            lineage.add(cid)
        return any(i in lineage for i in ids) or (not ids and name in text.lower())
    if any(g.defs.get(i) is not None and g.card(i).name.lower() == name for i in ids):
        return True
    return not ids and name in text.lower()


def matches(g: Game, c: Check, e: EventLike, active: int = -2) -> bool:
    """Whether event `e` is goal step `c` (`active`: whose turn it was, for a `turn` step)."""
    if c.is_question:
        return False
    if c.kind and e.kind != c.kind:
        return False
    if c.window and not (e.window == c.window or (c.window.endswith(".") and e.window.startswith(c.window))):
        return False
    if c.rule and e.rule != c.rule:
        return False
    if c.actor and e.actor != PLAYERS.get(c.actor, -2):
        return False
    if c.turn and active != PLAYERS.get(c.turn, -2):
        return False
    if c.text and c.text.lower() not in e.text.lower():
        return False
    if c.amount is not None and e.amount != c.amount:
        return False
    if e.kind in ("damage", "heal") and e.amount <= 0:     # a damage or heal step: the amount changed
        return False
    if c.detail and c.detail.lower() not in e.detail.lower():
        return False
    if c.card and not _card_matches(g, c.card, e.cards[:1], e.text):
        return False
    return not (c.target and not _card_matches(g, c.target, e.cards[1:], e.text))


def _position(turn: int, window: str | int) -> tuple[int, int]:
    w = window if isinstance(window, int) else WINDOW_INDEX.get(window, 0)
    return (turn, w)


@dataclass(frozen=True)
class Walk:
    """The goal's steps met in order (what met each), and the wrong answer that stopped it, if one did:
    (the question's index among the checks, the answer)."""

    met: list[EventLike | Answer]
    wrong: tuple[int, Answer] | None = None


def _walk(lesson: Lesson, g: Game, since: int, answers: Sequence[Answer],
          deadlines: Sequence[tuple[int, int]] | None) -> Walk:
    """The goal's steps met in order by the events (and answers) from `since` on: what met each. With
    `deadlines`, a step counts only up to the moment (turn, window) the solution met it.

    An answer answers the question the goal is at; one given after a question was answered (before the
    goal is complete) answers it again. A wrong answer stops the walk: the lesson is lost until it is
    taken back (a question is passed only by a right answer, never by trying every option)."""
    met: list[EventLike | Answer] = []
    checks = lesson.checks
    pending = sorted(answers, key=lambda a: a.at)
    ai = 0
    active = -2
    evs = events_of(g)
    wrong: tuple[int, Answer] | None = None

    def take_answers(upto: int) -> None:
        nonlocal ai, wrong
        while wrong is None and ai < len(pending) and pending[ai].at <= upto:
            a = pending[ai]
            ai += 1
            i = len(met)
            if a.at < since or i >= len(checks):
                continue
            if checks[i].is_question:
                if deadlines is not None and _position(a.turn, a.window) > deadlines[i]:
                    continue                 # too late: the deadline says so
                if checks[i].accepts(a.text):
                    met.append(a)
                else:
                    wrong = (i, a)
                continue
            asked = [j for j in range(i) if checks[j].is_question]
            if asked and not checks[asked[-1]].accepts(a.text):
                wrong = (asked[-1], a)       # a right answer changed to a wrong one

    for e in evs:
        if wrong is not None:
            break
        if e.kind == "window":
            active = e.actor
        if e.n < since:
            continue
        take_answers(e.n)
        if wrong is not None:
            break
        i = len(met)
        if i < len(checks) and matches(g, checks[i], e, active) \
                and (deadlines is None or _position(e.turn, e.window) <= deadlines[i]):
            met.append(e)
    take_answers(len(evs))
    return Walk(met, wrong)


_DEADLINES: weakref.WeakKeyDictionary[Lesson, tuple[tuple[int, int], ...]] = weakref.WeakKeyDictionary()


def deadlines(lesson: Lesson) -> tuple[tuple[int, int], ...]:
    """For each goal step, the moment (turn, window index) the lesson's own solution meets it: the latest
    a learner may meet it too. (A step the solution never meets has no deadline: the end of the match.)"""
    got = _DEADLINES.get(lesson)
    if got is None:
        run = play(lesson, lesson.solution, strict=False)
        met = _walk(lesson, run.game, run.since, run.answers, None).met
        out = [(a.turn, a.window) if isinstance(a, Answer) else _position(a.turn, a.window) for a in met]
        out += [(10**9, 0)] * (len(lesson.checks) - len(out))
        got = _DEADLINES[lesson] = tuple(out)
    return got


def progress(lesson: Lesson, g: Game, since: int = 0, answers: Sequence[Answer] = ()) -> Progress:
    """How far the learner is: the goal's steps met in order by the events from `since` on (and the
    learner's answers), each by the moment the solution meets it; and why not, as soon as it can't be met:
    a wrong answer, the event that made the next step impossible (`blocked`), or its moment passed."""
    dl = deadlines(lesson)
    walk = _walk(lesson, g, since, answers, dl)
    i = len(walk.met)
    fails = tuple(check_expect(g, lesson.expect)) if lesson.expect and i == len(lesson.checks) else ()
    checks = lesson.checks
    question = checks[i].question() if i < len(checks) and checks[i].is_question else ""
    lost = wrong_text = wrong_to = ""
    if walk.wrong is not None:
        q, a = walk.wrong
        wrong_text, wrong_to = _option_words(checks[q], a.text), checks[q].ask
        lost = f"you answered “{wrong_text}” to “{wrong_to}”, and that is not right: " \
               f"{checks[q].why or 'the answer is ' + checks[q].answer}"
        question = ""
    elif i < len(checks):
        now = _position(g.turn, g.win)
        step = checks[i].describe()
        why = "" if g.is_terminal() else blocked(lesson, g, since, walk.met, dl)
        if why and checks[i].is_question:      # (the blocked step is one after it: naming it would answer it)
            lost = (f"“{step}” was not answered before the line went past what it asks about (now T{g.turn} "
                    f"{WINDOWS[g.win]})")
        elif why:
            lost = why
        elif now > dl[i]:
            turn, w = dl[i]
            who = g.players[g.active].name if g.turn == turn else ""
            lost = (f"“{step}” had to happen by T{turn} {WINDOWS[w]}, and the game is now at T{g.turn} "
                    f"{WINDOWS[g.win]}" + (f" ({who}'s turn)" if who else ""))
        elif g.is_terminal():
            lost = f"the match is over, and “{step}” never happened"
    elif fails:
        lost = "the steps happened, but the position is not the lesson's: " + "; ".join(fails)
    return Progress(tuple(c.describe() for c in checks[:i]), tuple(c.describe() for c in checks[i:]),
                    state_ok=not fails and i == len(checks) and walk.wrong is None, failures=fails,
                    question=question, lost=lost, wrong_answer=wrong_text, wrong_to=wrong_to)


def _option_words(q: Check, text: str) -> str:
    """An answer as the learner meant it: option N's words for `N`."""
    t = text.strip()
    return q.options[int(t) - 1] if t.isdigit() and 1 <= int(t) <= len(q.options) else t


# -------------------------------------------------------------------- when a step becomes unreachable
#
# Each blocker looks at the step the goal is at and says, from the events so far, what made it impossible
# before its deadline (the moment the solution meets it), or "". A blocker must be sound: it speaks only
# when no line from here can meet the step in time (tests/test_lessons_lost.py plays the solution's every
# prefix, every wrong line and random lines against that).

#: zones a card does nothing more from (Void is not one: a Voidcast card comes back)
_DEAD_ZONES = frozenset({GRAVEYARD, GONE})
#: the zones a card is played (or Set) from
_PLAY_ZONES = frozenset({HAND, LIBRARY, SET})


@dataclass(frozen=True)
class Blocking:
    """What a blocker reads: the lesson, the match, the step the goal is at and its deadline, the events
    from `since` on and the event that met the step before it (None: none yet)."""

    lesson: Lesson
    game: Game
    check: Check
    deadline: tuple[int, int]
    events: Sequence[EventLike]
    after: int                  # the first event that may meet the step (after the step before it)


def _effects(d: Any) -> Iterable[Any]:
    """Every effect a card can make: its own, its abilities', and inside Flux outcomes and Thread branches."""
    todo = list(d.effect) + [e for a in d.abilities for e in a.effect]
    while todo:
        e = todo.pop()
        yield e
        for group in (e.outcomes or []) + (e.branches or []):
            todo += group


def _anyone_can(g: Game, pred: Callable[[Any], bool]) -> bool:
    """Whether a card not in the graveyard has an effect `pred` accepts (it might still make it)."""
    return any(z not in _DEAD_ZONES and g.defs.get(c) is not None and any(pred(e) for e in _effects(g.card(c)))
               for c, z in g.zone.items())


def _copies(g: Game, key: str, player: int) -> list[int]:
    """The cards a step's `card` names: the alias's card, or every card of that name `player` owns
    (any player's for -1)."""
    cid, name = _names_for(g, key)
    if cid is not None:
        return [cid]
    return [c for c in g.zone if g.defs.get(c) is not None and g.card(c).name.lower() == name
            and (player < 0 or g.owner.get(c) == player)]


def _last_move(b: Blocking, cards: Iterable[int]) -> str:
    """The event that last moved one of these cards (or played, discarded, destroyed it), as a line."""
    ids = set(cards)
    for e in reversed(b.events):
        if e.kind in ("play", "set", "move", "discard", "destroy", "resolve", "counter") and ids & set(e.cards[:1]):
            return f"{e.text.strip()} (T{e.turn} {e.window})"
    return ""


def _card_gone(b: Blocking) -> str:
    """The card the step plays, Sets, activates, attacks or blocks with is out of reach: played from the
    hand already (with nothing that could return it), or in the graveyard."""
    c, g = b.check, b.game
    if c.kind not in ("play", "set", "activate", "attack", "block") or not c.card:
        return ""
    who = PLAYERS.get(c.actor, -1)
    cards = _copies(g, c.card, who)
    if not cards:
        return ""
    name = g.card(cards[0]).name
    if c.kind in ("play", "set"):
        if any(g.zone[x] in _PLAY_ZONES for x in cards):
            return ""
        if any(g.zone[x] not in _DEAD_ZONES for x in cards) and _anyone_can(g, lambda e: e.do == "return_to_hand"):
            return ""
        where = {GRAVEYARD: "in the graveyard", STACK: "on the stack", BOARD: "in play", RELICS: "in play",
                 VOID: "in the Void"}.get(g.zone[cards[0]], "gone")
        return f"{_last_move(b, cards) or name + ' left the hand'} — the {name} it needs is {where}, not in a hand"
    if any(g.zone[x] not in _DEAD_ZONES for x in cards):
        return ""
    return f"{_last_move(b, cards) or name + ' is gone'} — the {name} it needs is in the graveyard"


def _decided(b: Blocking) -> str:
    """The decision the step is (an attack, a block, an order or other choice) was made otherwise: the
    step's player declared or chose in its window on the deadline's turn, and nothing is asked now."""
    c, g = b.check, b.game
    if c.kind not in ("attack", "block", "choice") or g.turn != b.deadline[0]:
        return ""
    who = PLAYERS.get(c.actor, -2)
    pend = g.pending
    if pend.kind != "priority" and pend.player == who:
        return ""                            # still being asked
    for e in b.events:
        if e.n >= b.after and e.kind == c.kind and e.actor == who and e.command >= 0 and e.turn == g.turn \
                and (not c.window or e.window.startswith(c.window)):
            what = {"attack": "declared the attack", "block": "declared the blocks", "choice": "chose"}[c.kind]
            said = next((x for x in b.events if x.n > e.n and x.kind == e.kind and x.command < 0), e)  # (in words)
            return f"{g.players[who].name} {what} otherwise (“{said.text.strip()}”, T{e.turn} {e.window}) and " \
                   f"can't do it again this turn"
    return ""


def _permission_closed(b: Blocking) -> str:
    """A play through a permission (OPP Permissions) needs the permission open: an instruction lasts only
    while its effect resolves; once declined or over, only another permission could open one."""
    c, g = b.check, b.game
    if c.rule != "OPP Permissions" or c.kind != "play" or b.after <= 0:
        return ""
    who = PLAYERS.get(c.actor, -2)
    if (g.pending.kind != "priority" and g.pending.player == who) or g.players[who].permits:
        return ""
    if _anyone_can(g, lambda e: e.do == "permit"):
        return ""                            # a card that grants one is still to come
    ended = next((e for e in reversed(b.events) if e.n >= b.after and e.rule == "OPP Permissions" and e.actor == who), None)
    if ended is None:
        return ""
    return f"“{ended.text.strip()}” (T{ended.turn} {ended.window}): the permission lasted only while its effect " \
           f"resolved (OPP Permissions)"


def _ward_spent(b: Blocking) -> str:
    """Ward preventing N needs N points of Ward on the unit: once spent (and nothing could grant more),
    it can't prevent them."""
    c, g = b.check, b.game
    if c.rule != "KW Ward" or c.amount is None or not c.card:
        return ""
    cards = [x for x in _copies(g, c.card, -1) if x in g.perms]
    if not cards or any(g.perms[x].ward >= c.amount for x in cards):
        return ""
    if _anyone_can(g, lambda e: bool(e.keyword) and str(e.keyword).startswith("ward")):
        return ""
    spent = next((e for e in reversed(b.events) if e.rule == "KW Ward" and set(e.cards) & set(cards)), None)
    left = max(g.perms[x].ward for x in cards)
    said = f"“{spent.text.strip()}” (T{spent.turn} {spent.window})" if spent is not None else "its Ward is spent"
    return f"{said} — {left} point(s) of Ward are left, and the step needs Ward to prevent {c.amount} (KW Ward)"


#: each step kind's "it can't happen any more", in the order asked
BLOCKERS: tuple[Callable[[Blocking], str], ...] = (_card_gone, _decided, _permission_closed, _ward_spent)


def blocked(lesson: Lesson, g: Game, since: int, met: Sequence[EventLike | Answer],
            deadlines: Sequence[tuple[int, int]]) -> str:
    """Why a step still to come can no longer be met before its deadline: the step, the event that made it
    impossible and why ("" while every step still can be)."""
    i = len(met)
    prev = met[-1] if met else None
    after = since if prev is None else (prev.at if isinstance(prev, Answer) else prev.n + 1)
    evs = events_of(g)[since:]
    for j in range(i, len(lesson.checks)):
        c = lesson.checks[j]
        if c.is_question:
            continue
        b = Blocking(lesson, g, c, deadlines[j], evs, after)
        for f in BLOCKERS:
            why = f(b)
            if why:
                return f"“{c.describe()}” can't happen any more: {why}"
    return ""


def met_events(lesson: Lesson, g: Game, since: int = 0, answers: Sequence[Answer] = ()) -> list[EventLike | Answer]:
    """What met each of the goal's steps met so far (an event, or an answer)."""
    return _walk(lesson, g, since, answers, deadlines(lesson)).met


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
    answers: list[Answer] = field(default_factory=list)


def answer_now(g: Game, text: str) -> Answer:
    """An answer given now: at the match's current event count, turn and window."""
    return Answer(len(events_of(g)), g.turn, g.win, text)


def answer_of(command: str) -> str | None:
    """The answer an `answer ...` command gives (None for any other command)."""
    head, _, rest = command.strip().partition(" ")
    return rest.strip() if head.lower() == "answer" else None


def play_one(g: Game, answers: list[Answer], cmd: str) -> tuple[str, str] | None:
    """One line of a lesson: `answer ...` joins `answers`, any other command goes to the match. Returns
    the refusal (rule, reason; rule "" for a malformed command), or None."""
    said = answer_of(cmd)
    if said is not None:
        answers.append(answer_now(g, said))
        return None
    try:
        g.apply_command(cmd)
    except IllegalAction as err:
        return err.rule, err.reason
    except MalformedCommand as err:
        return "", str(err)
    return None


def play(lesson: Lesson, commands: Iterable[str], strict: bool = True) -> Played:
    """Play commands from the lesson's position (a refused one is noted and play goes on); `answer ...`
    lines answer the lesson's questions."""
    g, since = start(lesson)
    refusals: list[tuple[str, str, str]] = []
    answers: list[Answer] = []
    for cmd in commands:
        if g.is_terminal():
            break
        refused = play_one(g, answers, cmd)
        if refused is not None:
            refusals.append((cmd, *refused))
    prog = progress(lesson, g, since, answers) if strict else Progress((), (), False)
    return Played(g, since, refusals, prog, answers)


# -------------------------------------------------------------------- coaching


def hint(lesson: Lesson, g: Game, rule: str, reason: str, since: int = 0, answers: Sequence[Answer] = ()) -> str:
    """For a refused command: the engine's own "why not?" (rule and reason), the lesson's hint for that
    rule, and the goal's next step."""
    lines = [f"why not? {reason} ({rule})" if rule else f"?? {reason}"]
    own = [h.text for h in lesson.hints if h.rule == rule] or [h.text for h in lesson.hints if not h.rule]
    lines += own[:1]
    nxt = progress(lesson, g, since, answers).todo
    if nxt:
        lines.append(f"next: {nxt[0]}")
    return "\n".join(lines)


def coaching(p: Progress) -> str:
    """What the lesson says once it can no longer be completed: that, why, and the way back."""
    if not p.lost:
        return ""
    back = "u takes the answer back" if p.wrong_answer else "u undoes your last action"
    return (f"✗ This lesson can't be completed now: {p.lost}.\n"
            f"  {back} · F2 restarts the lesson")


#: event kinds that are bookkeeping, not something the learner's line did
_BOOKKEEPING = frozenset({"priority", "pass", "window", "stack"})


def event_rules(e: EventLike) -> tuple[str, ...]:
    """The rule ids an event exercises: its own rule and the section it belongs to (`shown_rules`)."""
    where = WINDOW_RULE[WINDOW_INDEX[e.window]] if e.window in WINDOW_INDEX else ""
    return tuple(r for r in dict.fromkeys((e.rule, where, *shown_rules(e, ""))) if r)


def exercised(g: Game, since: int = 0, lesson: Lesson | None = None, answers: Sequence[Answer] = ()) -> list[str]:
    """The rule ids the learner's own line exercised since `since`, in the order first seen: the rules of
    their commands (a play, a refusal, an attack … and the window it was typed in) and of what those
    commands invoked in that window (what went on the stack, resolved after their pass, triggered, was dealt
    or moved) — not the windows merely passed through nor what the turn did there by itself (a draw, the
    Influence gained) — and the rules of the events that met the goal's steps, with what those steps teach."""
    from engine.events import COMMAND_KINDS

    out: dict[str, None] = {}
    met_at: dict[int, Check] = {}
    if lesson is not None:
        for c, m in zip(lesson.checks, met_events(lesson, g, since, answers), strict=False):
            if not isinstance(m, Answer):
                met_at[m.n] = c
    rows = [row for row in coverage_table() if row.label == row.doc and row.group != "C1K sections"]
    evs = list(events_of(g))
    invoked = False                 # within what a command of the line set off (until the window changes)
    attacked = -1                   # the turn the line declared attackers in: its combat damage is theirs
    stack: list[EventLike] = []     # what put each item still on the stack there
    for e in evs:
        if e.kind == "window":
            invoked = False
        if e.kind in ("trigger", "stack"):
            stack.append(e)
        pushed = None
        if e.kind in ("resolve", "counter"):
            pushed = next((x for x in reversed(stack) if x.cards[:1] == e.cards[:1]), stack[-1] if stack else None)
            if pushed is not None:
                stack.remove(pushed)
        if e.n < since:
            continue
        if e.kind in COMMAND_KINDS and (e.command >= 0 or e.kind == "refusal"):
            invoked = True
            if e.kind == "attack" and e.cards:
                attacked = e.turn
        if not (invoked or e.n in met_at or (e.window == "combat.damage" and e.turn == attacked)):
            continue
        used = [e]
        if e.kind == "resolve" and pushed is not None:   # an item resolving: the rule that put it there too
            used.append(pushed)
        for u in used:
            if u.kind not in _BOOKKEEPING or u is not e:
                for row in rows:           # a speed, an action step, a keyword, a Seat: by what happened
                    if row.label not in out and row.pred(g, u, evs[:u.n]):
                        out[row.label] = None
        if e.kind not in _BOOKKEEPING or e.n in met_at:
            for rid in (*event_rules(e), *(r for u in used[1:] for r in (u.rule,) if r)):
                out[rid] = None
        if e.n in met_at:
            for rid in met_at[e.n].teaches:
                out[rid] = None
    return list(out)


def debrief(lesson: Lesson, g: Game, since: int = 0, answers: Sequence[Answer] = (),
            taken_back: Sequence[tuple[str, str]] = ()) -> str:
    """The lesson's debrief, the rule ids the learner's own line exercised (nothing else), and the wrong
    answers taken back on the way ((question, answer) each)."""
    seen = exercised(g, since, lesson, answers)
    text = f"{lesson.debrief}\n\nRules your line exercised: {', '.join(seen) or 'none'}"
    if taken_back:
        text += "\n\nWrong answers taken back: " + "; ".join(f"“{a}” to “{q}”" for q, a in taken_back)
    return text


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


#: keywords an event's words name when its rule is the window's or the combat step's
_WORDED = (("(Rooted)", ("KW Rooted", "C1K 9")), ("(Suppressed)", ("KW Suppress", "C1K 9")),
           ("Tough:", ("KW Tough",)))


def shown_rules(e: EventLike, window_rule: str, simultaneous: bool = False,
                after_play: bool = False) -> tuple[str, ...]:
    """The rule ids shown beside an event in the learning flow: its own rule when it is not the window's,
    and the section it belongs to: C1K 10 for a refusal, C1K 9 for a Realm keyword, C1K 7 for an Interrupt,
    C1K 6 for an item resolving from the stack, C1K 8 for a trigger that joined others at the same moment,
    C1K 3.2 for a trigger set off by a card just played, C1K 3.3 for a replacement (Veilbind, Wither)."""
    out: list[str] = []
    if e.rule and e.rule != window_rule:
        out.append(e.rule)
    extra = {"refusal": "C1K 10", "interrupt": "C1K 7", "counter": "C1K 7", "resolve": "C1K 6"}.get(e.kind)
    if e.rule in REALM_RULES:
        extra = "C1K 9"
    for words, ids in _WORDED:
        if words in e.text:
            out += [r for r in ids if r not in out]
    if e.rule in ("KW Veilbind", "KW Wither"):
        out.append("C1K 3.3")
    if after_play and e.kind == "trigger" and e.window == "main.priority":
        out.append("C1K 3.2")
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
            if cur is not None and cur["window"] == "main.priority" and e.window == "combat.declare_attackers" \
                    and prev_kind == "pass":
                cur["lines"].append(("both players passed in a row on an empty stack: the Main Phase ends",
                                     ("C1K 3.4",)))
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
            cur["lines"].append((e.text.strip(), shown_rules(e, cur["rule"], together, prev_kind == "stack")))
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


Pred = Callable[[Game, EventLike, Sequence[EventLike]], bool]


def _kw(g: Game, cid: int, name: str) -> bool:
    """Whether card `cid`'s printed keywords include `name` ("rally 1" counts as "rally")."""
    if not g.exists(cid):
        return False
    return name in g.card(cid).keywords


def _type(g: Game, cid: int) -> str:
    return g.card(cid).type if g.exists(cid) else ""


def _rule_is(rid: str, kind: str = "", window: str = "", text: str = "") -> Pred:
    def pred(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
        return (e.rule == rid and (not kind or e.kind == kind) and (not window or e.window.startswith(window))
                and (not text or text in e.text))
    return pred


def _leaves_combat(status: str) -> Pred:
    def pred(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
        return e.rule == "C1K 4.1" and f"({status})" in e.text and "leaves combat" in e.text
    return pred


def _active(prior: Sequence[EventLike]) -> int:
    return next((e.actor for e in reversed(prior) if e.kind == "window"), -2)


def _fast_play(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    """A Fast card played where a Slow one could not be: by the player whose turn it is not, outside
    main.priority, or on top of something on the stack."""
    if e.kind not in ("play", "activate") or not e.cards:
        return False
    d = g.card(e.cards[0]) if g.exists(e.cards[0]) else None
    fast = d is not None and (d.speed == "fast" or (e.kind == "activate" and any(
        a.activate is not None and a.activate.speed == "fast" for a in d.abilities)))
    if not fast:
        return False
    open_items = sum(1 if x.kind in ("stack", "trigger") else -1 if x.kind in ("resolve", "counter") else 0
                     for x in prior if x.window == e.window and x.turn == e.turn)
    return e.actor != _active(prior) or e.window != "main.priority" or open_items > 0


def _charge_attack(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    entered = {x.cards[0] for x in prior if x.kind == "move" and x.detail == "play" and x.turn == e.turn and x.cards}
    return e.kind == "attack" and any(c in entered and _kw(g, c, "charge") for c in e.cards)


def _source_kw(name: str, kind: str, champion_target: bool = False, blocked: bool = False) -> Pred:
    def pred(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
        if e.kind != kind or not e.cards or not _kw(g, e.cards[0], name) or e.amount <= 0:
            return False
        if champion_target and not (len(e.cards) > 1 and _type(g, e.cards[1]) == "champion"):
            return False
        return not blocked or any(x.kind == "block" and x.command < 0 and e.cards[0] in x.cards[1::2]
                                  for x in prior if x.turn == e.turn)
    return pred


def _strike(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    return (e.kind == "damage" and e.window == "combat.damage" and bool(e.cards) and _kw(g, e.cards[0], "strike")
            and any(x.kind == "note" and "Strike step" in x.text for x in prior[-6:]))


def _tough(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    return (e.kind == "damage" and len(e.cards) > 1 and _kw(g, e.cards[1], "tough")) or e.rule == "KW Tough"


def _ward_before_tough(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    return e.rule == "KW Ward" and bool(e.cards) and _kw(g, e.cards[0], "tough")


def _pulse_relic(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    return e.rule == "KW Pulse" and e.kind == "trigger" and bool(e.cards) and _type(g, e.cards[0]) == "relic"


def _start_of_main(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    if e.kind != "trigger" or e.window != "main.priority" or not e.cards or _type(g, e.cards[0]) == "":
        return False
    return any(a.when == "start_of_main" for a in g.card(e.cards[0]).abilities)


def _action_resolves(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    return e.kind == "resolve" and bool(e.cards) and _type(g, e.cards[0]) == "action"


def _play_trigger(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    """A trigger that went on the stack because a card was just played (on top of it)."""
    last = next((x for x in reversed(prior) if x.kind not in ("priority",)), None)
    return e.kind == "trigger" and e.window == "main.priority" and last is not None and last.kind == "stack"


def _replacement(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    """A replacement effect applied as its event happened (Veilbind for destruction, Wither for damage)."""
    return e.rule in ("KW Veilbind", "KW Wither")


def _flux_order(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
    return e.kind == "choice" and e.command >= 0 and e.rule == "C1K 8"


@dataclass(frozen=True)
class Row:
    """A coverage row: what a lesson must require (`pred` over the event that meets one of its goal steps),
    the rule id whose text documents it, and the ids the learning flow may show for it."""

    group: str
    label: str
    doc: str
    pred: Pred
    shown: tuple[str, ...]


def _default(rid: str) -> Pred:
    def pred(g: Game, e: EventLike, prior: Sequence[EventLike]) -> bool:
        return rid in event_rules(e)
    return pred


KEYWORDS: tuple[str, ...] = (
    "KW Strike", "KW Tough", "KW Barrier", "KW Overwhelm", "KW Regeneration", "KW Guard", "KW Charge",
    "KW Lifedrain", "KW Rally", "KW Conquer", "KW Veiled", "KW Set", "KW Ambush", "KW Veilbind", "KW Decay",
    "KW Wither", "KW Growth", "KW Evolve", "KW Bloom", "KW Rooted", "KW Flux", "KW Thread", "KW Pulse",
    "KW Ward", "KW Suppress", "KW Nullify", "KW Voidcast")
_KW_PRED: dict[str, Pred] = {
    "KW Strike": _strike, "KW Tough": _tough, "KW Overwhelm": _source_kw("overwhelm", "damage", True, True),
    "KW Charge": _charge_attack,
    "KW Rooted": lambda g, e, p: e.rule == "KW Rooted" or _leaves_combat("Rooted")(g, e, p),
}


def coverage_table() -> tuple[Row, ...]:
    """Every row `c1k learn --coverage` checks: the C1K sections, each Realm timing modifier rules.md names,
    the speeds and permissions, the action steps, every keyword and the Seats."""
    special: dict[str, Pred] = {"C1K 3.2": _play_trigger, "C1K 3.3": _replacement}
    rows = [Row("C1K sections", s, s, special.get(s, _default(s)), (s,)) for s in C1K_SECTIONS]
    realm = [
        ("Dominion: Rally applies at declaration, no stack", _rule_is("KW Rally", window="combat.declare_attackers"),
         "KW Rally"),
        ("Dominion: Conquer inside combat.damage, no stack", _rule_is("KW Conquer", window="combat.damage"),
         "KW Conquer"),
        ("Veil: opponents can't target a Veiled unit", _rule_is("KW Veiled", kind="refusal"), "KW Veiled"),
        ("Veil: Setting a card is a special action, no stack", _rule_is("KW Set", kind="set"), "KW Set"),
        ("Veil: a Set card is played at Fast speed", _rule_is("KW Ambush"), "KW Ambush"),
        ("Veil: Veilbind replaces destruction", _rule_is("KW Veilbind"), "KW Veilbind"),
        ("Ruin: Decay counters come with the damage", _rule_is("KW Decay", kind="note"), "KW Decay"),
        ("Ruin: Wither replaces damage to units", _rule_is("KW Wither"), "KW Wither"),
        ("Ruin: destruction triggers resolve first", _rule_is("C1K 6", kind="resolve", text="Decay Check"),
         "KW Decay"),
        ("Genesis: Evolve is checked mid-phase", _rule_is("KW Evolve", kind="sba"), "KW Evolve"),
        ("Genesis: Bloom wherever healing happens", _rule_is("KW Bloom", kind="trigger"), "KW Bloom"),
        ("Genesis: Rooted after its declaration, an attacker leaves combat", _leaves_combat("Rooted"), "KW Rooted"),
        ("Paradox: a Flux outcome happens after its Interrupts",
         _rule_is("KW Flux", kind="flux", text="drawn again"), "KW Flux"),
        ("Paradox: a player orders their own simultaneous Flux triggers", _flux_order, "KW Flux"),
        ("Paradox: a Thread branch resolves at the next priority, no stack", _rule_is("KW Thread", kind="thread"),
         "KW Thread"),
        ("Solace: prevention (Ward) applies before Tough", _ward_before_tough, "KW Ward"),
        ("Solace: Pulse works from a relic", _pulse_relic, "KW Pulse"),
        ("Null: Suppression makes a declared attack illegal", _leaves_combat("Suppressed"), "KW Suppress"),
        ("Null: Nullify counters an Action as it is played", _rule_is("KW Nullify", kind="interrupt"), "KW Nullify"),
        ("Null: Voidcast delays the card to the next end.start", _rule_is("KW Voidcast", kind="move"),
         "KW Voidcast"),
    ]
    rows += [Row("Realm timing modifiers (C1K 9)", label, "C1K 9", pred, ("C1K 9", shown))
             for label, pred, shown in realm]
    rows += [Row("Speeds and permissions", "OPP Slow", "OPP Slow", _rule_is("OPP Slow"), ("OPP Slow",)),
             Row("Speeds and permissions", "OPP Fast", "OPP Fast", _fast_play, ("OPP Fast", "C1K 6")),
             Row("Speeds and permissions", "OPP Permissions", "OPP Permissions", _rule_is("OPP Permissions"),
                 ("OPP Permissions",))]
    rows += [Row("Action steps", "AS Unit play", "AS Unit play", _rule_is("AS Unit play", kind="move"),
                 ("AS Unit play",)),
             Row("Action steps", "AS Action play", "AS Action play", _action_resolves, ("C1K 6",)),
             Row("Action steps", "AS Start of main", "AS Start of main", _start_of_main, ("C1K 3.1", "C1K 8")),
             Row("Action steps", "AS Combat", "AS Combat",
                 lambda g, e, p: e.kind == "trigger" and e.window.startswith("combat."), ("C1K 4.4", "C1K 4.2",
                                                                                          "C1K 4.1"))]
    rows += [Row("Keywords", k, k, _KW_PRED.get(k, _rule_is(k)), (k, "C1K 4.3")) for k in KEYWORDS]
    rows.append(Row("Seats", "SEAT", "SEAT", _rule_is("SEAT"), ("SEAT",)))
    return tuple(rows)


def required_rows(lesson: Lesson, rows: Sequence[Row] | None = None) -> dict[str, int]:
    """The coverage rows this lesson's goal requires: a row counts when an event that meets one of the
    goal's steps, as the lesson's own solution plays, is that row's event (or the step names the row's rule
    in `teaches`). Maps each row's label to the goal step (1-based) that requires it."""
    rows = rows if rows is not None else coverage_table()
    run = play(lesson, lesson.solution, strict=False)
    evs = list(events_of(run.game))
    met = met_events(lesson, run.game, run.since, run.answers)
    out: dict[str, int] = {}
    for i, (c, m) in enumerate(zip(lesson.checks, met, strict=False), 1):
        if isinstance(m, Answer):
            continue
        for r in rows:
            if r.label not in out and (r.label in c.teaches or r.pred(run.game, m, evs[:m.n])):
                out[r.label] = i
    return out


@dataclass(frozen=True)
class CoverageRow:
    section: str
    text: bool
    lessons: tuple[str, ...]
    live: bool
    group: str = ""

    @property
    def ok(self) -> bool:
        return self.text and bool(self.lessons) and self.live


def coverage(lessons: Sequence[Lesson], doc_ids: Iterable[str], live: dict[str, set[str]],
             rows: Sequence[Row] | None = None) -> list[CoverageRow]:
    """Rows × (learner text in the rules document | a lesson whose goal requires the row's event | shown
    live while such a lesson's solution plays). `live` maps a lesson's key to the rule ids its solution
    showed live."""
    docs = set(doc_ids)
    rows = rows if rows is not None else coverage_table()
    need = {les.key: required_rows(les, rows) for les in lessons}
    out = []
    for r in rows:
        teaching = tuple(les.key for les in lessons if r.label in need[les.key])
        shown = any(any(s in live.get(k, set()) for s in r.shown) for k in teaching)
        out.append(CoverageRow(r.label, r.doc in docs, teaching, shown, r.group))
    return out


__all__ = [
    "C1K_SECTIONS", "CARD_KINDS", "CHECK_KEYS", "HINT_KEYS", "KEYWORDS", "LESSON_KEYS", "PARTS",
    "PLAYERS", "QUESTION_KEYS", "QUIET_KINDS", "REALM_MODIFIERS", "REALM_RULES", "Answer", "Check",
    "CoverageRow", "EventLike", "Hint", "Lesson", "LessonError", "Played", "Pred", "Progress", "Row",
    "WindowVisit", "answer_now", "answer_of", "coaching", "coverage", "coverage_table", "deadlines",
    "debrief", "event_rules", "events_of", "exercised", "hint", "lesson_from_scenario", "live_rules",
    "load_course", "load_lesson", "matches", "met_events", "play", "progress", "required_rows",
    "shown_rules", "start", "windows_entered", "windows_seen",
]
