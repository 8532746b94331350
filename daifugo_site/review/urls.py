from django.urls import path

from . import views

app_name = "review"

# Mounted inside i18n_patterns: /zh-hans/review/… and /ja/review/….
urlpatterns = [
    path("checker/", views.checker, name="checker"),
    path("game/<str:game_id>/", views.review_page, name="game"),
    path("game/<str:game_id>/progress/", views.progress, name="progress"),
    path("game/<str:game_id>/puzzle/<int:index>/", views.make_puzzle, name="puzzle"),
    path("hint/<str:game_id>/", views.hint, name="hint"),
]
