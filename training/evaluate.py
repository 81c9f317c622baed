"""Evaluation of a trained agent against every baseline bot of its game.

One-player games (Poker Squares): the agent and each bot play the *same deals* (deal ``i`` is
the env reset with ``seed + i``, the bot reset with the same seed). Reported: the agent's and
each bot's mean score, the share of games reaching the game's win threshold, and per bot the
agent's win/draw/loss rate on the same deal and the mean score difference.

Games of several players (Quintet): duplicate deals. Each deal is played once per seat of the
learner (seats rotated on the same cards, the bots at the other seats reset with the same seed),
so the luck of the cards cancels out. Reported per bot: win/draw/loss rate (Wilson intervals on
the games) and mean point margin (learner's points minus the best opponent's; its interval is
over deals). Where the seats play blind (Quintet: neither sees the other's packs), each player
lays out each deal once and every game is scored from the two players' moves
(:func:`play_pairs`): the same games, without playing each pairing card by card.

The agent acts through ``MaskablePPO.predict(obs, action_masks=mask, deterministic=True)``,
batched over many games in flight (or, given as ``player``, a
:class:`~pokerzoo.training.opponents.SampledPolicyBot` samples its actions from the policy's
probabilities, :func:`model_probabilities`, each game with its own seeded generator); the bots
of the games in flight that are to act at the same moment are asked in one batch
(:func:`~pokerzoo.envs.core.bots.act_batch`: a Monte-Carlo bot evaluates all its games' samples
together), each deciding as it would alone. Duplicate deals can be split across forked worker
processes (``processes``; each worker runs one torch thread): every deal's result depends only
on its seed, so the tables are the same whatever the count.
All intervals are 95% (:mod:`pokerzoo.training.stats`). How a game is scored comes from its
registry entry (:class:`~pokerzoo.envs.core.registry.Scoring`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..envs.core.bots import Bot
from ..envs.core.options import check_int
from ..envs.core.registry import GameSpec
from ..envs.core.turns import Turns, play_batched
from .forking import CHUNK_GAMES, deal_chunks, fork_map
from .stats import Estimate, mean_ci, rate_ci

__all__ = [
    "BotMaker",
    "bot_maker",
    "Contender",
    "DuplicateDeals",
    "Evaluation",
    "OpponentResult",
    "PIECE_DEALS",
    "Policy",
    "evaluate_agent",
    "evaluate_contenders",
    "make_tables",
    "play_pairs",
    "Probabilities",
    "model_policy",
    "model_probabilities",
    "play_bot_single",
    "play_duplicate",
    "play_duplicate_forked",
    "play_policy_single",
]

Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Batched policy: observations (K, ...) and bool masks (K, A) -> actions (K,)."""
Probabilities = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Batched action probabilities: observations (K, ...) and bool masks (K, A) -> the probability
of each action (K, A), 0 where the mask forbids it."""
BotMaker = Callable[[int], Bot]
"""A player built per game: ``make(seed) -> Bot`` (a bot of the game seeded for that game, or a
trained policy as a :class:`~pokerzoo.training.opponents.PolicyBot`)."""
PIECE_DEALS = 256
"""Deals :func:`evaluate_contenders` plays every contender against every bot on before the next
ones: what a bot or a feature set keeps of a deal (the draw poker equity bot's simulations,
:data:`pokerzoo.agents.draw_poker._SIMULATIONS`, a few thousand for 256 heads-up deals) is still
there when the next contender meets the same deal, however many deals the evaluation plays."""


def model_policy(model: Any, transform: Callable[[np.ndarray], np.ndarray] | None = None) -> Policy:
    """The deterministic masked policy of a MaskablePPO model, batched; ``transform`` is the
    run's feature function (None: raw observations)."""

    most_probable = _most_probable(model)

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if transform is not None:
            observations = transform(observations)
        masks = np.asarray(masks, dtype=bool)
        if most_probable is not None:
            return most_probable(observations, masks)
        actions, _ = model.predict(observations, action_masks=masks, deterministic=True)
        return np.asarray(actions).reshape(len(observations))

    return policy


def _most_probable(model: Any) -> Policy | None:
    """``model.predict(..., deterministic=True)``'s actions by a lean forward pass, where its
    policy has one; None: ``predict``. The pass is in numpy where
    :class:`~pokerzoo.training.numpy_actor.NumpyActor` mirrors the policy's layers (the same
    actions wherever the best two legal logits are further apart than rounding), else torch's
    (:meth:`~pokerzoo.training.masked_sampling.MaskablePolicy.most_probable`, the same actions
    to the bit)."""
    from .masked_sampling import MaskablePolicy  # a model is loaded: torch is imported already
    from .numpy_actor import NumpyActor

    policy = getattr(model, "policy", None)
    if not isinstance(policy, MaskablePolicy):
        return None
    from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution

    if not isinstance(policy.action_dist, MaskableCategoricalDistribution):
        return None
    actor = NumpyActor.of(policy)
    return policy.most_probable if actor is None else actor


def model_probabilities(
    model: Any, transform: Callable[[np.ndarray], np.ndarray] | None = None
) -> Probabilities:
    """The masked action probabilities of a MaskablePPO model, batched (``float64``; the action
    :func:`model_policy` takes is the most probable); ``transform`` as :func:`model_policy`'s."""
    import torch

    def probabilities(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if transform is not None:
            observations = transform(observations)
        model.policy.set_training_mode(False)
        tensor, _ = model.policy.obs_to_tensor(observations)
        with torch.no_grad():
            distribution = model.policy.get_distribution(
                tensor, action_masks=np.asarray(masks, dtype=bool)
            )
        chances = distribution.distribution.probs.cpu().numpy().astype(np.float64)
        return chances.reshape(len(observations), -1)

    return probabilities


@dataclass
class OpponentResult:
    """The agent against one bot."""

    name: str
    games: int
    win: Estimate
    draw: Estimate
    loss: Estimate
    margin: Estimate
    """Agent's result minus the bots' mean result at the same table, per deal (two players:
    minus the bot's)."""
    bot_mean: Estimate | None = None
    """The bot's own mean result: one-player games, its score on the same deals; games of
    several players, the bots' mean result per game at the agent's table."""
    agent_mean: Estimate | None = None
    """Games of several players: the agent's own mean result per game against this bot (in the
    game's unit: chips per hand, points, a game's score)."""
    bot_threshold: Estimate | None = None
    """One-player games: the bot's share of games reaching the win threshold."""
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "games": self.games, "seconds": self.seconds}
        for key in ("win", "draw", "loss", "margin", "bot_mean", "agent_mean", "bot_threshold"):
            value = getattr(self, key)
            out[key] = value.as_dict() if value is not None else None
        return out


@dataclass
class Evaluation:
    """Everything one evaluation measured."""

    game: str
    players: int
    episodes: int
    """Deals per bot."""
    seed: int
    options: dict[str, Any]
    unit: str = "point"
    """What a game's result counts (its registry entry's ``Scoring.unit``)."""
    agent_mean: Estimate | None = None
    """One-player games: the agent's mean score."""
    agent_threshold: Estimate | None = None
    threshold: float | None = None
    opponents: dict[str, OpponentResult] = field(default_factory=dict)
    seconds: float = 0.0
    player: str = "agent"
    """Who played: ``"agent"``, or a hand-written rule and its thresholds."""
    rules: dict[str, Evaluation] = field(default_factory=dict)
    """Hand-written rules over the agent's features (:mod:`pokerzoo.training.rules`), each
    evaluated on the same deals and seeds."""
    variants: dict[str, Evaluation] = field(default_factory=dict)
    """The same agent played another way (a ``td`` agent without its look-ahead), on the same
    deals and seeds."""
    agent_seconds: float = 0.0
    """One-player games: seconds the agent took to play its deals."""
    processes: int = 1
    """Worker processes the duplicate deals were split across."""
    lbr: dict[str, Any] = field(default_factory=dict)
    """Player name -> the local best response's result against it
    (:class:`~pokerzoo.training.lbr.LBRResult`; ``pokerzoo evaluate --lbr``)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "game": self.game,
            "players": self.players,
            "episodes": self.episodes,
            "seed": self.seed,
            "options": self.options,
            "unit": self.unit,
            "agent_mean": self.agent_mean.as_dict() if self.agent_mean else None,
            "agent_threshold": self.agent_threshold.as_dict() if self.agent_threshold else None,
            "threshold": self.threshold,
            "opponents": {k: v.as_dict() for k, v in self.opponents.items()},
            "seconds": self.seconds,
            "rules": {k: v.as_dict() for k, v in self.rules.items()},
            "variants": {k: v.as_dict() for k, v in self.variants.items()},
            "agent_seconds": self.agent_seconds,
            "processes": self.processes,
            "lbr": {k: v.as_dict() for k, v in self.lbr.items()},
        }


def evaluate_agent(
    spec: GameSpec,
    policy: Policy | None,
    options: Mapping[str, Any],
    episodes: int,
    opponents: Sequence[str] | None = None,
    seed: int = 1_000_000,
    batch: int = 256,
    bot_cache: dict[tuple[str, int, int], np.ndarray] | None = None,
    processes: int = 1,
    *,
    player: BotMaker | None = None,
) -> Evaluation:
    """Evaluate ``policy`` on ``episodes`` deals against each bot named in ``opponents``
    (default: every bot of the game). ``bot_cache`` keeps one-player bot scores between calls
    (periodic evaluation replays the same deals). ``processes`` > 1 splits a game of several
    players' duplicate deals across that many forked worker processes (same results; one-player
    games play their deals batched in this process). ``player`` (``policy`` ``None``; games of
    several players) plays the agent's seat as a player made per game, seeded by the deal (a
    :class:`~pokerzoo.training.opponents.SampledPolicyBot`)."""
    started = time.perf_counter()
    check_int("episodes", episodes, 1)
    check_int("processes", processes, 1)
    if (policy is None) == (player is None):
        raise ValueError("evaluate_agent takes a policy or a player, not both or neither")
    options = {**options, **spec.scoring.eval_options}
    names = _bot_names(spec, opponents)
    result = Evaluation(spec.name, spec.players, episodes, seed, dict(options), spec.scoring.unit)
    if spec.players == 1:
        if policy is None:
            raise ValueError(
                f"bad player for {spec.name}: a player made per game plays games of several "
                "players; give a one-player game's agent as a policy"
            )
        processes = 1
        _evaluate_single(spec, policy, options, episodes, names, seed, batch, result, bot_cache)
    else:
        played = evaluate_contenders(
            spec,
            {"agent": Contender(policy, player)},
            options,
            episodes,
            names,
            seed,
            batch,
            processes,
        )
        result = played["agent"]
    result.processes = processes
    result.seconds = time.perf_counter() - started
    return result


def _bot_names(spec: GameSpec, opponents: Sequence[str] | None) -> list[str]:
    """The bots named in ``opponents`` (default: every bot of the game), each checked."""
    bots = spec.bot_classes
    names = list(bots) if opponents is None else list(opponents)
    for name in names:
        if name not in bots:
            raise ValueError(f"unknown bot {name!r} for {spec.name}: expected one of {list(bots)}")
    return names


@dataclass(frozen=True)
class Contender:
    """What takes the agent's seat in :func:`evaluate_contenders`: a batched ``policy`` (the
    agent, a rule over its features) or a ``player`` made per game, seeded by the deal (a
    :class:`~pokerzoo.training.opponents.SampledPolicyBot`)."""

    policy: Policy | None = None
    player: BotMaker | None = None

    def __post_init__(self) -> None:
        if (self.policy is None) == (self.player is None):
            raise ValueError("a contender is a policy or a player, not both or neither")


def evaluate_contenders(
    spec: GameSpec,
    contenders: Mapping[str, Contender],
    options: Mapping[str, Any],
    episodes: int,
    opponents: Sequence[str] | None = None,
    seed: int = 1_000_000,
    batch: int = 256,
    processes: int = 1,
) -> dict[str, Evaluation]:
    """Each contender (a game of several players) against each bot named in ``opponents``
    (default: every bot of the game) on the same ``episodes`` duplicate deals, as
    :func:`evaluate_agent` plays one, all in one pass (:func:`play_pairs`: chunks of deals
    shared among ``processes`` forked workers, each played by every contender against every
    bot; in Quintet each contender and each bot plays a deal once). Each result's ``seconds``
    is the time spent playing that bot, summed over the processes; each evaluation's, the wall
    time of the whole pass."""
    started = time.perf_counter()
    check_int("episodes", episodes, 1)
    check_int("processes", processes, 1)
    if spec.players == 1:
        raise ValueError(f"evaluate_contenders plays games of several players, not {spec.name}")
    options = {**options, **spec.scoring.eval_options}
    names = _bot_names(spec, opponents)
    makers = {name: bot_maker(spec, name, options) for name in names}
    pairs = [(key, name) for key in contenders for name in names]
    played = play_pairs(spec, contenders, makers, pairs, options, episodes, seed, batch, processes)
    results = {}
    for key in contenders:
        result = Evaluation(
            spec.name, spec.players, episodes, seed, dict(options), spec.scoring.unit
        )
        for name in names:
            deals, seconds = played[key, name]
            result.opponents[name] = deals.summary(name, seconds)
        result.processes = processes
        result.seconds = time.perf_counter() - started
        results[key] = result
    return results


# --- one-player games --------------------------------------------------------------------------


def play_policy_single(
    spec: GameSpec, policy: Policy, options: Mapping[str, Any], seeds: Sequence[int], batch: int
) -> np.ndarray:
    """Final scores of ``policy`` on the deals ``seeds``, many games in lockstep.

    Uses the game's native vector env when it has one (sub-env ``i`` reset with ``seeds[i]``
    replays the single env), else a list of single envs.
    """
    scores = np.zeros(len(seeds), dtype=np.float64)
    for start in range(0, len(seeds), batch):
        chunk = [int(s) for s in seeds[start : start + batch]]
        if spec.vector is not None:
            scores[start : start + len(chunk)] = _play_vector(spec, policy, options, chunk)
        else:
            scores[start : start + len(chunk)] = _play_lockstep(spec, policy, options, chunk)
    return scores


def _play_vector(
    spec: GameSpec, policy: Policy, options: Mapping[str, Any], seeds: list[int]
) -> np.ndarray:
    venv = spec.make_vector(len(seeds), **options)
    try:
        observations, info = venv.reset(seed=seeds)
        scores = np.zeros(len(seeds))
        done = np.zeros(len(seeds), dtype=bool)
        while not done.all():
            actions = policy(observations, np.asarray(info["action_mask"], dtype=bool))
            observations, _, terminated, truncated, info = venv.step(actions)
            ended = (terminated | truncated) & ~done
            if ended.any():
                scores[ended] = np.asarray(info[spec.scoring.score_key])[ended]
                done |= ended
        return scores
    finally:
        venv.close()


def _play_lockstep(
    spec: GameSpec, policy: Policy, options: Mapping[str, Any], seeds: list[int]
) -> np.ndarray:
    envs = [spec.make_single(**options) for _ in seeds]
    observations, masks = [], []
    for env, seed in zip(envs, seeds, strict=True):
        observation, info = env.reset(seed=seed)
        observations.append(observation)
        masks.append(info["action_mask"])
    scores = np.zeros(len(seeds))
    alive = list(range(len(seeds)))
    while alive:
        actions = policy(
            np.stack([observations[i] for i in alive]),
            np.stack([masks[i] for i in alive]).astype(bool),
        )
        still = []
        for i, action in zip(alive, actions, strict=True):
            observations[i], _, terminated, truncated, info = envs[i].step(int(action))
            masks[i] = info["action_mask"]
            if terminated or truncated:
                scores[i] = info[spec.scoring.score_key]
            else:
                still.append(i)
        alive = still
    for env in envs:
        env.close()
    return scores


def play_bot_single(
    spec: GameSpec, name: str, options: Mapping[str, Any], seeds: Sequence[int]
) -> np.ndarray:
    """Final scores of bot ``name`` on the deals ``seeds`` (env and bot reset with each seed)."""
    env = spec.make_single(**options)
    bot = spec.make_bot(name, seed=None, **options)
    scores = np.zeros(len(seeds))
    for k, seed in enumerate(seeds):
        observation, info = env.reset(seed=int(seed))
        bot.reset(int(seed))
        while True:
            action = bot.act(observation, info["action_mask"])
            observation, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                scores[k] = info[spec.scoring.score_key]
                break
    env.close()
    return scores


def _evaluate_single(
    spec: GameSpec,
    policy: Policy,
    options: Mapping[str, Any],
    episodes: int,
    names: list[str],
    seed: int,
    batch: int,
    result: Evaluation,
    bot_cache: dict[tuple[str, int, int], np.ndarray] | None,
) -> None:
    seeds = np.arange(seed, seed + episodes)
    started = time.perf_counter()
    agent = play_policy_single(spec, policy, options, seeds, batch)
    result.agent_seconds = time.perf_counter() - started
    threshold = spec.scoring.win_threshold(options)
    result.agent_mean = mean_ci(agent)
    result.threshold = threshold
    if threshold is not None:
        result.agent_threshold = rate_ci(int((agent >= threshold).sum()), episodes)
    for name in names:
        started = time.perf_counter()
        key = (name, seed, episodes)
        if bot_cache is not None and key in bot_cache:
            bot = bot_cache[key]
        else:
            bot = play_bot_single(spec, name, options, seeds)
            if bot_cache is not None:
                bot_cache[key] = bot
        result.opponents[name] = OpponentResult(
            name=name,
            games=episodes,
            win=rate_ci(int((agent > bot).sum()), episodes),
            draw=rate_ci(int((agent == bot).sum()), episodes),
            loss=rate_ci(int((agent < bot).sum()), episodes),
            margin=mean_ci(agent - bot),
            bot_mean=mean_ci(bot),
            bot_threshold=(
                rate_ci(int((bot >= threshold).sum()), episodes) if threshold is not None else None
            ),
            seconds=time.perf_counter() - started,
        )


# --- games of several players: duplicate deals -------------------------------------------------


@dataclass
class _Game:
    """One game in flight: the env, the learner's seat, the bots at the other seats."""

    env: Any
    deal: int
    learner: str
    bots: dict[str, Any]
    returns: dict[str, float]


def _game_over(env: Any) -> bool:
    return all(env.terminations[a] or env.truncations[a] for a in env.agents)


def _advance(game: _Game) -> Turns[None]:
    """Play bots (and dead steps) until the learner is to act or the game is over; each bot's
    decision is yielded (:mod:`pokerzoo.envs.core.turns`), so the games in flight ask their
    bots in one batch."""
    env = game.env
    while not _game_over(env):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        elif agent not in game.bots:  # the learner's policy is to act
            return
        else:
            seen = env.observe(agent)
            env.step((yield game.bots[agent], seen["observation"], seen["action_mask"]))
        _collect(game)


def _collect(game: _Game) -> None:
    for agent, reward in game.env.rewards.items():
        game.returns[agent] = game.returns.get(agent, 0.0) + float(reward)


@dataclass
class DuplicateDeals:
    """Raw results of duplicate deals, ``(deals, seats)`` arrays indexed by the deal and the seat
    the agent took: won and drawn against the best bot, the agent's result, the bots' mean."""

    wins: np.ndarray
    draws: np.ndarray
    own: np.ndarray
    theirs: np.ndarray

    @classmethod
    def empty(cls, deals: int, seats: int) -> DuplicateDeals:
        """Zeros for ``deals`` deals of ``seats`` seats, to :meth:`record` games in."""
        return cls(*(np.zeros((deals, seats)) for _ in _DEAL_FIELDS))

    def record(self, deal: int, column: int, learner: str, points: Mapping[str, float]) -> None:
        """The game of ``deal`` with the agent in seat ``column`` (agent ``learner``), whose
        result per agent is ``points``."""
        mine = points[learner]
        others = [r for a, r in points.items() if a != learner]
        self.wins[deal, column] = mine > max(others)
        self.draws[deal, column] = mine == max(others)
        self.own[deal, column] = mine
        self.theirs[deal, column] = np.mean(others)

    @classmethod
    def concatenate(cls, parts: Sequence[DuplicateDeals]) -> DuplicateDeals:
        """Deals of several runs (on different deal seeds) as one."""
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in _DEAL_FIELDS))

    def summary(self, name: str, seconds: float = 0.0) -> OpponentResult:
        """The agent against bot ``name``: rates (Wilson, over the games) and results per game
        (95% intervals over deals, each deal's seats averaged: the duplicate)."""
        games = self.wins.size
        won, drawn = int(self.wins.sum()), int(self.draws.sum())
        return OpponentResult(
            name=name,
            games=games,
            win=rate_ci(won, games),
            draw=rate_ci(drawn, games),
            loss=rate_ci(games - won - drawn, games),
            margin=mean_ci((self.own - self.theirs).mean(axis=1)),
            bot_mean=mean_ci(self.theirs.mean(axis=1)),
            agent_mean=mean_ci(self.own.mean(axis=1)),
            seconds=seconds,
        )


_DEAL_FIELDS = ("wins", "draws", "own", "theirs")
_PLAYER_SEED = 104_729
"""Added to a deal's seed for a bot in the agent's seat (the opponents take ``7919 * k``)."""


def play_duplicate_forked(
    spec: GameSpec,
    policy: Policy | None,
    options: Mapping[str, Any],
    episodes: int,
    name: str,
    seed: int,
    batch: int,
    processes: int,
    *,
    player: BotMaker | None = None,
    opponent: BotMaker | None = None,
    tables: Sequence[Any] | None = None,
) -> DuplicateDeals:
    """:func:`play_duplicate` with the deals split in consecutive chunks across ``processes``
    forked workers and put back in order: the same result, in less time on several cores.
    ``policy`` reaches the workers by fork (a model need not pickle). With one process the deals
    are played here, and so they are, with a warning, where the platform has no fork start
    method."""
    here = {"player": player, "opponent": opponent, "tables": tables}
    if processes == 1:
        return play_duplicate(spec, policy, options, episodes, name, seed, batch, **here)
    if not tables:
        here["tables"] = tables = make_tables(spec, options, episodes, batch)

    def play(chunk: tuple[int, int]) -> DuplicateDeals:
        first, count = chunk
        return play_duplicate(spec, policy, options, count, name, first, batch, **here)

    parts = fork_map(play, _chunks(seed, episodes, processes, tables), processes)
    return DuplicateDeals.concatenate(parts)


def _chunks(
    seed: int, episodes: int, processes: int, tables: Sequence[Any]
) -> list[tuple[int, int]]:
    """The evaluation's chunks of deals (:func:`~pokerzoo.training.forking.deal_chunks`), each
    holding at least :data:`~pokerzoo.training.forking.CHUNK_GAMES` games (a game per seat of
    the agent) where the deals allow a chunk per process."""
    seats = len(tables[0].possible_agents)
    return deal_chunks(seed, episodes, processes, -(-CHUNK_GAMES // seats))


def bot_maker(spec: GameSpec, name: str, options: Mapping[str, Any]) -> BotMaker:
    """Bot ``name`` of the game, with the env's ``options``, made per game and seeded for it."""

    def bot(seed: int) -> Bot:
        return spec.make_bot(name, seed=seed, **options)

    return bot


def play_pairs(
    spec: GameSpec,
    contenders: Mapping[str, Contender],
    opponents: Mapping[str, BotMaker],
    pairs: Sequence[tuple[str, str]],
    options: Mapping[str, Any],
    episodes: int,
    seed: int,
    batch: int = 256,
    processes: int = 1,
) -> dict[tuple[str, str], tuple[DuplicateDeals, float]]:
    """:func:`play_duplicate` of each pair ``(contender, opponent)`` of ``pairs`` (contender
    ``contenders[c]`` in one seat, players made by ``opponents[o]`` in every other) on the same
    ``episodes`` deals (seeds ``seed ..``), in one pass: the deals are split in chunks of
    consecutive deals (one chunk in one process; about
    :data:`~pokerzoo.training.forking.CHUNKS_PER_PROCESS` a process across ``processes``
    forked workers, forked once, fewer where a chunk would hold fewer than
    :data:`~pokerzoo.training.forking.CHUNK_GAMES` games), and whoever plays a chunk plays
    every pair on it, :data:`PIECE_DEALS` deals at a time, so what a player worked out for a
    deal (the Monte-Carlo features' cache, the draw poker equity bot's simulations) serves every
    game of that deal. A game of two seats that play blind (its engine's ``blind``, Quintet)
    plays each contender and each opponent once a deal and scores each pair from their moves
    (:func:`_play_blind`: the same results). Returns each pair's deals and the seconds spent
    playing it, summed over the processes."""
    tables = make_tables(spec, options, episodes, batch)
    blind = _blind_engine(spec, tables[0])

    def play(chunk: tuple[int, int]) -> dict[tuple[str, str], tuple[DuplicateDeals, float]]:
        parts: dict[tuple[str, str], list[DuplicateDeals]] = {}
        seconds: dict[tuple[str, str], float] = {}
        first, count = chunk
        for start in range(first, first + count, PIECE_DEALS):
            size = min(PIECE_DEALS, first + count - start)
            if blind is not None:
                played = _play_blind(
                    spec, blind, contenders, opponents, pairs, options, size, start, tables
                )
            else:
                played = {}
                for key, name in pairs:
                    began = time.perf_counter()
                    contender = contenders[key]
                    deals = play_duplicate(
                        spec,
                        contender.policy,
                        options,
                        size,
                        name,
                        start,
                        batch,
                        player=contender.player,
                        opponent=opponents[name],
                        tables=tables,
                    )
                    played[key, name] = (deals, time.perf_counter() - began)
            for pair, (deals, took) in played.items():
                parts.setdefault(pair, []).append(deals)
                seconds[pair] = seconds.get(pair, 0.0) + took
        return {pair: (DuplicateDeals.concatenate(parts[pair]), seconds[pair]) for pair in parts}

    chunks = _chunks(seed, episodes, processes, tables) if processes > 1 else [(seed, episodes)]
    parts = fork_map(play, chunks, processes)
    return {
        pair: (
            DuplicateDeals.concatenate([part[pair][0] for part in parts]),
            sum(part[pair][1] for part in parts),
        )
        for pair in pairs
    }


def _blind_engine(spec: GameSpec, table: Any) -> Any:
    """The engine of ``table`` where :func:`_play_blind` can score its games (two seats that
    play blind, scored by the info's ``points_key``), else ``None``."""
    game = getattr(table, "game", None)
    if (
        spec.players == 2
        and len(table.possible_agents) == 2
        and spec.scoring.points_key is not None
        and getattr(game, "blind", False)
    ):
        return game
    return None


def _play_blind(
    spec: GameSpec,
    game: Any,
    contenders: Mapping[str, Contender],
    opponents: Mapping[str, BotMaker],
    pairs: Sequence[tuple[str, str]],
    options: Mapping[str, Any],
    episodes: int,
    seed: int,
    tables: Sequence[Any],
) -> dict[tuple[str, str], tuple[DuplicateDeals, float]]:
    """:func:`play_duplicate` of each pair of ``pairs`` on ``episodes`` deals (seeds ``seed
    ..``) of a two-seat game whose seats play blind (``game``, its engine: what a seat observes
    and may do depends only on the deal and its own moves, whichever seat it holds): a player's
    moves of a deal are the same whoever it meets, in either seat (the opponent is seeded by the
    deal alone, the contender as well), so each contender and each opponent of the pairs plays
    each deal once, contender ``j % C`` against opponent ``(j + r) % O`` in game ``j`` of the
    deal (``r`` keeps a player from meeting itself where it can), and each pair in each seat is
    scored from their moves (``game.with_plays``, then its info's ``points_key``): the same
    results. A pair's seconds: the games it played, if any, and the scoring of its own."""
    seats = list(tables[0].possible_agents)
    keys = list(dict.fromkeys(key for key, _ in pairs))
    names = list(dict.fromkeys(name for _, name in pairs))
    games = max(len(keys), len(names))
    rotation = next(
        (
            r
            for r in range(len(names))
            if all(keys[j % len(keys)] != names[(j + r) % len(names)] for j in range(games))
        ),
        0,
    )
    moves: dict[tuple[str, str], list[Any]] = {}  # ("contender" | "opponent", name) -> per deal
    finished: list[Any] = [None] * episodes  # a finished game of each deal: its cards
    seconds: dict[tuple[str, str], float] = {}
    for j in range(games):
        key, name = keys[j % len(keys)], names[(j + rotation) % len(names)]
        mine: list[Any] = [None] * episodes
        theirs: list[Any] = [None] * episodes

        def finish(played: _Game, mine: list[Any] = mine, theirs: list[Any] = theirs) -> None:
            state = played.env.game_state
            both = game.plays(state)
            mine[played.deal], theirs[played.deal] = both[0], both[1]
            finished[played.deal] = state

        began = time.perf_counter()
        contender = contenders[key]
        jobs = [(deal, seats[0]) for deal in range(episodes)]
        _play_games(
            spec,
            contender.policy,
            options,
            jobs,
            name,
            seed,
            tables,
            finish,
            contender.player,
            opponents[name],
        )
        seconds[key, name] = time.perf_counter() - began
        moves.setdefault(("contender", key), mine)
        moves.setdefault(("opponent", name), theirs)
    points_key = spec.scoring.points_key
    results = {}
    for key, name in pairs:
        began = time.perf_counter()
        deals = DuplicateDeals.empty(episodes, len(seats))
        own, other = moves["contender", key], moves["opponent", name]
        for deal in range(episodes):
            for column, learner in enumerate(seats):
                both = (own[deal], other[deal]) if column == 0 else (other[deal], own[deal])
                state = game.with_plays(finished[deal], np.stack(both))
                points = by_agent(game.info(state, column)[points_key], seats)
                deals.record(deal, column, learner, points)
        took = time.perf_counter() - began
        results[key, name] = (deals, seconds.get((key, name), 0.0) + took)
    return results


def make_tables(
    spec: GameSpec, options: Mapping[str, Any], episodes: int, batch: int = 256
) -> list[Any]:
    """The AEC envs :func:`play_duplicate` plays ``episodes`` deals on, ``batch`` of them at
    most: made once for every bot an evaluation meets (making an env takes about a
    millisecond; an evaluation plays its games on hundreds). They are the raw envs, without
    PettingZoo's order-enforcing wrapper: the games read their envs' attributes hundreds of
    thousands of times, each forwarded by the wrapper (the raw env still refuses an illegal
    action)."""
    first = spec.make_aec(**options).unwrapped
    count = min(batch, episodes * len(first.possible_agents))
    return [first] + [spec.make_aec(**options).unwrapped for _ in range(count - 1)]


def by_agent(values: Any, agents: Sequence[str]) -> dict[str, Any]:
    """Per-seat results as ``{agent: value}``: an info's array indexed by seat (``player_i`` is
    seat ``i``), or a mapping by agent name as it is."""
    if isinstance(values, Mapping):
        return dict(values)
    return dict(zip(agents, np.asarray(values).tolist(), strict=True))


def play_duplicate(
    spec: GameSpec,
    policy: Policy | None,
    options: Mapping[str, Any],
    episodes: int,
    name: str,
    seed: int = 1_000_000,
    batch: int = 256,
    *,
    player: BotMaker | None = None,
    opponent: BotMaker | None = None,
    tables: Sequence[Any] | None = None,
) -> DuplicateDeals:
    """``episodes`` duplicate deals (seeds ``seed ..``) of ``policy`` against bot ``name`` in
    every other seat: each deal played once per seat of the agent, the bots reset with the same
    seeds whichever seat the agent takes. ``player`` plays the agent's seat as a bot made per
    game instead of ``policy``, ``opponent`` makes the other seats' players instead of bot
    ``name`` (a league's entrants: :mod:`pokerzoo.training.league`). ``tables``: the AEC envs
    to play on, made with ``options`` (:func:`make_tables`: those of one evaluation, kept from
    bot to bot; each game resets its table with its deal's seed), else ``batch`` are made here."""
    if not tables:
        tables = make_tables(spec, options, episodes, batch)
    seats = list(tables[0].possible_agents)
    deals = DuplicateDeals.empty(episodes, len(seats))

    def finish(game: _Game) -> None:
        points = game.returns
        if spec.scoring.points_key is not None:
            found = game.env.infos[game.learner].get(spec.scoring.points_key)
            if found is not None:
                points = by_agent(found, seats)
        deals.record(game.deal, seats.index(game.learner), game.learner, points)

    jobs = [(deal, seat) for deal in range(episodes) for seat in seats]
    _play_games(spec, policy, options, jobs, name, seed, tables[:batch], finish, player, opponent)
    return deals


def _play_games(
    spec: GameSpec,
    policy: Policy | None,
    options: Mapping[str, Any],
    jobs: Sequence[tuple[int, str]],
    name: str,
    seed: int,
    tables: Sequence[Any],
    finish: Callable[[_Game], None],
    player: BotMaker | None = None,
    opponent: BotMaker | None = None,
) -> None:
    """Play each job ``(deal, learner seat)`` (deal ``i`` dealt with seed ``seed + i``) as
    :func:`play_duplicate` describes, on as many ``tables`` at once, and hand each game to
    ``finish`` as it ends (its table still holding the finished game)."""
    if (policy is None) == (player is None):
        raise ValueError("play_duplicate takes a policy or a player, not both or neither")
    if opponent is None:
        opponent = bot_maker(spec, name, options)
    seats = list(tables[0].possible_agents)
    pending = iter(jobs)

    def start(env: Any) -> _Game | None:
        """The next job's game on ``env`` (``None``: no job left), dealt; its bots have not
        acted yet (:func:`_advance`)."""
        job = next(pending, None)
        if job is None:
            return None
        deal, learner = job
        deal_seed = seed + deal
        env.reset(seed=deal_seed)
        # The bots get the same seeds whichever seat the learner takes: a true duplicate.
        others = [agent for agent in seats if agent != learner]
        bots = {agent: opponent(deal_seed + 7919 * k) for k, agent in enumerate(others)}
        if player is not None:
            bots[learner] = player(deal_seed + _PLAYER_SEED)
        return _Game(env, deal, learner, bots, {a: 0.0 for a in seats})

    def started(games: list[_Game | None]) -> list[_Game | None]:
        play_batched([_advance(game) for game in games if game is not None])
        return games

    slots = started([start(env) for env in tables[: len(jobs)]])
    while any(slot is not None for slot in slots):
        ready = [i for i, g in enumerate(slots) if g is not None and not _game_over(g.env)]
        if ready and policy is not None:
            observed = [slots[i].env.observe(slots[i].learner) for i in ready]
            actions = policy(
                np.stack([o["observation"] for o in observed]),
                np.stack([o["action_mask"] for o in observed]).astype(bool),
            )
            moved = []
            for i, action in zip(ready, actions, strict=True):
                game = slots[i]
                game.env.step(int(action))
                _collect(game)
                moved.append(_advance(game))
            play_batched(moved)
        ended: list[int] = []
        for i, game in enumerate(slots):
            if game is not None and _game_over(game.env):
                finish(game)
                ended.append(i)
        for i, game in zip(ended, started([start(slots[i].env) for i in ended]), strict=True):
            slots[i] = game
