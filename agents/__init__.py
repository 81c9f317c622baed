"""Baseline bots for every game, all following :class:`pokerzoo.agents.base.Bot`."""

from .base import Bot, masked_random_choice

__all__ = ["Bot", "masked_random_choice"]
