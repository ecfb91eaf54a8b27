"""``python -m unokit`` runs the ``unokit`` command."""

from unokit.cli import main

if __name__ == "__main__":
    main()
