"""A checkout whose Python code is newer than its built C core says so at
import, with the command that rebuilds it (not an AttributeError mid-game)."""

from __future__ import annotations

import pytest

from unokit import _core
from unokit.engine.core import CORE_ABI, check_core_abi


def test_the_built_core_matches_the_python_code() -> None:
    assert _core.ABI == CORE_ABI
    check_core_abi(_core.ABI)


@pytest.mark.parametrize("built", [None, CORE_ABI - 1, CORE_ABI + 1])
def test_a_core_of_another_version_is_refused_with_the_fix(built: int | None) -> None:
    with pytest.raises(ImportError, match=r"make install"):
        check_core_abi(built)
