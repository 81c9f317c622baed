"""Batched Monte-Carlo decisions of poker without a name: :meth:`MonteCarloBot.act_batch` and
the numpy play-outs under it (:class:`~pokerzoo.envs.nameless_poker.playout.Worlds`) decide and
play exactly as the bot and :func:`~pokerzoo.envs.nameless_poker.playout.play_out` alone."""

from __future__ import annotations

import hashlib
from functools import cache

import numpy as np
import pytest
from pokerzoo.agents import nameless_poker as bots_module
from pokerzoo.agents.nameless_poker import MonteCarloBot
from pokerzoo.envs.core import jit
from pokerzoo.envs.core.bots import act_batch
from pokerzoo.envs.nameless_poker import (
    BID,
    LEAD_JOKER,
    NO_TRUMP,
    PLAY,
    decode_observation,
)
from pokerzoo.envs.nameless_poker.deals import DEAL_KINDS
from pokerzoo.envs.nameless_poker.playout import (
    SampledDeals,
    World,
    Worlds,
    play_out,
    play_outs,
    put_action,
)
from pokerzoo.envs.nameless_poker.sampling import deals_unseen

from tests.helpers import benchmark_script, bot_decisions


@cache
def _decisions() -> tuple[np.ndarray, np.ndarray]:
    """Every decision of two 30-deal games of four rules bots (bids and cards, every deal
    kind)."""
    return bot_decisions("nameless_poker", "rules", 2)


def test_the_decisions_cover_bids_cards_and_every_deal_kind() -> None:
    observations, masks = _decisions()
    views = [decode_observation(o) for o in observations]
    assert {v.kind for v in views} == {"regular", "dark", "minimum", "maximum"}
    assert any(v.bidding for v in views) and any(not v.bidding for v in views)
    assert masks[:, LEAD_JOKER:].any()  # joker leads among the choices


@pytest.mark.parametrize("wants", [None, True, False])
def test_play_outs_end_as_play_out_alone(wants: bool | None, loops_by: str) -> None:
    """On 2,000 part-played positions (every trump, kind and intent of seat 0), the numpy
    play-outs end with every seat's tricks of play_out on each world alone."""
    positions = benchmark_script("nameless_playout").positions(2000, seed=0)
    worlds = [world for world, _, _, _ in positions]
    trumps, kinds, turned = (np.array([p[i] for p in positions]) for i in (1, 2, 3))
    observer = None if wants is None else np.full(len(worlds), int(wants))
    tricks = play_outs(worlds, trumps, kinds, turned, observer)
    for (world, trump, kind, turned_trump), got in zip(positions, tricks, strict=True):
        alone = world.copy()
        play_out(alone, trump, kind, turned_trump, observer_wants=wants)
        assert got.tolist() == alone.tricks
    assert {trump for _, trump, _, _ in positions} >= {0, 1, 2, 3, NO_TRUMP}


@pytest.mark.skipif(not jit.available(), reason="numba is not installed")
@pytest.mark.parametrize("trick_only", [False, True])
def test_the_compiled_loop_leaves_every_array_as_the_numpy_steps(
    monkeypatch: pytest.MonkeyPatch, trick_only: bool
) -> None:
    """On 3,000 part-played positions, seat 0's intent fixed in a third of them each way,
    numba's loop and numpy's steps leave every array of the worlds the same (hands, tricks,
    trick on the table, leader, natural trumps gone), to the end of the deal or of the trick."""
    positions = benchmark_script("nameless_playout").positions(3000, seed=4)
    wants = np.arange(len(positions)) % 3 - 1
    worlds = Worlds.of(*zip(*positions, strict=True), observer_wants=wants)
    ended = {}
    for by in ("compiled", "numpy"):
        monkeypatch.setattr(jit, "AVAILABLE", by == "compiled")
        copy = worlds.take(np.arange(len(positions)))
        copy.play_out(trick_only)
        ended[by] = copy
    for name in Worlds._FIELDS:
        assert np.array_equal(getattr(ended["compiled"], name), getattr(ended["numpy"], name))
    held = (ended["numpy"].masks != 0) | (ended["numpy"].jokers > 0)
    assert held.any() == trick_only  # a trick only: cards are left for the tricks after it
    assert (ended["numpy"].tricks != worlds.tricks).any()


def test_worlds_of_a_view_are_the_worlds_of_its_world_objects() -> None:
    """``Worlds.of_views`` (the sampled deals of a view, as arrays) builds every array as
    ``Worlds.of`` of the World objects ``World.of_view`` makes (and ``SampledDeals.worlds``
    makes those), on every play decision of two games (tricks on the table and jokers among
    them), five deals each; then for all the views at once, and ``Worlds.of_parts`` for the
    views' deals mixed with World lists, in order."""
    rng = np.random.default_rng(0)
    checked = with_trick = 0
    parts = []
    for observation in _decisions()[0]:
        view = decode_observation(observation)
        if view.bidding or view.to_act != 0:
            continue
        sizes = [0] + [view.hand_size - sum(view.tricks) - int(r < len(view.trick)) for r in
                       ((s - view.leader) % 4 for s in range(1, 4))]  # fmt: skip
        deals = deals_unseen(view, sizes, rng, 5)
        turned = int(view.turned_card != 52 and view.turned_card & 3 == view.trump)
        kind = DEAL_KINDS.index(view.kind)
        sampled = SampledDeals(view, deals)
        worlds = [World.of_view(view, [list(hand) for hand in deal]) for deal in deals]
        assert [vars_of(w) for w in sampled.worlds()] == [vars_of(w) for w in worlds]
        expected = Worlds.of(worlds, [view.trump] * 5, [kind] * 5, [turned] * 5)
        parts.append((sampled, worlds, view.trump, kind, turned))
        got = Worlds.of_views([sampled], [view.trump], [kind], [turned])
        assert_same_worlds(got, expected)
        checked += 1
        with_trick += bool(view.trick)
    assert checked > 200 and with_trick > 100
    # Many views at once, and mixed with World lists (of_parts): the parts' worlds in order.
    mixed = [part[0] if k % 3 else part[1] for k, part in enumerate(parts)]
    expected = Worlds.of(
        [w for part in parts for w in part[1]],
        *(np.repeat([part[i] for part in parts], 5) for i in (2, 3, 4)),
    )
    columns = [[part[i] for part in parts] for i in (2, 3, 4)]
    assert_same_worlds(Worlds.of_views([part[0] for part in parts], *columns), expected)
    assert_same_worlds(Worlds.of_parts(mixed, *columns), expected)


def vars_of(world: World) -> tuple[object, ...]:
    return tuple(getattr(world, name) for name in World.__slots__)


def assert_same_worlds(got: Worlds, expected: Worlds) -> None:
    for name in Worlds._FIELDS:
        assert np.array_equal(getattr(got, name), getattr(expected, name)), name
        assert getattr(got, name).dtype == getattr(expected, name).dtype, name


def test_worlds_put_actions_as_put_action(loops_by: str) -> None:
    """Seat 0's card (or joker lead) put into repeated array worlds ends as put_action then
    play_out on a copy, including a card that closes the trick."""
    positions = benchmark_script("nameless_playout").positions(400, seed=1)
    chosen, actions = [], []
    for world, trump, kind, turned in positions:
        if (world.leader + len(world.trick)) % 4 == 0 and world.hands[0]:
            for card in sorted(set(world.hands[0])):
                chosen.append((world, trump, kind, turned))
                actions.append(LEAD_JOKER + 2 if card == 52 and not world.trick else PLAY + card)
    assert len(actions) > 100 and LEAD_JOKER + 2 in actions and PLAY + 52 in actions
    worlds = Worlds.of(*zip(*[(w, t, k, u) for w, t, k, u in chosen], strict=True))
    worlds.put_actions(np.array(actions))
    tricks = worlds.play_out()
    for (world, trump, kind, turned), action, got in zip(chosen, actions, tricks, strict=True):
        alone = world.copy()
        put_action(alone, action, trump)
        play_out(alone, trump, kind, turned)
        assert got.tolist() == alone.tricks


@pytest.mark.parametrize("batch_worlds", [0, None])  # numpy play-outs always; the default
@pytest.mark.parametrize("options", [{}, {"reward": "relative", "dealer_restriction": True}])
def test_act_batch_decides_as_twins_acting_alone(
    monkeypatch: pytest.MonkeyPatch,
    batch_worlds: int | None,
    options: dict[str, object],
    loops_by: str,
) -> None:
    """Six bots seeded differently, each given its own run of real decisions, act through
    act_batch (the env's call) exactly as twins built alike acting one decision at a time."""
    if batch_worlds is not None:
        monkeypatch.setattr(bots_module, "_BATCH_WORLDS", batch_worlds)
    observations, masks = _decisions()
    table = 6
    rounds = 60 if batch_worlds is not None else 30
    batched = [MonteCarloBot(seed=100 + s, **options) for s in range(table)]
    twins = [MonteCarloBot(seed=100 + s, **options) for s in range(table)]
    bids = cards = 0
    for t in range(rounds):
        rows = [(t * table + s * 37) % len(observations) for s in range(table)]
        got = act_batch(batched, observations[rows], masks[rows])
        want = [twin.act(observations[r], masks[r]) for twin, r in zip(twins, rows, strict=True)]
        assert got.tolist() == want
        bids += int((got < PLAY).sum() - (got == 0).sum())
        cards += int((got >= PLAY).sum())
    assert bids > 0 and cards > 0
    assert all(b._rng.random() == t._rng.random() for b, t in zip(batched, twins, strict=True))


def test_act_decides_as_before(loops_by: str) -> None:
    """The bot's decisions on one game's 824 decisions, one bot acting on them in turn, are
    those of the bot before act_batch (digests of its actions, pinned from that code), with
    numba's compiled loops and without."""
    observations, masks = bot_decisions("nameless_poker", "rules", 1)
    pinned = {
        "{}": "77f9db590e9e33e18c2c6d7ce79af6841262f795d319e533f7f7a41039ce6d55",
        "relative": "9adaa5cf38694820a2561b49b97451aaef12784cc50133dfbed8db9a5fb17e19",
    }
    for key, options in (("{}", {}), ("relative", {"reward": "relative"})):
        options = dict(options, dealer_restriction=key == "relative")
        bot = MonteCarloBot(seed=7, **options)
        actions = [bot.act(o, m) for o, m in zip(observations, masks, strict=True)]
        digest = hashlib.sha256(np.array(actions, dtype=np.int64).tobytes()).hexdigest()
        assert digest == pinned[key]
    assert BID == 0


def test_bit_counts_without_numpy_bitwise_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The popcount the numpy play-outs use where numpy (before 2.0) has no bitwise_count
    counts every mask's bits, and the play-outs end the same with it."""
    from pokerzoo.envs.nameless_poker import playout

    monkeypatch.setattr(jit, "AVAILABLE", False)  # the numpy steps, not numba's loop
    masks = np.random.default_rng(0).integers(0, 2**52, size=1000, dtype=np.uint64)
    masks[:3] = [0, 1, 2**52 - 1]
    monkeypatch.setattr(playout, "_BITWISE_COUNT", None)
    assert playout._bit_count(masks).tolist() == [int(m).bit_count() for m in masks]
    positions = benchmark_script("nameless_playout").positions(300, seed=2)
    worlds = [world for world, _, _, _ in positions]
    trumps, kinds, turned = (np.array([p[i] for p in positions]) for i in (1, 2, 3))
    for (world, trump, kind, turned_trump), got in zip(
        positions, play_outs(worlds, trumps, kinds, turned), strict=True
    ):
        alone = world.copy()
        play_out(alone, trump, kind, turned_trump)
        assert got.tolist() == alone.tricks
