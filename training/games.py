"""The games that ``pokerzoo`` can train on: how to build each one's envs, bots and evaluation.

Each game is a :class:`GameSpec` in :data:`GAMES` (``register_game`` adds one). A one-player
game gives ``make_env(**options)`` (a Gymnasium env with ``action_masks()`` and a final
``info[score_key]``); a game of several players gives ``make_aec(**options)`` (a PettingZoo AEC
env with ``{"observation", "action_mask"}`` observations), which training wraps in
:class:`~pokerzoo.training.single_agent.SingleAgentView`. Env and bot modules are imported only
when a game is used, and nothing here imports torch, so ``pokerzoo list`` stays fast.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GAMES", "GameSpec", "get_game", "register_game"]


def _attr(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class GameSpec:
    """How the training machinery builds and judges one game."""

    name: str
    """Name on the command line (``pokerzoo train NAME``)."""
    title: str
    players: int
    """1 for a one-player game (scored against the bots on the same deals), else >= 2."""
    summary: str
    options: Mapping[str, str]
    """Option name -> one-line help (values and default), for ``pokerzoo list``."""
    bots_path: str
    """``module:BOTS`` of the game's bot registry (name -> class built as
    ``Cls(seed=..., **env_options)``)."""
    env_path: str | None = None
    """``module:Class`` of the one-player Gymnasium env."""
    aec_path: str | None = None
    """``module:env`` of the PettingZoo AEC factory (several players)."""
    vector_path: str | None = None
    """``module:Class`` of a native Gymnasium vector env (``Cls(num_envs, **options)``)."""
    env_id: str | None = None
    """Gymnasium id of the one-player env (what the SB3 adapter builds its vector env from)."""
    sb3_vector_path: str | None = None
    """``module:function`` building an SB3 VecEnv from the native vector env, called as
    ``f(env_id, num_envs, **options)``."""
    eval_options: Mapping[str, Any] = field(default_factory=dict)
    """Options forced when evaluating (e.g. a reward that is the game's points)."""
    score_key: str = "score"
    """``info`` key holding a one-player game's final score."""
    points_key: str | None = None
    """Games of several players: terminal ``info`` key holding ``{agent: points}``; the
    evaluation's margins and wins use it (else each seat's summed rewards)."""
    features: Mapping[str, str] = field(default_factory=dict)
    """Feature set name -> ``module:function`` (batched observations -> float32 features);
    ``"raw"`` (no function) is always available."""
    win_threshold: Callable[[Mapping[str, Any]], float | None] = lambda options: None
    """Score counted as "a win" for a one-player game under the given options."""

    # --- builders (lazy imports) --------------------------------------------------------------

    @property
    def bots(self) -> Mapping[str, type]:
        return _attr(self.bots_path)

    def make_bot(self, name: str, seed: int | None = None, **options: Any) -> Any:
        bots = self.bots
        if name not in bots:
            raise ValueError(f"unknown bot {name!r} for {self.name}: expected one of {list(bots)}")
        return bots[name](seed=seed, **options)

    def make_env(self, **options: Any) -> Any:
        if self.env_path is None:
            raise ValueError(f"{self.name} has no one-player env")
        return _attr(self.env_path)(**options)

    def make_aec(self, **options: Any) -> Any:
        if self.aec_path is None:
            raise ValueError(f"{self.name} has no PettingZoo env")
        return _attr(self.aec_path)(**options)

    def make_vector_env(self, num_envs: int, **options: Any) -> Any:
        if self.vector_path is None:
            raise ValueError(f"{self.name} has no native vector env")
        return _attr(self.vector_path)(num_envs, **options)

    def make_sb3_vector_env(self, num_envs: int, **options: Any) -> Any:
        if self.sb3_vector_path is None:
            raise ValueError(f"{self.name} has no native vector env for SB3")
        return _attr(self.sb3_vector_path)(self.env_id, num_envs, **options)

    def feature_fn(self, name: str) -> Callable[[Any], Any] | None:
        """The feature function of set ``name`` (None for ``"raw"``)."""
        if name == "raw":
            return None
        if name not in self.features:
            known = ", ".join(["raw", *self.features])
            raise ValueError(f"unknown features {name!r} for {self.name}: expected one of {known}")
        return _attr(self.features[name])

    @property
    def has_native_vector(self) -> bool:
        return self.sb3_vector_path is not None

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Build the env once so a bad option raises the env's own error naming it."""
        env = self.make_env(**options) if self.players == 1 else self.make_aec(**options)
        env.close()


def _poker_squares_threshold(options: Mapping[str, Any]) -> float | None:
    # RULES §3: 100 American / 70 English for the deal variant, 200 American for Poker Shuffle.
    scoring = options.get("scoring", "american")
    variant = options.get("variant", "deal")
    if variant == "shuffle":
        return 200.0 if scoring == "american" else None
    return {"american": 100.0, "english": 70.0}.get(scoring) if isinstance(scoring, str) else None


GAMES: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> None:
    """Add (or replace) a game in the registry."""
    GAMES[spec.name] = spec


def get_game(name: str) -> GameSpec:
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}: expected one of {sorted(GAMES)}")
    return GAMES[name]


register_game(
    GameSpec(
        name="poker_squares",
        title="Poker Squares",
        players=1,
        summary="place 25 cards on a 5x5 grid; rows and columns score as poker hands",
        options={
            "scoring": '"american" (default) | "english" | {hand name: points}',
            "jokers": "0 (default) .. 2, wild",
            "placement": '"free" (default) | "adjacent"',
            "variant": '"deal" (default, one card at a time) | "shuffle" (all 25 known)',
            "reward": '"final" (default) | "incremental" (points of each completed line)',
        },
        bots_path="pokerzoo.agents.poker_squares:BOTS",
        env_path="pokerzoo.envs.poker_squares_env:PokerSquaresEnv",
        vector_path="pokerzoo.envs.poker_squares_vector:PokerSquaresVectorEnv",
        env_id="pokerzoo/PokerSquares-v0",
        sb3_vector_path="pokerzoo.training.sb3_vec_env:make_sb3_vec_env",
        features={"lines": "pokerzoo.training.features:poker_squares_lines"},
        win_threshold=_poker_squares_threshold,
    )
)

register_game(
    GameSpec(
        name="quintet",
        title="Quintet",
        players=2,
        summary="two players split the same 25 cards into five packs; packs meet position by "
        "position",
        options={
            "reward": '"points" (default: own points minus the other\'s) | "win" (+1/0/-1)',
        },
        bots_path="pokerzoo.agents.quintet:BOTS",
        aec_path="pokerzoo.envs.quintet_v0:env",
        eval_options={"reward": "points"},
        points_key="points",
        features={
            "packs": "pokerzoo.training.features:quintet_packs",
            "plans": "pokerzoo.training.quintet_plans:quintet_plans",
        },
    )
)
