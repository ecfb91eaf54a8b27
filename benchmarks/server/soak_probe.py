"""Run ``unokit serve`` with a memory probe: what the server holds, over time.

A diagnostic for the soak (benchmarks/server/soak_server.py ``--probe FILE``), not
part of the server: it wraps ``unokit.web.app.create_app`` to keep the hub, then
runs the ordinary ``unokit serve`` command. A thread writes one JSON line to
``--out`` every ``--every`` seconds:

* ``rss_mb``; the C allocator's view (glibc ``mallinfo2``: bytes in use by
  ``malloc``, bytes free but held in its heap, bytes in ``mmap`` blocks) and
  ``sys.getallocatedblocks()`` (Python objects' memory blocks): RSS that grows
  while these stay flat is the allocator's high water, not a leak;
* the sizes of every structure the server keys by room, connection, seat or
  address (rooms in memory, their logs, connections, tasks, limiter buckets,
  the finished-match cache);
* the number of live objects of the server's own classes and of the most
  common types, the garbage collector's counts and collections;
* with ``--tracemalloc``: the lines that allocated the most memory still held,
  compared with the first probe (tracemalloc slows the server down ~2x: use
  it with fewer players).

    python benchmarks/server/soak_probe.py --out probe.jsonl --every 30 -- serve --port 8000
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import sys
import threading
import time
import tracemalloc
from collections import Counter
from typing import Any

import unokit.web.app as web_app
import unokit.web.hardening as web_hardening
import unokit.web.routes.records as web_records
from unokit.cli import app as cli_app

_HUB: list[Any] = []


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
            "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


def mallinfo() -> dict[str, float]:
    """glibc's allocator statistics, MB (empty where glibc has no mallinfo2)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        fn = libc.mallinfo2
    except (OSError, AttributeError):
        return {}
    fn.restype = _MallInfo2
    m = fn()
    mb = 1 / (1 << 20)
    return {
        "malloc_used_mb": m.uordblks * mb,  # in use, main heap and other arenas
        "malloc_free_mb": m.fordblks * mb,  # free, but kept by the allocator
        "malloc_mmap_mb": m.hblkhd * mb,  # large blocks (and pymalloc arenas) in mmap
    }


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def smaps() -> dict[str, float]:
    """Anonymous (heap, arenas) and file-backed resident memory, MB."""
    out = {}
    try:
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("Anonymous", "Rss"):
                    out["anon_mb" if key == "Anonymous" else "smaps_rss_mb"] = (
                        int(rest.split()[0]) / 1024
                    )
    except OSError:
        pass
    return out


def pymalloc_arenas() -> dict[str, float]:
    """pymalloc's arenas in use and at most so far (sys._debugmallocstats, read
    from file descriptor 2 for the moment it writes)."""
    import os
    import tempfile

    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(2)
        try:
            sys.stderr.flush()
            os.dup2(tmp.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode("ascii", "replace")
    out: dict[str, float] = {}
    for line in text.splitlines():
        for key, name in (
            ("# arenas allocated current", "arenas_now"),
            ("# arenas highwater mark", "arenas_max"),
            ("# bytes in allocated blocks", "pymalloc_used"),
            ("# bytes in available blocks", "pymalloc_free"),
        ):
            if line.startswith(key) and name not in out:
                out[name] = int(line.rsplit("=", 1)[1].strip().replace(",", ""))
    for name in ("pymalloc_used", "pymalloc_free"):
        if name in out:
            out[name] = round(out[name] / (1 << 20), 1)  # MB
    return out


def structures(hub: Any) -> dict[str, int]:
    """Sizes of what the server keeps per room / connection / seat / address."""
    rooms = list(hub.rooms.values())
    out = {
        "rooms": len(rooms),
        "rooms_loading": len(hub._loading),
        "conns": sum(len(r.conns) for r in rooms),
        "log_lines": sum(len(r.log) for r in rooms),
        "grace_tasks": sum(len(r._grace) for r in rooms),
        "delta_views": sum(len(r._deltas) for r in rooms),
        "deltas_kept": sum(sum(len(d) for d in r._deltas.values()) for r in rooms),
        "views": sum(len(r._views) for r in rooms),
        "fragments": sum(len(r._fragments) for r in rooms),
        "histories": sum(len(r._histories) for r in rooms),
        "finished_cache": len(web_records._FINISHED),
        "idle_rooms": sum(1 for r in rooms if not r.conns),
        "over_rooms": sum(1 for r in rooms if r.game is not None and r.game.is_over),
        "history_json_kb": sum(len(h[3]) for r in rooms for h in r._histories.values()) // 1024,
        "state_json_kb": sum(len(t) for r in rooms for t in r._cache.states.values()) // 1024,
        "delta_json_kb": sum(len(t) for r in rooms for d in r._deltas.values() for _, t in d)
        // 1024,
    }
    return out


def probe(every: float, out: str, trace: bool, trim: bool) -> None:
    base: tracemalloc.Snapshot | None = None
    with open(out, "w") as f:
        while True:
            time.sleep(every)
            hub = _HUB[0] if _HUB else None
            row: dict[str, Any] = {"t": round(time.time(), 1), "rss_mb": round(rss_mb(), 1)}
            row.update({k: round(v, 1) for k, v in mallinfo().items()})
            row.update({k: round(v, 1) for k, v in smaps().items()})
            row.update(pymalloc_arenas())
            row["py_blocks"] = sys.getallocatedblocks()
            row["gc_count"] = gc.get_count()
            row["gc_collections"] = [s["collections"] for s in gc.get_stats()]
            row["gc_frozen"] = gc.get_freeze_count()
            objects = gc.get_objects()
            types = Counter(type(o).__name__ for o in objects)
            limits = [
                len(o.buckets if isinstance(o, web_hardening.AddressLimiter) else o.hits)
                for o in objects
                if isinstance(o, (web_hardening.AddressLimiter, web_hardening.RestLimiter))
            ]
            del objects
            row["objects"] = sum(types.values())
            row["top_types"] = types.most_common(12)
            row["unokit_types"] = {
                k: types[k] for k in ("Room", "Conn", "Game", "Seat", "_View", "Task", "Future")
            }
            if hub is not None:
                # read from this thread while the event loop changes them: a
                # dict may change size during the count; count again
                for _ in range(20):
                    try:
                        row["structures"] = {**structures(hub), "limiter_keys": sum(limits)}
                        break
                    except RuntimeError:
                        time.sleep(0.01)
            if trim:  # what the C allocator holds but could give back
                row["rss_before_trim_mb"] = row["rss_mb"]
                ctypes.CDLL("libc.so.6").malloc_trim(0)
                row["rss_after_trim_mb"] = round(rss_mb(), 1)
            if trace:
                snap = tracemalloc.take_snapshot().filter_traces(
                    [tracemalloc.Filter(False, tracemalloc.__file__)]
                )
                row["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / (1 << 20), 1)
                if base is None:
                    base = snap
                else:
                    row["grown"] = [
                        [str(s.traceback[0]), round(s.size_diff / 1024), s.count_diff]
                        for s in snap.compare_to(base, "lineno")[:15]
                    ]
            f.write(json.dumps(row) + "\n")
            f.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="JSON lines written here")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between probes")
    ap.add_argument("--tracemalloc", action="store_true", help="compare allocation sites")
    ap.add_argument(
        "--trim", action="store_true", help="call malloc_trim(0) after each probe (glibc)"
    )
    ap.add_argument("serve", nargs=argparse.REMAINDER, help="-- serve ARGS of unokit")
    a = ap.parse_args()
    args = [x for x in a.serve if x != "--"] if a.serve[:1] == ["--"] else a.serve
    if a.tracemalloc:
        tracemalloc.start(1)
    create = web_app.create_app

    def create_app(settings: Any) -> Any:
        application = create(settings)
        _HUB.append(application.state.hub)
        return application

    web_app.create_app = create_app  # type: ignore[assignment]
    threading.Thread(
        target=probe, args=(a.every, a.out, a.tracemalloc, a.trim), daemon=True
    ).start()
    cli_app(args=args, prog_name="unokit")


if __name__ == "__main__":
    main()
