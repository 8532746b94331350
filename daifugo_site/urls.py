"""HTTP routes. WebSocket routes are in daifugo_site/routing.py (served by asgi.py).

Every page lives under a language prefix (/zh-hans/…, /ja/…, the default language too), so
each URL names its language and the two versions of a page link to each other. Admin and
the bare ``/`` stay outside: ``/`` picks the reader's language and redirects.
"""

from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path

from daifugo_site.pages import views as pages_views
from daifugo_site.pages.sitemaps import SITEMAPS

# A database outage answers the site's own translated 503 page (daifugo_site/outage.py).
handler500 = "daifugo_site.outage.server_error"

urlpatterns = [
    path("", pages_views.root_redirect, name="root"),
    # settings.ADMIN_PATH: admin/ in development, not guessable in production (prod.py).
    path(settings.ADMIN_PATH, admin.site.urls),
    path(
        "sitemap.xml",
        sitemap,
        {"sitemaps": SITEMAPS, "template_name": "pages/sitemap.xml"},
        name="sitemap",
    ),
]

urlpatterns += i18n_patterns(
    path("", include("daifugo_site.pages.urls")),
    path("", include(("daifugo_site.pages.rules_urls", "rules"))),
    path("play/room/", include("daifugo_site.rooms.urls")),
    path("play/", include("daifugo_site.play.urls")),
    path("review/", include("daifugo_site.review.urls")),
    path("learn/", include("tutorials.urls")),
    path("rated/", include("daifugo_site.rated.urls")),
    # The site's own account pages first (profile, history), then allauth's (sign in, ...).
    path("accounts/", include("daifugo_site.accounts.urls")),
    path("accounts/", include("allauth.urls")),
    prefix_default_language=True,
)
