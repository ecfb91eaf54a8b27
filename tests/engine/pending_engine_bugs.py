"""Tests that the engine FAILS today, each one a suspected bug against docs/rules.md.

This file is deliberately not named ``test_*.py`` so that CI does not collect it
(CI must stay green). Run it by hand to see the failures::

    .venv/bin/pytest tests/engine/pending_engine_bugs.py

When the engine is fixed, move the test into the matching ``test_*_effects.py``.
"""

# BUG 1 (regular-side Flex Draw Two acted as its flex side) and BUG 2 (forcedPlay forced
# playing an illegal drawn restricted card) were fixed in commit 8da1b36; their tests now
# live in test_flex_effects.py.


# BUG 3 (Game.setup could not build AWAIT_COLOR positions faithfully: a colour was
# required and kept, and flipExposedWildChooser=next_player was ignored) was fixed in
# commit 9cd5f8d; its tests now live in test_flip_effects.py and test_classic_effects.py.
#
# No suspected engine bug is pending at the moment.
