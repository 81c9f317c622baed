"""Multi-player Poker Squares (RULES §3) for PettingZoo: ``env()`` / :class:`raw_env` (AEC) and
``parallel_env()``. Every player places the same announced card on their own grid.

==================  ==========================================================================
Agents              ``player_0`` .. ``player_{n-1}``, ``num_players`` = 2..8 (default 2)
Action space        ``Discrete(25)``: the cell on the agent's own grid, row-major
Observation space   ``Dict({"observation": Box(0, high, (522,), float32), "action_mask":
                    Box(0, 1, (25,), int8)})``; ``"observation"`` is exactly the single env's
                    522-entry vector for the agent's own grid (table below)
Action mask         the legal cells of the agent's grid (AEC: zeros for agents not on turn),
                    in the observation only
Rewards             ``reward="final"`` (default): at each round's end, the agent's own round
                    score; ``"incremental"``: each placement earns the points of the lines it
                    completes (same totals); ``"margin"``: at each round's end, own round score
                    minus the mean round score of the other players (zero-sum)
Episode             ``rounds * 25`` placements per agent; all agents terminate together
Infos               the same keys, types and shapes at every step from reset on (table
                    below), numpy scalars and arrays: the agent's own results of the last
                    finished round and of the game so far (neutral until a round ends)
State               ``state()``: the whole table (every grid, the round's cards in order, the
                    scores) as ``float32`` (``state_space``; table below)
==================  ==========================================================================

Observation (``"observation"``):

{observation_table}

Info (every agent, every step; ``masked_action`` only with ``masked_action="random"``):

{info_table}

State (``state()``), for the default options (2 players, American scoring, one round); the
per-seat fields hold one entry (or one block) per seat:

{state_table}

Options: ``num_players`` (2..8), ``rounds`` (1.., default 1), ``reward``, the single env's
``scoring``, ``jokers``, ``placement``, ``variant``, ``render_mode`` (``"ansi"`` / ``"human"``:
every grid) and ``masked_action`` (``"raise"``, default, or ``"random"``: see
:mod:`pokerzoo.envs.core.pettingzoo_env`). ``reset(seed=s)`` seeds the deals (round 1 deals
exactly what the single env deals for the same seed); ``reset(options={"cards": ...})`` fixes
the first round's 25 cards, in dealing order. An illegal cell raises
:class:`~pokerzoo.envs.core.errors.IllegalActionError` naming the agent and the cell and changes
nothing; stepping a finished game raises :class:`~pokerzoo.envs.core.errors.GameOverError`.

AEC: for each card, ``player_0`` .. ``player_{n-1}`` place it in turn; the rewards of a round's
end arrive on the last player's placement. Parallel: every agent places the announced card in
the same step.

Standard checkers: with ``placement="adjacent"`` most cells are masked, and Gymnasium's
``check_env`` and PettingZoo's ``parallel_seed_test`` sample actions without masks; create the
env with ``masked_action="random"`` to run them (the conformance tests do).

Version history:

- v0: initial version.
- v0, infos: every agent's info holds the keys of the info table from the first step, numbers
  only (was: at a round's end ``"score"`` and ``"grid"`` as 25 card strings, at the game's end
  ``"total"`` and ``"won"``, absent before); ``"grid"`` holds card ids.
- v0, state: ``state()`` and ``state_space`` (the state table).
- v0, observations: ``float32`` (was ``uint8``), the same values.
- v0, infos: infos no longer repeat the action mask, which stays in the observation
  (``observe(agent)["action_mask"]``, the parallel env's ``observations[agent]["action_mask"]``);
  scalars are numpy scalars (``np.int64``, ``np.bool_``; ``masked_action`` too).
- v0, names: the engine class is ``PokerSquaresGame``, as in every game (was
  ``PokerSquaresTable``); the one-grid rules are ``PokerSquaresRules`` (was ``PokerSquaresGame``).
"""

from __future__ import annotations

from ..core.build import env_factory, module_aec_env, module_parallel_env, parallel_env_factory
from .game import PokerSquaresGame
from .spec import SPEC

__all__ = ["PokerSquaresParallelEnv", "env", "parallel_env", "raw_env"]

raw_env = module_aec_env(
    __name__,
    SPEC,
    PokerSquaresGame,
    doc="""AEC API: for each card, ``player_0`` .. ``player_{n-1}`` place it in turn (see the module
    docstring for the options).""",
)
PokerSquaresParallelEnv = module_parallel_env(
    __name__,
    SPEC,
    PokerSquaresGame,
    "PokerSquaresParallelEnv",
    """Parallel API: every agent places the announced card in the same step (see the module
    docstring).""",
)
env = env_factory(raw_env)
parallel_env = parallel_env_factory(
    PokerSquaresParallelEnv,
    "The native parallel env: ``parallel_env(num_players=2..8, rounds=1.., **options)``.",
)
