"""Rule search in the rule browser (issue #19 item 7): snippets, did-you-mean, every match for a keyword
(its entry first), the focus in the search field, and the explanatory sections findable."""

from __future__ import annotations

import asyncio

from textual.app import App
from textual.widgets import Input, Markdown, OptionList, Static

from c1k_tui.model import rulesdoc
from c1k_tui.screens.rule_screen import RuleBrowser, open_rule


def test_a_keyword_lists_its_entry_first_then_every_rule_that_mentions_it() -> None:
    hits, maybe = rulesdoc.find("guard")
    ids = [h.id for h in hits]
    assert ids[0] == "KW Guard" and "C1K 4.2" in ids and len(ids) >= 3 and maybe == ""
    assert all("guard" in h.snippet.lower() for h in hits[1:]), [h.snippet for h in hits]


def test_explanatory_sections_are_found_first_by_their_title() -> None:
    hits, _ = rulesdoc.find("how priority works")
    assert hits[0].id == "How priority works" and hits[0].title == ""
    assert "is the right to act" in rulesdoc.rule_markdown(hits[0].id)
    assert rulesdoc.find("priority")[0][0].id == "How priority works"


def test_a_misspelling_gets_a_did_you_mean() -> None:
    assert rulesdoc.find("gaurd") == ([], "guard")
    assert rulesdoc.find("overwhelm excesss")[1] == "overwhelm excess"
    assert rulesdoc.find("zzzzqqq") == ([], "")


def test_the_browser_opens_in_the_search_field_and_shows_snippets() -> None:
    class Host(App[None]):
        def on_mount(self) -> None:
            open_rule(self, "C1K 4.3")

    async def main() -> None:
        app = Host()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, RuleBrowser)
            assert isinstance(screen.focused, Input)                  # type at once
            await pilot.press(*"gaurd", "enter")
            await pilot.pause()
            note = str(screen.query_one("#rule-note", Static).render())
            assert "did you mean 'guard'" in note and screen.rule_id == "KW Guard"
            ol = screen.query_one(OptionList)
            assert ol.option_count >= 3
            first = str(ol.get_option_at_index(0).prompt)
            assert first.startswith("KW Guard") and "\n" in first           # the snippet under the title
            screen.query_one(Input).value = "how priority works"
            await pilot.press("enter")
            await pilot.pause()
            assert screen.rule_id == "How priority works"
            assert "is the right to act" in screen.query_one(Markdown).source
            await pilot.press("down")                                   # from the field into the list
            await pilot.pause()
            assert isinstance(screen.focused, OptionList)

    asyncio.run(main())
