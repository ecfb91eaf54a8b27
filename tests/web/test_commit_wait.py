"""Group commit under load (issue 13, CPU per move): the store's thread spaces
its commits ``commit_wait`` apart, so calls arriving just after a commit share
the next one; a call after a quiet spell is committed at once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from unokit.web.store import Store


def noop(conn: object) -> None:
    return None


async def test_calls_after_a_commit_share_the_next_one(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'w.sqlite3'}", commit_wait=0.2)
    store.start()
    try:
        await store.call(noop)
        first = store.commits
        # three calls in three ticks right after a commit: one commit for all
        futs = []
        for _ in range(3):
            futs.append(asyncio.ensure_future(store.call(noop)))
            await asyncio.sleep(0.02)
        await asyncio.gather(*futs)
        assert store.commits == first + 1
        assert store.calls == 4
    finally:
        store.close()


async def test_a_call_after_a_quiet_spell_does_not_wait(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'w.sqlite3'}", commit_wait=0.5)
    store.start()
    try:
        await store.call(noop)
        await asyncio.sleep(0.6)  # longer than commit_wait since the last commit
        t = time.monotonic()
        await store.call(noop)
        assert time.monotonic() - t < 0.4
    finally:
        store.close()


async def test_without_a_wait_each_tick_commits_at_once(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'w.sqlite3'}", commit_wait=0.0)
    store.start()
    try:
        await store.call(noop)
        first = store.commits
        for _ in range(3):
            await store.call(noop)
        assert store.commits == first + 3
    finally:
        store.close()
