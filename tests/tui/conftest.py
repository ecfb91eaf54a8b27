from __future__ import annotations

import sys
from pathlib import Path

# the helpers next to the tests (policy.py) are imported by name
sys.path.insert(0, str(Path(__file__).parent))
