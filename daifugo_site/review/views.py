"""The review page, its progress, hints, the rules checker and puzzles from positions.

The review page and its progress poll are async views: starting (or resuming) a review's
job needs the event loop (the job awaits the computer-player pool; it never searches on
the loop). Database and session work goes through ``sync_to_async``.

Progress is polled with htmx (``hx-trigger="every 1s"`` on the progress fragment) rather
than pushed over a WebSocket: the job may run in a computer worker process while the page
is served by any web process, the figures live in the database anyway, and a poll is also
what resumes a job that died with its process. The fragment stops polling once the review
is done (its last answer has no trigger), so an idle page costs nothing.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from daifugo_site.ui.reasons import reason_text

from . import checker as checker_mod
from . import presenter, puzzles, services, sources
from .models import Review


def _source(request: HttpRequest, game_id: str) -> sources.Source | None:
    if len(game_id) > 32:
        return None
    return sources.for_viewer(game_id, request.session, getattr(request, "user", None))


def _context(request: HttpRequest, game_id: str, start: bool) -> dict[str, Any]:
    source = _source(request, game_id)
    if source is None:
        raise Http404
    review = (
        Review.objects.select_related("game").filter(game=source.game, seat=source.seat).first()
    )
    if review is None and start and source.finished:
        review = services.review_for(source)
        review = Review.objects.select_related("game").get(pk=review.pk)
    hints = services.hints_used(source.game.id, source.seat)
    view = None
    if review is not None and review.status == Review.Status.DONE:
        view = presenter.review_view(review, hints)
    return {"source": source, "game": source.game, "review": review, "view": view, "hints": hints}


@require_http_methods(["GET", "HEAD", "POST"])
async def review_page(request: HttpRequest, game_id: str) -> HttpResponse:
    """GET: the review (or its progress, or the button that starts it). POST: start it."""
    start = request.method == "POST"
    context = await sync_to_async(_context)(request, game_id, start)
    review: Review | None = context["review"]
    if start:
        if not context["source"].finished:
            return HttpResponse(_("Only a finished game can be reviewed."), status=409)
        if review is not None and review.status == Review.Status.RUNNING:
            services.request_review(review.pk)
        return HttpResponseRedirect(reverse("review:game", args=[game_id]))
    if review is not None and review.status == Review.Status.RUNNING:
        if not await services.is_running(review.pk):
            services.request_review(review.pk)
    return await sync_to_async(render)(request, "review/review.html", context)


@require_http_methods(["GET", "HEAD"])
async def progress(request: HttpRequest, game_id: str) -> HttpResponse:
    """The progress fragment (htmx polls it); the finished review once done."""
    context = await sync_to_async(_context)(request, game_id, False)
    review: Review | None = context["review"]
    if review is None:
        raise Http404
    if review.status == Review.Status.RUNNING and not await services.is_running(review.pk):
        services.request_review(review.pk)
    html = await sync_to_async(render_to_string)("review/_progress.html", context, request=request)
    return HttpResponse(html)


@require_POST
async def hint(request: HttpRequest, game_id: str) -> HttpResponse:
    """The hint fragment for the current decision of a practice game."""
    source = await sync_to_async(_source)(request, game_id)
    if source is None:
        return HttpResponse(reason_text("not_owner"), status=403)
    context: dict[str, Any] = {"game": source.game}
    try:
        context["version"], result = await services.hint(source)
    except services.HintRefused as refused:
        context["error"] = {
            "not_practice": _("Hints are only for practice games."),
            "not_your_turn": _("A hint is for your own turn: wait until it is your move."),
            "round_over": _("The round is over: there is nothing to hint."),
        }[refused.reason]
    else:
        context["suggestion"], context["reasons"] = presenter.hint_sentences(result)
    context["hints"] = await sync_to_async(services.hints_used)(source.game.id, source.seat)
    html = await sync_to_async(render_to_string)("review/_hint.html", context, request=request)
    return HttpResponse(html)


@require_http_methods(["GET", "HEAD", "POST"])
def checker(request: HttpRequest) -> HttpResponse:
    """The rules checker: a table state in the scenario format, and what the engine says."""
    data = request.POST if request.method == "POST" else request.GET
    text = data.get("s", "")
    move = data.get("move", "")
    context: dict[str, Any] = {"text": text, "move": move, "limit": checker_mod.MAX_INPUT}
    if text:
        context["result"] = checker_mod.check(text, move)
    else:
        context["text"] = checker_mod.EXAMPLE
    status = 400 if context.get("result") and context["result"].error else 200
    return render(request, "review/checker.html", context, status=status)


@require_POST
def make_puzzle(request: HttpRequest, game_id: str, index: int) -> HttpResponse:
    """Turn a solver-settled decision of the viewer's review into a puzzle (pending
    moderation; shared by its link at once)."""
    source = _source(request, game_id)
    if source is None:
        raise Http404
    review = Review.objects.filter(game=source.game, seat=source.seat).first()
    if review is None or review.status != Review.Status.DONE:
        raise Http404
    item = next((it for it in review.items if it["i"] == index), None)
    if item is None:
        raise Http404
    try:
        puzzle = puzzles.from_review(review, item)
    except puzzles.NotAPuzzle as exc:
        return render(
            request,
            "review/puzzle_refused.html",
            {"game": source.game, "message": exc.message},
            status=400,
        )
    return HttpResponseRedirect(puzzle.lesson.get_absolute_url())
