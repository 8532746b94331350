from django.contrib import admin

from .models import Hint, Review


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "status", "total", "worlds", "seconds", "created")
    list_filter = ("status",)
    readonly_fields = ("game", "seat", "total", "items", "worlds", "seconds")


@admin.register(Hint)
class HintAdmin(admin.ModelAdmin):
    list_display = ("game", "seat", "version", "created")
    readonly_fields = ("game", "seat", "version", "result")
