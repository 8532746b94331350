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
from django.conf import settings  # noqa: E402

from daifugo_site.limits import InboundBound, SendBacklog  # noqa: E402
from daifugo_site.outage import SocketOutage  # noqa: E402
from daifugo_site.routing import channel_routes, websocket_urlpatterns  # noqa: E402
from daifugo_site.security import ExactOriginValidator, WebsocketHostValidator  # noqa: E402


def _check_static_manifest() -> None:
    """Refuse to serve when the static files were not collected for these settings.

    With a manifest storage (production) every {% static %} needs staticfiles.json: without
    it (static collected with the development settings, or not at all) every page would be
    a 500. Failing here says what to do instead.
    """
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.core.exceptions import ImproperlyConfigured

    read_manifest = getattr(staticfiles_storage, "read_manifest", None)
    if read_manifest is not None and read_manifest() is None:
        raise ImproperlyConfigured(
            f"No static files manifest in {settings.STATIC_ROOT}: run "
            "`manage.py collectstatic --noinput` with these settings "
            f"({os.environ.get('DJANGO_SETTINGS_MODULE')}) before starting the server."
        )


_check_static_manifest()

# A web worker lists legal moves now and then; it never searches (daifugo_site/play).
from daifugo_site.play.thinking import serving_caches  # noqa: E402

serving_caches(settings.ENGINE_SERVING_CACHE_ENTRIES)


def websocket_app() -> object:
    """Host like HTTP (ALLOWED_HOSTS), then Origin: another site's page cannot open a socket
    with our visitors' cookies. Production names its exact origins; elsewhere the Origin's
    host must be an allowed host. AuthMiddlewareStack gives consumers scope["user"]."""
    inner = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
    if settings.WEBSOCKET_ALLOWED_ORIGINS is not None:
        checked = ExactOriginValidator(inner, settings.WEBSOCKET_ALLOWED_ORIGINS)
    else:
        checked = AllowedHostsOriginValidator(inner)
    return WebsocketHostValidator(checked)


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # SendBacklog (outermost: it needs daphne's own send) lets consumers drop a client
        # that stops reading (daifugo_site/limits.py); InboundBound inside it bounds the
        # frames waiting for a consumer (and drops a client past that through its abort);
        # then a database outage's translated error frame (daifugo_site/outage.py), then
        # Host and Origin checks.
        "websocket": SendBacklog(InboundBound(SocketOutage(websocket_app()))),
        # Background workers (`manage.py computers`): computer seats off the web workers.
        "channel": ChannelNameRouter(channel_routes),
    }
)
