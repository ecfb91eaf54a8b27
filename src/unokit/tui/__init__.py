"""Play in the terminal: a Textual game, a plain-text mode and a replay viewer.

* :mod:`unokit.tui.session` — a match between people at this terminal and bots;
* :mod:`unokit.engine.narration` — events in plain words, observations as text, the
  plain-mode command reader (no Textual needed);
* :mod:`unokit.tui.plain` — ``unokit play --plain`` (screen readers, pipes);
* :mod:`unokit.tui.app` — the Textual app (``unokit play``);
* :mod:`unokit.tui.replay` — ``unokit replay RECORD``;
* :mod:`unokit.tui.cli` — the ``play`` and ``replay`` commands.

Textual is imported only by the app and the replay viewer, so plain mode works
without it.
"""
