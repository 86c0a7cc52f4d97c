"""Packing: replaying a deal turn by turn (random legal deals: ``packing_random``).

The full-play record (docs/deal-records.md, "Packing full play") gives the five
cards dealt to each player, the three face-up table cards, the stock from the
top (or each turn's ``draw``) and every turn.  The turns go round ``players``
from the dealer's left (「ディーラーの左隣のプレイヤーから順に時計回りにプレイを
行います。」): from ``players[0]`` when the last of them deals.  A turn draws the
top card.  A
draw of a suit the table does not show goes to the table and ends the turn;
otherwise the player keeps it and may pack: one table card taken with hand
cards of its suit worth at least one point more, counting the special same-suit
pairs (55 54 53 52 44 43 42 33 32 22) from the hand.  After a pack the player
may steal, once per suit, other players' packs (partners' too) of a suit other
than the pack just made, with hand cards of that suit worth more than the stolen
packs' total (no special pairs on the stolen side); several packs of one owner
and one suit may be stolen at once.  When all four suits are on the table the
draw is kept secret and the player must pack if any pack is possible.  The deal
ends after the player who drew the last card has played.

Decisions: packs are named in steals by their index in the owner's list of
packs (in the order made; a stolen pack leaves the list).  A turn that cannot
pack with all four suits on the table simply ends (the hand is shown at the
table; the record needs nothing more).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, Suit
from engine.games.common import play_object
from engine.problems import Checker, gettext_noop, join

PLAY_VALUE = {"A": 20, "K": 10, "Q": 10, "J": 10}
SPECIAL_PAIRS = {
    ("5", "5"): 55, ("4", "5"): 54, ("3", "5"): 53, ("2", "5"): 52, ("4", "4"): 44,
    ("3", "4"): 43, ("2", "4"): 42, ("3", "3"): 33, ("2", "3"): 32, ("2", "2"): 22,
}  # fmt: skip
"""Same-suit pairs played from the hand, and what they are worth at that moment."""

HAND_SIZE = 5
TABLE_SIZE = 3
TURN_KEYS = frozenset({"player", "draw", "pack", "steals"})


def play_value(card: Card) -> int:
    """A card's value during play: A 20, K Q J 10, 10 to 2 face value."""
    return PLAY_VALUE.get(card.rank or "", 0) or int(card.rank or 0)


def hand_value(cards: Sequence[Card]) -> int:
    """The most that cards from the hand are worth, pairing them into special pairs."""
    small = sorted(c.rank for c in cards if c.rank in ("2", "3", "4", "5"))
    others = sum(play_value(c) for c in cards if c.rank not in ("2", "3", "4", "5"))
    return others + _best_pairs(tuple(small))


def _best_pairs(ranks: tuple[str, ...]) -> int:
    if not ranks:
        return 0
    first, rest = ranks[0], ranks[1:]
    best = int(first) + _best_pairs(rest)  # the first card alone
    for i, other in enumerate(rest):
        pair = SPECIAL_PAIRS.get(tuple(sorted((first, other))))  # type: ignore[arg-type]
        if pair:
            best = max(best, pair + _best_pairs(rest[:i] + rest[i + 1 :]))
    return best


@dataclass
class Table:
    """The state of a Packing deal in play."""

    hands: dict[str, Counter[str]]
    table: list[Card]
    stock: list[Card]
    packs: dict[str, list[list[Card]]] = field(default_factory=dict)

    def suits_on_table(self) -> set[Suit | None]:
        return {c.suit for c in self.table}

    def cards_in_hand(self, player: str) -> list[Card]:
        return [Card(code) for code in self.hands[player].elements()]


def can_pack(state: Table, player: str) -> bool:
    """Whether ``player`` has any pack: hand cards of a table card's suit worth more than it."""
    hand = state.cards_in_hand(player)
    return any(
        hand_value([c for c in hand if c.suit == t.suit]) > play_value(t) for t in state.table
    )


def count_cards(
    groups: list[tuple[str, list[Card]]],
    deck: Mapping[str, int],
    checker: Checker,
    whole: bool = False,
) -> None:
    """Packing's card count, of a summary's packs and of a full play's deal alike: no card
    more often than the one or two decks hold it, each copy too many named by its path in
    its group (``packs.N[0][1]``, ``stock[7]``); ``whole``: the groups (the hands, the
    table and the stock) are every card of the deck."""
    placed = [(join(path, i), c) for path, cards in groups for i, c in enumerate(cards)]
    checker.deck_counts(placed, deck)
    if whole and checker.ok and len(placed) != sum(deck.values()):
        checker.add(
            "incomplete_deck",
            "stock",
            gettext_noop("the hands, the table and the stock are not the whole deck"),
        )


# -- replay ------------------------------------------------------------------------------------


def replay_packing(
    record: Mapping[str, Any],
    players: list[str],
    deck: Mapping[str, int],
    checker: Checker,
    dealer: str,
) -> dict[str, list[list[Card]]] | None:
    """Replay a full-play Packing record dealt by ``dealer``; the players' packs at the
    end, or ``None``."""
    hands = checker.dealt_hands(record, players, HAND_SIZE)
    table = checker.cards(checker.require(record, "table"), "table")
    if table is not None and len(table) != TABLE_SIZE:
        checker.add(
            "wrong_card_count",
            "table",
            gettext_noop("the deal puts %(table_size)s cards face up, not %(n_table)s"),
            table_size=TABLE_SIZE,
            n_table=len(table),
        )
    stock = checker.cards(record["stock"], "stock") if "stock" in record else None
    turns = checker.typed(checker.require(record, "turns"), list, "turns")
    if hands is None or table is None or turns is None or not checker.ok:
        return None
    if stock is None:  # each turn names its draw
        stock = []
        for t, turn in enumerate(turns):
            draw = turn.get("draw") if isinstance(turn, dict) else None
            card = checker.card(draw, join(join("turns", t), "draw")) if draw is not None else None
            if card is None and draw is None:
                checker.add(
                    "missing_field",
                    join(join("turns", t), "draw"),
                    gettext_noop("without 'stock' each turn names its draw"),
                )
            if card is not None:
                stock.append(card)
        if not checker.ok:
            return None
    dealt = [(join("hands", p), hands[p]) for p in players] + [("table", table), ("stock", stock)]
    count_cards(dealt, deck, checker, whole="stock" in record)
    if not checker.ok:
        return None
    if len(turns) != len(stock):
        checker.add(
            "wrong_turn_count",
            "turns",
            gettext_noop("one turn per card of the stock: %(n_stock)s, not %(n_turns)s"),
            n_stock=len(stock),
            n_turns=len(turns),
        )
        return None

    state = Table(
        hands={p: Counter(c.code for c in hands[p]) for p in players},
        table=list(table),
        stock=list(stock),
        packs={p: [] for p in players},
    )
    first = players.index(dealer) + 1  # the dealer's left
    for t, turn in enumerate(turns):
        path = join("turns", t)
        who = players[(first + t) % len(players)]
        if not _turn(state, players, who, turn, path, checker):
            return None
    return state.packs


def _turn(
    state: Table, players: list[str], who: str, turn: Any, path: str, checker: Checker
) -> bool:
    raw = checker.typed(turn, dict, path)
    if raw is None:
        return False
    checker.known_keys(raw, TURN_KEYS, path)
    turn = play_object(raw, path, players, who, checker)  # the player whose turn it is
    if turn is None:
        return False
    drawn = state.stock.pop(0)
    if "draw" in turn:
        given = checker.card(turn["draw"], join(path, "draw"))
        if given is not None and given != drawn:
            checker.add(
                "wrong_draw",
                join(path, "draw"),
                gettext_noop("the top of the stock is %(code_)s, not %(code_2)s"),
                code_=drawn.code,
                code_2=given.code,
            )
            return False
    four_suits = len(state.suits_on_table() - {None}) == 4
    if drawn.suit not in state.suits_on_table():
        state.table.append(drawn)  # shown to all, and the turn ends
        for key in ("pack", "steals"):
            if key in turn:
                checker.add(
                    "not_applicable",
                    join(path, key),
                    gettext_noop("%(code_)s matches no table suit: it goes to the table"),
                    code_=drawn.code,
                )
        return checker.ok
    state.hands[who][drawn.code] += 1
    if "pack" not in turn:
        if four_suits and can_pack(state, who):
            checker.add(
                "must_pack",
                path,
                gettext_noop("all four suits are on the table: a pack is required"),
            )
        if "steals" in turn:
            checker.add(
                "not_applicable", join(path, "steals"), gettext_noop("a steal needs a pack first")
            )
        return checker.ok
    suit = _pack(state, who, turn["pack"], join(path, "pack"), checker)
    if suit is None:
        return False
    steals = checker.typed(turn.get("steals", []), list, join(path, "steals"))
    if steals is None:
        return False
    used: set[Suit | None] = {suit}
    for s, steal in enumerate(steals):
        if not _steal(state, players, who, steal, used, join(join(path, "steals"), s), checker):
            return False
    return checker.ok


def _take_from_hand(
    state: Table, who: str, raw: Any, path: str, checker: Checker
) -> list[Card] | None:
    cards = checker.cards(raw, path)
    if cards is None:
        return None
    if not cards:
        checker.add("wrong_card_count", path, gettext_noop("at least one card from the hand"))
        return None
    missing = Counter(c.code for c in cards) - state.hands[who]
    if missing:
        checker.add(
            "card_not_held",
            path,
            gettext_noop("%(who)s does not hold %(names)s"),
            who=who,
            names=", ".join(sorted(missing.elements())),
        )
        return None
    return cards


def _pack(state: Table, who: str, raw: Any, path: str, checker: Checker) -> Suit | None:
    raw = checker.typed(raw, dict, path)
    if raw is None:
        return None
    checker.known_keys(raw, {"table", "hand"}, path)
    taken = checker.card(checker.require(raw, "table", path), join(path, "table"))
    cards = _take_from_hand(
        state, who, checker.require(raw, "hand", path), join(path, "hand"), checker
    )
    if taken is None or cards is None:
        return None
    if taken not in state.table:
        checker.add(
            "not_on_table",
            join(path, "table"),
            gettext_noop("%(code_)s is not on the table"),
            code_=taken.code,
        )
        return None
    if any(c.suit != taken.suit for c in cards):
        checker.add(
            "mixed_suits",
            join(path, "hand"),
            gettext_noop("a pack on %(code_)s is made with %(suit)s cards"),
            code_=taken.code,
            suit=taken.suit,
        )
        return None
    if hand_value(cards) <= play_value(taken):
        checker.add(
            "pack_too_weak",
            join(path, "hand"),
            gettext_noop(
                "%(names)s is worth %(hand_value)s, not more than %(code_)s (%(play_value)s)"
            ),
            names=" ".join(c.code for c in cards),
            hand_value=hand_value(cards),
            code_=taken.code,
            play_value=play_value(taken),
        )
        return None
    state.table.remove(taken)
    for c in cards:
        state.hands[who][c.code] -= 1
    state.packs[who].append([taken, *cards])
    return taken.suit


def _steal(
    state: Table,
    players: list[str],
    who: str,
    raw: Any,
    used: set[Suit | None],
    path: str,
    checker: Checker,
) -> bool:
    raw = checker.typed(raw, dict, path)
    if raw is None:
        return False
    checker.known_keys(raw, {"from", "packs", "hand"}, path)
    victim = checker.player(checker.require(raw, "from", path), players, join(path, "from"))
    indexes = checker.typed(checker.require(raw, "packs", path), list, join(path, "packs"))
    cards = _take_from_hand(
        state, who, checker.require(raw, "hand", path), join(path, "hand"), checker
    )
    if victim is None or indexes is None or cards is None:
        return False
    if victim == who:
        checker.add(
            "own_pack", join(path, "from"), gettext_noop("a player steals other players' packs")
        )
        return False
    owned = state.packs[victim]
    if (
        not indexes
        or any(type(i) is not int or not 0 <= i < len(owned) for i in indexes)
        or len(set(indexes)) != len(indexes)
    ):
        checker.add(
            "no_such_pack",
            join(path, "packs"),
            gettext_noop("%(victim)s has packs 0 to %(number)s"),
            victim=victim,
            number=len(owned) - 1,
        )
        return False
    stolen = [owned[i] for i in indexes]
    suit = stolen[0][0].suit
    if any(p[0].suit != suit for p in stolen) or any(c.suit != suit for c in cards):
        checker.add(
            "mixed_suits",
            path,
            gettext_noop("a steal takes packs of one suit with cards of that suit"),
        )
        return False
    if suit in used:
        checker.add(
            "suit_used",
            path,
            gettext_noop("a %(suit)s pack was made or stolen this turn already"),
            suit=suit,
        )
        return False
    worth = sum(play_value(c) for p in stolen for c in p)
    if hand_value(cards) <= worth:
        checker.add(
            "steal_too_weak",
            join(path, "hand"),
            gettext_noop("%(names)s is worth %(hand_value)s, not more than the packs' %(worth)s"),
            names=" ".join(c.code for c in cards),
            hand_value=hand_value(cards),
            worth=worth,
        )
        return False
    used.add(suit)
    state.packs[victim] = [p for i, p in enumerate(owned) if i not in indexes]
    for c in cards:
        state.hands[who][c.code] -= 1
    state.packs[who].append([c for p in stolen for c in p] + cards)
    return True
