"""What the apps above the tutor plug into it.

``tutorials`` sits below the accounts and the rated 1v1 (``.importlinter``'s layers), yet
mining players' games (``mine_games``) must know whether anyone at a table turned their
statistics off. The accounts app answers that: it registers :data:`game_opted_out` in its
``AppConfig.ready``. Without it every game counts as opted out, so no game of a person is
ever mined unasked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Whether anyone at a finished game's table turned statistics off (their browser or their
#: account). ``None``: nobody can say, and the miner skips every game.
game_opted_out: Callable[[Any], bool] | None = None
