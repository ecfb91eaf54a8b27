"""``python -m unokit`` runs the ``unokit`` command."""

from unokit.cli import main

main()
