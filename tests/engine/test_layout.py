"""The import paths before the engine moved into packages still work: the old
name is the new module itself, and importing it warns with the new path."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys

import pytest

from unokit._compat import MOVED


@pytest.mark.parametrize("old, new", sorted(MOVED.items()))
def test_an_old_path_is_the_new_module_with_a_warning(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


def test_every_new_path_exists_and_no_old_file_is_left() -> None:
    import unokit

    root = unokit.__path__[0]
    for old, new in MOVED.items():
        assert importlib.util.find_spec(new) is not None, new
        leaf = old.split(".")[1:]
        assert not os.path.exists(f"{root}/{'/'.join(leaf)}.py"), old


def test_a_name_from_an_old_path_is_the_same_object() -> None:
    from unokit.engine.cards import Card

    with pytest.warns(DeprecationWarning):
        sys.modules.pop("unokit.cards", None)
        old = importlib.import_module("unokit.cards")
    assert old.Card is Card
