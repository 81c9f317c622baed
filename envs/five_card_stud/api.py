"""The scripted-evaluation API of five-card stud (RULES §6): score hands without an env.

Every function takes five cards as one string (``"As Kd Jk"``), a list of strings or a list
of ids, checked against the most permissive stud pack (52 cards and one joker), and raises
``ValueError`` naming a bad or duplicate card. Jokers are always wild; ``deuces_wild=True``
makes deuces wild too. Comparisons return ``1`` (the first hand is better), ``0`` or ``-1``.

>>> compare_hands("As Ah Ad 2c 2d", "Ks Kh Kd Kc 3s", deuces_wild=True)  # five aces
1
>>> compare_low("5s 4h 3d 2c Ah", "6s 4h 3d 2c Ah")
1
>>> qualifies_low("9s 4h 3d 2c Ah", 8)
False
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..core import hands
from ..core.cards import CardsLike, Deck
from ..core.options import check_bool

__all__ = ["compare_hands", "compare_low", "qualifies_low"]

_PACK = Deck(jokers=1)


@cache
def _evaluator(ruleset: hands.Ruleset, deuces_wild: bool) -> Callable[..., int]:
    return hands.make_evaluator(ruleset, deuces_wild=deuces_wild)


def _key(cards: CardsLike, what: str, ruleset: hands.Ruleset, deuces_wild: bool) -> int:
    ids = _PACK.parse(cards, count=5, what=what)
    return _evaluator(ruleset, check_bool("deuces_wild", deuces_wild))(*ids)


def compare_hands(a: CardsLike, b: CardsLike, *, deuces_wild: bool = False) -> int:
    """Compare two high hands (standard ranking, no suit priority, five of a kind on top)."""
    ka = _key(a, "first hand", "standard", deuces_wild)
    kb = _key(b, "second hand", "standard", deuces_wild)
    return (ka > kb) - (ka < kb)


def compare_low(a: CardsLike, b: CardsLike, *, deuces_wild: bool = False) -> int:
    """Compare two ace-to-five lows: ``1`` when ``a`` is the better (lower) low.

    Aces are low, straights and flushes do not count, 5-4-3-2-A is the best; no qualifier
    applies here (see :func:`qualifies_low`).
    """
    ka = _key(a, "first hand", "low", deuces_wild)
    kb = _key(b, "second hand", "low", deuces_wild)
    return (ka > kb) - (ka < kb)


def qualifies_low(cards: CardsLike, qualifier: int | None, *, deuces_wild: bool = False) -> bool:
    """Whether the hand's best low qualifies: five different ranks, none above ``qualifier``
    (ace 1 .. king 13; ``8`` is eight-or-better, ``None`` accepts every hand)."""
    key = _key(cards, "hand", "low", deuces_wild)
    return bool(hands.qualifies_low(key, qualifier))
