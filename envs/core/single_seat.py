"""One seat of a multi-player pokerzoo game as a Gymnasium env: the other seats are bots.

:class:`SingleSeatEnv` holds one seat of a PettingZoo AEC env (fixed, or drawn per episode); at
each reset it picks the opponent of every other seat (:data:`OpponentPicker`), and inside
``step`` it plays them until the learner is to act again. Each game's Gymnasium id is a small
subclass of :class:`BotTableEnv` that builds its AEC env and names its game
(``pokerzoo/Quintet-v0``, ``pokerzoo/DrawPoker-v0``, ...): the game's bots come from its registry
entry, imported only when an env is built (this package never imports :mod:`pokerzoo.agents`);
training builds the same view over an opponent pool.

Rewards
-------
``step`` returns everything the learner earned from its own move up to its next turn (or the
end of the game): after the learner's move and after every opponent move the view adds
``env.rewards[learner]``, the learner's share of that step. So a reward that arrives on an
*opponent's* move (the last card, a fold, the end of a hand) reaches the learner on its next or
last ``step``; what it earned before its first turn (a hand of a multi-hand game that the
others finished before the learner acted) is added to its first ``step``'s reward. The rewards
of an episode therefore sum to the learner's whole result, every hand included.
(PettingZoo's SB3 tutorial returns ``_cumulative_rewards`` of whoever acts next, which hands
the learner the opponent's reward and drops the learner's own terminal reward when an opponent
ends the game.)

Observation and mask
--------------------
The observation is the learner's ``observe(seat)["observation"]``; the mask
(``observe(seat)["action_mask"]``) is in ``info["action_mask"]`` and :meth:`action_masks`
(sb3-contrib's MaskablePPO hook). ``info`` holds the AEC env's info for the learner's seat
(one schema, numbers only), then ``action_mask`` and ``seat`` (the learner's seat index,
``player_i`` -> ``i``): :attr:`SingleSeatEnv.info_schema`. The view's :attr:`learner` names the
learner's agent and :attr:`opponents` holds the bots by agent name (their ``name``s).

Seeding
-------
``reset(seed=s)`` seeds the view's generator; each episode's deal seed, the learner's seat, the
opponents and their reset seeds are all drawn from it, so a seeded first reset replays every
later episode, bots included. ``reset(options=...)`` is passed to the AEC env (``"cards"``
deals a fixed pack). A game that ends before the learner's first turn has nothing to report to a
Gymnasium agent: it is dealt again (after 100 such deals in a row, ``reset`` raises). A reset
that raises on a bad option changes nothing: the game in progress, the learner's seat, the
opponents, their generators and the view's own generator are as they were.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from .bots import Bot
from .errors import RENDER_FPS, RENDER_MODES, GameOverError, UnknownOptionError
from .info import InfoKey, InfoSchema
from .observation import document
from .options import check_int
from .registry import game_bots
from .seeding import kept_on_error
from .turns import Turns, play_turns

__all__ = [
    "BOT_INFO",
    "BOT_REWARDS",
    "SEAT_INFO_CHANGE",
    "STEP_ERRORS",
    "BotTableEnv",
    "OpponentPicker",
    "SingleSeatEnv",
    "document_view",
    "named_opponents",
    "seat_info_schema",
]

OpponentPicker = Callable[[int, np.random.Generator], Bot]
"""``pick(position, rng) -> Bot``: the opponent for the next episode at ``position`` seats
clockwise after the learner (1 .. players - 1). The view resets the returned bot with a seed
drawn from ``rng``. A bot instance keeps state for one seat, so a picker never returns the same
instance for two positions."""


def named_opponents(
    bots: Mapping[str, Callable[..., Bot]],
    opponent: str | Bot | Sequence[str | Bot],
    num_players: int,
    bot_options: Mapping[str, Any] | None = None,
) -> OpponentPicker:
    """An :data:`OpponentPicker` of fixed opponents.

    ``opponent``: one bot name (each opponent seat gets its own instance), one
    :class:`~pokerzoo.envs.core.bots.Bot` (two-player games only: an instance serves one seat), or a
    sequence with one name or Bot per opponent seat, clockwise from the learner's left. ``bots``
    is the game's bot registry; a name is built as ``bots[name](**bot_options)`` (the env's
    options: the bots take what they need of them).
    """
    num_opponents = num_players - 1
    if isinstance(opponent, (str, Bot)):
        if isinstance(opponent, Bot) and num_opponents > 1:
            raise ValueError(
                f"one Bot instance cannot play {num_opponents} seats: pass a bot name or one "
                "Bot per opponent seat"
            )
        choices: list[str | Bot] = [opponent] * num_opponents
    elif isinstance(opponent, Sequence):
        choices = list(opponent)
        if len(choices) != num_opponents:
            raise ValueError(
                f"bad opponent {opponent!r}: expected one bot per opponent seat ({num_opponents})"
            )
    else:
        raise ValueError(f"bad opponent {opponent!r}: expected a bot name, a Bot or a list")
    names = ", ".join(bots)
    for choice in choices:
        if not (isinstance(choice, Bot) or (isinstance(choice, str) and choice in bots)):
            raise ValueError(f"bad opponent {choice!r}: expected a Bot or one of {names}")
    if len({id(c) for c in choices if isinstance(c, Bot)}) < sum(
        isinstance(c, Bot) for c in choices
    ):
        raise ValueError("the same Bot instance is named for two seats: pass one per seat")
    options = dict(bot_options or {})
    built = [bots[c](**options) if isinstance(c, str) else c for c in choices]

    def pick(position: int, rng: np.random.Generator) -> Bot:
        return built[position - 1]

    return pick


def seat_info_schema(aec_env: Any) -> InfoSchema:
    """The keys of every ``info`` a :class:`SingleSeatEnv` over ``aec_env`` returns: the AEC
    env's, then ``action_mask`` and ``seat``."""
    actions = int(aec_env.action_space(aec_env.possible_agents[0]).n)
    return InfoSchema(
        [
            *getattr(aec_env, "info_schema", ()),
            InfoKey(
                "action_mask",
                "int",
                (actions,),
                "`int8`: the learner's legal actions now (all zeros once it is finished)",
            ),
            InfoKey("seat", "int", (), "the learner's seat index (`player_i` is `i`)"),
        ]
    )


class SingleSeatEnv(gym.Env):
    """One seat of an AEC env as a Gymnasium env; the other seats act inside ``step``.

    Args:
        aec_env: the PettingZoo AEC env (built once, reset per episode).
        opponents: picks each other seat's bot per episode (:data:`OpponentPicker`).
        seat: index into ``possible_agents`` of the learner's seat; ``None`` draws one per
            episode.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}

    def __init__(self, aec_env: Any, opponents: OpponentPicker, *, seat: int | None = None) -> None:
        self.aec = aec_env
        self.seats = list(aec_env.possible_agents)
        if seat is not None:
            seat = check_int("seat", seat, 0, len(self.seats) - 1)
        self.fixed_seat = seat
        self.pick_opponent = opponents
        self.render_mode = getattr(aec_env, "render_mode", None)
        first = self.seats[0]
        self.observation_space = aec_env.observation_space(first)["observation"]
        self.action_space = aec_env.action_space(first)
        self.learner = first if seat is None else self.seats[seat]
        self.info_schema = seat_info_schema(aec_env)
        """The keys of every ``info`` the view returns (the AEC env's, then its own)."""
        self.opponents: dict[str, Bot] = {}
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)
        self._done = True
        self._pending = 0.0  # the learner's reward from before its first turn

    @property
    def game_state(self) -> Any:
        """The engine state of the current game (``None`` before the first reset)."""
        return self.aec.game_state

    # --- Gymnasium API -----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        return play_turns(self.reset_turns(seed=seed, options=options))

    def reset_turns(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> Turns[tuple[np.ndarray, dict[str, Any]]]:
        """:meth:`reset` as a generator that yields each bot decision it needs
        (:data:`~.turns.BotRequest`, answered with the action) and returns ``reset``'s
        result: how a vector env plays many tables' bots in one batch."""
        # A reset that raises (a bad reset option) changes nothing: the generator, the seat,
        # the opponents and the game in progress stay as they were (the AEC env's own reset is
        # atomic; the bots are reset only once the deal has been accepted).
        kept = (self._np_random, self._np_random_seed, self.learner, self.opponents)
        with kept_on_error(self._np_random):
            try:
                super().reset(seed=seed)
                yield from self._deal(options)
            except BaseException:
                self._np_random, self._np_random_seed, self.learner, self.opponents = kept
                raise
        return self._observe()

    def _deal(self, options: dict[str, Any] | None) -> Turns[None]:
        """Deal until the learner has a turn; whatever it earned before that turn is paid with
        its first step's reward."""
        rng = self.np_random
        for _ in range(100):
            deal_seed, index, opponents = self._draw_deal(rng)
            self.aec.reset(seed=deal_seed, options=options)  # raises on a bad option
            self.learner = self.seats[index]
            self.opponents = {agent: bot for agent, (bot, _) in opponents.items()}
            for bot, bot_seed in opponents.values():
                bot.reset(bot_seed)
            self._done = False
            self._pending = yield from self._play_opponents()
            if not self._learner_finished():
                return
        raise RuntimeError("the game kept ending before the learner's first turn")

    def _draw_deal(self, rng: np.random.Generator) -> tuple[int, int, dict[str, tuple[Bot, int]]]:
        """The next episode's deal seed, the learner's seat index and each other seat's
        opponent with its reset seed, drawn from ``rng`` (a subclass may replay a deal)."""
        n = len(self.seats)
        deal_seed = int(rng.integers(2**31))
        index = self.fixed_seat
        if index is None:
            index = int(rng.integers(n))
        opponents: dict[str, tuple[Bot, int]] = {}
        for position in range(1, n):
            bot = self.pick_opponent(position, rng)
            opponents[self.seats[(index + position) % n]] = (bot, int(rng.integers(2**31)))
        return deal_seed, index, opponents

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        return play_turns(self.step_turns(action))

    def step_turns(
        self, action: Any
    ) -> Turns[tuple[np.ndarray, float, bool, bool, dict[str, Any]]]:
        """:meth:`step` as a generator of the bot decisions it needs (see :meth:`reset_turns`)."""
        reward, terminated, truncated = yield from self.act_turns(action)
        observation, info = self._observe()
        return observation, reward, terminated, truncated, info

    def act_turns(self, action: Any) -> Turns[tuple[float, bool, bool]]:
        """:meth:`step_turns` without reading the learner's observation and info: the learner's
        ``action`` and the bots' replies, then its reward, ``terminated`` and ``truncated``.

        For a caller that acts again before it looks (Quintet's pack formulation plays a
        planned row's 25 cards); :meth:`observe` then gives the observation and info that
        :meth:`step_turns` would have returned with the last action (:meth:`action_masks`
        reads the last observed mask until then)."""
        if self._done:
            raise GameOverError("the episode is over: call reset() first")
        self.aec.step(action)  # raises on an illegal action, leaving the game unchanged
        reward = self._pending + self._learner_reward()
        self._pending = 0.0
        reward += yield from self._play_opponents()
        terminated = bool(self.aec.terminations.get(self.learner, False))
        truncated = bool(self.aec.truncations.get(self.learner, False)) and not terminated
        self._done = terminated or truncated
        return float(reward), terminated, truncated

    def observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The learner's observation and info as they stand (new arrays), as the last
        :meth:`reset` or :meth:`step` returned them, or after :meth:`act_turns`."""
        return self._observe()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool), for sb3-contrib's MaskablePPO."""
        return self._mask.astype(bool)

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # --- internals ---------------------------------------------------------------------------
    def _learner_reward(self) -> float:
        return float(self.aec.rewards.get(self.learner, 0.0))

    def _learner_finished(self) -> bool:
        return bool(
            self.aec.terminations.get(self.learner, True)
            or self.aec.truncations.get(self.learner, False)
        )

    def _play_opponents(self) -> Turns[float]:
        """Let the other seats act until the learner is to move or is finished (each bot's
        decision is yielded: :meth:`reset_turns`); the learner's reward meanwhile."""
        reward = 0.0
        aec = self.aec
        while not self._learner_finished() and aec.agent_selection != self.learner:
            agent = aec.agent_selection
            if aec.terminations.get(agent, False) or aec.truncations.get(agent, False):
                aec.step(None)  # PettingZoo's "dead step" removes a finished seat
            else:
                seen = aec.observe(agent)
                aec.step((yield self.opponents[agent], seen["observation"], seen["action_mask"]))
            reward += self._learner_reward()
        return reward

    @property
    def _seat_index(self) -> int:
        return self.seats.index(self.learner)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        seen = self.aec.observe(self.learner)
        self._mask = np.asarray(seen["action_mask"], dtype=np.int8)
        info = {  # new arrays at every call: users keep what they are given
            k: v.copy() if type(v) is np.ndarray else v
            for k, v in self.aec.infos.get(self.learner, {}).items()
        }
        info["action_mask"] = self._mask.copy()
        info["seat"] = np.int64(self._seat_index)
        return seen["observation"], info


_DEFAULT: Any = object()

STEP_ERRORS = """\
A masked or out-of-range action raises :class:`~pokerzoo.envs.core.errors.IllegalActionError`
naming it and the legal ones, and changes nothing (with ``masked_action="random"`` a random
legal action is played instead); a step after the end raises
:class:`~pokerzoo.envs.core.errors.GameOverError`."""
"""What ``step`` raises at every bot table, for the Action Space section of each game's
docstring (``{step_errors}``, filled by :func:`~pokerzoo.envs.core.observation.document`)."""


SEAT_INFO_CHANGE = """\
- v0, infos: ``info["seat"]`` is the learner's seat index (``np.int64``; was its agent
  name); ``info["opponents"]`` is gone: ``env.unwrapped.opponents``; scalars are numpy
  scalars.
- v0, vector env: ``gymnasium.make_vec(id, num_envs, **options)`` builds the native vector
  env of bot tables (:class:`~pokerzoo.envs.core.seat_vector.SeatVectorEnv`: each table this
  env, its bots asked in one batch with the other tables'; was a ``SyncVectorEnv`` of this
  env); sub-env ``i`` reset with ``seed`` replays this env reset with ``seed + i``."""
"""The changelog entry of the bot tables' info (``{seat_info_change}`` in the Version History
of each game's single-seat env docstring)."""


BOT_REWARDS = """\
## Rewards
The learner's chip result of each hand, delivered on its step that ends the hand or, when
the bots end it, on its next step (or its last)."""
"""The Rewards section of a betting game's bot-table docstring (``{bot_rewards}``)."""

BOT_INFO = """\
## Info
The learner's AEC info at every step (the last settled hand's report, numbers only, the
same keys, types and shapes from reset on; neutral until the first hand is settled), then
``action_mask`` and ``seat`` (the learner's seat index, ``player_i`` is ``i``);
``env.unwrapped.info_schema`` lists the keys. The bots are ``env.unwrapped.opponents``
(agent name -> :class:`~pokerzoo.envs.core.bots.Bot`, each with its ``name``) and the learner's
agent name is ``env.unwrapped.learner``. For two players (``N`` = ``num_players``;
``masked_action`` only with ``masked_action="random"``):"""
"""The Info section of a betting game's bot-table docstring (``{bot_info}``), before its
info table."""


class BotTableEnv(SingleSeatEnv):
    """A game's Gymnasium id: one seat of its AEC env against bots named by an option.

    A game subclasses it naming ``aec_class`` (its raw AEC env) and ``game`` (its name in the
    game registry, whose entry names its bots: :func:`~pokerzoo.envs.core.registry.game_bots`,
    imported when the first env is built), and ``default_opponent`` (else the game's ``"rules"``
    bot) and ``default_seat`` (else drawn every episode) where its defaults differ; a view of a
    game outside the registry names its bot registry itself in ``bots``. The constructor takes
    ``opponent`` (a bot name, a :class:`~pokerzoo.envs.core.bots.Bot`, or one per opponent
    seat), ``seat``, ``render_mode``, ``masked_action`` and the game's own options, which the
    bots receive too.
    """

    aec_class: ClassVar[Callable[..., Any]]
    game: ClassVar[str | None] = None
    """The game's name in the registry: its bots are those its entry's ``bots`` names."""
    bots: ClassVar[Mapping[str, Callable[..., Bot]] | None] = None
    """The bot registry itself (name -> class), instead of the registry entry's."""
    default_opponent: ClassVar[str] = "rules"
    default_seat: ClassVar[int | None] = None

    @classmethod
    def bot_classes(cls) -> Mapping[str, Callable[..., Bot]]:
        """The bots an ``opponent`` name picks from: :attr:`bots`, else the bots of
        :attr:`game`'s registry entry (imported on the first call)."""
        if cls.bots is not None:
            return cls.bots
        if cls.game is None:
            raise TypeError(f"{cls.__name__} names neither its game nor its bots")
        return game_bots(cls.game)

    @classmethod
    def info_schema_for(cls, **options: Any) -> InfoSchema:
        """The :attr:`~SingleSeatEnv.info_schema` of the env built with ``options`` (the game's
        options, ``render_mode``, ``masked_action``), read without building its bots (for the
        game's docstring)."""
        aec = cls.aec_class(**options)
        try:
            return seat_info_schema(aec)
        finally:
            aec.close()

    def __init__(
        self,
        opponent: str | Bot | Sequence[str | Bot] | None = None,
        seat: int | None = _DEFAULT,
        render_mode: str | None = None,
        masked_action: str = "raise",
        **options: Any,
    ) -> None:
        try:
            aec = self.aec_class(render_mode=render_mode, masked_action=masked_action, **options)
        except UnknownOptionError as error:  # name the view's own keywords too
            accepted = ("opponent", "seat", *error.accepted)
            raise UnknownOptionError.naming(error.option, accepted, type(self).__name__) from None
        choice = self.default_opponent if opponent is None else opponent
        picker = named_opponents(self.bot_classes(), choice, len(aec.possible_agents), options)
        super().__init__(aec, picker, seat=self.default_seat if seat is _DEFAULT else seat)


def document_view(cls: type[BotTableEnv], **tables: str) -> None:
    """Fill the placeholders of a game's single-seat env docstring: ``{observation_table}`` (its
    game's, default options), ``{info_table}`` (the view's keys with ``masked_action="random"``),
    ``{step_errors}``, ``{bot_rewards}``, ``{bot_info}`` and ``{seat_info_change}`` where the
    docstring has them, then ``tables`` (the game's own, such as its action table)."""
    shared = {
        "observation_table": cls.aec_class.game_class().layout.table(),
        "info_table": cls.info_schema_for(masked_action="random").table(),
        "step_errors": STEP_ERRORS,
        "bot_rewards": BOT_REWARDS,
        "bot_info": BOT_INFO,
        "seat_info_change": SEAT_INFO_CHANGE,
    }
    text = cls.__doc__ or ""
    document(cls, **{k: v for k, v in shared.items() if "{" + k + "}" in text}, **tables)
