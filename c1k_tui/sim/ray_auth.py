"""Ray's token authentication, said as what it is (issue #32 item 5). Ray 2.5x turns token authentication
on for a head started where `~/.ray/auth_token` exists (any local `ray.init()` writes one); a Ray Client
without that token is then turned away — as an authentication error, or, through Ray Client's retries,
as a connection that never answers. `c1k simulate --backend ray` names the cause and what to set."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["auth_failure", "client_token", "refused_message", "silence_hint"]

#: what Ray says when it turns a client away (ray._private.authentication, ray.exceptions)
_SIGNS = ("authentication token", "unauthenticated", "token authentication", "authenticationerror")


def client_token(env: Mapping[str, str] | None = None, home: Path | None = None) -> str | None:
    """Where the token this client would send comes from — `RAY_AUTH_TOKEN`, the file `RAY_AUTH_TOKEN_PATH`
    names, or `~/.ray/auth_token` — or None when it has none."""
    env = os.environ if env is None else env
    if env.get("RAY_AUTH_TOKEN"):
        return "RAY_AUTH_TOKEN"
    if env.get("RAY_AUTH_TOKEN_PATH") and Path(env["RAY_AUTH_TOKEN_PATH"]).is_file():
        return f"RAY_AUTH_TOKEN_PATH ({env['RAY_AUTH_TOKEN_PATH']})"
    file = (Path.home() if home is None else home) / ".ray" / "auth_token"
    return str(file) if file.is_file() else None


def auth_failure(problem: BaseException) -> bool:
    """Whether Ray turned this client away for its token (by the error's class or its words)."""
    said = f"{type(problem).__name__} {problem}".lower()
    return any(sign in said for sign in _SIGNS)


def _what_to_set(token: str | None) -> str:
    have = (f"this client sends the token from {token}, which must be the head's"
            if token else "this client has no token (RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token)")
    return (f"{have}: run `ray get-auth-token` on the head and set RAY_AUTH_TOKEN=THAT-TOKEN here, or start "
            "the head with RAY_AUTH_MODE=disabled on a network of your own (docs/cluster.md)")


def refused_message(address: str, token: str | None) -> str:
    return (f"Ray at {address} refused this client: the head has token authentication on (Ray turns it on for "
            f"a head started where ~/.ray/auth_token exists); {_what_to_set(token)}")


def silence_hint(token: str | None) -> str:
    """A sentence for a Ray Client that got no answer: token authentication looks like this too."""
    return ("If the head has token authentication on (Ray turns it on for a head started where "
            f"~/.ray/auth_token exists), a client it turns away waits like this; {_what_to_set(token)}.")
