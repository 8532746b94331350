from django.urls import path

from .consumers import QueueConsumer, RatedGameConsumer

websocket_urlpatterns = [
    path("ws/rated/<str:lang>/queue/", QueueConsumer.as_asgi()),
    path("ws/rated/<str:lang>/game/<str:game_id>/", RatedGameConsumer.as_asgi()),
]
