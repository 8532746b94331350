"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Run with ``daphne daifugo_site.asgi:application``. Without DJANGO_SETTINGS_MODULE this
loads the production settings, which refuse to start without their secrets: forgetting the
variable on a server then fails loudly instead of serving with DEBUG on. ``make run`` sets
the development settings.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "daifugo_site.settings.prod")

# Set Django up (apps, settings) before anything imports models or consumers.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ChannelNameRouter, ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from daifugo_site.routing import channel_routes, websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Origin must be one of ALLOWED_HOSTS: another site's page cannot open a socket
        # with our visitors' cookies. AuthMiddlewareStack gives consumers scope["user"].
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
        # Background workers (`manage.py computers`): computer seats off the web workers.
        "channel": ChannelNameRouter(channel_routes),
    }
)
