"""The toy game's training hooks: no feature sets; ``play`` reads a card's position."""

from __future__ import annotations

from pokerzoo.training.hooks import TrainingHooks

HOOKS = TrainingHooks(prompt="card position (0-4)", play_bot="greedy")
