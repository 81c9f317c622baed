"""Poker without a name's infos (the same numeric keys at every step), its whole state
(``env.state()``) and its ``float32`` observations (the values of the ``int16`` ones before, and
the same decoded views, features, seeds and bot moves whatever the dtype).

The module-level names are the ones the code before issue 27 had too, so the digests pinned
below (``OLD_*``) can be recomputed on that code: ``_observation_digest()``,
``_feature_digest()`` and ``_bot_digest()`` printed these values there.
"""

from __future__ import annotations

import hashlib
import importlib
import warnings
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from pokerzoo.agents.nameless_poker import BOTS
from pokerzoo.envs import nameless_poker_v0
from pokerzoo.envs.core.cards import JOKER, NUM_CARD_IDS, parse_card, parse_cards
from pokerzoo.envs.nameless_poker import (
    BID,
    LAYOUT,
    LEAD_JOKER,
    PLAY,
    decode_observation,
    pack_order,
)
from pokerzoo.envs.nameless_poker import game as engine
from pokerzoo.envs.nameless_poker.env import NamelessPokerEnv

from tests.helpers import aec_infos, cases, check_info, data_file

GYM_ID = "pokerzoo/NamelessPoker-v0"
KEYS = ("deal", "deal_kind", "bids", "tricks", "deal_scores", "totals", "winners")
NEUTRAL = {
    "deal": 0,
    "deal_kind": -1,
    "bids": [-1] * 4,
    "tricks": [0] * 4,
    "deal_scores": [0] * 4,
    "totals": [0] * 4,
    "winners": [False] * 4,
}
COPIES = [1] * JOKER + [2]


def _plain(info: dict) -> dict:
    """The game's keys of an info as plain lists, for comparisons."""
    return {k: np.asarray(info[k]).tolist() for k in KEYS}


def _move(token: str) -> int:
    """``"b2"`` bid 2, ``"As"`` play it, ``"Jk>h"`` lead a joker calling hearts."""
    if token.startswith("b") and token[1:].isdigit():
        return BID + int(token[1:])
    if ">" in token:
        return LEAD_JOKER + "shdc".index(token.split(">")[1])
    return PLAY + parse_card(token)


def _random_moves(rng: np.random.Generator) -> Any:
    return lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


# --- infos -------------------------------------------------------------------------------------
@pytest.mark.parametrize("masked_action", ["raise", "random"])
@pytest.mark.parametrize(
    "options",
    [{}, {"deals": [3, 20, 24, 28], "dealer_restriction": True, "reward": "relative"}],
    ids=["30 deals", "one of each kind"],
)
def test_every_info_of_an_aec_game_matches_the_schema(masked_action: str, options: dict) -> None:
    env = nameless_poker_v0.env(masked_action=masked_action, **options)
    schema = env.unwrapped.info_schema
    assert schema.names[: len(KEYS)] == KEYS
    assert ("masked_action" in schema.names) == (masked_action == "random")
    assert "action_mask" not in schema.names  # the mask is in the observation only
    rng = np.random.default_rng(0)
    act = _random_moves(rng)
    for seed in range(1 if not options else 3):
        env.reset(seed=seed)
        settled, final = [], {}
        for agent in env.agent_iter():
            for other in env.agents:
                check_info(env.infos[other], schema)
            obs, _, term, trunc, info = env.last()
            check_info(info, schema)
            settled.append(info["deal"])
            if term or trunc:
                final[agent] = _plain(info)
            env.step(None if term or trunc else act(obs))
        deals = options.get("deals", list(range(1, 31)))
        assert sorted(set(settled)) == sorted([0, *deals])  # each deal settled in turn
        assert set(final) == set(env.possible_agents)
        assert all(f == final["player_0"] for f in final.values())
        assert any(final["player_0"]["winners"])


def test_every_info_of_the_gymnasium_id_matches_the_schema() -> None:
    base = nameless_poker_v0.raw_env(masked_action="random").info_schema
    env = gym.make(GYM_ID, deals=[1, 19, 23, 27], opponent="rules", masked_action="random")
    view = env.unwrapped
    # the AEC info, then what the Gymnasium view adds: the mask and the seat
    assert view.info_schema.names == (*base.names, "action_mask", "seat")
    for seed in range(3):
        _, info = env.reset(seed=seed)
        assert _plain(info) == NEUTRAL
        done = False
        rewards = 0.0
        while True:
            assert view.aec.possible_agents[info["seat"]] == view.learner
            assert set(view.opponents) == set(view.aec.possible_agents) - {view.learner}
            assert info["action_mask"].shape == (66,) and info["action_mask"].dtype == np.int8
            check_info(info, view.info_schema)
            if done:
                break
            mask = info["action_mask"]
            _, reward, term, trunc, info = env.step(int(np.flatnonzero(mask)[0]))
            rewards += reward
            done = term or trunc
        seat = int(info["seat"])
        assert info["deal"] == 27 and info["totals"][seat] == rewards and info["winners"].any()


FILE = "nameless_infos.yaml"  # the case tables, in tests/data
STRONG_HANDS: list[str] = data_file(FILE)["strong_hands"]
"""Four hands that decide every trick: player_1 holds the top trumps with the 2s turned."""


def _play_fixed(env: Any, moves: str) -> tuple[list[dict], dict]:
    """Play ``moves`` (then the first legal action) to the end: every info seen before the end,
    and each agent's info at the end."""
    script = iter(moves.split())

    def move(_: str, obs: dict) -> int:
        token = next(script, None)
        return int(np.flatnonzero(obs["action_mask"])[0]) if token is None else _move(token)

    return aec_infos(env, move)


@pytest.mark.parametrize(
    ("hands", "turned", "dealer", "deal", "moves", "bids", "tricks", "scores", "winners"),
    cases(FILE, "fixed_deal"),
)
def test_info_content_on_a_fixed_deal(
    hands: list[str],
    turned: str,
    dealer: int,
    deal: int,
    moves: str,
    bids: list[int],
    tricks: list[int],
    scores: list[int],
    winners: list[bool],
) -> None:
    env = nameless_poker_v0.env(deals=[deal])
    env.reset(seed=0, options={"cards": pack_order(hands, turned, dealer=dealer), "dealer": dealer})
    assert _decode_state(env.state())["stock"] == sorted(
        set(range(JOKER)) - set(parse_cards(" ".join(hands) + " " + turned))
    ) + [JOKER] * (2 - (" ".join(hands) + " " + turned).count("Jk"))
    seen, final = _play_fixed(env, moves)
    assert seen and all(_plain(info) == NEUTRAL for info in seen)
    expected = {
        "deal": deal,
        "deal_kind": (deal > 18) + (deal > 22) + (deal > 26),
        "bids": bids,
        "tricks": tricks,
        "deal_scores": scores,
        "totals": scores,
        "winners": winners,
    }
    assert set(final) == set(env.possible_agents)
    assert all(_plain(info) == expected for info in final.values())
    assert all(isinstance(info["deal_kind"], (int, np.integer)) for info in final.values())


def test_the_info_holds_the_last_deal_settled_until_the_next_is() -> None:
    env = nameless_poker_v0.env(deals=[1, 2, 23])
    env.reset(seed=4, options={"cards": pack_order(["2h", "As", "3h", "4h"], "2d")})
    rng = np.random.default_rng(1)
    script = iter(["b1", "b0", "b1", "b0", "As", "3h", "4h", "2h"])
    history: list[dict] = []
    for _agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        plain = _plain(info)
        if not history or plain != history[-1]:
            history.append(plain)
        if not (term or trunc):
            token = next(script, None)
            env.step(_random_moves(rng)(obs) if token is None else _move(token))
        else:
            env.step(None)
    assert [h["deal"] for h in history] == [0, 1, 2, 23]  # changed only when a deal was settled
    first, second, last = history[1:]
    assert first["totals"] == [5, 10, 5, -10] and first["winners"] == [False] * 4
    assert second["bids"] != [-1] * 4 and sum(second["tricks"]) == 2  # two cards a seat
    assert second["totals"] == np.add(first["totals"], second["deal_scores"]).tolist()
    assert last["bids"] == [-1] * 4 and last["deal_kind"] == 2 and sum(last["tricks"]) == 8
    assert last["totals"] == np.add(second["totals"], last["deal_scores"]).tolist()
    best = max(last["totals"])
    assert last["winners"] == [t == best for t in last["totals"]]


# --- state -------------------------------------------------------------------------------------
def _cards(counts: np.ndarray) -> list[int]:
    return np.repeat(np.arange(NUM_CARD_IDS), np.asarray(counts).astype(int)).tolist()


def _one(v: np.ndarray) -> int:
    """The index of a one-hot field, -1 when it is all zero."""
    hot = np.flatnonzero(v)
    assert hot.size <= 1
    return int(hot[0]) if hot.size else -1


def _decode_state(vector: np.ndarray) -> dict:
    """What :data:`STATE_LAYOUT` says, read back by its index table."""
    layout = engine.STATE_LAYOUT
    v = np.asarray(vector)
    f = {field.name: v[layout[field.name]] for field in layout.fields}
    made = f["bid_made"]
    phase = _one(f["phase"])
    trump = _one(f["trump"])
    return {
        "hands": [_cards(h) for h in f["hands"].reshape(4, NUM_CARD_IDS)],
        "turned": _one(f["turned_card"]),
        "trump": -1 if trump == 4 else trump,
        "stock": _cards(f["stock"]),
        "deal": int(f["deal"][0]),
        "kind": _one(f["deal_kind"]),
        "hand_size": int(f["hand_size"][0]),
        "deals_left": int(f["deals_left"][0]),
        "deals_to_come": (np.flatnonzero(f["deals_to_come"]) + 1).tolist(),
        "dealer": _one(f["dealer"]),
        "phase": {-1: None, 0: "bidding", 1: "play"}[phase],
        "to_act": _one(f["to_act"]),
        "leader": _one(f["leader"]),
        "bids": [int(b) if m else None for b, m in zip(f["bids"], made, strict=True)],
        "tricks": f["tricks"].astype(int).tolist(),
        "trick": [_one(s) for s in f["trick"].reshape(3, NUM_CARD_IDS) if s.any()],
        "called": _one(f["called_suit"]),
        "played": f["played"].astype(int).tolist(),
        "voids": f["voids"].reshape(4, 5).astype(int).tolist(),
        "totals": f["totals"].astype(int).tolist(),
        "deal_scores": f["deal_scores"].astype(int).tolist(),
    }


def _engine_view(state: Any) -> dict:
    over = state.to_act < 0
    return {
        "hands": [list(h) for h in state.hands],
        "turned": state.turned,
        "trump": state.trump,
        "deal": state.deal,
        "kind": state.kind,
        "hand_size": state.hand_size,
        "deals_left": max(len(state.deals) - state.deal_index - 1, 0),
        "deals_to_come": sorted(state.deals[state.deal_index + 1 :]),
        "dealer": state.dealer,
        "phase": None if over else ("bidding" if state.bidding else "play"),
        "to_act": state.to_act,
        "leader": -1 if over else state.leader,
        "bids": list(state.bids),
        "tricks": list(state.tricks),
        "trick": list(state.trick),
        "called": state.called,
        "played": state.played.tolist(),
        "voids": state.voids.tolist(),
        "totals": list(state.totals),
        "deal_scores": list(state.results[-1]["deal_scores"]) if state.results else [0] * 4,
    }


@pytest.mark.parametrize(
    "options",
    [{"deals": [1, 8, 19, 23, 27]}, {"deals": [8, 20, 4], "dealer_restriction": True}],
    ids=["one of each kind", "dealer restriction"],
)
def test_state_decodes_back_to_the_engine_state_at_every_step(options: dict) -> None:
    env = nameless_poker_v0.env(**options)
    assert env.state_space.shape == (engine.STATE_LAYOUT.size,)
    assert env.state_space.dtype == np.float32
    rng = np.random.default_rng(2)
    for seed in range(2):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            state = env.state()
            assert state.dtype == np.float32 and env.state_space.contains(state)
            decoded = _decode_state(state)
            stock = decoded.pop("stock")
            assert decoded == _engine_view(env.unwrapped.game_state)
            # every card lies somewhere: the hands, the cards played, the turned card, the stock
            every = sorted(sum(decoded["hands"], []) + _cards(decoded["played"]) + stock)
            assert sorted([*every, decoded["turned"]]) == _cards(np.array(COPIES))
            assert len(stock) == 54 - 1 - 4 * decoded["hand_size"]
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else _random_moves(rng)(obs))
        assert env.state_space.contains(env.state())


def test_the_state_holds_what_the_observations_hide() -> None:
    env = nameless_poker_v0.env(deals=[20])  # dark: own hands hidden until the bid
    env.reset(seed=3)
    state = _decode_state(env.state())
    for seat, agent in enumerate(env.possible_agents):
        view = decode_observation(env.observe(agent)["observation"])
        assert view.hand == () and view.hand_hidden and len(state["hands"][seat]) == 8
    assert state["stock"] and not set(state["stock"]) & set(sum(state["hands"], []))


def test_state_bounds_are_finite_and_pettingzoo_state_test_passes() -> None:
    state_test = importlib.import_module("pettingzoo.test.state_test")
    space = nameless_poker_v0.raw_env().state_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert (space.low < space.high).all() and space.low.min() == -2400
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for options in ({}, {"deals": [19, 23]}):
            env = nameless_poker_v0.env(masked_action="random", **options)
            state_test.test_state_space(env)
            state_test.test_state(env, num_cycles=80)
    assert not [str(w.message) for w in caught if "state" in str(w.message).lower()]


# --- observations: float32, the same values -----------------------------------------------------
OLD_OBSERVATIONS = "7f79145f544ad5514591c5b0a815f44a36ddcb3641498a72cbf9cb4149b3b0ae"
"""sha256 of :func:`_observation_digest` as the ``int16`` encoder (before issue 27) wrote it."""
OLD_FEATURES = "3cb513c2051353e30dc08700fa9173fc86c69729ba7c3b58bb27d944c1a85fc6"
"""sha256 of :func:`_feature_digest` on the code before issue 27 (``int16`` observations). The
digest over the four sets then, the removed ``"target"`` set included, was 93a098f9...; this
one, over the three left, is what the code of commit 65b7264 (the last with ``"target"``, whose
four-set digest matched the old one) computes for them."""
OLD_BOTS = "31ec05e8de474f3f1c0a4ed3b19fe59dae26aeed616a62a6dd977d89d6c66381"
"""sha256 of :func:`_bot_digest` on the code before issue 27 (``int16`` observations)."""
DIGEST_OPTIONS = [
    {"deals": [1, 8, 19, 23, 27]},
    {"deals": [3, 20], "dealer_restriction": True, "reward": "relative"},
]


def _observations() -> np.ndarray:
    """Observations of seeded and fixed deals through the AEC env (the agent to act and its
    left neighbour) and the Gymnasium env, in their own dtype."""
    seen: list[np.ndarray] = []
    for k, options in enumerate(DIGEST_OPTIONS):
        for seed, cards in ((0, None), (1, None), (2, pack_order(STRONG_HANDS, "Jk", dealer=3))):
            rng = np.random.default_rng(10 * k + seed)
            env = nameless_poker_v0.env(**options)
            reset: dict = {} if cards is None else {"cards": cards, "dealer": 3}
            env.reset(seed=seed, options=reset or None)
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                seen.append(obs["observation"])
                left = env.possible_agents[(env.possible_agents.index(agent) + 1) % 4]
                seen.append(env.observe(left)["observation"])
                env.step(None if term or trunc else _random_moves(rng)(obs))
        single = NamelessPokerEnv(opponent="rules", seat=k, **options)
        obs, info = single.reset(seed=k)
        seen.append(obs)
        done = False
        rng = np.random.default_rng(k)
        while not done:
            obs, _, term, trunc, info = single.step(
                int(rng.choice(np.flatnonzero(info["action_mask"])))
            )
            seen.append(obs)
            done = term or trunc
    return np.stack(seen)


def _sha(*arrays: np.ndarray) -> str:
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def _observation_digest() -> str:
    """The observations of :func:`_observations` as ``int16`` bytes (whole values checked)."""
    observations = _observations()
    assert np.array_equal(observations, observations.astype(np.int16))
    return _sha(observations.astype(np.int16))


def _to_move(observations: np.ndarray) -> np.ndarray:
    """The observations of a seat to act (every one the features sample for)."""
    return np.stack([o for o in observations if decode_observation(o).to_act == 0])


def _feature_digest(observations: np.ndarray | None = None) -> str:
    """The feature sets of :func:`_observations` (the sampled ones on every 12th seat to act),
    rounded to 1e-5 (the same figures on any CPU)."""
    from pokerzoo.training.games.nameless_poker.features import tricks_features
    from pokerzoo.training.games.nameless_poker.odds import odds_features
    from pokerzoo.training.games.nameless_poker.reach import reach_features

    observations = _observations() if observations is None else observations
    few = _to_move(observations)[::12]
    parts = [tricks_features(observations)]
    parts += [f(few) for f in (odds_features, reach_features)]
    return _sha(*(np.round(p.astype(np.float64), 5) for p in parts))


PINNED_BOTS = ("montecarlo", "random", "rules")
"""The bots :data:`OLD_BOTS` was pinned on (``search`` came after issue 27)."""


def _bot_moves(observations: np.ndarray, names: Sequence[str] = PINNED_BOTS) -> list[list[int]]:
    """Each bot's moves (seeded) on the seat-to-act observations (the Monte-Carlo searches:
    every 40th)."""
    moves = []
    for name in names:
        few = _to_move(observations)[:: 40 if name in ("montecarlo", "search") else 1]
        bot = BOTS[name](seed=5)
        moves.append(
            [
                int(bot.act(o, engine.play_mask(v.hand, v.trick, v.trump, v.called_suit)))
                if not v.bidding
                else int(bot.act(o, _bid_mask(v.hand_size)))
                for o, v in ((o, decode_observation(o)) for o in few)
            ]
        )
    return moves


def _bid_mask(size: int) -> np.ndarray:
    mask = np.zeros(engine.NUM_ACTIONS, dtype=np.int8)
    mask[BID : BID + size + 1] = 1
    return mask


def _bot_digest(observations: np.ndarray | None = None) -> str:
    moves = _bot_moves(_observations() if observations is None else observations)
    return _sha(*(np.array(m, dtype=np.int64) for m in moves))


def test_observations_are_float32_with_the_values_of_the_int16_encoder() -> None:
    spaces = [
        nameless_poker_v0.raw_env().observation_space("player_0")["observation"],
        NamelessPokerEnv().observation_space,
    ]
    for space in spaces:
        assert space.dtype == np.float32 and space.shape == (389,)
        assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
        assert space.low.min() == -2400 and space.high.max() == 2400
    assert LAYOUT.dtype == np.float32 and _observations().dtype == np.float32
    assert _observation_digest() == OLD_OBSERVATIONS


def test_features_are_those_of_the_int16_observations_before() -> None:
    """The features, the sampled ones included (their generator is seeded by the observation's
    ``int16`` values), are the figures the code before issue 27 computed."""
    assert _feature_digest() == OLD_FEATURES


def test_decoded_views_features_and_seeds_do_not_depend_on_the_observation_dtype() -> None:
    from pokerzoo.training.games.nameless_poker.features import tricks_features
    from pokerzoo.training.games.nameless_poker.odds import observation_key, odds_features
    from pokerzoo.training.games.nameless_poker.reach import reach_features

    floats = _observations()
    small = floats.astype(np.int16)
    assert np.array_equal(floats, small) and floats.dtype == np.float32
    for f, s in zip(floats, small, strict=True):
        a, b = decode_observation(f), decode_observation(s)
        for name in a.__dataclass_fields__:
            x, y = getattr(a, name), getattr(b, name)
            if isinstance(x, np.ndarray):
                assert np.array_equal(x, y) and x.dtype == y.dtype, name
            else:
                assert x == y and type(x) is type(y), name
        assert observation_key(f) == observation_key(s) == s.tobytes()
    assert np.array_equal(tricks_features(floats), tricks_features(small))
    few = _to_move(floats)[::24]
    for features in (odds_features, reach_features):
        assert np.array_equal(features(few), features(few.astype(np.int16)))


def test_bots_move_the_same_whatever_the_observation_dtype() -> None:
    floats = _observations()
    every = sorted(BOTS)
    assert _bot_moves(floats, every) == _bot_moves(floats.astype(np.int16), every)
    assert _bot_digest(floats) == OLD_BOTS
