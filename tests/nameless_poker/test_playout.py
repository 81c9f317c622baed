"""The Monte-Carlo play-outs of poker without a name (pokerzoo.envs.nameless_poker.playout):
card for card the rules policy, from the positions of bot-played deals and from the benchmark's
positions."""

from __future__ import annotations

import pytest
from pokerzoo.agents.nameless_poker import RulesBot
from pokerzoo.envs import nameless_poker_v0
from pokerzoo.envs.core.cards import JOKER, parse_card, parse_cards
from pokerzoo.envs.nameless_poker import decode_observation
from pokerzoo.envs.nameless_poker.analysis import reference_play_out, rules_play
from pokerzoo.envs.nameless_poker.deals import DEAL_KINDS, NO_TRUMP
from pokerzoo.envs.nameless_poker.playout import World, play_out

from tests.helpers import benchmark_script


@pytest.mark.parametrize("deal", [9, 19, 23, 27])  # nine cards a seat; dark; minimum; maximum
def test_play_out_plays_the_rules_policy_card_for_card(deal: int) -> None:
    """From every decision of a deal that four rules bots play, the Monte-Carlo play-out with
    every hand known ends with the tricks the bots' own game ends with (its shortcuts for forced
    cards and leads play what rules_play would)."""
    for seed in range(10):
        env = nameless_poker_v0.env(deals=[deal])
        env.reset(seed=seed)
        bot = RulesBot()
        seats = env.possible_agents
        starts = []
        while env.agents:
            agent = env.agent_selection
            seen, _, done, cut, info = env.last()
            if done or cut:
                final = info["tricks"]
                env.step(None)
                continue
            view = decode_observation(seen["observation"])
            if not view.bidding:
                me = seats.index(agent)
                views = [
                    decode_observation(env.observe(seats[(me + r) % 4])["observation"])
                    for r in range(4)
                ]
                hands = [list(v.hand) for v in views]
                turned = int(view.turned_card != JOKER and view.turned_card & 3 == view.trump)
                kind = DEAL_KINDS.index(view.kind)
                starts.append((me, World.of_view(view, hands), view.trump, kind, turned))
            env.step(bot.act(seen["observation"], seen["action_mask"]))
        assert len(starts) >= 4
        for me, world, trump, kind, turned in starts:
            play_out(world, trump, kind, turned)
            assert world.tricks == [final[(me + r) % 4] for r in range(4)]


def _state(world: World) -> tuple[object, ...]:
    return (
        world.hands,
        world.trick,
        world.leader,
        world.called,
        world.tricks,
        world.bids,
        world.trumps_played,
    )


def test_play_out_matches_the_policy_played_card_by_card() -> None:
    """From 2,000 positions (benchmarks/nameless_playout.py's: hands of 1-8 cards from the
    54-card pack, with jokers, every trump and kind of deal, part-played at random) and with
    every intent of seat 0, the bit-mask play_out ends in exactly the state the policy's own
    functions reach."""
    positions = benchmark_script("nameless_playout").positions(2000, seed=0)
    assert {trump for _, trump, _, _ in positions} == {0, 1, 2, 3, NO_TRUMP}
    for world, trump, kind, turned in positions:
        for wants in (None, True, False):
            fast, plain = world.copy(), world.copy()
            play_out(fast, trump, kind, turned, observer_wants=wants)
            reference_play_out(plain, trump, kind, turned, observer_wants=wants)
            assert _state(fast) == _state(plain)
            assert not any(fast.hands) and not fast.trick


def test_play_out_leads_a_joker_to_pull_trumps_as_the_rules_policy_does() -> None:
    # Hearts trump (a heart turned). Seat 0 wants all three tricks, holding a joker, the spade
    # ace and a low trump, and trumps are still out: it leads the joker calling hearts, which
    # draws seat 1's only trump (the ace), then takes the spade and the heart tricks. Leading
    # the spade ace first would let seat 1, void in spades, ruff it.
    hearts = parse_card("2h") & 3
    hands = [sorted(parse_cards(h)) for h in ("Jk As 2h", "Ah 4d 5d", "3s 4s 6d", "5s 7c 8c")]
    assert rules_play(hands[0], hands[0], [], hearts, True, 11) == (JOKER, hearts)
    world = World([list(h) for h in hands], [], 0, NO_TRUMP, [0] * 4, [3, 0, 0, 0], 0)
    play_out(world, hearts, DEAL_KINDS.index("regular"), 1)
    assert world.tricks == [3, 0, 0, 0]
