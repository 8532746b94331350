"""Fixtures and import path for the rules engine tests.

The shared helpers live in ``engine_testlib.py`` next to this file; the path
is added here so that ``import engine_testlib`` works under any pytest import
mode (the test folders have no ``__init__.py``).
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
