from django.urls import path

from . import views

# Mounted inside i18n_patterns: /zh-hans/ and /ja/.
urlpatterns = [
    path("", views.home, name="home"),
]
