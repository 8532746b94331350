from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/play/<str:lang>/<str:game_id>/", consumers.GameConsumer.as_asgi(), name="ws-play"),
]
