"""The rules of each variant and the keys, as short Markdown for the help screens.

Written from docs/rules.md (the authoritative spec), in plain words; lists rather
than tables so that screen readers and plain mode read them well.

>>> from unokit.engine.options import Options
>>> "Wild Draw Four" in rules_text("classic", Options())
True
>>> "house rules" in rules_text("flip", Options(stacking="same_symbol")).lower()
True
"""

from __future__ import annotations

from collections.abc import Sequence

from unokit.engine.house_view import team_scores, teams
from unokit.engine.observation import Observation
from unokit.engine.options import ALL_HOUSE_RULES, HOUSE_RULES, PRESETS, Options

__all__ = ["rules_text", "keys_text", "commands_help", "SYMBOLS_TEXT"]

SYMBOLS_TEXT = """\
## Colour symbols

Every coloured card shows a symbol as well as its colour:

- ▲ Red, ✱ Yellow, ❦ Green, ● Blue
- UNO Flip dark side: ♥ Pink, ≈ Teal, ■ Orange, ☾ Purple
"""

_COMMON = """\
## Goal

Be the first to play every card in your hand. On your turn, play one card
that matches the top of the discard pile by **colour**, **number** or
**symbol**, or play a wild. You may draw one card instead, even if you could
play; if the drawn card fits you may play it at once or keep it (pass).

## UNO!

When a play leaves you with one card, call **UNO**. Press the UNO key with two
cards before you play (or right after, with one card). If someone catches you
before the next player acts, you draw {penalty} cards.

## Scoring

The winner of a round scores the value of the cards left in the other hands:
numbers their face value, action cards 20, wilds 50{flipwild}. {goal}
"""

_CLASSIC = """\
# Classic UNO

108 cards in Red, Yellow, Green and Blue.

## Action cards

- **Skip** (`RS`): the next player misses a turn.
- **Reverse** (`RR`): play changes direction (with two players it acts as a Skip).
- **Draw Two** (`RD2`): the next player draws 2 and misses a turn.
- **Wild** (`W`): choose the colour; playable on anything.
- **Wild Draw Four** (`W4`): choose the colour; the next player draws 4 and
  misses a turn. You may only play it if you hold no card of the current
  colour, but nothing stops a bluff: the next player may **challenge**. If you
  held a matching colour you draw 4 instead; if not, the challenger draws 6.
"""

_FLIP = """\
# UNO Flip

112 double-sided cards: a **light** side (Red, Yellow, Green, Blue) and a
**dark** side (Pink, Teal, Orange, Purple). You see the active face of your
cards; the other players see their backs, and you see theirs.

## Light side

- **Draw One** (`RD1`): the next player draws 1 and misses a turn.
- **Skip** (`RS`), **Reverse** (`RR`): as in Classic UNO.
- **Flip** (`RF`): everything turns over — discard pile, draw pile and every
  hand. The card that was at the bottom of the discard pile becomes the new
  top, showing its other face; play goes on from there.
- **Wild** (`W`): choose a colour.
- **Wild Draw Two** (`W2`): choose a colour; the next player draws 2 and
  misses a turn, or challenges (only legal with no card of the current colour).

## Dark side

- **Draw Five** (`PkD5`): the next player draws 5 and misses a turn.
- **Skip Everyone** (`PkSE`): everyone else misses a turn; you play again.
- **Reverse** (`PkR`), **Flip** (`PkF`): as on the light side.
- **Wild** (`DW`): choose a dark colour.
- **Wild Draw Color** (`WDC`): choose a dark colour; the next player draws
  until they draw that colour and misses a turn, or challenges.

Cards score by the side the round ends on: Draw One 10, Draw Five 20, Skip
Everyone 30, Wild 40, Wild Draw Two 50, Wild Draw Color 60.
"""

_FLEX = """\
# UNO Flex

Cards in Red, Yellow, Green and Blue, numbers 1 to 8. Every player has a
**Power Card**: green ✓ or red ✗.

## Flex cards

Flex cards have a regular side and a **flex side**. You may use the flex side
only while your Power Card is green; doing so turns it red.

- **Flex number** (`R5~G`): on its flex side it matches the second colour
  (Green here); red stays the colour in play.
- **Flex Skip** (`RFS`): flex side skips everyone else; you play again.
- **Flex Reverse** (`RFR`): flex side reverses, then skips the next player.
- **Flex Draw Two** (`RFD2`): flex side makes everyone else draw 1.
- **Flex Wild All Draw** (`WAD`): flex side makes everyone else draw 2.
- **Flex Wild Target Draw** (`WTD`): flex side makes a player you choose draw 2.
- **Flex Wild Draw Four** (`FW4`): regular side is a Wild Draw Four (can be
  challenged); flex side makes a player you choose draw 4, no challenge.

## Power Cards

- Numbers with a flip icon (`R4*`) turn your Power Card over.
- **Wild All Flip** (`WAF`): choose a colour; every Power Card turns over.
- When every Power Card is red, they all turn green again.
"""

_HOUSE = {
    "stacking": "Stacking: a draw card may be answered with another to pass the penalty on.",
    "jumpIn": "Jump-in: anyone holding a card identical to the top card may play it at once.",
    "sevenZero": "7-0: a 7 swaps hands with a player you choose; a 0 passes all hands on.",
    "drawUntilPlayable": "Draw until playable: drawing goes on until a card fits.",
    "forcedPlay": "Forced play: you must play when you can.",
    "noBluff": "No bluff: restricted wild draws are refused when you hold the colour.",
    "deflect": "Deflect: a Reverse or Skip of the colour passes a draw penalty on.",
    "zeroRotate": "Zero rotate: a 0 passes every hand to the next player.",
    "sevenSwap": "Seven swap: a 7 swaps hands with a player you choose.",
    "multiPlay": "Multi-play: several number cards of one number may be played together.",
    "mercy": "Mercy: whoever reaches the limit of cards is out of the match.",
    "finishRestriction": "Finish restriction: your last card may not be an action card or a wild.",
    "handLimit": "Hand limit: nobody holds more cards than the limit; draws stop there.",
    "teams": "Teams: partners sit opposite; when one goes out the team wins and scores.",
    "wildDrawChallenge": "No challenges: wild draw cards are never challenged.",
    "mustPlayDrawn": "Must play drawn: a drawn card that fits must be played.",
    "shuffleSeats": "Shuffled seats: the seating order is drawn at random for the match.",
}
_DEFAULTS = Options()


def rules_text(variant: str, options: Options) -> str:
    """The rules of ``variant`` with the options in force, as Markdown."""
    body = {"classic": _CLASSIC, "flip": _FLIP, "flex": _FLEX}[variant]
    if options.matchMode == "single_round":
        goal = "The match is a single round."
    elif options.scoringMode == "lowest":
        goal = (
            f"Here everyone else adds their own hand instead; when someone reaches "
            f"{options.targetScore}, the lowest total wins."
        )
    else:
        goal = f"The first to reach {options.targetScore} points wins the match."
    common = _COMMON.format(
        penalty=options.unoPenalty,
        flipwild=" (UNO Flip: see below)" if variant == "flip" else "",
        goal=goal,
    )
    text = body + "\n" + common
    house = [_HOUSE[k] for k in HOUSE_RULES if getattr(options, k) != getattr(_DEFAULTS, k)]
    if house:
        text += "\n## House rules in force\n\n" + "\n".join(f"- {h}" for h in house) + "\n"
    return text + "\n" + SYMBOLS_TEXT


def rules_line(options: Options) -> str:
    """The house rules in force in one line: the preset they are, if any, and
    each rule (a true/false rule by its name alone).

    >>> rules_line(Options())
    'Rules: official (no house rules).'
    >>> rules_line(Options(stacking="same_symbol", jumpIn=True, sevenZero=True, drawUntilPlayable=True))
    'Rules: Party -- stacking=same_symbol, jumpIn, sevenZero, drawUntilPlayable.'
    >>> rules_line(Options(teams="pairs", handLimit=12))
    'Rules: handLimit=12, teams=pairs.'
    """
    on = {k: v for k, v in options.to_dict().items() if k in ALL_HOUSE_RULES}
    if not on:
        return "Rules: official (no house rules)."
    words = ", ".join(k if v is True else f"{k}={v}" for k, v in on.items())
    name = next((n for n, v in PRESETS.items() if v == on), None)
    return f"Rules: {name} -- {words}." if name else f"Rules: {words}."


def rules_short(options: Options) -> str:
    """The house rules in a few words, for a title: the preset's name, the
    count of rules, or "official rules".

    >>> rules_short(Options()), rules_short(Options(jumpIn=True, teams="pairs"))
    ('official rules', '2 house rules')
    """
    on = {k: v for k, v in options.to_dict().items() if k in ALL_HOUSE_RULES}
    name = next((n for n, v in PRESETS.items() if v == on), None)
    if name is not None:
        return "official rules" if not on else f"{name} rules"
    return f"{len(on)} house rule{'s' if len(on) != 1 else ''}"


def team_lines(obs: Observation, names: Sequence[str]) -> list[str]:
    """Each team with its total (``teams=pairs``), for the scoreboard; [] without teams."""
    return [
        f"  Team {i + 1} ({' and '.join(names[s] for s in team)}): {score}"
        for i, (team, score) in enumerate(zip(teams(obs), team_scores(obs), strict=True))
    ]


def keys_text() -> str:
    """The keys of the Textual game."""
    return """\
# Keys

- **← →** (or **h l**): select a card; **↑ ↓** move between rows; **Home End**
- **Enter** or **Space**: play the selected card (a dialog asks for the colour,
  the side or the target when needed); **f** plays it on its flex side (UNO Flex)
- **d**: draw a card (or take a stacked penalty)
- **p**: pass — keep the card you just drew
- **u**: call UNO
- **c**: catch a player who did not call UNO
- **x**: challenge a restricted wild draw (a dialog also asks)
- **s**: scoreboard, **?** or **F1**: this help, **q**: quit
- In dialogs: the key in brackets or **1 2 3 …**, **Escape** to cancel

Everything can also be clicked: a card to select it, the selected card again
(or a double click) to play it, the draw pile to draw, and the keys at the
bottom of the screen.
"""


def commands_help() -> str:
    """The plain-mode commands."""
    return """\
Commands (card notation as printed in your hand):
  play R5                 play a card; a Flip card by the face you see
  play W color=G          a wild with its colour (also: play W G)
  play R5 uno             play and call UNO at once
  play RFS flex           UNO Flex: use the flex side (also side=flex)
  play WTD flex color=G target=P2    a targeted flex side
  play R7 swap=P1         7-0 house rule: swap hands
  draw                    draw a card (or take a stacked penalty)
  pass                    keep the card you just drew
  color G                 choose a colour when asked
  challenge / accept      answer a Wild Draw card
  uno                     call UNO
  catch P2                catch a player who did not call UNO (or: catch)
  show                    print the table again
  scores                  the scoreboard
  help                    this text and the rules
  quit                    stop playing (end of input also stops)"""
