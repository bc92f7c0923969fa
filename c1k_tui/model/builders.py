"""How a match starts: the start screen's choice (`StartChoice`), a lesson (`LessonInfo`), and the session
builders (new, resume, lesson, scenario, rematch, the learning match against the AI) that the CLI and the
app both use. No Textual; the engine is imported when first needed (the app's first frame never waits for
it)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from c1k_tui.model.paths import PlayerPrefs, default_autosave, lessons_dir, load_prefs

if TYPE_CHECKING:
    from c1k_tui.model.session import MatchSession
    from engine import CardDB


@dataclass
class StartChoice:
    deck_a: str
    deck_b: str
    seed: int
    p1: str
    p2: str
    open_hands: bool
    practice: bool
    flow: str
    opponent: str = "human"      # who plays p2: human, or an AI (c1k_tui/model/versus_session.py: ai, ai:1…4, ai:greedy, ai:random)
    cards: tuple[str, ...] = ()  # own card files or folders (the start screen's *own cards*; --cards)




@dataclass
class LessonInfo:
    path: Path
    title: str
    rule: str
    goal: str


def come_back_hint(save_path: Path | None, save_error: str = "") -> str:
    """What quitting a match in progress says (tui.md round 3, "Leaving and coming back"): where the match
    is autosaved and the command that continues it — or that it is not saved."""
    import shlex

    if save_path is None or save_error:
        why = f" ({save_error})" if save_error else ""
        return f"This match is NOT saved{why}: quitting ends it for good."
    if save_path == default_autosave():
        return f"The match is autosaved to {save_path}.\nTo come back to it: c1k resume"
    return f"The match is autosaved to {save_path}.\nTo come back to it: c1k resume {shlex.quote(str(save_path))}"


def new_seed() -> int:
    """64 bits from the OS's entropy (rules.md §7: a small seed space is recovered from one hand)."""
    return secrets.randbits(64)


def new_session(db: CardDB, choice: StartChoice, save_path: Path | None) -> MatchSession:
    from c1k_tui.model.session import Flow, MatchSession
    from c1k_tui.model.versus_session import VersusSession, agent_label, agent_spec
    from engine import MatchOptions, find_deck, load_deck

    decks = []
    for i, (name, player) in enumerate(((choice.deck_a, choice.p1), (choice.deck_b, choice.p2))):
        deck = load_deck(find_deck(name), db)
        deck.player = player or f"p{i + 1}"
        decks.append(deck)
    flow = with_saved_stops(Flow(choice.flow), (choice.p1 or "p1", choice.p2 or "p2"))
    ai = agent_spec(choice.opponent)             # VersusError (a ValueError) names the forms
    if ai:
        decks[1].player = decks[1].player if choice.p2 not in ("", "p2") else agent_label(ai)
        return VersusSession.new_vs(db, decks, choice.seed, MatchOptions(practice=choice.practice), {1: ai},
                                    flow=flow, save_path=save_path, open_hands=choice.open_hands)
    return MatchSession.new(db, decks, choice.seed, MatchOptions(practice=choice.practice), flow=flow,
                            save_path=save_path, open_hands=choice.open_hands)


def saved_prefs(names: tuple[str, str]) -> tuple[list[PlayerPrefs], str]:
    """Each seat's saved options by player name (defaults when none), and a message if the file is broken."""
    out: list[PlayerPrefs] = []
    errs: list[str] = []
    for name in names:
        got, err = load_prefs(name)
        out.append(got or PlayerPrefs())
        if err and err not in errs:
            errs.append(err)
    return out, "; ".join(errs)


def with_saved_stops(flow: Any, names: tuple[str, str]) -> Any:
    """A new match's flow with each player's own saved stops (C1K_HOME), seat by seat."""
    prefs, _ = saved_prefs(names)
    for i, p in enumerate(prefs):
        if p.stops is not None:
            flow.stops[f"p{i + 1}"] = list(p.stops)
    return flow


def resume_session(db: CardDB, path: Path) -> MatchSession:
    from c1k_tui.model.session import MatchSession
    from engine import record as rec

    r = rec.load(path)
    from c1k_tui.model.versus_session import resume_or_none

    session = resume_or_none(db, r, save_path=path) or MatchSession.from_record(r, db, save_path=path)
    from c1k_tui.model.settings import record_app_notice

    session.notice = record_app_notice(r.app, path)
    return session


def rematch(s: MatchSession) -> MatchSession:
    """Same decks, a new seed, seats swapped (a scenario or lesson starts again from its position)."""
    from c1k_tui.model.session import MatchSession
    from c1k_tui.model.versus_session import VersusSession

    if isinstance(s, VersusSession) and s.agents:
        return s.rematch(new_seed())
    if s.scenario is not None:
        from engine.scenario import scenario_from_data

        scn = scenario_from_data(s.scenario["data"], str(s.scenario.get("path", "")), s.db)
        return MatchSession.from_scenario(scn, s.db, str(s.scenario.get("path", "")), flow=s.flow,
                                          save_path=s.save_path, open_hands=s.open_hands, lesson=s.lesson)
    decks = [s.decks[1], s.decks[0]]
    return MatchSession.new(s.db, decks, new_seed(), s.game.options, flow=s.flow, save_path=s.save_path,
                            open_hands=s.open_hands)


def find_lessons(folder: Path | None = None) -> list[LessonInfo]:
    import tomllib

    from engine.safeio import read_bounded

    out = []
    for p in sorted((folder or lessons_dir()).glob("*.scenario.toml")):
        try:       # a regular file within the lessons' cap (engine/safeio.py), else skipped
            head = tomllib.loads(read_bounded(p, "lessons").decode("utf-8")).get("scenario", {})
        except (OSError, ValueError, RecursionError):   # (TOMLDecodeError, UnicodeDecodeError: ValueErrors)
            continue
        if not isinstance(head, dict):
            continue
        out.append(LessonInfo(p, str(head.get("title", p.stem)), str(head.get("rule", "")), str(head.get("goal", ""))))
    return out


def learning_vs_ai_session(db: CardDB, seed: int, save_path: Path | None = None,
                           agent: str = "ai") -> MatchSession:
    """The learning flow against the AI (`c1k learn --vs-ai`, the lessons screen's last entry): the
    learner's Ironbound against the AI's Emberfall, every window shown as it is entered with its rule id,
    in practice mode (a refused action never moves priority)."""
    from c1k_tui.model.session import Flow
    from c1k_tui.model.versus_session import VersusSession, agent_label, agent_spec
    from engine import MatchOptions, find_deck, load_deck

    spec = agent_spec(agent) or "ai"
    decks = [load_deck(find_deck("ironbound"), db), load_deck(find_deck("emberfall"), db)]
    decks[0].player, decks[1].player = "you", agent_label(spec)
    return VersusSession.new_vs(db, decks, seed, MatchOptions(practice=True), {1: spec},
                                flow=with_saved_stops(Flow("learning"), ("you", decks[1].player)),
                                save_path=save_path or default_autosave(), open_hands=False)


def _lesson_solution(db: CardDB, path: Path, steps: list[dict[str, Any]]) -> list[str]:
    """A lesson's solution as the learner would type it: its commands, and its answers to the questions."""
    from engine.lessons import LessonError, load_lesson

    try:
        return list(load_lesson(path, db).solution)
    except (OSError, LessonError, ValueError):     # a plain scenario played as a lesson: its commands
        return [str(st["do"]) for st in steps if "do" in st]


def lesson_session(db: CardDB, lesson: LessonInfo, save_path: Path | None = None) -> MatchSession:
    from c1k_tui.model.session import Flow, MatchSession
    from engine.scenario import load_scenario

    scn = load_scenario(lesson.path, db)
    steps = [st for st in scn.steps if st.get("expect")]
    lesson_data: dict[str, Any] = {"path": str(lesson.path), "title": lesson.title, "goal": lesson.goal,
                                   "rule": lesson.rule, "expect": steps[-1]["expect"] if steps else {},
                                   "solution": _lesson_solution(db, lesson.path, scn.steps)}
    session = MatchSession.from_scenario(scn, db, str(lesson.path), flow=Flow("full"),
                                         save_path=save_path or default_autosave(lesson=True), open_hands=True,
                                         lesson=lesson_data)
    from engine.lessons import events_of

    lesson_data["since"] = len(events_of(session.game))   # the learner's own events start here
    return session


def scenario_session(db: CardDB, path: Path, flow: Any, open_hands: bool, save_path: Path | None) -> MatchSession:
    from c1k_tui.model.session import MatchSession
    from engine.scenario import load_scenario

    scn = load_scenario(path, db)
    return MatchSession.from_scenario(scn, db, str(path), flow=flow, save_path=save_path, open_hands=open_hands)
