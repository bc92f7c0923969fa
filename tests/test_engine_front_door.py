"""The engine's front door (`engine/__init__.py`) loads its public names on first use (PEP 562): importing
`engine` costs only the error family (the app's first frame and every entry point's `except C1KError`),
every name of `engine.__all__` still resolves to the object of its home module, and none of them is also
the name of an engine module — importing that module would replace the name with the module."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import engine


def test_every_public_name_resolves_to_its_home_modules_object() -> None:
    for name in engine.__all__:
        value = getattr(engine, name)
        if name in engine._WHERE:
            module, attr = engine._WHERE[name]
            assert value is getattr(importlib.import_module(module), attr), name


def test_no_public_name_is_also_a_module_of_the_engine() -> None:
    modules = {m.name for m in pkgutil.iter_modules(engine.__path__)}
    assert sorted(set(engine.__all__) & modules) == []
    assert sorted(set(engine._WHERE) & modules) == []


def test_importing_the_engine_loads_only_the_error_family() -> None:
    code = ("import sys, engine\n"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('engine', 'pydantic'))))\n"
            "from engine import Game\n"
            "print('engine.game' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["engine,engine.errors", "True"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        engine.Gmae  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as err:
        assert "module 'engine' has no attribute 'Gmae'" in str(err)
    else:
        raise AssertionError("engine.Gmae resolved")


def test_every_engine_module_says_what_it_exports() -> None:
    """Issue #32 item 8: every module of engine/ — the rule modules and the services (record, lessons,
    scenario, safeio, schemas, canonical, validation, …) — defines `__all__`, and each name in it exists."""
    missing, unknown = [], []
    for mod in pkgutil.iter_modules(engine.__path__):
        module = importlib.import_module(f"engine.{mod.name}")
        names = getattr(module, "__all__", None)
        if not isinstance(names, list | tuple):
            missing.append(f"engine/{mod.name}.py")
            continue
        unknown += [f"engine/{mod.name}.py: {n}" for n in names if not hasattr(module, n)]
    assert missing == [], f"no __all__ in {missing}"
    assert unknown == []
