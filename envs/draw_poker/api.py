"""Draw poker's scripted-evaluation API (RULES §6): score hands without a game.

Cards are one string (``"As Kd Jk"``), a list of strings or a list of card ids; each hand must be
five cards a two-deck pack with four jokers could hold (:class:`~pokerzoo.envs.core.cards.Deck`,
the most permissive pack of the game), else :class:`ValueError` names the bad card. Jokers are
always wild, deuces too with ``deuces_wild=True``. Hands are ranked by the ``"draw"`` ruleset of
:mod:`pokerzoo.envs.core.hands`: RULES §2's categories and suit tie-breaks.

>>> compare_hands("7h 5h 4h 3h 2h", "Ac Kc 9c 5c 3c")  # a flush: the suit first, hearts high
1
>>> compare_hands("Kd Ks 9h 5c 3d", "Kh Kc 9c 5s 3h")  # a pair: the highest odd card's suit
1
>>> hand_category("As Kd 9h 5c 3d"), hand_category("Jk 2s Ah Ad Ac", deuces_wild=True)
('ace-king', 'five of a kind')
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..core.cards import CardsLike, Deck
from ..core.hands import category_name, make_evaluator
from ..core.hands import hand_category as _category
from ..core.options import check_bool

__all__ = ["compare_hands", "hand_category"]

_PACK = Deck("standard", jokers=4, decks=2)


@cache
def _strength(deuces_wild: bool) -> Callable[[int, int, int, int, int], int]:
    """The scalar ``"draw"`` evaluator, built once per wild-card setting."""
    return make_evaluator("draw", deuces_wild=deuces_wild)


def compare_hands(a: CardsLike, b: CardsLike, *, deuces_wild: bool = False) -> int:
    """``1`` if hand ``a`` beats hand ``b``, ``0`` if they are equal (they split), else ``-1``."""
    deuces_wild = check_bool("deuces_wild", deuces_wild)
    first = _PACK.parse(a, count=5, what="first hand")
    second = _PACK.parse(b, count=5, what="second hand")
    strength = _strength(deuces_wild)
    key_a, key_b = strength(*first), strength(*second)
    return (key_a > key_b) - (key_a < key_b)


def hand_category(cards: CardsLike, *, deuces_wild: bool = False) -> str:
    """The hand's category name: ``"five of a kind"``, ``"royal flush"``, ..., ``"pair"``,
    ``"ace-king"``, ``"nothing"``."""
    deuces_wild = check_bool("deuces_wild", deuces_wild)
    ids = _PACK.parse(cards, count=5, what="hand")
    return category_name(_category(ids, "draw", deuces_wild=deuces_wild), "draw")
