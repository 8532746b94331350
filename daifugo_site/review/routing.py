from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path(
        "ws/review/<str:lang>/<str:game_id>/",
        consumers.ReviewProgressConsumer.as_asgi(),
        name="ws-review",
    ),
]
