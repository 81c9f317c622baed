"""Helpers shared by several games' tests: one check written once, each game's test naming only
what is its own."""

from __future__ import annotations

import importlib
import importlib.util
import json
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import yaml
from pokerzoo.envs.core.betting import Betting
from pokerzoo.envs.core.pettingzoo_env import play_game
from pokerzoo.envs.core.registry import get_game


def turned_seat(seat: int, by: int, n: int) -> int:
    """The seat ``seat`` becomes when a table of ``n`` turns ``by`` seats (``-1``, no seat,
    stays)."""
    return (seat + by) % n if seat >= 0 else seat


def turned_list(per_seat: list, by: int) -> list:
    """A per-seat list after the table turns ``by`` seats: what seat ``s`` had, ``s + by``
    has."""
    n = len(per_seat)
    return [per_seat[(s - by) % n] for s in range(n)]


def rotated_betting(old: Betting, by: int) -> Betting:
    """The hand's money and betting round with the table turned ``by`` seats."""
    n = len(old.stacks)
    return Betting(
        stacks=turned_list(old.stacks, by),
        dealt=turned_list(old.dealt, by),
        committed=turned_list(old.committed, by),
        folded=turned_list(old.folded, by),
        round_bets=turned_list(old.round_bets, by),
        rules=old.rules,
        round=old.round,
        current_bet=old.current_bet,
        bets=old.bets,
        start=turned_seat(old.start, by, n),
        actor=turned_seat(old.actor, by, n),
        orbit=old.orbit,
        pending=turned_list(old.pending, by),
        history=[bet._replace(seat=turned_seat(bet.seat, by, n)) for bet in old.history],
    )


def check_seat_symmetry(
    game: Any,
    rotated: Callable[[Any, int], Any],
    decode_observation: Callable[[np.ndarray], Any],
) -> None:
    """Turning the table ``by`` seats (``rotated(state, by)``) and looking from the seat the
    observer moved to gives the observation it had, but for ``seat``, at every step of twelve
    random games: the same masks, the same seat to act and the rewards turned with the table.

    Seat-relative observations are what lets one policy play every seat; a field that leaked
    an absolute seat would break this at some step.
    """
    n = game.num_players
    layout = game.layout
    others = np.ones(layout.size, dtype=bool)
    others[layout["seat"]] = False
    rng = np.random.default_rng(5)
    for trial in range(12):
        by = 1 + trial % (n - 1)
        state = game.new_state(rng=np.random.default_rng(trial))
        turned = rotated(state, by)
        while True:
            for viewer in range(n):
                mine = game.observe(state, viewer)
                theirs = game.observe(turned, (viewer + by) % n)
                assert mine[others].tolist() == theirs[others].tolist()
                assert decode_observation(theirs).seat == (viewer + by) % n
            if game.is_terminal(state):
                break
            actor = game.current_player(state)
            assert game.current_player(turned) == (actor + by) % n
            mask = game.legal_mask(state, actor)
            assert mask.tolist() == game.legal_mask(turned, (actor + by) % n).tolist()
            action = int(rng.choice(np.flatnonzero(mask)))
            payout = game.apply(state, actor, action)
            turned_payout = game.apply(turned, (actor + by) % n, action)
            if payout is not None:
                assert turned_payout is not None
                assert turned_payout.rewards == tuple(np.roll(payout.rewards, by).tolist())


class PolicyBot:
    """A bot that plays ``policy(observation, action_mask)``: a scripted opponent for a test,
    with nothing to seed."""

    def __init__(self, name: str, policy: Callable[[np.ndarray, np.ndarray], int]) -> None:
        self.name = name
        self.policy = policy

    def reset(self, seed: int | None = None) -> None:
        """Nothing to seed: the policy is the test's script."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.policy(observation, action_mask)


def batched_player(policy: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> PolicyBot:
    """A batched policy (observations and bool masks, one row each, to actions) as a player of
    one seat: the evaluated player of the local best response's tests."""
    return PolicyBot("policy", lambda obs, mask: int(policy(obs[None], mask.astype(bool)[None])[0]))


def check_render(
    text: str, first_line: str, shows: Iterable[str] = (), hides: Iterable[str] = ()
) -> None:
    """A spectator's text view: its first line exactly, each of ``shows`` somewhere in it, and
    none of ``hides`` (cards still hidden in a hand) anywhere."""
    assert text.splitlines()[0] == first_line, text
    for part in shows:
        assert part in text, f"{part!r} is not in\n{text}"
    for card in hides:
        assert card not in text, f"hidden {card!r} shows in\n{text}"


def bot_decisions(
    game: str, bot: str, episodes: int, **options: Any
) -> tuple[np.ndarray, np.ndarray]:
    """The observations and masks of every decision of ``episodes`` games (seeds 0..) of the
    registered ``game`` under ``options``, every seat played by one ``bot``."""
    spec = get_game(game)
    env = spec.make_aec(**options)
    player = spec.make_bot(bot, seed=0, **options)
    seen, masks = [], []

    def act(agent: str, obs: dict[str, np.ndarray]) -> int:
        seen.append(obs["observation"])
        masks.append(obs["action_mask"].astype(bool))
        return player.act(obs["observation"], obs["action_mask"])

    for seed in range(episodes):
        play_game(env, act, seed=seed)
    return np.stack(seen), np.stack(masks)


def check_rule_reported(
    evaluation: Any, paths: Mapping[str, Path], rule: str, param: str, opponent: str, games: int
) -> None:
    """A run's evaluation (``evaluate_run``'s answer) reports the hand-written ``rule``, shown
    with its first threshold ``param``, against ``"random"`` and ``opponent``, ``games`` games
    each: in the evaluation, the Markdown report and the JSON report."""
    row = evaluation.rules[rule]
    label = f"rule {rule} ({param}="
    assert row.player.startswith(label)
    assert set(row.opponents) == {"random", opponent} and row.opponents["random"].games == games
    text = paths["md"].read_text()
    assert f"| {opponent} | {games} |" in text and label in text
    report = json.loads(paths["json"].read_text())
    assert report["evaluation"]["rules"][rule]["opponents"][opponent]["games"] == games


def check_features_alone_or_in_a_batch(
    features_of: Callable[[np.ndarray], np.ndarray],
    rule: Callable[..., np.ndarray],
    rule_options: Mapping[str, float],
    deals: list[int],
    picks: Iterable[int],
) -> None:
    """On the decisions of one game of poker without a name (``deals``, the rules bot at every
    seat): ``features_of`` gives the same rows twice, the rows of the batch are those of the
    observations ``picks`` alone, and ``rule(features, masks, **rule_options)`` picks a legal
    action at every decision."""
    observations, masks = bot_decisions("nameless_poker", "rules", 1, deals=deals)
    batch = features_of(observations)
    assert np.array_equal(features_of(observations), batch)
    for k in picks:
        assert np.array_equal(features_of(observations[k]), batch[k])
    actions = rule(batch, masks, **rule_options)
    assert masks[np.arange(len(actions)), actions].all()


# --- the ante of the betting games ----------------------------------------------------------
ACCEPTED_ANTES = [
    ({"ante": 99}, 99),
    ({"ante": 0, "stack": 1}, 0),
    ({"num_players": 3, "ante": 4, "stack": (0, 10, 5)}, 4),
    ({"num_players": 3, "ante": 1, "stack": (1, 5, 5)}, 1),  # a short stack: all-in on it
    ({"num_players": 3, "ante": 2, "stack": (1, 5, 5)}, 2),
]
"""Options whose ante is below two starting stacks, and that ante: a betting game (draw poker,
five-card stud) accepts every one."""


def check_ante_posted(game: Any, ante: int, stacks: Iterable[int]) -> None:
    """A new hand of ``game`` (starting ``stacks``) has every seat post ``ante`` (a short stack
    all it has), and two seats still hold chips to bet."""
    state = game.new_state(rng=np.random.default_rng(0))
    assert state.betting.committed == [min(ante, s) for s in stacks]
    assert sum(s > 0 for s in state.betting.stacks) >= 2  # two seats can ante and still bet


# --- infos and states: every step of whole games ----------------------------------------------
PZ_STATE = importlib.import_module("pettingzoo.test.state_test")
"""PettingZoo's state checks (the module: ``pettingzoo.test.state_test`` names the function)."""


def random_action(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A legal action of ``mask``, drawn by ``rng``."""
    return int(rng.choice(np.flatnonzero(mask)))


def plain_info(info: Mapping[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """The keys ``names`` of an info as plain Python values, for comparisons."""
    return {k: np.asarray(info[k]).tolist() for k in names}


def check_info(info: Mapping[str, Any], schema: Any) -> None:
    """An info holds string keys, no ``None``, numpy scalars (no Python ``int``, ``float`` or
    ``bool``) and what ``schema`` (an ``InfoSchema``) lists."""
    assert all(type(k) is str and v is not None for k, v in info.items())
    assert not [k for k, v in info.items() if type(v) in (int, float, bool)]  # numpy scalars
    schema.check(info)


def check_aec_info_names(schema: Any, game_keys: tuple[str, ...], masked_action: str) -> None:
    """An AEC env's info keys: the game's, then ``masked_action`` with
    ``masked_action="random"``; never the action mask (it is in the observation only)."""
    extra = ("masked_action",) if masked_action == "random" else ()
    assert schema.names == (*game_keys, *extra)


def play_aec_games(
    env: Any,
    seeds: Iterable[int],
    rng: np.random.Generator,
    *,
    schema: Any = None,
    states: bool = False,
    act: Callable[[dict], int] | None = None,
    each_step: Callable[[Any, str, dict, bool], None] | None = None,
) -> None:
    """Plays an AEC game from each seed of ``seeds``, ``act(observation)`` choosing every move
    (a random legal action by default), and checks at every step: every agent's info and the
    info of :meth:`last` against ``schema`` (when given; the mask stays out of the info, an
    ``int8`` mask in the observation), and with ``states`` ``env.state()`` inside
    ``env.state_space`` (finite ``float32`` bounds), then again once the game is over.
    ``each_step(env, agent, info, done)`` adds a game's own checks before each move."""
    if states:
        space = env.unwrapped.state_space
        assert space.dtype == np.float32
        assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    for seed in seeds:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            if schema is not None:
                for other in env.agents:
                    check_info(env.infos[other], schema)
            if states:
                assert space.contains(env.state())
            obs, _, term, trunc, info = env.last()
            if schema is not None:
                check_info(info, schema)
                assert "action_mask" not in info and obs["action_mask"].dtype == np.int8
            if each_step is not None:
                each_step(env, agent, info, term or trunc)
            if term or trunc:
                env.step(None)
            else:
                env.step(act(obs) if act else random_action(rng, obs["action_mask"]))
        if states:
            assert space.contains(env.state())


def play_single_seat_games(
    single: Any, base_names: tuple[str, ...], seeds: Iterable[int], rng: np.random.Generator
) -> None:
    """Plays a Gymnasium bot-table env from each seed with random legal actions, checking its
    info at every step: the AEC env's keys ``base_names``, then ``action_mask`` and ``seat``,
    the seat the learner's, the bots every other seat."""
    view = single.unwrapped
    schema = view.info_schema
    assert schema.names == (*base_names, "action_mask", "seat")
    for seed in seeds:
        _, info = single.reset(seed=seed)
        while True:
            check_info(info, schema)
            assert view.seats[info["seat"]] == view.learner
            assert view.learner not in view.opponents
            assert set(view.opponents) == set(view.seats) - {view.learner}
            _, _, term, trunc, info = single.step(random_action(rng, info["action_mask"]))
            if term or trunc:
                check_info(info, schema)
                break


def aec_decisions(env: Any, seeds: Iterable[int]) -> Iterator[tuple[str, dict]]:
    """Each decision of an AEC game played from each seed of ``seeds``: the agent to act and
    its observation; the caller steps ``env`` with its move before the next one. The end of a
    game (each agent's last ``step(None)``) is played here."""
    for seed in seeds:
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            yield agent, observation


def aec_infos(env: Any, choose: Callable[[str, dict], int]) -> tuple[list[dict], dict[str, dict]]:
    """Plays an AEC env (already reset) to its end, ``choose(agent, observation)`` making every
    move: every agent's info before each move, and each agent's info at the end."""
    seen: list[dict] = []
    final: dict[str, dict] = {}
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = info
            env.step(None)
            continue
        seen += env.infos.values()
        env.step(choose(agent, observation))
    return seen, final


def parallel_infos(
    env: Any, reset: tuple[dict, dict], choose: Callable[[dict], dict[str, int]]
) -> tuple[list[dict], dict[str, dict]]:
    """Plays a parallel env from its ``reset`` (observations and infos) to its end,
    ``choose(observations)`` making every step's moves: every agent's info before each step,
    and the infos of the last step."""
    observations, infos = reset
    seen: list[dict] = []
    while env.agents:
        seen += infos.values()
        observations, _, _, _, infos = env.step(choose(observations))
    return seen, infos


def single_seat_episode(
    single: Any, rng: np.random.Generator, seed: int, options: dict | None = None
) -> list[np.ndarray]:
    """Every observation of one episode of a Gymnasium env, from ``reset(seed=seed,
    options=options)`` to its end, ``rng`` drawing a random legal action at every step."""
    observation, info = single.reset(seed=seed, options=options)
    seen = [observation]
    done = False
    while not done:
        observation, _, term, trunc, info = single.step(random_action(rng, info["action_mask"]))
        seen.append(observation)
        done = term or trunc
    return seen


def check_pettingzoo_state(env: Any, num_cycles: int, parallel_env: Any = None) -> None:
    """PettingZoo's state tests pass on ``env`` (``test_state_space`` and ``test_state``; with
    ``parallel_env`` its whole ``state_test``) without a warning about the state."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if parallel_env is None:
            PZ_STATE.test_state_space(env)
            PZ_STATE.test_state(env, num_cycles=num_cycles)
        else:
            PZ_STATE.state_test(env, parallel_env, num_cycles=num_cycles)
    assert not [str(w.message) for w in caught if "state" in str(w.message).lower()]


# --- case tables kept in tests/data -----------------------------------------------------------
DATA = Path(__file__).parent / "data"


class _DataLoader(yaml.SafeLoader):
    """``yaml.safe_load`` plus ``!tuple [..]`` (a case whose input is a tuple stays one), and a
    key written twice in a mapping is an error (not a case silently lost)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        keys = [self.construct_object(key, deep=True) for key, _ in node.value]
        twice = {key for key in keys if keys.count(key) > 1}
        if twice:
            raise yaml.constructor.ConstructorError(
                None, None, f"keys written twice: {sorted(map(str, twice))}", node.start_mark
            )
        return super().construct_mapping(node, deep=deep)


_DataLoader.add_constructor(
    "!tuple", lambda loader, node: tuple(loader.construct_sequence(node, deep=True))
)


@cache
def data_file(name: str) -> Mapping[str, Any]:
    """The tables of ``tests/data/<name>`` (YAML), by table name."""
    return yaml.load((DATA / name).read_text(), Loader=_DataLoader)


def cases(file: str, table: str) -> list[Any]:
    """Table ``table`` of ``tests/data/<file>`` as ``pytest.param`` rows, each row the test's
    arguments in order. A table written as a mapping gives each row its key (the rule the case
    checks) as the test id; in one written as a list, pytest names each row by its values."""
    rows = data_file(file)[table]
    if isinstance(rows, Mapping):
        return [pytest.param(*row, id=rule) for rule, row in rows.items()]
    return [pytest.param(*row) for row in rows]


def benchmark_script(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` loaded as a module (the benchmarks are scripts, not a package)."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
