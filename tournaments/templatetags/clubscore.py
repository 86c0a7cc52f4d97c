"""Template filters: game names keep their Japanese names with an English gloss."""

from django import template

register = template.Library()

GAME_LABELS = {
    "napoleon": "ナポレオン Napoleon",
    "rettler": "レットラー Rettler",
    "comp13": "コンプ・イチサン Comp-13",
    "packing": "パッキング Packing",
    "twentytwo": "22 Twenty-Two",
    "1234": "1234 ヌン・ソーン・サーム・シィー",
    "bhabhi": "バビ Bhabhi",
    "comrade": "カムレッド Comrade",
}


@register.filter
def game_label(name: str) -> str:
    return GAME_LABELS.get(name, name)
