from django.urls import path

from . import views

app_name = "rooms"

# Mounted before the play app inside i18n_patterns: /zh-hans/play/room/… and /ja/play/room/….
urlpatterns = [
    path("new/", views.create, name="create"),
    path("<str:token>/", views.room, name="room"),
    path("<str:token>/take/", views.take, name="take"),
    path("<str:token>/leave/", views.leave, name="leave"),
    path("<str:token>/start/", views.start, name="start"),
    path("<str:token>/again/", views.again, name="again"),
    path("<str:token>/hand/", views.hand, name="hand"),
]
