"""Hard-deal replay (:mod:`pokerzoo.training.replay`): which deals are kept, dealt again and let
go, and a replayed Quintet deal is the lost game's cards, seat and bot."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.config import ConfigError, from_dict
from pokerzoo.training.opponents import OpponentPool, PoolSeatEnv
from pokerzoo.training.replay import DealReplay, KeptDeal
from pokerzoo.training.train import make_training_env, validate_for_game


def deal(seed: int) -> KeptDeal:
    return KeptDeal(seed, 0, (("greedy", seed + 1),))


def test_an_empty_buffer_or_a_zero_share_draws_nothing_from_the_generator() -> None:
    rng, same = np.random.default_rng(5), np.random.default_rng(5)
    assert DealReplay(0.5, ["greedy"]).draw(rng) is None
    zero = DealReplay(0.0, ["greedy"])
    zero.settle(deal(1), replayed=False, won=False)
    assert zero.draw(rng) is None
    assert rng.random() == same.random()


def test_a_lost_deal_is_kept_replayed_until_won_and_the_oldest_goes_first() -> None:
    replay = DealReplay(1.0, ["greedy"], capacity=2)
    replay.settle(deal(1), replayed=False, won=True)
    assert replay.deals == []  # a fresh deal won is not kept
    replay.settle(deal(1), replayed=False, won=False)
    replay.settle(deal(2), replayed=False, won=False)
    rng = np.random.default_rng(0)
    drawn = replay.draw(rng)
    assert drawn in (deal(1), deal(2)) and replay.replays == 1
    replay.settle(drawn, replayed=True, won=False)  # lost again: stays
    assert replay.deals == [deal(1), deal(2)]
    replay.settle(deal(2), replayed=True, won=True)  # won: leaves
    assert replay.deals == [deal(1)]
    replay.settle(deal(3), replayed=False, won=False)
    replay.settle(deal(4), replayed=False, won=False)  # full: deal 1 goes
    assert replay.deals == [deal(3), deal(4)]


def test_only_deals_against_the_named_bots_are_kept() -> None:
    replay = DealReplay(0.5, ["greedy", "sacrifice"])
    assert replay.replayable(["greedy"]) and replay.replayable(["sacrifice", "greedy"])
    assert not replay.replayable(["mixed"]) and not replay.replayable(["greedy", ""])


def test_a_kept_deal_leaves_after_its_wins_in_a_row() -> None:
    replay = DealReplay(1.0, ["greedy"], wins=2)
    replay.settle(deal(1), replayed=False, won=False)
    replay.settle(deal(1), replayed=True, won=True)
    replay.settle(deal(1), replayed=True, won=False)  # the count starts again
    replay.settle(deal(1), replayed=True, won=True)
    assert replay.deals == [deal(1)] and replay.won == {deal(1): 1}
    replay.settle(deal(1), replayed=True, won=True)
    assert replay.deals == [] and replay.won == {}
    replay.settle(deal(1), replayed=True, won=False)  # a deal no longer kept stays out
    assert replay.deals == []


@pytest.mark.parametrize("share", [-0.1, 1.5])
def test_a_share_outside_zero_and_one_is_refused(share: float) -> None:
    with pytest.raises(ValueError, match=f"bad replay share {share}"):
        DealReplay(share, ["greedy"])


def quintet_view(share: float, seed: int = 3) -> PoolSeatEnv:
    spec = get_game("quintet")
    pool = OpponentPool(lambda name: spec.make_bot(name, seed=None), {"greedy": 1, "random": 1})
    view = PoolSeatEnv(spec.make_aec(), pool, replay=DealReplay(share, ["greedy"]))
    view.reset(seed=seed)
    return view


def play(view: PoolSeatEnv) -> float:
    """The first legal card every turn, to the end; the learner's return."""
    total = 0.0
    while True:
        action = int(np.flatnonzero(view.action_masks())[0])
        _, reward, terminated, truncated, _ = view.step(action)
        total += reward
        if terminated or truncated:
            return total


def games(view: PoolSeatEnv, n: int) -> list[dict[str, Any]]:
    """``n`` deals played by :func:`play`: each one's first observation, seat, bot, whether it
    was a replay, the deals kept when it began, and its return."""
    out = []
    for _ in range(n):
        seen, info = view.observe()
        (bot,) = view.opponents.values()
        start = {"seen": seen.copy(), "seat": int(info["seat"]), "bot": bot.name}
        start["replayed"], start["kept"] = view._replayed, list(view.replay.deals)
        start["result"] = play(view)
        out.append(start)
        view.reset()
    return out


def test_a_quintet_deal_lost_to_greedy_is_dealt_again_with_its_seat_and_bot() -> None:
    played = games(quintet_view(share=1.0), 12)
    lost = [
        i
        for i, game in enumerate(played)
        if not game["replayed"] and game["result"] <= 0 and game["bot"] == "greedy"
    ]
    assert lost, "the first-card player should lose some deal to greedy"
    first, again = played[lost[0]], played[lost[0] + 1]
    # share 1: the next deal replays it (the only deal kept) ...
    assert again["replayed"] and len(again["kept"]) == 1
    assert np.array_equal(again["seen"], first["seen"])
    assert (again["seat"], again["bot"]) == (first["seat"], first["bot"])
    # ... and the same player loses the same game again, so it stays kept
    assert again["result"] == first["result"]
    assert all(game["replayed"] for game in played[lost[0] + 1 :])
    # deals won or played against random were never kept
    assert not any(game["bot"] == "random" for game in played[lost[0] + 1 :])


def test_a_seeded_view_replays_the_same_deals() -> None:
    first, second = games(quintet_view(0.5, seed=11), 10), games(quintet_view(0.5, seed=11), 10)
    assert [g["replayed"] for g in first] == [g["replayed"] for g in second]
    assert all(np.array_equal(a["seen"], b["seen"]) for a, b in zip(first, second, strict=True))
    assert any(g["replayed"] for g in first)


def test_a_reset_that_raises_leaves_the_deal_in_progress_and_the_buffer_as_they_were() -> None:
    view = quintet_view(share=1.0)
    for _ in range(12):  # until a deal is kept
        play(view)
        view.reset()
        if view.replay.deals:
            break
    assert view.replay.deals
    seen, info = view.observe()
    state = (view._kept, view._replayed, view._return, view.replay.replays)
    with pytest.raises(ValueError, match="cards"):
        view.reset(options={"cards": [1, 2, 3]})
    assert (view._kept, view._replayed, view._return, view.replay.replays) == state
    after, after_info = view.observe()
    assert np.array_equal(after, seen) and after_info["seat"] == info["seat"]


def config(**opponents: Any) -> dict[str, Any]:
    return {
        "game": "quintet",
        "n_envs": 2,
        "vec_env": "dummy",
        "opponents": {"bots": {"greedy": 1, "mixed": 1}, **opponents},
    }


def test_the_config_names_the_replayed_bots_among_the_pools() -> None:
    spec = get_game("quintet")
    with pytest.raises(ConfigError, match="replay_bots: 'sacrifice' is not in opponents.bots"):
        validate_for_game(from_dict(config(replay_share=0.2, replay_bots=["sacrifice"])), spec)
    with pytest.raises(ConfigError, match="replay_share: 0.2 .* names none"):
        validate_for_game(from_dict(config(replay_share=0.2)), spec)
    with pytest.raises(ConfigError, match="replay_share"):
        from_dict(config(replay_share=1.5, replay_bots=["greedy"]))


def test_a_training_env_with_a_replay_share_gives_each_table_its_own_buffer() -> None:
    venv = make_training_env(from_dict(config(replay_share=0.2, replay_bots=["greedy"])))
    try:
        views = [env.unwrapped for env in venv.unwrapped.envs]
        replays = [view.replay for view in views]
        assert all(isinstance(r, DealReplay) for r in replays) and replays[0] is not replays[1]
        assert replays[0].share == 0.2 and replays[0].bots == {"greedy"}
    finally:
        venv.close()
    venv = make_training_env(from_dict(config()))
    try:
        assert all(env.unwrapped.replay is None for env in venv.unwrapped.envs)
    finally:
        venv.close()
