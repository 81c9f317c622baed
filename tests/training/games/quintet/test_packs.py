"""Quintet's "packs" action formulation: the row draft, its observation, the pack-level env over
the card-level one, and the pack-level policy played card by card, on fixed deals."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.agents.quintet import GreedyBot, SacrificeBot
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.core.hands import evaluate
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.quintet import QuintetGame, encode_observation
from pokerzoo.envs.quintet.env import QuintetEnv
from pokerzoo.envs.quintet.packs import candidate_packs
from pokerzoo.training.evaluate import evaluate_agent
from pokerzoo.training.games.quintet.packs import (
    CONTEXT,
    NUM_ACTIONS,
    ORDERS,
    ROW,
    PackFormulation,
    PackRowEnv,
    PlannedRows,
    RowDraft,
    encode_draft,
    ordered_strongest,
)

RULES = QuintetGame()
# Greedy's packs all differ in strength here (see tests/quintet/test_bots.py).
DISTINCT = "Ac Ad Ah As Kc Kd Kh Qc Qd Qh Jd Jh Js Tc Td Ts 9c 9d 9h 9s 8d 8s 7c 7d 7s"
MIXED_DEAL = "Ac Kc Qc Jc Tc 9s 9h 9d 9c As Ah Ad Ks Kh Kd Qs Qh Js Jh 8s 8h 7s 7h 7d Td"
GREEDY = (4, 3, 2, 1, 0)  # the t-th strongest pack at position 4 - t
SACRIFICE = (3, 2, 1, 0, 4)
SAFE_ORDER = (4, 2, 1, 0, 3)  # strongest on 7 points, weakest on 6: beats greedy and sacrifice
K = 16


def _ids(cards: str) -> np.ndarray:
    return np.array(sorted(parse_cards(cards)), dtype=np.int64)


def _lay(draft: RowDraft, rule: tuple[int, ...]) -> None:
    policy = ordered_strongest(rule)
    while not draft.complete:
        observation = encode_draft(draft)
        draft.commit(int(policy(observation[None], draft.mask()[None].astype(bool))[0]))


def _bot_row(bot: object, cards: str) -> list[list[int]]:
    state = RULES.new_state(cards)
    for _ in range(25):
        RULES.apply(state, 0, bot.act(encode_observation(state, 0), RULES.legal_mask(state, 0)))
    return [sorted(pack) for pack in RULES.pack_cards(state, 0)]


@pytest.mark.parametrize(("rule", "bot"), [(GREEDY, GreedyBot()), (SACRIFICE, SacrificeBot())])
@pytest.mark.parametrize("cards", [DISTINCT, MIXED_DEAL])
def test_strongest_candidates_in_a_bots_order_lay_out_that_bots_row(
    rule: tuple[int, ...], bot: object, cards: str
) -> None:
    draft = RowDraft(_ids(cards), K)
    _lay(draft, rule)
    assert [sorted(pack) for pack in draft.row.tolist()] == _bot_row(bot, cards)
    pack_of = draft.pack_of()
    assert sorted(pack_of[_ids(cards)].tolist()) == sorted(list(range(5)) * 5)
    assert (np.delete(pack_of, _ids(cards)) == -1).all()


def test_four_packs_taken_leave_the_fifth_then_one_order_lays_them_out() -> None:
    draft = RowDraft(_ids(DISTINCT), K)
    for step in range(4):
        assert draft.step == step and len(draft.packs) == step
        assert draft.mask()[: len(draft.candidates.keys)].all()
        assert not draft.mask()[len(draft.candidates.keys) :].any()
        draft.commit(1)  # the second-strongest candidate every time
    assert draft.step == 4 and len(draft.packs) == 5 and len(draft.rest) == 0
    assert draft.mask().all() and not draft.complete and (draft.pack_of() == -1).all()
    ranked = np.stack(draft.packs)[draft.ranking()]
    draft.commit(7)
    assert draft.complete and draft.step == 5 and not draft.mask().any()
    assert draft.row.tolist() == ranked[ORDERS[7]].tolist()
    assert sorted(draft.row.ravel().tolist()) == _ids(DISTINCT).tolist()


def test_equal_packs_rank_in_the_order_taken() -> None:
    draft = RowDraft(_ids(DISTINCT), K)
    draft.keys = [5, 9, 5, 9, 1]
    assert draft.ranking().tolist() == [1, 3, 0, 2, 4]


@pytest.mark.parametrize("action", [K, NUM_ACTIONS - 1, -1, NUM_ACTIONS, 2.0, True, "0"])
def test_a_masked_or_bad_decision_raises_and_changes_nothing(action: object) -> None:
    draft = RowDraft(_ids(DISTINCT), K)
    draft.commit(0)
    before = (list(draft.keys), draft.rest.copy(), draft.mask().copy())
    with pytest.raises(IllegalActionError, match="bad pack decision"):
        draft.commit(action)
    assert draft.keys == before[0] and np.array_equal(draft.rest, before[1])
    assert np.array_equal(draft.mask(), before[2])


def test_no_decision_after_the_order() -> None:
    draft = RowDraft(_ids(DISTINCT), K)
    _lay(draft, GREEDY)
    with pytest.raises(IllegalActionError, match="the row is laid out"):
        draft.commit(0)


def test_observation_describes_the_packs_then_the_orders() -> None:
    draft = RowDraft(_ids(DISTINCT), K)
    first = draft.candidates
    draft.commit(0)  # Ad Kd Qd Jd Td
    obs = encode_draft(draft)
    assert obs.shape == (CONTEXT.size + NUM_ACTIONS * ROW.size,) and obs.dtype == np.float32
    context = obs[: CONTEXT.size]
    assert context[CONTEXT["dealt"]].sum() == 25 and context[CONTEXT["remaining"]].sum() == 20
    assert context[CONTEXT["step"]].tolist() == [0, 1, 0, 0, 0]
    assert context[CONTEXT["held"]].tolist() == [1, 0, 0, 0, 0]
    assert context[CONTEXT["held_group"]][0] == pytest.approx(71 / 71)  # ace-high straight flush
    held_category = context[CONTEXT["held_category"]].reshape(5, 9)
    assert held_category[0].tolist() == [0] * 8 + [1] and not held_category[1:].any()
    assert context[CONTEXT["deal_group"]] == pytest.approx(first.groups[0] / 71)
    rows = obs[CONTEXT.size :].reshape(NUM_ACTIONS, ROW.size)
    now = candidate_packs(draft.rest, K)
    n = len(now.keys)
    assert (rows[:n, ROW.start("valid")] == 1).all() and not rows[n:].any()
    assert rows[0, ROW["category"]].tolist() == [0] * 8 + [1]  # J-high straight flush
    assert rows[0, ROW["lead"]].tolist() == [0, 0, 0, 0, 1, 0, 0, 0]
    assert rows[:n, ROW.start("group")].tolist() == pytest.approx((now.groups / 71).tolist())
    stronger = rows[:n, ROW.start("stronger")]
    assert stronger[0] == 0 and (np.diff(stronger) > 0).all()
    assert not rows[:, ROW.start("arranged") :].any()

    for _ in range(3):
        draft.commit(0)
    rows = encode_draft(draft)[CONTEXT.size :].reshape(NUM_ACTIONS, ROW.size)
    assert encode_draft(draft)[CONTEXT["step"]].tolist() == [0, 0, 0, 0, 1]
    assert (
        not rows[:, : ROW.start("arranged")].any() and (rows[:, ROW.start("arranged")] == 1).all()
    )
    places = rows[:, ROW["places"]].reshape(NUM_ACTIONS, 5, 5)
    assert (places.argmax(axis=2) == ORDERS).all() and (places.sum(axis=2) == 1).all()
    groups = np.sort(np.array(draft.groups))[::-1] / 71  # strongest first: greedy's packs
    assert np.allclose(rows[:, ROW["place_group"]], groups[ORDERS])


KEYS_BY_RANK = [9, 9, 5, 5, 1]  # two equal pairs of packs, then the weakest
# (order, the ranks it puts at positions 0..4) -> beats and ties, row p = position p, column r
# = own pack of rank r.
VERSUS = [
    (
        (0, 1, 2, 3, 4),
        [[0, 0, 1, 1, 1], [0, 0, 1, 1, 1], [0, 0, 0, 0, 1], [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]],
        [[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [0, 0, 1, 1, 0], [0, 0, 1, 1, 0], [0, 0, 0, 0, 1]],
    ),
    (
        (4, 2, 0, 1, 3),
        [[0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 1, 1, 1], [0, 0, 1, 1, 1], [0, 0, 0, 0, 1]],
        [[0, 0, 0, 0, 1], [0, 0, 1, 1, 0], [1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [0, 0, 1, 1, 0]],
    ),
]


@pytest.mark.parametrize(("order", "beats", "ties"), VERSUS)
def test_order_rows_compare_each_position_with_each_own_pack(
    order: tuple[int, ...], beats: list[list[int]], ties: list[list[int]]
) -> None:
    draft = RowDraft(_ids(DISTINCT), K)
    for _ in range(4):
        draft.commit(0)
    draft.keys = [5, 9, 1, 9, 5]  # taken in this order: ranks 2, 0, 4, 1, 3
    assert np.asarray(draft.keys)[draft.ranking()].tolist() == KEYS_BY_RANK
    rows = encode_draft(draft)[CONTEXT.size :].reshape(NUM_ACTIONS, ROW.size)
    action = ORDERS.tolist().index(list(order))
    assert rows[action, ROW["beats"]].reshape(5, 5).tolist() == beats
    assert rows[action, ROW["ties"]].reshape(5, 5).tolist() == ties
    # Every order: stronger, equal or weaker, exactly one of them.
    stronger = rows[:, ROW["beats"]] + rows[:, ROW["ties"]]
    assert set(np.unique(stronger).tolist()) == {0, 1}
    assert (rows[:, ROW["ties"]].reshape(-1, 5, 5).sum(axis=(1, 2)) == 9).all()


def test_pack_env_plays_the_row_into_the_card_level_game() -> None:
    env = PackRowEnv(QuintetEnv(opponent="greedy"), K)
    rule = ordered_strongest(SACRIFICE)
    obs, info = env.reset(seed=3, options={"cards": DISTINCT})
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["seat"] == 0  # player_0
    rewards = []
    for _ in range(5):
        action = int(rule(obs[None], env.action_masks()[None])[0])
        obs, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
    assert terminated and not truncated
    assert rewards == [0.0] * 4 + [18.0 - 7.0]  # sacrifice beats greedy at positions 1-4
    assert info["points"].tolist() == [18, 7]
    assert not info["action_mask"].any()
    with pytest.raises(GameOverError):
        env.step(0)


@pytest.mark.parametrize("opponent", ["greedy", "random", "sacrifice"])
def test_pack_env_plays_a_bare_seat_as_through_a_wrapper(opponent: str) -> None:
    """Over a bare single-seat env the row's cards are read off the game's state and the
    learner's observation once, after the last card; through a wrapper every card goes
    through ``step``. Both give the same observations, rewards, masks and infos, the seat
    drawn each deal, and the same bots' replies (the bare env's game ends as the wrapped one's
    does), and a step after the end raises on both."""
    import gymnasium as gym

    def play(env: PackRowEnv) -> list[tuple[object, ...]]:
        rng = np.random.default_rng(4)
        seen = []
        for deal in range(6):
            obs, info = env.reset(seed=deal)
            seen.append((obs, info))
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(env.action_masks())))
                obs, reward, terminated, truncated, info = env.step(action)
                done = terminated or truncated
                seen.append((obs, reward, terminated, truncated, info, env.action_masks()))
            with pytest.raises(GameOverError):
                env.step(0)
        return seen

    bare = PackRowEnv(QuintetEnv(opponent=opponent, seat=None), K)
    wrapped = PackRowEnv(gym.Wrapper(QuintetEnv(opponent=opponent, seat=None)), K)
    got, expected = play(bare), play(wrapped)
    assert len(got) == len(expected) == 6 * 6
    assert {int(step[4]["seat"]) for step in got if len(step) == 6} == {0, 1}
    for a, b in zip(got, expected, strict=True):
        for x, y in zip(a, b, strict=True):
            if isinstance(x, dict):
                assert x.keys() == y.keys()
                for key in x:
                    assert np.array_equal(x[key], y[key]), key
            else:
                assert np.array_equal(x, y)


def test_pack_env_rejects_a_masked_decision() -> None:
    env = PackRowEnv(QuintetEnv(opponent="random"), K)
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(IllegalActionError):
        env.step(NUM_ACTIONS - 1)  # an order, while packs are taken


def test_planned_rows_play_the_game_card_by_card() -> None:
    spec = get_game("quintet")
    greedy = PlannedRows(ordered_strongest(GREEDY), K)
    result = evaluate_agent(spec, greedy, {}, episodes=3, opponents=["greedy"])
    assert result.opponents["greedy"].draw.value == 1.0  # the same row as the greedy bot
    best = PackFormulation().native_policy(ordered_strongest(SAFE_ORDER))
    result = evaluate_agent(spec, best, {}, episodes=4, opponents=["greedy", "sacrifice"])
    assert result.opponents["greedy"].win.value == 1.0
    assert result.opponents["sacrifice"].win.value == 1.0


def test_planned_rows_plan_once_per_deal_and_follow_the_plan() -> None:
    calls: list[int] = []
    rule = ordered_strongest(GREEDY)

    def counting(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(observations))
        return rule(observations, masks)

    planned = PlannedRows(counting, K)
    bot = GreedyBot()
    state = RULES.new_state(MIXED_DEAL)
    for _ in range(25):
        obs, mask = encode_observation(state, 0), RULES.legal_mask(state, 0)
        action = int(planned(obs[None], mask[None].astype(bool))[0])
        assert action == bot.act(obs, mask)
        RULES.apply(state, 0, action)
    assert calls == [1] * 5  # five decisions at the first card, none after


def test_planned_rows_cache_is_bounded() -> None:
    planned = PlannedRows(ordered_strongest(GREEDY), K, cache=2)
    deals = [RULES.new_state(rng=np.random.default_rng(seed)) for seed in range(3)]
    for state in deals:
        obs = encode_observation(state, 0)
        planned(obs[None], RULES.legal_mask(state, 0)[None].astype(bool))
    assert len(planned._rows) == 2


def test_rule_orders_are_checked() -> None:
    with pytest.raises(ValueError, match="bad positions"):
        ordered_strongest((4, 3, 2, 1, 1))


def test_formulation_lays_out_one_row_per_decision() -> None:
    formulation = PackFormulation(candidates=8)
    layout = formulation.features["candidates"].per_action
    assert (layout.offset, layout.actions, layout.width) == (CONTEXT.size, 120, ROW.size)
    env = formulation.wrap(QuintetEnv())
    assert env.action_space.n == 120
    obs, info = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape and info["action_mask"].sum() == 8
    assert np.array_equal(formulation.features["candidates"](obs), obs)


def test_the_strongest_rule_puts_each_pack_on_its_points() -> None:
    rule = PackFormulation().rules["strongest"]
    assert rule.features == "candidates"
    by_rule, by_positions = RowDraft(_ids(DISTINCT), K), RowDraft(_ids(DISTINCT), K)
    policy = rule.policy(None)
    while not by_rule.complete:
        obs, mask = encode_draft(by_rule), by_rule.mask()[None].astype(bool)
        by_rule.commit(int(policy(obs[None], mask)[0]))
    _lay(by_positions, (3, 4, 1, 0, 2))  # 6, 7, 4, 3 and 5 points
    assert by_rule.row.tolist() == by_positions.row.tolist()
    keys = [int(k) for k in np.sort(by_rule.keys)[::-1]]  # strongest first, all distinct here
    row_keys = [keys.index(int(k)) for k in evaluate(by_rule.row, "quintet")]
    assert row_keys == [3, 2, 4, 0, 1]  # the strength rank of the pack at 3, 4, ..., 7 points


def test_padding_rows_are_never_legal() -> None:
    """The layout's promise (``padding``): every legal action's row has a value that is not
    zero, and every other row is zeros, at every decision, on fixed deals and on random rows of
    random deals."""
    layout = PackFormulation().features["candidates"].per_action
    assert layout.padding
    rng = np.random.default_rng(3)
    deals = [_ids(DISTINCT), _ids(MIXED_DEAL)]
    deals += [np.sort(rng.choice(32, 25, replace=False) + 20) for _ in range(30)]
    decisions = 0
    for cards in deals:
        draft = RowDraft(cards, K)
        while not draft.complete:
            rows = encode_draft(draft)[CONTEXT.size :].reshape(NUM_ACTIONS, ROW.size)
            mask = draft.mask().astype(bool)
            assert (np.abs(rows[mask]).sum(axis=1) > 0).all()
            assert not rows[~mask].any()  # and the padding is every illegal row
            draft.commit(int(rng.choice(np.flatnonzero(mask))))
            decisions += 1
    assert decisions == 5 * len(deals)


def test_padded_policy_plays_the_distribution_of_the_plain_one() -> None:
    """``ppo.policy: per_action`` over the padded layout (the head and the value network's
    first layer skip the padding) gives the log-probabilities, entropies and values of the same
    weights scoring every row, up to rounding, on a batch of every decision of several deals."""
    import dataclasses

    import torch
    from pokerzoo.training.policies import PaddedLinear, PerActionPolicy

    layout = PackFormulation().features["candidates"].per_action
    env = PackFormulation().wrap(QuintetEnv())

    def policy(per_action: object) -> PerActionPolicy:
        torch.manual_seed(0)
        return PerActionPolicy(
            env.observation_space,
            env.action_space,
            lambda _: 3e-4,
            per_action=per_action,
            net_arch=[32, 32],
            head_arch=[16],
            context=8,
        )

    padded, plain = policy(layout), policy(dataclasses.replace(layout, padding=False))
    assert isinstance(padded.mlp_extractor.value_net[0], PaddedLinear)
    assert not isinstance(plain.mlp_extractor.value_net[0], PaddedLinear)
    plain.load_state_dict(padded.state_dict())
    rng = np.random.default_rng(5)
    observations, masks = [], []
    for _ in range(6):
        draft = RowDraft(np.sort(rng.choice(32, 25, replace=False) + 20), K)
        while not draft.complete:
            observations.append(encode_draft(draft))
            masks.append(draft.mask().astype(bool))
            draft.commit(int(rng.choice(np.flatnonzero(masks[-1]))))
    obs, mask = torch.as_tensor(np.stack(observations)), np.stack(masks)
    actions = torch.as_tensor([int(rng.choice(np.flatnonzero(m))) for m in mask])
    with torch.no_grad():
        got = padded.evaluate_actions(obs, actions, action_masks=mask)
        expected = plain.evaluate_actions(obs, actions, action_masks=mask)
    for a, b in zip(got, expected, strict=True):
        assert torch.allclose(a, b, atol=1e-5)
