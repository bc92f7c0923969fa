"""A mypy plugin (named in pyproject.toml): outside `engine/`, a `Game` is only its public face.

Code in `c1k_tui/` may use a Game's members that `engine.face.GameFace` declares, and nothing else —
whatever the variable is called and however the Game was reached (`m = session.game; m.perms` is an
error as much as `game.perms`). The check follows mypy's types, so it can't be dodged by naming; tests
may read a Game's insides (they are not checked). tests/test_boundary.py shows it failing on a probe.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import MypyFile
from mypy.plugin import AttributeContext, MethodContext, Plugin
from mypy.types import Type

from engine.face import FACE_MEMBERS

#: the classes whose instances are matches: the state and the façade that extends it
MATCH_CLASSES = ("engine.core.MatchState", "engine.game.Game")
#: the packages held to the public face
CHECKED = ("c1k_tui",)


def _module(api: object) -> str:
    tree = getattr(api, "tree", None)
    return tree.fullname if isinstance(tree, MypyFile) else ""


def _outside(api: object) -> bool:
    mod = _module(api)
    return any(mod == p or mod.startswith(p + ".") for p in CHECKED)


def _message(name: str) -> str:
    return (f'"{name}" is not part of a Game\'s public face (engine.face.GameFace): outside the engine use '
            "engine.observe, engine.events_for or the façade's members (docs/architecture.md)")


def _attribute(name: str) -> Callable[[AttributeContext], Type]:
    def hook(ctx: AttributeContext) -> Type:
        if _outside(ctx.api):
            ctx.api.fail(_message(name), ctx.context)
        return ctx.default_attr_type
    return hook


def _method(name: str) -> Callable[[MethodContext], Type]:
    def hook(ctx: MethodContext) -> Type:
        if _outside(ctx.api):
            ctx.api.fail(_message(name), ctx.context)
        return ctx.default_return_type
    return hook


def _private(fullname: str) -> str | None:
    owner, _, name = fullname.rpartition(".")
    if owner in MATCH_CLASSES and name not in FACE_MEMBERS and not name.startswith("__"):
        return name
    return None


class PublicFace(Plugin):
    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        name = _private(fullname)
        return _attribute(name) if name else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        name = _private(fullname)
        return _method(name) if name else None


def plugin(version: str) -> type[Plugin]:
    return PublicFace
