"""WebSocket routes, outside i18n_patterns and LocaleMiddleware; and the worker channels.

A WebSocket has no LocaleMiddleware, so the language travels in the URL
(``ws/<feature>/<lang>/``) and consumers render under ``translation.override(lang)``.
Each app keeps its own ``websocket_urlpatterns``; add them to this list.

``channel_routes``: consumers of named channels, served by ``manage.py runworker <name>``
(or ``manage.py computers``), not by the web workers.
"""

from daifugo_site.pages.routing import websocket_urlpatterns as pages_websockets
from daifugo_site.play.routing import websocket_urlpatterns as play_websockets
from daifugo_site.play.workers import ComputersConsumer
from daifugo_site.rated.routing import websocket_urlpatterns as rated_websockets
from daifugo_site.review.routing import websocket_urlpatterns as review_websockets

websocket_urlpatterns = [
    *pages_websockets,
    *play_websockets,
    *rated_websockets,
    *review_websockets,
]

channel_routes = {
    "computers": ComputersConsumer.as_asgi(),
}
