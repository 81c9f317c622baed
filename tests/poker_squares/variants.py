"""Every combination of the Poker Squares options that change the play, for the tests that run
the bots and random play through all of them."""

from __future__ import annotations

import itertools

VARIANTS = list(
    itertools.product(
        ["american", "english", {"pair": 1, "straight": 4}, {"pair": 3, "straight": 8}],
        [0, 1, 2],
        ["free", "adjacent"],
        ["deal", "shuffle"],
    )
)
"""``(scoring, jokers, placement, variant)``: both scoring tables and two custom ones."""
VARIANT_NAMES = ("scoring", "jokers", "placement", "variant")
