"""The UI's own modules in the browser: texts (en/fr), event sentences, card
names for every engine card, and the choice logic over legal commands."""

from __future__ import annotations

from typing import Any

import pytest

from unokit import Game
from unokit.engine.cards import CLASSIC, FLEX, FLIP
from unokit.engine.events import __all__ as EVENT_TYPES

JS_IMPORT = """async () => {
  window.i18n = await import('/static/i18n.js');
  window.cmds = await import('/static/commands.js');
  return true;
}"""


@pytest.fixture
def page(new_player: Any) -> Any:
    p = new_player("modules")
    p.page.goto("/")
    p.page.wait_for_selector("#create-form")
    assert p.page.evaluate(JS_IMPORT)
    return p.page


def test_every_text_exists_in_english_and_french(page: Any) -> None:
    assert page.evaluate("() => window.i18n.missingKeys()") == {"fr": [], "en": []}


def test_card_names_for_every_engine_card(page: Any) -> None:
    notations = sorted({str(c) for cs in (CLASSIC, FLIP, FLEX) for c in cs.cards})
    names = page.evaluate(
        """(cards) => {
          const out = {};
          for (const lang of ['en', 'fr']) {
            window.i18n.setLang(lang);
            out[lang] = cards.map((c) => [window.i18n.cardName(c, 'light'),
                                          window.i18n.cardName(c, 'dark')]);
          }
          window.i18n.setLang('en');
          return out;
        }""",
        notations,
    )
    for lang in ("en", "fr"):
        for card, (light, dark) in zip(notations, names[lang], strict=True):
            for name in (light, dark):
                assert name and name != card and "{" not in name, (lang, card, name)
    en = dict(zip(notations, names["en"], strict=True))
    fr = dict(zip(notations, names["fr"], strict=True))
    assert en["R5"][0] == "Red 5" and fr["R5"][0] == "5 Rouge"
    assert en["R3|WDC"] == ["Red 3", "Wild Draw Color"]
    assert en["R5~G"][0] == "Red 5 (flex Green)"
    assert fr["W4"][0] == "Super Joker +4"


def test_every_event_of_a_game_is_a_sentence(page: Any) -> None:
    """Play three games with every house rule that makes events; each event of
    every round, seen by a seat and by a spectator, becomes a sentence."""
    import random

    wanted = set(EVENT_TYPES) - {"Event", "redact", "MatchEnded", "Misplayed", "Eliminated"}
    events: list[dict[str, Any]] = []
    configs = [
        ("classic", {"sevenZero": True, "jumpIn": True, "stacking": "escalate"}),
        ("flip", {}),
        ("flex", {}),
    ]
    for seed in range(30):
        variant, options = configs[seed % 3]
        rnd = random.Random(seed)
        g = Game.new(variant, 3, options=options, seed=seed)
        for _ in range(3000):
            if g.to_act is None:
                break  # one round per game is enough
            g.apply(rnd.choice(g.legal_actions(g.to_act)))
        for seat in (0, None):
            events += g.observe(seat).to_dict()["history"]
        if {e["type"] for e in events} >= wanted and seed >= 2:
            break
    seen = {e["type"] for e in events}
    # the events real games produce (MatchEnded only at the end of a match)
    assert seen >= wanted
    events.append({"type": "MatchEnded", "winners": [0, 1], "scores": [500, 500, 0]})
    events.append({"type": "Misplayed", "seat": 1, "card": "R5"})
    events.append({"type": "Eliminated", "seat": 2, "count": 25})  # mercy: made by hand
    out = page.evaluate(
        """(events) => {
          const res = {};
          for (const lang of ['en', 'fr']) {
            window.i18n.setLang(lang);
            const ctx = {me: 0, name: (s) => ['Ann', 'Bob', 'Cid'][s], side: 'light'};
            res[lang] = events.map((e) => window.i18n.describeEvent(e, ctx));
          }
          window.i18n.setLang('en');
          return res;
        }""",
        events,
    )
    for lang in ("en", "fr"):
        for ev, text in zip(events, out[lang], strict=True):
            assert text and "{" not in text and "undefined" not in text, (lang, ev, text)


def test_choices_among_legal_commands(page: Any) -> None:
    got = page.evaluate(
        """() => {
          const legal = ['P2 PLAY Y4*', 'P2 PLAY FW4 color=R', 'P2 PLAY FW4 color=Y',
            'P2 PLAY FW4 color=R side=flex target=P0', 'P2 PLAY FW4 color=R side=flex target=P1',
            'P2 PLAY FW4 color=Y side=flex target=P0', 'P2 DRAW', 'P2 CATCH P1'];
          const c = window.cmds;
          const all = c.legalCommands({legal});
          const fw4 = c.playsFor(all, 'FW4');
          const first = c.nextChoice(fw4);
          const flex = c.filterChoice(fw4, 'side', 'flex');
          const second = c.nextChoice(flex);
          const red = c.filterChoice(flex, 'color', 'R');
          return {n: fw4.length, first, second, third: c.nextChoice(red),
                  single: c.nextChoice(c.playsFor(all, 'Y4*')), catches: c.catchTargets(all),
                  body: c.commandBody(red[1].text)};
        }"""
    )
    assert got["n"] == 5
    assert got["first"] == {"key": "side", "values": ["", "flex"]}
    assert got["second"] == {"key": "color", "values": ["R", "Y"]}
    assert got["third"] == {"key": "target", "values": ["P0", "P1"]}
    assert got["single"] is None
    assert got["catches"] == [1]
    assert got["body"] == "PLAY FW4 color=R side=flex target=P1"


def test_browser_language_is_the_default(new_player: Any) -> None:
    fr = new_player("fr", locale="fr-FR")
    fr.page.goto("/")
    fr.page.wait_for_selector("html[lang='fr'] #create-form")
    assert "Créer une salle" in fr.page.inner_text("#create-form h2")
    # switching is remembered across pages
    fr.page.click("#btn-lang")
    fr.page.wait_for_selector("html[lang='en']")
    fr.page.reload()
    fr.page.wait_for_selector("html[lang='en'] #create-form")
    assert "Create a room" in fr.page.inner_text("#create-form h2")


def test_a_flex_wild_draw_on_its_regular_side_says_nobody_draws(page: Any) -> None:
    """issue 30 item 9: the table's line for a Flex wild draw card played as a plain Wild."""
    text = page.evaluate(
        """() => window.i18n.describeEvent(
          {type: 'Played', seat: 2, card: 'WTD', color: 'B', flex: false, target: null, jump_in: false},
          {me: 0, name: (s) => ['Ann', 'Bob', 'Dev'][s], side: 'light'})"""
    )
    assert text == (
        "Dev played Flex Wild Target Draw 2 on its regular side, as a plain Wild (nobody draws)"
        " and chose Blue."
    )
