"""Head to head (issue 41, 3): a player against everyone met at a table, and two players'
record per season and game (``scoring.head_to_head``), in the seasons the reader reads."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from scoring import head_to_head as h2h
from tournaments.access import visible
from tournaments.models import Player, Season
from tournaments.textfile import whole_number


@require_safe
def head_to_head(request: HttpRequest, pk: int) -> HttpResponse:
    """``/players/N/head-to-head/``: everyone the player met; ``?with=M``: the two of them."""
    user = request.user
    player = get_object_or_404(visible(Player.objects.select_related("club"), user), pk=pk)
    seasons = list(visible(Season.objects.filter(club=player.club_id), user))
    other = request.GET.get("with")
    opponent = None
    if other is not None:
        number = whole_number(other)
        club = visible(Player.objects.filter(club=player.club_id), user)
        opponent = club.filter(pk=number).first() if number else None
        if opponent is None or opponent.pk == player.pk:
            raise Http404
    return render(
        request,
        "pages/head_to_head.html",
        {
            "player": player,
            "opponent": opponent,
            "records": h2h.against(player, opponent, seasons) if opponent else [],
            "opponents": [] if opponent else h2h.opponents(player, seasons),
        },
    )
