"""Head to head (issue 41, 3): a player against everyone met at a table, and two players'
record per season and game (``scoring.head_to_head``), in the seasons the reader reads."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring import head_to_head as h2h
from tournaments.access import visible
from tournaments.models import Player
from web.previews import link_preview


@require_safe
def head_to_head(request: HttpRequest, pk: int) -> HttpResponse:
    """``/players/N/head-to-head/``: everyone the player met; ``?with=M``: the two of them."""
    player = get_object_or_404(visible(Player.objects.select_related("club"), request.user), pk=pk)
    try:
        opponent, records = h2h.for_reader(player, request.user, request.GET.get("with"))
    except LookupError:
        raise Http404 from None
    return render(
        request,
        "pages/head_to_head.html",
        {
            "player": player,
            "opponent": opponent,
            "records": records if opponent else [],
            "overall": h2h.together(records) if opponent else None,
            "opponents": [] if opponent else records,
            # The page's player alone: an opponent may be one the public does not read.
            "link_preview": link_preview(
                request, player, _("Head to head – %(name)s") % {"name": player.shown_name}
            ),
        },
    )
