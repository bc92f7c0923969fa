"""rules.md §7a: whether a player *could* respond is private. The engine asks a player about an
Interrupt (C1K 7) on public facts only — a usable Interrupt on a card in play, or, for a Nullify used
from the hand, a non-empty hand while one of their Nullify cards they can pay for is still in a zone the
opponent can't see (`Game.may_interrupt`). So two matches with the same public facts, one where the
player holds a usable Nullify and one where they don't, proceed identically for the opponent."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from c1k_tui.cli.textplay import loop
from c1k_tui.model.session import MatchSession
from engine import Decline, Game, InfoSet, Interrupt, Pass, Play, observe
from engine.cards import load_card_db
from engine.decks import find_deck, load_deck
from engine.rng import SplitMix64
from engine.scenario import build, scenario_from_data
from engine.selfplay import random_action
from tests.tier import examples

DB = load_card_db()
NULL_DECKS = ("null-silence", "solace-null-wardens")
ACTION_DECKS = ("emberfall", "paradox-flux", "veil-masquerade", "ruin-blight")


def _nullify(g: Game, cid: int, q: int) -> bool:
    hi = g.card(cid).hand_interrupt
    return hi is not None and hi.cost <= g.players[q].influence


def _swap(g: Game, q: int, i: int, j: int) -> None:
    """Exchange the identities of q's i-th hand card and j-th library card (same public facts)."""
    ps = g.players[q]
    a, b = ps.hand[i], ps.library[j]
    ps.hand[i], ps.library[j] = b, a
    g.zone[a], g.zone[b] = g.zone[b], g.zone[a]


def _twins(g: Game, q: int) -> tuple[Game, Game] | None:
    """Two copies of g differing only in which of q's hidden cards are in the hand: in the first q holds
    a usable Nullify, in the second none. None if g has no such pair."""
    ps = g.players[q]
    if not ps.hand:
        return None
    holds, lacks = g.clone(), g.clone()
    h = holds.players[q]
    if not any(_nullify(holds, c, q) for c in h.hand):
        j = next((j for j, c in enumerate(h.library) if _nullify(holds, c, q)), None)
        if j is None:
            return None
        _swap(holds, q, 0, j)
    lk = lacks.players[q]
    for i in range(len(lk.hand)):
        if _nullify(lacks, lk.hand[i], q):
            j = next((j for j, c in enumerate(lk.library) if not _nullify(lacks, c, q)), None)
            if j is None:
                return None
            _swap(lacks, q, i, j)
    return holds, lacks


def _play_an_action(seed: int, null_deck: str, other: str, null_seat: int) -> tuple[Game, int, Play] | None:
    """A random match walked until the non-Null player may play an Action: (game, player, that play)."""
    names = (null_deck, other) if null_seat == 0 else (other, null_deck)
    decks = [load_deck(find_deck(n), DB) for n in names]
    g = Game.new(DB, decks[0], decks[1], seed)
    agent = SplitMix64(seed ^ 0x7A)
    for _ in range(900):
        if g.is_terminal():
            return None
        p = g.current_player()
        if p == 1 - null_seat and g.decision.kind == "priority" and g.turn > 2:
            plays = [a for a in g.legal_actions() if isinstance(a, Play) and g.card(a.card).type == "action"]
            if plays:
                return g, p, plays[agent.below(len(plays))]
        g.apply(random_action(g, agent))
    return None


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(NULL_DECKS), st.sampled_from(ACTION_DECKS), st.integers(0, 1))
def test_holding_a_usable_nullify_or_not_looks_the_same_to_the_opponent(seed: int, null_deck: str, other: str,
                                                                        null_seat: int) -> None:
    found = _play_an_action(seed, null_deck, other, null_seat)
    if found is None:
        return
    g, p, play = found
    q = 1 - p
    twins = _twins(g, q)
    if twins is None:
        return
    holds, lacks = twins
    assert observe(holds, p) == observe(lacks, p)          # the same public facts
    for t in (holds, lacks):
        t.apply(play, p)
    asked = holds.decision.kind == "interrupt"
    if asked:   # not vacuous: only one of them could really answer
        assert lacks.decision.kind == "interrupt" and holds.current_player() == lacks.current_player() == q
        def from_hand(t: Game) -> list[Interrupt]:
            return [a for a in t.legal_actions() if isinstance(a, Interrupt) and a.source in t.players[q].hand]

        assert from_hand(holds) and not from_hand(lacks)
    # play on, the same for both: p picks at random (p sees the same), q declines and passes — until one
    # of q's hidden cards is revealed (a discard, a mill: then the twins rightly differ)
    rng = SplitMix64(seed)
    hidden = len(holds.players[q].hand) + len(holds.players[q].library)
    for _ in range(16):
        if len(holds.players[q].hand) + len(holds.players[q].library) != hidden:
            break
        assert holds.current_player() == lacks.current_player()
        assert observe(holds, p) == observe(lacks, p)
        who, kind = holds.current_player(), holds.decision.kind
        if holds.is_terminal() or (who == q and kind not in ("interrupt", "priority")):
            break
        if who == p:
            acts = holds.legal_actions() if kind != "attackers" and kind != "blockers" else [random_action(holds, rng)]
            a = acts[rng.below(len(acts))]
        else:
            a = Decline() if kind == "interrupt" else Pass()
        for t in (holds, lacks):
            t.apply(a, who)


def _after_action(p2: dict[str, object], p1_influence: int = 5) -> Game:
    g = build(scenario_from_data({"scenario": {"window": "main.priority", "turn": 3},
                                  "p1": {"influence": p1_influence, "hand": ["Wild Omen"],
                                         "library": ["Wild Omen"] * 3},
                                  "p2": p2}, "<test>", DB))
    g.apply_command('p1: play "Wild Omen"')
    return g


def test_a_player_whose_nullify_is_still_hidden_is_asked_without_holding_it() -> None:
    g = _after_action({"influence": 5, "hand": ["Briar Scout"], "library": ["Swallowed Word", "Briar Scout"]})
    assert g.decision.kind == "interrupt" and g.current_player() == 1
    assert [str(a) for a in g.legal_actions()] == ["decline"]
    assert "none usable" in g.decision.prompt


def test_no_question_when_public_facts_rule_a_nullify_out() -> None:
    """Not asked: an empty hand; no Nullify left in a hidden zone (all in the graveyard); or too little
    Influence for every hidden Nullify — each a public fact."""
    empty = _after_action({"influence": 5, "hand": [], "library": ["Swallowed Word"] * 2})
    spent = _after_action({"influence": 5, "hand": ["Briar Scout"], "library": ["Briar Scout"] * 2,
                           "graveyard": ["Swallowed Word"]})
    poor = _after_action({"influence": 1, "hand": ["Swallowed Word"], "library": ["Briar Scout"] * 2})
    for g in (empty, spent, poor):
        assert g.decision.kind == "priority" and g.current_player() == 1


def test_the_order_of_decisions_after_an_action_does_not_depend_on_the_opponents_hand() -> None:
    """The leak this rule closes: p1 plays an Action that makes p1 decide something (ordering two Flux
    triggers, C1K 8.2). Had the engine asked p2 only when p2 holds a usable Nullify, p1 would see p2
    asked first in one match and themselves in the other."""
    def after(p2_hand: str, p2_library: str) -> Game:
        g = build(scenario_from_data({"scenario": {"window": "main.priority", "turn": 3},
                                      "p1": {"influence": 5, "hand": ["Wild Omen"], "library": ["Wild Omen"] * 3,
                                             "relics": ["Loom of Forking Ways", "Loom of Forking Ways"]},
                                      "p2": {"influence": 5, "hand": [p2_hand],
                                             "library": [p2_library, "Briar Scout"]}}, "<test>", DB))
        g.apply_command('p1: play "Wild Omen"')
        return g

    holds, lacks = after("Swallowed Word", "Briar Scout"), after("Briar Scout", "Swallowed Word")
    seen: list[tuple[int, str]] = []
    while holds.current_player() == lacks.current_player() == 1 and holds.decision.kind == "interrupt":
        for g in (holds, lacks):
            g.apply(Decline(), 1)
    for _ in range(3):
        assert holds.current_player() == lacks.current_player()
        assert observe(holds, 0) == observe(lacks, 0)
        seen.append((holds.current_player(), holds.decision.kind))
        if holds.current_player() != 0 or holds.decision.kind != "choice":
            break
        for g in (holds, lacks):
            g.apply_command("p1: choose 1 2")
    assert (0, "choice") in seen      # p1 really had to order the Flux effects


def _session(p1: dict[str, object], p2: dict[str, object]) -> MatchSession:
    scn = scenario_from_data({"scenario": {"window": "main.priority", "turn": 3}, "p1": p1, "p2": p2}, "<t>", DB)
    return MatchSession.from_scenario(scn, DB, "<t>")


def test_the_app_declines_an_empty_question_only_where_it_cannot_show() -> None:
    """The app's flow (hidden hands) sends `decline` for a player asked with nothing usable only when
    that player is asked next anyway: the hand-offs are the same whatever the hand holds."""
    p1 = {"influence": 5, "hand": ["Wild Omen"], "library": ["Wild Omen"] * 3}
    holds = _session(p1, {"influence": 5, "hand": ["Swallowed Word"], "library": ["Briar Scout"] * 2})
    lacks = _session(p1, {"influence": 5, "hand": ["Briar Scout"], "library": ["Swallowed Word", "Briar Scout"]})
    for s in (holds, lacks):
        assert s.send('p1: play "Wild Omen"').ok
        assert s.game.current_player() == 1
    assert holds.game.decision.kind == "interrupt"          # p2 chooses: they hold Swallowed Word
    assert lacks.game.decision.kind == "priority"           # p2 would be asked next anyway
    assert observe(holds.game, 0) == observe(lacks.game, 0)

    # p1 must order two Flux triggers right after: p2's empty question is asked, not skipped
    looms = dict(p1, relics=["Loom of Forking Ways", "Loom of Forking Ways"])
    s = _session(looms, {"influence": 5, "hand": ["Briar Scout"], "library": ["Swallowed Word", "Briar Scout"]})
    assert s.send('p1: play "Wild Omen"').ok
    assert s.game.decision.kind == "interrupt" and s.game.current_player() == 1


def test_the_text_loop_declines_an_empty_question_only_where_it_cannot_show() -> None:
    def run(p2_hand: str, p2_lib: str) -> list[str]:
        g = build(scenario_from_data({"scenario": {"window": "main.priority", "turn": 3},
                                      "p1": {"influence": 5, "hand": ["Wild Omen"], "library": ["Wild Omen"] * 3},
                                      "p2": {"influence": 5, "hand": [p2_hand], "library": [p2_lib, "Briar Scout"]}},
                                     "<t>", DB))
        lines = iter(['play "Wild Omen"', "decline", "quit"])
        out: list[str] = []
        loop(g, [], lambda _: next(lines), out.append, auto_pass=True)
        return [o for o in out if o.startswith("── pass to")]

    assert run("Swallowed Word", "Briar Scout") == run("Briar Scout", "Swallowed Word") == ["── pass to p2 (p2) ──"]


def test_a_sample_for_the_opponent_does_not_carry_the_asked_players_cards() -> None:
    """An AI's determinization (engine/sampling.py) while the other player answers an Interrupt or a
    permission: the same public facts give the same samples, whatever that player holds."""
    holds = _after_action({"influence": 5, "hand": ["Swallowed Word"], "library": ["Briar Scout"] * 2})
    lacks = _after_action({"influence": 5, "hand": ["Briar Scout"], "library": ["Swallowed Word", "Briar Scout"]})
    assert holds.decision.kind == lacks.decision.kind == "interrupt"
    for seed in (1, 2, 3):
        assert InfoSet(holds, 0).sample(seed).state_hash() == InfoSet(lacks, 0).sample(seed).state_hash()

    def muster(hand: str, library: str) -> Game:   # the same cards, one of them in the hand or the library
        g = build(scenario_from_data({"scenario": {"window": "main.priority", "turn": 3},
                                      "p1": {"influence": 4, "hand": ["Muster the Reserves", hand],
                                             "library": [library, "Emberlash", "Emberlash"]},
                                      "p2": {"influence": 0, "library": ["Briar Scout"] * 3}}, "<t>", DB))
        g.apply_command('p1: play "Muster the Reserves"')
        g.apply_command("p2: pass")
        return g

    offered, none = muster("Briar Scout", "Emberlash"), muster("Emberlash", "Briar Scout")
    assert offered.decision.kind == none.decision.kind == "choice" and offered.choice != none.choice
    for seed in (1, 2, 3):
        assert InfoSet(offered, 1).sample(seed).state_hash() == InfoSet(none, 1).sample(seed).state_hash()
