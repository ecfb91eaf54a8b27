"""The C rules core under AddressSanitizer and UndefinedBehaviorSanitizer.

Builds ``unokit._core`` (the sources pyproject.toml lists, with setuptools, as
pip builds it) with ``-fsanitize=address,undefined`` into its own directory
(``build/sanitize`` by default: the in-place extension in ``src/unokit`` is
left alone), then runs a short differential fuzz with that build loaded in
place of the normal one (``unokit.testing.fuzz``: the core against the
reference engine command by command, then the fuzzer's own checks, whose
fast paths -- playouts, rollouts, the batched environments -- run in C too).
Any out-of-bounds access, use after free or undefined behaviour in the core
stops the run with the sanitizer's report and exit status 1, as does any
disagreement the fuzz finds.

    python scripts/sanitize_core.py [--seconds 20] [--seed 0] [--build-dir build/sanitize]

``make sanitize`` runs it, and ``make test`` runs ``make sanitize``. CPython is
not built with ASan, so the run preloads gcc's ``libasan.so`` and turns leak
detection off (the interpreter's own allocations at exit are not the core's).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"


def build(build_dir: Path) -> Path:
    """Build the sanitized extension into ``build_dir`` and return its path
    (setuptools rebuilds it only when a source is newer)."""
    env = dict(os.environ, CFLAGS=SANITIZE, LDFLAGS=SANITIZE)
    done = subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "build_ext", "-q",
         "--build-lib", str(build_dir / "lib"), "--build-temp", str(build_dir / "temp")],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"sanitize: the build failed (exit status {done.returncode})")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    so = build_dir / "lib" / "unokit" / f"_core{suffix}"
    if not so.is_file():
        raise SystemExit(f"sanitize: the build did not produce {so}")
    return so


def libasan() -> str:
    """gcc's AddressSanitizer runtime, preloaded into an uninstrumented Python."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise SystemExit("sanitize: gcc is needed (the Debian package gcc)")
    path = subprocess.run(
        [gcc, "-print-file-name=libasan.so"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if not os.path.isabs(path) or not os.path.exists(path):
        raise SystemExit("sanitize: gcc has no libasan.so (the Debian package libasan8)")
    return path


class _SanitizedCore:
    """Finds ``unokit._core`` at the sanitized build; everything else of
    ``unokit`` comes from the source tree as usual."""

    def __init__(self, so: Path) -> None:
        self.so = so

    def find_spec(self, name: str, path: object, target: object = None) -> object:
        if name != "unokit._core":
            return None
        return importlib.util.spec_from_file_location(name, self.so)


def fuzz(so: Path, seconds: float, seed: int) -> int:
    """In the sanitized process: load the build, check that it and the
    sanitizer runtime are the ones in use, and fuzz."""
    sys.meta_path.insert(0, _SanitizedCore(so))  # type: ignore[arg-type]
    from unokit import _core
    from unokit.testing import fuzz as fz

    loaded = Path(_core.__file__ or "").resolve()
    if loaded != so.resolve():
        raise SystemExit(f"sanitize: unokit._core came from {loaded}, not {so}")
    maps = Path("/proc/self/maps").read_text()
    if "libasan" not in maps or "libubsan" not in maps:
        raise SystemExit("sanitize: the sanitizer runtimes are not loaded")
    print(f"sanitize: unokit._core from {loaded} (ASan + UBSan)", flush=True)
    half = f"{seconds / 2:g}"
    status = 0
    for args in (["--core", "--seconds", half, "--seed", str(seed)],
                 ["--seconds", half, "--seed", str(seed)]):  # fmt: skip
        print(f"sanitize: python -m unokit.testing.fuzz {' '.join(args)}", flush=True)
        status |= fz.main(args)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="fuzzing time in all")
    ap.add_argument("--seed", type=int, default=0, help="first match seed")
    ap.add_argument("--build-dir", type=Path, default=ROOT / "build" / "sanitize")
    ap.add_argument("--run", type=Path, help=argparse.SUPPRESS)  # the sanitized child
    a = ap.parse_args(argv)
    if a.seconds <= 0:
        ap.error("--seconds must be positive")
    if a.run is not None:
        return fuzz(a.run, a.seconds, a.seed)
    so = build(a.build_dir.resolve())
    env = dict(
        os.environ,
        LD_PRELOAD=libasan(),
        ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:exitcode=1",
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
    )
    cmd = [sys.executable, __file__, "--run", str(so), "--seconds", str(a.seconds),
           "--seed", str(a.seed)]  # fmt: skip
    return subprocess.run(cmd, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
