"""The embedded channel layer: Channels' in-memory layer, with its expiry sweep throttled.

``InMemoryChannelLayer`` walks every channel and every group on each send and receive to
drop expired messages, so its cost grows with the number of open pages: at a few hundred
games it was a visible share of the server's time (measured with
``python -m daifugo_site.play.bench``). Expiry is measured in seconds (a minute for
messages, a day for group membership), so sweeping at most once a second changes nothing
observable.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    sweep_interval = 1.0

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._last_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()
