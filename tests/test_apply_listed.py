"""`apply` skips its legality check only for an action taken, as an object, from `legal_actions()` of
the very same moment (engine.commands.listed / _vouched); anything else is checked as before (C1K 10)."""

from __future__ import annotations

import pytest

from engine import legality
from engine.actions import IllegalAction, Play
from engine.cards import CardDB, load_card_db
from engine.game import Game
from engine.rng import SplitMix64
from tests.helpers import mid_match


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_card_db()


def _game_with_a_play(db: CardDB) -> Game:
    for seed in range(1, 60):
        g = mid_match(db, seed, 40, ("ironbound", "emberfall"), 7)
        if not g.is_terminal() and any(isinstance(a, Play) for a in g.legal_actions()):
            return g
    raise AssertionError("no position with a play found")


def test_random_play_checks_nothing_it_listed_and_gives_the_same_match(db: CardDB,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # the same seeds, once with every action checked (refusal called, its answer asserted None)
    def play(check_all: bool) -> tuple[str, list[str]]:
        from engine.decks import find_deck, load_deck
        d = [load_deck(find_deck(n), db) for n in ("ironbound", "emberfall")]
        g = Game.new(db, d[0], d[1], 11)
        agent = SplitMix64(5)
        while not g.is_terminal():
            acts = g.legal_actions()
            a = acts[agent.below(len(acts))]
            if check_all:
                assert legality.refusal(g, a, g.current_player()) is None
                g.clone().apply(a)   # a clone never vouches: the checked path, which must accept it
            g.apply(a)
        return g.state_hash(), list(g.record)
    assert play(True) == play(False)


def test_a_stale_listed_action_is_checked_again(db: CardDB) -> None:
    g = _game_with_a_play(db)
    plays = [a for a in g.legal_actions() if isinstance(a, Play)]
    g.apply(plays[0])
    # the same card can't be played twice: the old list vouches for nothing now
    with pytest.raises(IllegalAction):
        g.apply(plays[0], 0 if g.current_player() < 0 else g.current_player())


def test_an_equal_action_not_from_the_list_is_checked(db: CardDB, monkeypatch: pytest.MonkeyPatch) -> None:
    g = _game_with_a_play(db)
    a = next(a for a in g.legal_actions() if isinstance(a, Play))
    calls: list[object] = []
    real = legality.refusal

    def spy(game: object, action: object, player: int) -> object:
        calls.append(action)
        return real(game, action, player)  # type: ignore[arg-type]

    import engine.commands as commands
    monkeypatch.setattr(commands, "refusal", spy)
    h = g.clone()
    h.apply(Play(a.card, a.slot, a.targets, a.mode, a.voidcast))   # equal, not the listed object
    assert calls, "an action not taken from the list must be checked"
    calls.clear()
    listed = next(x for x in g.legal_actions() if x == a)
    g.apply(listed)   # the listed object itself, nothing happened since: not checked again
    assert not calls
    assert g.state_hash() == h.state_hash()


def test_the_other_player_gets_no_free_pass(db: CardDB) -> None:
    g = _game_with_a_play(db)
    me = g.current_player()
    a = next(a for a in g.legal_actions() if isinstance(a, Play))
    with pytest.raises(IllegalAction):
        g.apply(a, 1 - me)   # listed for `me`: typed by the other player, the rules refuse it (C1K 10)
