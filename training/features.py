"""Observation features a run can add to a game's observation (config key ``features``).

A feature set is a batched function ``(N, D) observations -> (N, D') float32`` registered in the
game's :class:`~pokerzoo.training.games.GameSpec`. The run's config names it, so training (a
``FeatureVecEnv`` over the vector env, or a ``FeatureEnv`` inside each ``SubprocVecEnv``
worker), evaluation, snapshots and ``play`` all apply the same function before the policy sees
an observation. ``"raw"`` (the default) leaves the observation
as the env gives it. A function with a ``per_action = (offset, actions, k)`` attribute lays out
one row of ``k`` features per action, which ``ppo.policy: per_action``
(:mod:`pokerzoo.training.policies`) scores with one shared network.

Poker Squares ``"lines"``
-------------------------
The env's 522 entries plus, for each of the 25 cells, what the cell's row and column would hold
if the current card went there (Poker Squares is about lines: a flat MLP finds it hard to learn
from one-hot cards which cells share a line). Per cell, for its row then its column (7 each):

=====  ====================================================================================
0      cards in the line after the placement / 5
1      cards of the current card's rank in the line after / 4
2      cards of the current card's suit in the line after / 5
3      the line can still be a flush (all its cards share the current card's suit)
4      the line can still be a straight (distinct ranks inside one 5-rank window, ace low or high)
5      largest group of one rank after / 4
6      the line would be complete (5 cards)
=====  ====================================================================================

then 1 if the cell is empty: 25 x 15 = 375 extra entries, 897 in all. Jokers count as cards
of no rank and no suit (they keep flushes and straights alive).

Quintet ``"packs"``
-------------------
The env's 262 entries plus, for each of the 5 packs, the same 7 line features (what the pack
would hold with the current card; straights inside 7..A), the pack's points / 7 and 1 if it is
still open: 5 x 9 = 45 extra entries, 307 in all.

Quintet ``"plans"``
-------------------
Candidate rows for the deal and their modelled results: :mod:`pokerzoo.training.quintet_plans`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

__all__ = ["batched", "poker_squares_lines", "quintet_packs"]

_CELLS = 25
_CARD = 18
_CURRENT = 450
# Straight windows over rank indices 0 (deuce) .. 12 (ace); the wheel A-2-3-4-5 first.
_WINDOWS = np.zeros((10, 13), dtype=np.float32)
_WINDOWS[0, [12, 0, 1, 2, 3]] = 1
for _low in range(9):
    _WINDOWS[_low + 1, _low : _low + 5] = 1


def batched(
    features: Callable[[np.ndarray], np.ndarray],
) -> Callable[[np.ndarray], np.ndarray]:
    """Let a feature function of ``(N, D)`` float32 observations also take one ``(D,)``."""

    @functools.wraps(features)
    def wrapper(observations: np.ndarray) -> np.ndarray:
        obs = np.asarray(observations, dtype=np.float32)
        if obs.ndim == 1:
            return features(obs[None])[0]
        return features(obs)

    return wrapper


def _line_features(
    ranks: np.ndarray,
    suits: np.ndarray,
    jokers: np.ndarray,
    current: np.ndarray,
    windows: np.ndarray,
) -> np.ndarray:
    """Per line, what it would hold with the current card added: ``(N, L, 7)``.

    ``ranks (N, L, 13)``, ``suits (N, L, 4)`` and ``jokers (N, L)`` count the line's cards;
    ``current (N, 18)`` is the card to place (rank one-hot, suit one-hot, joker bit);
    ``windows (W, 13)`` are the straights' rank sets.
    """
    cur_rank, cur_suit, cur_joker = current[:, :13], current[:, 13:17], current[:, 17]
    suited = cur_suit.sum(axis=1) > 0
    ranks = ranks + cur_rank[:, None, :]
    size = ranks.sum(axis=2) + jokers + cur_joker[:, None]
    same_rank = (ranks * cur_rank[:, None, :]).sum(axis=2)
    same_suit = (suits * cur_suit[:, None, :]).sum(axis=2) + suited[:, None]
    # A flush stays possible while the line's cards (jokers aside) share one suit, the
    # current card's when it has one.
    flush_live = ((suits > 0).sum(axis=2) <= 1) & (
        (same_suit == suits.sum(axis=2) + suited[:, None]) | ~suited[:, None]
    )
    present = (ranks > 0).astype(np.float32)
    inside = np.einsum("nlr,wr->nlw", present, windows)
    straight_live = (ranks <= 1).all(axis=2) & (inside == present.sum(axis=2, keepdims=True)).any(
        axis=2
    )
    return np.stack(
        [
            size / 5,
            same_rank / 4,
            same_suit / 5,
            flush_live,
            straight_live,
            ranks.max(axis=2) / 4,
            size >= 5,
        ],
        axis=2,
    ).astype(np.float32)


@batched
def poker_squares_lines(observations: np.ndarray) -> np.ndarray:
    """The ``"lines"`` features of a batch of Poker Squares observations (see the docstring)."""
    obs = observations
    n = len(obs)
    grid = obs[:, : _CELLS * _CARD].reshape(n, 5, 5, _CARD)  # (N, row, col, card)
    current = obs[:, _CURRENT : _CURRENT + _CARD]
    lines = np.concatenate([grid, grid.transpose(0, 2, 1, 3)], axis=1)  # (N, 10, 5, card)
    counts = lines.sum(axis=2)  # (N, 10, 18): rank counts, suit counts, jokers
    features = _line_features(
        counts[:, :, :13], counts[:, :, 13:17], counts[:, :, 17], current, _WINDOWS
    )  # (N, 10, 7)
    cells = np.arange(_CELLS)
    empty = grid.reshape(n, _CELLS, _CARD).sum(axis=2) == 0
    per_cell = np.concatenate(
        [features[:, cells // 5], features[:, 5 + cells % 5], empty[:, :, None]], axis=2
    )  # (N, 25, 15)
    out = np.concatenate([obs, per_cell.reshape(n, -1)], axis=1)
    return out


# Where the per-cell rows lie, for ``ppo.policy: per_action``: (offset, actions, features each).
poker_squares_lines.per_action = (522, _CELLS, 15)  # type: ignore[attr-defined]


# Quintet: piquet card index c (0..31) is card id 20 + c, rank index 5 + c // 4 (7..A).
_Q_PACKS, _Q_DECK = 5, 32
_Q_RANKS = np.zeros((_Q_DECK, 13), dtype=np.float32)
_Q_RANKS[np.arange(_Q_DECK), 5 + np.arange(_Q_DECK) // 4] = 1
_Q_SUITS = np.zeros((_Q_DECK, 4), dtype=np.float32)
_Q_SUITS[np.arange(_Q_DECK), np.arange(_Q_DECK) % 4] = 1
# Straights inside 7..A only: J-T-9-8-7 up to A-K-Q-J-T.
_Q_WINDOWS = np.zeros((4, 13), dtype=np.float32)
for _low in range(4):
    _Q_WINDOWS[_low, 5 + _low : 10 + _low] = 1


@batched
def quintet_packs(observations: np.ndarray) -> np.ndarray:
    """The ``"packs"`` features of a batch of Quintet observations (see the docstring)."""
    obs = observations
    n = len(obs)
    packs = obs[:, 32:192].reshape(n, _Q_PACKS, _Q_DECK)
    current_index = obs[:, 192:224]
    current = np.concatenate(
        [current_index @ _Q_RANKS, current_index @ _Q_SUITS, np.zeros((n, 1), np.float32)],
        axis=1,
    )
    features = _line_features(
        packs @ _Q_RANKS,
        packs @ _Q_SUITS,
        np.zeros((n, _Q_PACKS), np.float32),
        current,
        _Q_WINDOWS,
    )  # (N, 5, 7)
    points = np.broadcast_to((3 + np.arange(_Q_PACKS, dtype=np.float32)) / 7, (n, _Q_PACKS))
    open_ = obs[:, 256:261] < 5
    per_pack = np.concatenate([features, points[:, :, None], open_[:, :, None]], axis=2)
    out = np.concatenate([obs, per_pack.reshape(n, -1)], axis=1)
    return out


quintet_packs.per_action = (262, _Q_PACKS, 9)  # type: ignore[attr-defined]
