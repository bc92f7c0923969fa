"""The Council of 1000 rules engine's façade: one `Game` is one match (OpenSpiel's State shape).

Public API (the whole of it; docs/architecture.md has it on one page):

- `Game.new(db, deck1, deck2, seed, options)` — a fresh match.
- `legal_actions()`, `apply(action, player=None)`, `apply_command(text, typist=None)`, `parse(text, typist)`,
  `why_not(action, player)`, `explain(player)` — what may be done, doing it, and why not.
- `pass_if_forced()`, `fast_forward(limit)` — a pass for whoever must decide while Pass is all they can
  do, exactly as `apply(Pass())` one by one, without listing the legal actions (rollouts, self-play).
- `current_player()`, `is_terminal()`, `outcome`, `decision`, `window`, `phase`, `turn`, `turn_structure()`,
  `stack_view()` — where the match is.
- `clone()`, `snapshot()`, `snapshot_bytes()`, `state_hash()`, `events`, `log_lines`, `record`, `options`.

What a player may know of it: `engine.view.observe(game, player)` and `engine.events.events_for`.

The state and its small queries are `engine.core.MatchState` (engine-internal); the rules are functions
in the rule modules, each calling only modules below it (docs/architecture.md lists the layers;
tests/test_layering.py enforces them). Only `engine.turn` advances windows and phases.
"""

from __future__ import annotations

# every rule module, so that the handlers they register (pipeline stages, effect verbs, turn steps,
# continuations) are in place before a match runs
from engine import (  # noqa: F401
    combat,
    commands,
    decisions,
    effects,
    interrupts,
    keywords,
    legality,
    options,
    paradox,
    parsing,
    priority,
    sba,
    stack,
    targets,
    triggers,
    turn,
    voidcast,
    zones,
)
from engine.actions import Action
from engine.cards import CardDB
from engine.core import MatchState, RulesLoopError
from engine.state import (
    COIN_CARD,
    COMMAND,
    DRAW_START,
    HAND,
    LIBRARY,
    MatchOptions,
    Perm,
    Refusal,
    player_name,
)

__all__ = ["Game", "RulesLoopError"]


class Game(MatchState):
    """A match state. Create with `Game.new(...)` (a fresh match) or `engine.scenario.build(...)`."""

    __slots__ = ()   # (MatchState's fields only: see there)

    @classmethod
    def new(cls, db: CardDB, deck1: object, deck2: object, seed: int,
            options: MatchOptions | None = None) -> Game:
        """A fresh match: who goes first (match option), decks shuffled with the StateSeed, 5 cards each; the
        first player skips their first draw."""
        from engine.decks import Deck

        assert isinstance(deck1, Deck) and isinstance(deck2, Deck)
        g = cls(db, options, seed)
        g.first_player = g.active = g.draw_first_player()   # before the shuffle (rules.md §1)
        for p, deck in enumerate((deck1, deck2)):
            ps = g.players[p]
            ps.name = deck.player or player_name(p)
            champ = g.new_card(deck.champion, p, COMMAND)
            ps.champion = champ
            g.perms[champ] = Perm(0, g.next_seq())
            seat = g.new_card(deck.seat, p, COMMAND)
            ps.seat = seat
            g.perms[seat] = Perm(0, g.next_seq())
            g.apply_seat(p)
            ps.life = g.card(champ).life + g.seat_mod(p, "starting_life_bonus")
            ps.influence = ps.capacity = g.seat_mod(p, "starting_influence")
            # shuffle, then give each card a number drawn from the generator (rules.md §7a: a number says
            # nothing of a card; a drawn card gets another in the hand, zones.draw)
            order = list(range(len(deck.library)))
            g.rng.shuffle(order)
            for i in order:
                ps.library.append(g.new_card(deck.library[i], p, LIBRARY))
        fp = g.first_player
        # (the seed is not in the log: it would reveal every hidden card; the view shows it at game over)
        g.log(f"Match begins: {g.players[fp].name} ({player_name(fp)}) goes first"
              + (" (drawn at random)" if g.options.first == "random" else ""), actor=fp, rule="C1K 1.1")
        comp = g.options
        for p in (0, 1):
            extra = 1 if comp.compensates("card") and p != fp else 0   # RULES Second player: one more card
            zones.draw(g, p, g.seat_mod(p, "opening_hand") + extra)
        if comp.compensates("coin"):   # RULES Second player: the Coin (a token action) joins the opening hand
            sp = 1 - fp
            coin = g.new_card(g.db.lookup(COIN_CARD), sp, HAND)
            g.players[sp].hand.append(coin)
            g.log(f"  {g.players[sp].name} goes second and gets {g.label(coin)}", "draw", sp, (coin,), 1,
                  rule="RULES Second player", private_to=sp,
                  public_text=f"  {g.players[sp].name} goes second and gets the Coin")
        turn.goto(g, DRAW_START)
        return g

    # the façade's verbs are the rule modules' functions themselves (no extra call on hot paths)
    legal_actions = commands.listed   # options.legal_actions, remembered: `apply` won't check its own list again
    apply = commands.apply
    pass_if_forced = commands.pass_if_forced   # a forced pass, without listing the legal actions first
    fast_forward = commands.fast_forward       # ... for as long as Pass is all anyone can do
    parse = parsing.parse
    explain = options.explain
    turn_structure = turn.turn_structure

    def apply_command(self, text: str, typist: int | None = None) -> Action:
        """Parse `text` as `typist` types it (see `parse`) and apply it. Raises MalformedCommand (nothing
        changed) or IllegalAction (C1K 10: a refused action costs its player priority if they held it)."""
        player, action = self.parse(text, typist)
        self.apply(action, player)
        return action

    def why_not(self, action: Action, player: int | None = None) -> Refusal | None:
        """The rule and reason `action` is illegal now for `player` (None if legal). Changes nothing."""
        return legality.refusal(self, action, self.current_player() if player is None else player)
