"""Test-wide set-up: the toy game of ``tests/toy_game`` joins the game registry through the
public path a plugin uses (``pokerzoo.envs.register_game``), so every registry-wide test (the
conformance suite, the CLI) covers it like a shipped game."""

from __future__ import annotations

from pokerzoo.envs import register_game

from tests.toy_game.spec import SPEC

register_game(SPEC)
