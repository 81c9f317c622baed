"""Checks of the infos, the state and the observations shared by the betting games whose infos
report the last hand settled (draw poker, five-card stud): each game's ``test_info_state.py``
names only its own env, keys, cases and what its state holds."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from pokerzoo.envs.core.cards import parse_cards

from tests.helpers import (
    check_aec_info_names,
    plain_info,
    play_aec_games,
    play_single_seat_games,
    random_action,
    single_seat_episode,
)

NEUTRAL_HEADS_UP = {
    "hand": 0,
    "dealer": -1,
    "showdown": False,
    "shown": [[-1] * 5] * 2,
    "categories": [-1, -1],
    "pot_amounts": [0, 0],
    "pot_eligible": [[False] * 2] * 2,
    "pot_shares": [[0] * 2] * 2,
    "put_in": [0, 0],
    "stacks": [100, 100],
}
"""The keys both games' infos have, as a default (heads-up) table reports them before its first
hand is settled."""


def check_the_neutral_info_of_the_default_table(
    env_module: Any, names: Iterable[str], expected: Mapping[str, Any]
) -> None:
    """Every agent's info of a default table of ``env_module.env`` just reset is ``expected``
    (the keys ``names``)."""
    env = env_module.env()
    env.reset(seed=0)
    assert all(plain_info(info, names) == expected for info in env.infos.values())


# --- infos: the schema at every step -------------------------------------------------------------
def check_every_aec_info(
    env_module: Any, make_info_schema: Callable[[int], Any], options: dict, masked_action: str
) -> None:
    """Every info of three random games of ``env_module.env`` (under ``options`` and
    ``masked_action``) matches the env's schema: the game's keys (``make_info_schema`` of the
    table's seats), then ``masked_action`` where it is ``"random"``."""
    env = env_module.env(masked_action=masked_action, **options)
    schema = env.unwrapped.info_schema
    check_aec_info_names(
        schema, make_info_schema(env.unwrapped.game.num_players).names, masked_action
    )
    play_aec_games(env, range(3), np.random.default_rng(0), schema=schema)


def check_every_gymnasium_info(gym_id: str, env_module: Any, options: dict) -> None:
    """Every info of three random games of the Gymnasium id (a random opponent) matches its
    schema: the AEC env's keys, then the mask and the seat."""
    single = gym.make(gym_id, opponent="random", **options)
    base = env_module.raw_env(**options).info_schema
    play_single_seat_games(single, base.names, range(3), np.random.default_rng(1))


# --- infos: content ------------------------------------------------------------------------------
def shown(*hands: str | None) -> list[list[int]]:
    """The ``shown`` key of an info: each seat's cards (``None``: not shown, five ``-1``)."""
    return [[-1] * 5 if hand is None else parse_cards(hand) for hand in hands]


def check_the_settled_hand(
    env: Any, seen: list[dict], names: Iterable[str], seats: int, expected: Mapping[str, Any]
) -> None:
    """The infos ``seen`` of a hand played to its end (every agent's, after each step): the
    game's neutral info until the last step, then ``expected`` (the keys ``names``, numpy
    scalars) for each of the ``seats`` agents."""
    neutral = plain_info(env.unwrapped.game._neutral_info, names)
    for infos in seen[:-1]:  # neutral until the hand is settled, for every agent
        assert all(plain_info(info, names) == neutral for info in infos.values())
    final = seen[-1]
    assert set(final) == {f"player_{s}" for s in range(seats)}
    for info in final.values():
        assert plain_info(info, names) == expected
        assert isinstance(info["hand"], np.integer) and isinstance(info["showdown"], np.bool_)


def check_hidden_cards_stay_hidden(
    envs: list[Any], names: Iterable[str], rng: np.random.Generator, *, may_part: bool = False
) -> None:
    """Two envs whose games differ in one hidden card, played by the same random moves: every
    seat's info (the keys ``names``) is the same in both at every step until a showdown shows
    the cards, over more than one step. With ``may_part`` the games stop where the second one
    refuses the move (the hands differ in what it allows)."""
    compared = 0
    while envs[0].agents:
        if any(env.infos["player_0"]["showdown"] for env in envs):
            break  # a showdown showed the hands: from here on the reports may differ
        for agent in envs[0].agents:
            assert plain_info(envs[0].infos[agent], names) == plain_info(
                envs[1].infos[agent], names
            )
        compared += 1
        obs, _, term, trunc, _ = envs[0].last()
        if term or trunc:
            break
        action = random_action(rng, obs["action_mask"])
        if may_part and not envs[1].last()[0]["action_mask"][action]:
            break  # the hands differ in what the move allows: the games part
        for env in envs:
            env.step(action)
    assert compared > 1


def check_shown_only_after_a_showdown(
    env: Any,
    last_report: Callable[[Any], Mapping[str, Any] | None],
    shown_row: Callable[[str], list[int]],
) -> None:
    """Over twenty random games of ``env``: a seat's cards are in the info's ``shown`` only
    after a showdown it reached (``last_report(state)``, the last hand's report, or ``None``
    before the first), and then they are ``shown_row(cards)``; some game has a showdown."""
    rng = np.random.default_rng(5)
    showdowns = 0
    for seed in range(20):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            report = last_report(env.unwrapped.game_state)
            if report is None:
                assert (info["shown"] == -1).all()
            else:
                for seat, cards in enumerate(report["shown"]):
                    row = info["shown"][seat].tolist()
                    assert row == ([-1] * 5 if cards is None else shown_row(cards))
                    assert cards is None or report["showdown"]
                showdowns += report["showdown"]
            env.step(None if term or trunc else random_action(rng, obs["action_mask"]))
    assert showdowns > 0


# --- state ----------------------------------------------------------------------------------------
def decoded_betting(env: Any, vector: np.ndarray) -> dict[str, Any]:
    """What the state table says of the table and the betting, read back by its index table."""
    layout = env.unwrapped.game.state_layout
    v = np.asarray(vector)

    def field(name: str) -> list:
        return v[layout[name]].astype(np.int64).tolist()

    to_act = np.flatnonzero(v[layout["to_act"]])
    return {
        "to_act": int(to_act[0]) if to_act.size else -1,
        "dealer": int(np.argmax(v[layout["dealer"]])),
        "hand_number": field("hand_number")[0],
        "pot": field("pot")[0],
        "current_bet": field("current_bet")[0],
        "bets_made": field("bets_made")[0],
        "stacks": field("stacks"),
        "round_bets": field("round_bets"),
        "committed": field("committed"),
        "start_stacks": field("start_stacks"),
        "dealt": [bool(x) for x in field("dealt")],
        "in_hand": [bool(x) for x in field("in_hand")],
        "history": field("history"),
    }


def engine_betting(env: Any) -> dict[str, Any]:
    """The engine's table and betting, as :func:`decoded_betting` reads them (but for the hand
    number, the pot and the history, each game's own)."""
    game, state = env.unwrapped.game, env.unwrapped.game_state
    b = state.betting
    return {
        "to_act": game.current_player(state),
        "dealer": state.dealer,
        "current_bet": b.current_bet,
        "bets_made": b.bets,
        "stacks": list(b.stacks),
        "round_bets": list(b.round_bets),
        "committed": list(b.committed),
        "start_stacks": list(state.start_stacks),
        "dealt": list(b.dealt),
        "in_hand": [b.in_hand(s) for s in range(game.num_players)],
    }


# --- observations: unchanged ----------------------------------------------------------------------
def observation_digest(
    raw_env: Callable[..., Any],
    single_env: Callable[..., Any],
    option_sets: Iterable[dict],
    fixed: list[int],
) -> str:
    """Every observation (all seats, every step) of seeded random games and of the fixed pack
    ``fixed`` (seed 0), through the AEC env (``raw_env``) and the Gymnasium env
    (``single_env``, a random opponent, a random seat), as ``float32`` bytes, under each of
    ``option_sets``: their sha256."""
    digest = hashlib.sha256()
    for options in option_sets:
        for seed in range(3):
            rng = np.random.default_rng(seed)
            env = raw_env(**options)
            env.reset(seed=seed, options=None if seed else {"cards": fixed})
            for _agent in env.agent_iter():
                for other in env.possible_agents:
                    obs = env.observe(other)["observation"]
                    assert obs.dtype == np.float32
                    digest.update(obs.tobytes())
                o, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else random_action(rng, o["action_mask"]))
        single = single_env(opponent="random", seat=None, **options)
        for seed in range(2):
            for o in single_seat_episode(single, np.random.default_rng(seed), seed):
                digest.update(o.tobytes())
    return digest.hexdigest()
