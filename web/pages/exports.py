"""A club's exports made by a worker (``scoring.jobs``): asked for on the club's page,
followed on a page of their own until done, then downloaded.  Each step checks that the
reader administers the club now (a right is checked when it is used)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.db.models.functions import Length
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from actions.exports import ask_export
from scoring import jobs
from scoring.models import Export
from web.pages.getters import administered, administered_club, visible
from web.refusals import FILES_FOR_ADMINS


@login_required
@require_POST
def club_export(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """Ask for the club's export of ``kind`` (or join the one being made)."""
    club = administered_club(request, slug)
    if kind not in jobs.KINDS:
        raise Http404(f"no export {kind!r}")
    export = ask_export(club, request.user, kind)
    return redirect("export", pk=export.pk)


def _administered(request: HttpRequest, pk: int, exports: QuerySet[Export]) -> Export:
    return administered(
        request, visible(request, exports.select_related("club"), pk), FILES_FOR_ADMINS
    )


@login_required
@require_safe
def export_status(request: HttpRequest, pk: int) -> HttpResponse:
    """How far the export is (the page asks again every few seconds until it is done)."""
    export = _administered(request, pk, Export.objects.defer("data").annotate(size=Length("data")))
    kind = jobs.KINDS.get(export.kind)
    return render(
        request,
        "pages/setup/export.html",
        {
            "export": export,
            "club": export.club,
            "label": kind.label if kind else export.kind,
            "percent": 100 * export.done // export.steps if export.steps else 0,
            "unfinished": export.status in jobs.UNFINISHED,
        },
    )


@login_required
@require_safe
def export_file(request: HttpRequest, pk: int) -> HttpResponse:
    export = _administered(request, pk, Export.objects.all())
    if export.status != Export.Status.DONE or export.data is None:
        raise Http404("not made yet")
    response = HttpResponse(bytes(export.data), content_type=export.content_type)
    response["Content-Disposition"] = f'attachment; filename="{export.name}"'
    return response
