"""Nothing in the repository cites a document that is not in it: every
``*.md`` named in the docs, the README, the code and the tests exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# a file name, not the end of a web address (never preceded by / : . or a letter)
NAME = re.compile(r"(?<![\w/.:-])([\w./-]*[\w-]+\.md)\b")
SKIP_DIRS = {".venv", ".git", "node_modules", "build", "dist", "data", "dataset"}


def _files() -> list[Path]:
    out = []
    for path in ROOT.rglob("*"):
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in path.parts):
            continue
        # (not JavaScript, where a property may be called md)
        if path.is_file() and path.suffix in (".md", ".py", ".html", ".json", ".toml", ".txt"):
            out.append(path)
    return out


def test_every_cited_document_exists() -> None:
    missing = []
    for path in _files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in NAME.finditer(text):
            name = m.group(1)
            # RULES.md and its scenario format are the shared rules beside the checkout
            shared = ROOT.parent / "shared" / "rules" / name
            here = [path.parent / name, ROOT / name, ROOT / "docs" / name, shared]
            if not any(p.exists() for p in here):
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert missing == []


def test_the_rules_reference_covers_every_decision() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text()
    for n in range(1, 67):
        assert re.search(rf"\bD{n}\b", rules), f"D{n} is not in docs/rules.md"
    from unokit.engine.options import Options

    for key in Options.__dataclass_fields__:
        assert f"`{key}`" in rules, f"option {key} is not in docs/rules.md"
