"""Poker Squares bots: protocol, legal play in every variant, determinism, greedy decisions."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.agents.base import Bot
from pokerzoo.agents.poker_squares import BOTS, GreedyBot, LineValuer, RandomBot, SearchBot
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.poker_squares import PokerSquaresEnv, PokerSquaresRules, encode_observation
from pokerzoo.envs.poker_squares_v0 import parallel_env

from tests.poker_squares.variants import VARIANT_NAMES, VARIANTS

REST = "Ac Ad Ah As Kc Kd Kh Qc Qd Qh Qs Jc Jd Jh Tc Td"


def _episode(env: PokerSquaresEnv, bot: Bot, seed: int) -> tuple[list[int], int]:
    obs, info = env.reset(seed=seed)
    bot.reset(seed)
    actions = []
    terminated = False
    while not terminated:
        action = bot.act(obs, info["action_mask"])
        assert info["action_mask"][action] == 1
        actions.append(action)
        obs, _, terminated, _, info = env.step(action)
    return actions, info["score"]


def test_registry_and_protocol() -> None:
    assert {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot} == BOTS
    for name, cls in BOTS.items():
        bot = cls(seed=0)
        assert isinstance(bot, Bot) and bot.name == name


@pytest.mark.parametrize("name", list(BOTS))
def test_constructors_take_every_env_option(name: str) -> None:
    bot = BOTS[name](
        seed=1,
        scoring="english",
        jokers=2,
        placement="adjacent",
        variant="shuffle",
        reward="incremental",
        render_mode=None,
    )
    assert bot.name == name


@pytest.mark.parametrize(VARIANT_NAMES, VARIANTS)
def test_bots_play_legal_moves_in_every_variant(
    scoring: object, jokers: int, placement: str, variant: str
) -> None:
    options = {"scoring": scoring, "jokers": jokers, "placement": placement, "variant": variant}
    env = PokerSquaresEnv(**options)
    for name, cls in BOTS.items():
        kwargs = {"rollouts": 2} if name == "search" else {}
        _, score = _episode(env, cls(seed=3, **options, **kwargs), seed=hash(name) % 1000)
        assert score >= 0


@pytest.mark.parametrize("name", list(BOTS))
@pytest.mark.parametrize("variant", ["deal", "shuffle"])
def test_bots_are_deterministic_for_a_seed(name: str, variant: str) -> None:
    env = PokerSquaresEnv(variant=variant, jokers=1)
    first = _episode(env, BOTS[name](seed=9, variant=variant), seed=4)
    second = _episode(env, BOTS[name](seed=9, variant=variant), seed=4)
    assert first == second
    bot = BOTS[name](seed=123)
    _episode(env, bot, seed=7)
    assert _episode(env, bot, seed=4) == first  # reset(seed) re-seeds the bot


def test_bots_play_the_multi_player_env() -> None:
    par = parallel_env(num_players=3, jokers=1)
    obs, _ = par.reset(seed=2)
    bots = {
        agent: cls(seed=i, jokers=1)
        for i, (agent, cls) in enumerate(zip(par.agents, BOTS.values(), strict=True))
    }
    while par.agents:
        actions = {a: bots[a].act(obs[a]["observation"], obs[a]["action_mask"]) for a in par.agents}
        obs, _, _, _, infos = par.step(actions)
    assert all("total" in info for info in infos.values())


def _position(scoring: str) -> tuple[np.ndarray, np.ndarray]:
    """Row 1 holds four spades (a flush draw), row 2 an open-ended straight draw; the card to
    place, 9s, fits both; cells 4 and 9 share column 5, so only the rows differ."""
    game = PokerSquaresRules(scoring=scoring)
    state = game.new_state("2s 4s Js Ks 5h 6d 7c 8h 9s " + REST)
    for cell in (0, 1, 2, 3, 5, 6, 7, 8):
        game.place(state, cell)
    return encode_observation(state), state.mask.copy()


@pytest.mark.parametrize(
    ("scoring", "cell"),
    [
        ("american", 4),  # flush 20 beats straight 15
        ("english", 9),  # straight 12 beats flush 5
    ],
)
def test_greedy_follows_the_scoring_table(scoring: str, cell: int) -> None:
    obs, mask = _position(scoring)
    assert GreedyBot(seed=0, scoring=scoring).act(obs, mask) == cell


def test_greedy_respects_the_mask() -> None:
    obs, mask = _position("american")
    mask[4] = 0
    assert GreedyBot(seed=0).act(obs, mask) != 4
    only = np.zeros(25, dtype=np.int8)
    only[20] = 1
    for cls in BOTS.values():
        assert cls(seed=0).act(obs, only) == 20


def test_greedy_completes_a_flush() -> None:
    game = PokerSquaresRules()
    state = game.new_state("2s 5s 9s Ks 8s " + REST + " 2h 3h 4h 5d")
    for cell in (0, 1, 2, 3):
        game.place(state, cell)
    assert GreedyBot(seed=0).act(encode_observation(state), state.mask) == 4


def test_act_with_an_empty_mask_raises() -> None:
    obs, _ = _position("american")
    for cls in BOTS.values():
        with pytest.raises(ValueError, match="no legal action"):
            cls(seed=0).act(obs, np.zeros(25, dtype=np.int8))


@pytest.mark.parametrize(
    ("line", "points"),
    [
        ("As Ks Qs Js Ts", 100),
        ("2c 2d 2h 9s 9d", 25),
        ("2c 3d 7h 9s Jd", 0),
        ("Jk 2c 2h 9d 9c", 25),
    ],
)
def test_line_valuer_full_lines_are_exact(line: str, points: int) -> None:
    valuer = LineValuer()
    valuer.prepare(np.ones(53, dtype=int), 10)
    assert valuer.value(tuple(parse_cards(line))) == points


def test_line_valuer_orders_partial_lines_sensibly() -> None:
    valuer = LineValuer()
    to_come = np.ones(53, dtype=int)
    to_come[52] = 0
    valuer.prepare(to_come, 5)

    def value(cards: str) -> float:
        return valuer.value(tuple(parse_cards(cards)))

    assert value("5c 5d") >= 2  # a made pair keeps at least its points
    assert value("2s 5s 9s Ks") > value("2s 5s 9s") > 0  # a longer flush draw is worth more
    assert value("5c 5d 5h") > value("5c 5d")
    assert valuer.value(()) > 0
    # a flush draw whose suit is gone is worth less than one whose suit is plentiful
    plentiful = value("2s 5s 9s Ks")
    dry = to_come.copy()
    dry[0:52:4] = 0  # no spades to come
    valuer.prepare(dry, 5)
    assert value("2s 5s 9s Ks") < plentiful


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rollouts": 0}, "bad rollouts 0"),
        ({"candidates": 0}, "bad candidates 0"),
        ({"depth": -1}, "bad depth -1"),
        ({"horizon": 26}, "bad horizon 26"),
        ({"placement": "near"}, "bad placement 'near'"),
        ({"scoring": "french"}, "bad scoring 'french'"),
    ],
)
def test_search_bot_bad_options(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SearchBot(seed=0, **options)


def test_search_bot_without_horizon_is_the_greedy() -> None:
    env = PokerSquaresEnv()
    greedy = _episode(env, GreedyBot(seed=5), seed=8)
    assert _episode(env, SearchBot(seed=5, horizon=0), seed=8) == greedy
