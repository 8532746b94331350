"""WebSocket routes, outside i18n_patterns and LocaleMiddleware.

A WebSocket has no LocaleMiddleware, so the language travels in the URL
(``ws/<feature>/<lang>/``) and consumers render under ``translation.override(lang)``.
Each app keeps its own ``websocket_urlpatterns``; add them to this list.
"""

from daifugo_site.pages.routing import websocket_urlpatterns as pages_websockets
from daifugo_site.play.routing import websocket_urlpatterns as play_websockets

websocket_urlpatterns = [
    *pages_websockets,
    *play_websockets,
]
