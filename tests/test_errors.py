"""One error family (issue #32 item 7, docs/architecture.md "Errors"): every error class defined anywhere in
`engine/` or `c1k_tui/` descends from `engine.C1KError`, through `BadInput` (files and commands) or
`RulesError` (refusals, loops), and keeps the built-in base it had before, so code that catches a
`ValueError` or an `OSError` goes on catching it."""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil

import pytest

import c1k_tui
import engine
from engine import BadInput, C1KError, RulesError

#: the error classes of the tree, and the built-in base each kept (catching that still catches it)
KEPT = {
    "engine.actions.MalformedCommand": ValueError, "engine.actions.IllegalAction": ValueError,
    "engine.cards.CardFileError": ValueError, "engine.scenario.ScenarioError": ValueError,
    "engine.lessons.LessonError": ValueError, "engine.record.RecordError": ValueError,
    "engine.record.WouldReplace": FileExistsError, "engine.core.RulesLoopError": RuntimeError,
    "engine.safeio.ReadRefused": OSError, "engine.safeio.DuplicateKey": ValueError,
    "engine.canonical.EncodingError": TypeError, "c1k_tui.model.versus_session.VersusError": ValueError,
    "c1k_tui.sim.jobs.SimulateError": Exception, "c1k_tui.model.lessons.LessonPick": ValueError,
    "c1k_tui.model.savelock.Held": OSError,
}
RULES = {"engine.actions.IllegalAction", "engine.core.RulesLoopError"}
#: the packages of the `rl` extra: without it (the 3.12/3.13 fast tiers) engine.rl's interfaces don't import
RL_EXTRA = {"numpy", "pettingzoo", "pyspiel", "open_spiel", "gymnasium"}


@functools.cache
def error_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of engine/ or c1k_tui/ (by its home module)."""
    found: dict[str, type[BaseException]] = {}
    for pkg in (engine, c1k_tui):
        for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if mod.name.endswith("__main__"):
                continue
            try:
                module = importlib.import_module(mod.name)
            except ModuleNotFoundError as err:    # engine.rl's interfaces need the `rl` extra (NumPy …)
                if mod.name.startswith("engine.rl.") and err.name in RL_EXTRA:
                    continue
                raise
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if issubclass(cls, BaseException) and cls.__module__ == mod.name:
                    found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return found


def family_breaches(classes: dict[str, type[BaseException]]) -> list[str]:
    return [f"{name} ({', '.join(b.__name__ for b in cls.__mro__[1:])}) is not under engine.C1KError's "
            "BadInput or RulesError (engine/errors.py)"
            for name, cls in sorted(classes.items())
            if cls not in (C1KError, BadInput, RulesError) and not issubclass(cls, (BadInput, RulesError))]


def test_every_error_class_in_the_tree_descends_from_the_root() -> None:
    classes = error_classes()
    assert set(KEPT) <= set(classes), f"not found: {sorted(set(KEPT) - set(classes))}"
    assert family_breaches(classes) == []


def test_a_class_outside_the_family_is_named() -> None:
    class StrayError(ValueError):
        pass

    StrayError.__module__ = "engine.stray"
    assert family_breaches({"engine.stray.StrayError": StrayError}) == [
        "engine.stray.StrayError (ValueError, Exception, BaseException, object) is not under engine.C1KError's "
        "BadInput or RulesError (engine/errors.py)"]


@pytest.mark.parametrize("name", sorted(KEPT))
def test_each_error_keeps_its_builtin_base_and_its_branch(name: str) -> None:
    cls = error_classes()[name]
    assert issubclass(cls, KEPT[name])
    assert issubclass(cls, RulesError if name in RULES else BadInput)
    assert not issubclass(cls, BadInput if name in RULES else RulesError)


def test_an_entry_point_catches_the_root() -> None:
    """A refusal caught as C1KError is the same object a `ValueError` handler would have caught."""
    from engine import IllegalAction, MalformedCommand, parse_action

    with pytest.raises(C1KError) as caught:
        parse_action("flarp the wizard")
    assert isinstance(caught.value, MalformedCommand) and isinstance(caught.value, ValueError)
    err = IllegalAction("C1K 4.2", "not now")
    assert isinstance(err, RulesError) and (err.rule, err.reason) == ("C1K 4.2", "not now")
