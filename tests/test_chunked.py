"""engine.chunked: the append-only list behind the event log and the record, which clones fork."""

from __future__ import annotations

from engine.cards import load_card_db
from engine.chunked import ChunkedList
from engine.decks import find_deck, load_deck
from engine.game import Game


def test_a_fork_shares_the_past_and_not_the_future() -> None:
    a: ChunkedList[int] = ChunkedList(range(5))
    b = a.fork()
    a.append(5)
    b.append(50)
    b.append(51)
    assert a == [0, 1, 2, 3, 4, 5] and b == [0, 1, 2, 3, 4, 50, 51]
    assert list(b.since(3)) == [3, 4, 50, 51] and b[-1] == 51 and b[5] == 50 and b[1:3] == [1, 2]
    assert len(a) == 6 and a != b and a == tuple(range(6)) and a == a.fork()


def test_forks_keep_few_chunks() -> None:
    """Forking after every append (a search cloning after every action) keeps O(log n) chunks, so a
    fork costs O(log n) and not O(n)."""
    a: ChunkedList[int] = ChunkedList()
    for i in range(4096):
        a.append(i)
        a = a.fork()
    assert a == list(range(4096))
    assert len(a._chunks) <= 13


def test_a_clone_forks_the_record() -> None:
    db = load_card_db()
    deck = load_deck(find_deck("ironbound"), db)
    g = Game.new(db, deck, deck, 5)
    g.apply_command("pass")
    c = g.clone()
    c.apply_command("pass")
    assert g.record == ["p1: pass"] and c.record == ["p1: pass", "p2: pass"]


def test_the_event_log_reads_as_events() -> None:
    """The engine appends events as plain tuples (engine/core.py log); every read sees Events."""
    from engine.events import Event

    db = load_card_db()
    deck = load_deck(find_deck("ironbound"), db)
    g = Game.new(db, deck, deck, 5)
    g.apply_command("pass")
    last = g.events[-1]
    assert type(last) is Event and last.kind == "priority" and last.n == len(g.events) - 1
    g.apply_command("pass")
    c = g.clone()
    assert all(type(e) is Event for e in g.events) and list(c.events) == list(g.events)
    assert [e.n for e in g.events.since(3)] == list(range(3, len(g.events)))
    assert g.events[1:3] == list(g.events)[1:3]


def test_an_event_log_takes_whole_events_and_renumbers_them() -> None:
    from engine.events import Event, EventLog
    log = EventLog()
    e = Event(99, "note", 3, "main.priority", "C1K 6", 0, -1, "hello")
    log.append(e)
    log.append(e)
    assert [x.n for x in log] == [0, 1] and log[1] == e._replace(n=1)
