"""Quintet (RULES §1) for PettingZoo: ``env()`` / :class:`raw_env` (AEC) and ``parallel_env()``.

Two players arrange the same 25 piquet cards into five ordered packs without seeing each other's;
packs are compared position by position for 3, 4, 5, 6, 7 points. The engine is
:class:`pokerzoo.envs.quintet.game.QuintetGame`; these classes only name it.

=====================  =========================================================================
Agents                 ``"player_0"``, ``"player_1"`` (the game is symmetric)
Action space           ``Discrete(5)``: the pack that receives the current card; pack ``p`` lies
                       at position ``p + 1`` and is worth ``3 + p`` points. A full pack is masked
                       off; playing it raises :class:`~pokerzoo.envs.core.errors.IllegalActionError`
                       and leaves the game unchanged.
Observation space      ``Dict("observation": Box(0, high, (262,), float32),
                       "action_mask": Box(0, 1, (5,), int8))``; the index table is below. A
                       player sees the 25 cards, its own packs so far and the card to place;
                       never the other's packs.
Placement order        fixed: descending card id (aces first; within a rank c, d, h, s), one card
                       per round, the same card for both players.
Rewards                at the end only. ``reward="points"`` (default): own points minus the
                       other's (zero-sum, -25..25); ``reward="win"``: +1 / 0 / -1.
Info                   the same keys, types and shapes at every step from reset on (table
                       below), numpy scalars and arrays: the points, the winner, each
                       position's result and both rows, neutral (-1, zeros) until the end. The
                       action mask is in the observation only.
State                  ``state()``: the whole deal, both rows included, ``Box(-1, high, (437,),
                       float32)`` (``state_space``; table below), for centralised critics.
Options                ``reward="points" | "win"``, ``render_mode=None | "ansi" | "human"``,
                       ``masked_action="raise" | "random"`` (see
                       :mod:`pokerzoo.envs.core.pettingzoo_env`).
Reset options          ``{"cards": ...}``: the 25 cards in play (any order) instead of a deal.
Render                 ``"ansi"``: a spectator's text view of both rows (and the score at the end).
Version history        below
=====================  =========================================================================

Observation (``"observation"``):

{observation_table}

Info (every agent, every step; ``masked_action`` only with ``masked_action="random"``):

{info_table}

State (``state()``):

{state_table}

Version history:

- v0: initial.
- v0, infos: every agent's info holds the keys of the info table from the first step, numbers
  only (was: at the end only, ``"arrangements"`` as pack strings by agent name, ``"points"`` by
  agent name, ``"winner"`` an agent name or ``None``).
- v0, state: ``state()`` and ``state_space`` (the state table).
- v0, observations: ``float32`` (was ``uint8``), the same values.
- v0, infos: infos no longer repeat the action mask, which stays in the observation
  (``observe(agent)["action_mask"]``, the parallel env's ``observations[agent]["action_mask"]``);
  scalars are numpy scalars (``np.int64``; ``masked_action`` too).

AEC: in each round ``player_0`` places the card, then ``player_1`` places the same card without
seeing where ``player_0`` put it (the observation holds only one's own packs), so the turn order
carries no information: the game stays simultaneous. The agent not on turn gets an all-zero mask.
The mask is in the observation only (``observe(agent)["action_mask"]``), not in the infos.

Parallel: both agents act every step (25 steps). Both actions are checked before either is applied;
an illegal or missing action raises and changes nothing. Stepping a finished game raises
:class:`~pokerzoo.envs.core.errors.GameOverError`.

>>> env = parallel_env()
>>> obs, infos = env.reset(seed=1)
>>> while env.agents:
...     actions = {a: int(obs[a]["action_mask"].argmax()) for a in env.agents}
...     obs, rewards, terms, truncs, infos = env.step(actions)
>>> rewards
{'player_0': 0.0, 'player_1': 0.0}
"""

from __future__ import annotations

from ..core.build import env_factory, module_aec_env, module_parallel_env, parallel_env_factory
from .game import QuintetGame
from .spec import SPEC

__all__ = ["env", "parallel_env", "raw_env", "raw_parallel_env"]

raw_env = module_aec_env(
    __name__,
    SPEC,
    QuintetGame,
    doc="""Quintet, turn-based: player_0 then player_1 place each card (see the module docstring).

    Options: ``reward="points" | "win"``, ``render_mode``, ``masked_action``.
    """,
)
raw_parallel_env = module_parallel_env(
    __name__,
    SPEC,
    QuintetGame,
    "raw_parallel_env",
    "Quintet, simultaneous: both players place the current card every step.",
)
env = env_factory(
    raw_env,
    """The AEC env in PettingZoo's order-enforcing wrapper.

    Illegal actions raise (they are not turned into a penalty), so PettingZoo's
    ``TerminateIllegalWrapper`` is deliberately not applied.
    """,
)
parallel_env = parallel_env_factory(
    raw_parallel_env, "The parallel env (both players act every step)."
)
