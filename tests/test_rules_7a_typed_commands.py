"""rules.md §7a: everything a player types is resolved against what that player may see. A command for a
player who isn't deciding is refused before any name is looked up; a hidden card gets exactly the answer
of a name or id that exists nowhere; error lists name only cards the typist may see."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import IllegalAction, MalformedCommand, events_for, observe
from engine.cards import load_card_db
from engine.game import Game
from engine.rng import SplitMix64
from engine.scenario import build, scenario_from_data
from tests.helpers import mid_match
from tests.tier import examples

DB = load_card_db()


def _hidden(g: Game, viewer: int) -> list[int]:
    return sorted(i for i in g.defs if g.exists(i) and not g.visible_to(i, viewer))


def _answer(g: Game, text: str, typist: int, ref: str = "") -> tuple[object, ...]:
    """What typing `text` does, as the typist sees it: the message (the typed reference replaced by
    <ref>), and the typist's view and events afterwards."""
    c = g.clone()
    try:
        c.apply_command(text, typist=typist)
        out: tuple[object, ...] = ("ok",)
    except (MalformedCommand, IllegalAction) as err:
        msg = str(err)
        out = (type(err).__name__, msg.replace(ref, "<ref>") if ref else msg)
    return out + (observe(c, typist), events_for(c, typist, len(g.events)))


def _mid_match(seed: int, steps: int, decks: tuple[str, str]) -> Game:
    return mid_match(DB, seed, steps, decks, salt=91)


TEMPLATES = ('play "{x}"', 'set "{x}"', 'activate "{x}"', 'interrupt "{x}"', 'attack "{x}"',
             'block "{x}" -> "{x}"', 'play "{x}" target "{x}"', "play {x}", "interrupt {x}",
             'activate p1 target "{x}"', 'activate p2 target "{x}"')
DECK_PAIRS = (("null-silence", "paradox-flux"), ("veil-masquerade", "ironbound"), ("solace-null-wardens", "emberfall"))


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 200), pair=st.sampled_from(DECK_PAIRS),
       template=st.sampled_from(TEMPLATES), pick=st.integers(0, 10**6), prefix=st.sampled_from(["", "own", "other"]))
def test_a_hidden_card_gets_the_answer_of_one_that_exists_nowhere(
        seed: int, steps: int, pair: tuple[str, str], template: str, pick: int, prefix: str) -> None:
    g = _mid_match(seed, steps, pair)
    if g.is_terminal():
        return
    for typist in (g.current_player(), 1 - g.current_player()):
        pre = {"": "", "own": f"p{typist + 1}: ", "other": f"p{2 - typist}: "}[prefix]
        hidden = _hidden(g, typist)
        # by id: a hidden card's id and an id beyond the last card
        h_id, none_id = f"#{hidden[pick % len(hidden)]}", f"#{next(n for n in range(1 + pick % 50, 10**6) if n not in g.defs)}"
        ids = [_answer(g, pre + template.format(x=r), typist, r) for r in (h_id, none_id)]
        assert ids[0] == ids[1], (template, typist)
        # by name: a hidden card's name, and the same name in a copy of the match where it exists nowhere
        visible = {g.card(i).name for i in g.defs if i and g.visible_to(i, typist)}
        names = sorted({g.card(i).name for i in hidden} - visible)
        if not names:
            continue
        name = names[pick % len(names)]
        other = g.clone()
        pool = [d for _, d in sorted(DB.by_id.items()) if d.type in ("unit", "relic", "action") and not d.token
                and d.name not in names]
        rng = SplitMix64(pick)
        for cid in hidden:
            other.defs[cid] = pool[rng.below(len(pool))]
        assert _answer(g, pre + template.format(x=name), typist) == \
            _answer(other, pre + template.format(x=name), typist), (template, name, typist)


def _asked_for_an_interrupt() -> Game:
    """p1 plays Wild Omen; p2 holds Swallowed Word (Nullify) and is asked."""
    data = {
        "scenario": {"window": "main.priority", "turn": 3},
        "p1": {"influence": 5, "hand": ["Wild Omen", "Emberlash"], "library": ["Emberlash"] * 3},
        "p2": {"influence": 5, "hand": ["Swallowed Word", "Briar Scout"], "library": ["Briar Scout"] * 3},
    }
    g = build(scenario_from_data(data, "<test>", DB))
    g.apply_command('play "Wild Omen"', typist=0)
    assert g.decision.kind == "interrupt" and g.current_player() == 1
    return g


def test_the_issue_probes_say_nothing_of_the_opponents_hand() -> None:
    g = _asked_for_an_interrupt()
    hand2 = [g.card(c).name for c in g.players[1].hand]
    before = g.state_hash()
    for text in ("p2: interrupt zzz", 'p2: activate p1 target "Wild Omen"', 'p2: play "Swallowed Word"',
                 'p2: play "Nothing Such"', "interrupt zzz", 'play "Swallowed Word"'):
        with pytest.raises((IllegalAction, MalformedCommand)) as err:
            g.apply_command(text, typist=0)
        msg = str(err.value)
        assert not any(n in msg for n in hand2), (text, msg)
        assert "Interrupt" not in msg and "#" not in msg, (text, msg)
        assert g.state_hash() == before
    # p1 waits with the same words whatever p2 is deciding
    assert observe(g, 0).waiting_text == "waiting for p2" and observe(g, 0).decision is None


def test_a_command_for_a_seat_that_is_not_deciding_is_refused_before_its_names() -> None:
    g = _asked_for_an_interrupt()
    answers = set()
    for name in ("Emberlash", "Swallowed Word", "Briar Scout", "No Such Card", "#3", "#999"):
        with pytest.raises(IllegalAction) as err:
            g.apply_command(f'play "{name}"' if not name.startswith("#") else f"play {name}", typist=0)
        answers.add(str(err.value))
    assert answers == {"p1 cannot act now: waiting for p2 (acting out of priority order) (C1K 10)"}, answers


def test_the_deciding_player_resolves_names_from_their_own_view() -> None:
    g = _asked_for_an_interrupt()
    with pytest.raises(MalformedCommand) as err:
        g.apply_command("interrupt zzz", typist=1)
    assert "Swallowed Word" in str(err.value)          # p2's own hand: p2 may see it
    with pytest.raises(MalformedCommand) as err:
        g.apply_command('interrupt "Emberlash"', typist=1)   # in p1's hand: as if it existed nowhere
    assert "Emberlash" not in str(err.value).replace("'Emberlash'", "")
    g.apply_command('interrupt "Swallowed Word"', typist=1)
    assert any(e.kind == "counter" for e in g.events)


def test_a_scenario_or_record_command_acts_with_the_prefixed_seat_view() -> None:
    g = _asked_for_an_interrupt()
    g.apply_command('p2: interrupt "Swallowed Word"')    # no typist: the prefix's seat (records, scenarios)
    assert any(e.kind == "interrupt" and e.detail == "used" for e in g.events)
