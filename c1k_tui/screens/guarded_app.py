"""The key guard's Textual side (tui.md round 3; the guard itself is the model's, `c1k_tui/model/keys.py`):
the App's base class drops every key its player could not have seen the screen for, gives each screen it
shows an epoch (`shown`), closes the keys when a screen of the match's flow is dismissed (`pop_screen`), and
routes every message a key asked for through one handler that drops it if the screen changed since
(`route_key_asked`). Textual's public API only: `on_event`, `pop_screen`, `@on`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import App
from textual.await_complete import AwaitComplete

from c1k_tui.model.keys import KeyGuard
from c1k_tui.screens.confirm_modal import ConfirmModal
from c1k_tui.screens.game_over import GameOverScreen
from c1k_tui.screens.handoff_screen import HandoffScreen
from c1k_tui.screens.messages import KeyAsked
from c1k_tui.screens.multi_choice_modal import MultiChoiceModal
from c1k_tui.screens.options_modal import OptionsModal
from c1k_tui.screens.prompt_modal import PromptModal
from c1k_tui.screens.turn_screen import TurnScreen

if TYPE_CHECKING:
    from c1k_tui.screens.match_screen import MatchScreen

#: the screens of a match's flow: dismissing one starts a new key epoch at once (`C1KApp.pop_screen`)
FLOW_SCREENS = (HandoffScreen, TurnScreen, GameOverScreen, PromptModal, MultiChoiceModal, ConfirmModal,
                OptionsModal)


def key_guard_s() -> float:
    """Seconds a screen its player hasn't seen ignores keys (tui.md round 2: 0.5 s). The hand-off screen's
    own guard is the same setting (tests that press faster than people set it to 0)."""
    return HandoffScreen.GUARD_S


class GuardedApp(App[None]):
    """An App whose keys act only on screens their player has seen (the App of `c1k play` is one)."""

    def __init__(self) -> None:
        super().__init__()
        self.match_screen: MatchScreen | None = None
        #: the one key guard (c1k_tui/model/keys.py): each screen an epoch; a key acts only once its
        #: player has seen the screen it would act on
        self.keys = KeyGuard(key_guard_s(), painted_at=0.0)
        self._key_epochs: dict[int, tuple[events.Key, int]] = {}   # each admitted key's epoch, by id

    @property
    def viewer(self) -> int:
        """The player at the keyboard (-2: nobody in particular)."""
        return -2

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and event.key not in ("ctrl+q", "ctrl+c"):
            if not event.is_forwarded:
                if not self.keys.admits(event.time):
                    return      # pressed before its player could see the screen it would act on: dropped
                self._key_epochs[id(event)] = (event, self.keys.epoch)
                while len(self._key_epochs) > 32:
                    del self._key_epochs[next(iter(self._key_epochs))]
            else:
                # back from the screen it was sent to, for the bindings: a key admitted on a screen that has
                # been dismissed since would act on the one beneath, which its player hasn't seen
                stamped = self._key_epochs.get(id(event))
                if stamped is not None and stamped[0] is event and stamped[1] != self.keys.epoch:
                    return
        await super().on_event(event)

    def shown(self, screen: str, viewer: int = -2) -> None:
        """`screen` is about to be shown: its epoch (the model's), painted once the terminal shows it."""
        # what a key asked for before is stale (`KeyGuard.stale`) unless this is the same player's table again
        # with nothing else shown (after their own command, which `command_sent` marks, or a prompt closed)
        same = screen == "table" and viewer == self.keys.viewer and self.keys.screen in ("table", "prompt", "")
        epoch = self.keys.show(screen, viewer)
        if not same:
            self.keys.changed(time.monotonic())
        if self.keys.guard_s <= 0:
            self.keys.painted(epoch, time.monotonic())   # (tests that press faster than people: no paint wait)
            return
        self.call_after_refresh(lambda: self.keys.painted(epoch, time.monotonic()))

    def pop_screen(self) -> AwaitComplete:
        """A screen of the match's flow (hand-off, banner, prompt, game over) is dismissed: no key acts until
        the next screen is painted, and that one is a new epoch — at once, before a key already on its way
        can reach the table beneath (the callback that shows the next screen runs later)."""
        if isinstance(self.screen, FLOW_SCREENS):
            self.keys.dismissed()
            self.call_after_refresh(self._after_pop)
        return super().pop_screen()

    def command_sent(self) -> None:
        """The keyboard holder's command goes to the engine (`KeyGuard.command_sent`); what a key asked for
        before it is stale."""
        self.keys.command_sent()
        self.keys.changed(time.monotonic())

    @on(KeyAsked)
    def route_key_asked(self, message: KeyAsked) -> None:
        """Where every message a key asked for (`messages.KeyAsked`, stamped when it was made) is routed:
        dropped if the screen changed since — two keys admitted together on one table both ask, and the
        second one's ask, handled after the first one's command, would act on the next screen (a hand-off's
        table) — else handed to `asked`. The only handler of these messages: no kind escapes the check."""
        if self.keys.stale(message.time):
            return
        self.asked(message)

    def asked(self, message: KeyAsked) -> None:
        """What a fresh key's message does (the match App sends it to the model); here: nothing."""

    def _after_pop(self) -> None:
        if self.keys.screen == "":            # nothing was shown after the dismissal: what is there now
            self.shown("table" if self.screen is self.match_screen else "other", self.viewer)


__all__ = ["FLOW_SCREENS", "GuardedApp", "key_guard_s"]
