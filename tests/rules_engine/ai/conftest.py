"""Import path for the computer-player tests: ``aihelpers.py`` next to this
file is importable under any pytest import mode."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
