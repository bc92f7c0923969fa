"""Ray's token authentication said as what it is (issue #32 item 5): a head started where ~/.ray/auth_token
exists turns token authentication on, and a Ray Client without the head's token is turned away — by an
authentication error, or by silence until the timeout. `ray_connect` names the cause and what to set, with
where this client's token comes from (or that it has none). Ray itself is a stand-in here: the real
cluster is tests/test_ray_cluster.py's."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from c1k_tui.sim.ray_auth import auth_failure, client_token
from c1k_tui.sim.simulate import SimulateError, ray_connect


class AuthenticationError(Exception):
    """As ray.exceptions.AuthenticationError names itself."""


class FakeRay:
    def __init__(self, fail: BaseException | None = None, hang: threading.Event | None = None) -> None:
        self.fail, self.hang = fail, hang

    def is_initialized(self) -> bool:
        return False

    def init(self, **_: Any) -> None:
        if self.hang is not None:
            self.hang.wait(30)
        if self.fail is not None:
            raise self.fail


@pytest.fixture
def no_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("RAY_AUTH_TOKEN", raising=False)
    monkeypatch.delenv("RAY_AUTH_TOKEN_PATH", raising=False)
    return tmp_path


@pytest.fixture
def listening() -> Iterator[int]:
    """A port that accepts connections (the head's client port, as far as the probe can tell)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield int(s.getsockname()[1])


def test_where_the_clients_token_comes_from(no_token: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert client_token() is None
    (no_token / ".ray").mkdir()
    (no_token / ".ray" / "auth_token").write_text("abc", encoding="utf-8")
    assert client_token() == str(no_token / ".ray" / "auth_token")
    monkeypatch.setenv("RAY_AUTH_TOKEN", "xyz")
    assert client_token() == "RAY_AUTH_TOKEN"


def test_an_authentication_error_is_named_with_what_to_set(no_token: Path) -> None:
    fake = FakeRay(AuthenticationError("Token authentication is enabled but the authentication token is "
                                       "invalid or incorrect."))
    with pytest.raises(SimulateError) as err:
        ray_connect(fake, None, timeout=5)
    said = str(err.value)
    assert "refused this client: the head has token authentication on" in said
    assert "this client has no token" in said and "ray get-auth-token" in said
    assert "RAY_AUTH_TOKEN=" in said and "RAY_AUTH_MODE=disabled" in said


def test_silence_from_a_ray_client_mentions_token_authentication(no_token: Path, listening: int) -> None:
    release = threading.Event()
    try:
        with pytest.raises(SimulateError) as err:
            ray_connect(FakeRay(hang=release), f"ray://127.0.0.1:{listening}", timeout=1)
    finally:
        release.set()
    said = str(err.value)
    assert said.startswith(f"Ray at ray://127.0.0.1:{listening} did not answer within 1 s")
    assert "token authentication on" in said and "this client has no token" in said


def test_other_failures_are_not_called_authentication(no_token: Path) -> None:
    assert not auth_failure(ConnectionError("Failed to connect to the head"))
    assert auth_failure(RuntimeError("UNAUTHENTICATED: Invalid or missing authentication token"))
    with pytest.raises(SimulateError) as err:
        ray_connect(FakeRay(ConnectionError("Failed to connect")), None, timeout=5)
    assert "token" not in str(err.value) and "ConnectionError: Failed to connect" in str(err.value)
