"""A bridge to UECda, the computer-Daihinmin tournament: its protocol (version 20070)
and a client that plays any of the project's levels under the ``uecda`` preset.

``python -m uecda --host H --port P --level L`` plays a server's match;
``python -m uecda.tournament`` runs a server and opponents given by path.
"""

from .client import GameRecord, UecdaGame, play_games, run_client

__all__ = ["GameRecord", "UecdaGame", "play_games", "run_client"]
