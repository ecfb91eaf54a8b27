"""The rules engine: cards, options, variants, actions, events, the game and
what a seat observes, notation and narration. Typed Python, no I/O, over the C
rules core (:mod:`unokit._core`). Everything else in unokit is an adapter
around this package; the public names are re-exported by :mod:`unokit`."""
