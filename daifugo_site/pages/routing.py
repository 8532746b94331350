from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/ping/<str:lang>/", consumers.PingConsumer.as_asgi(), name="ws-ping"),
]
