"""The observation of poker without a name: its index table, encode and decode, what it hides
(other hands always, the own hand before a dark bid), the voids it infers, its bounds, and the
render."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_card, parse_cards
from pokerzoo.envs.nameless_poker import (
    LAYOUT,
    LEAD_JOKER,
    PLAY,
    NamelessPokerGame,
    NamelessPokerState,
    decode_observation,
    encode_observation,
    observation,
    pack_order,
)

from tests.helpers import check_render

# Seat 0 deals deal 3 (3 cards each, trump hearts): seat 1 leads.
HANDS = ["Qh 5c 2d", "9s 4d Jk", "Ks 3h 7c", "As 8c 6d"]


def three_card_deal(**options: object) -> tuple[NamelessPokerGame, NamelessPokerState]:
    game = NamelessPokerGame(deals=[3, 5], **options)
    state = game.new_state(pack_order(HANDS, "Th"), rng=np.random.default_rng(0))
    return game, state


def apply_all(game: NamelessPokerGame, state: NamelessPokerState, actions: list[int]) -> None:
    for a in actions:
        game.apply(state, game.current_player(state), a)


def test_the_index_table_is_in_the_docstring() -> None:
    assert LAYOUT.table() in (observation.__doc__ or "")
    assert LAYOUT.size == 389 and LAYOUT.dtype == np.float32
    assert LAYOUT["hand"] == slice(0, 53) and LAYOUT.high[52] == 2
    assert LAYOUT.low[LAYOUT["totals"]].tolist() == [-2400] * 4


def test_decode_reads_back_every_field() -> None:
    game, state = three_card_deal()
    apply_all(game, state, [1, 0, 2, 1])  # bids of seats 1, 2, 3, 0
    apply_all(game, state, [PLAY + parse_card("9s"), PLAY + parse_card("Ks")])  # seats 1, 2
    view = decode_observation(game.observe(state, 3))
    assert view.seat == 3 and view.hand == tuple(parse_cards("6d 8c As"))
    assert not view.hand_hidden and not view.bidding
    assert (view.trump, view.turned_card) == (1, parse_card("Th"))
    assert (view.deal, view.kind, view.hand_size, view.deals_left) == (3, "regular", 3, 1)
    assert view.dealer == 1  # seat 0 sits one place clockwise from seat 3
    assert view.to_act == 0 and view.leader == 2  # seat 3 acts; seat 1 led
    assert view.bids == (2, 1, 1, 0)  # seats 3, 0, 1, 2
    assert view.tricks == (0, 0, 0, 0) and view.totals == (0, 0, 0, 0)
    assert view.trick == tuple(parse_cards("9s Ks")) and view.called_suit == -1
    assert np.flatnonzero(view.played).tolist() == sorted(parse_cards("9s Ks"))
    assert not view.voids.any()


def test_the_joker_lead_and_voids_are_observed() -> None:
    game, state = three_card_deal()
    apply_all(game, state, [0, 0, 0, 0])
    game.apply(state, 1, LEAD_JOKER + 3)  # seat 1 leads the joker calling clubs
    assert decode_observation(game.observe(state, 2)).called_suit == 3
    apply_all(game, state, [PLAY + parse_card("7c"), PLAY + parse_card("8c")])
    # Seat 0 holds 5c (the highest club it has): forced; nothing shown void yet.
    game.apply(state, 0, PLAY + parse_card("5c"))
    assert state.tricks == [0, 1, 0, 0]
    # Seat 1 leads 4d; seat 2 has no diamond and plays 3h (trump): void in diamonds only.
    apply_all(game, state, [PLAY + parse_card("4d"), PLAY + parse_card("3h")])
    view = decode_observation(game.observe(state, 0))
    assert view.voids[2].tolist() == [False, False, True, False, False]  # seat 2 is 2 places on
    assert not view.voids[[0, 1, 3]].any()
    assert view.trumps_played == 1  # 3h; the turned Th is not played, the joker not natural


def test_decode_reads_one_hots_as_numpy_argmax_and_the_jokers_twice() -> None:
    game, state = three_card_deal()
    obs = game.observe(state, 0)
    obs[LAYOUT["hand"]] = 0
    obs[LAYOUT.start("hand") + 52] = 2  # both jokers
    obs[LAYOUT["trick"]] = 0
    obs[LAYOUT.start("trick") + 53 + parse_card("Qs")] = 1  # an empty first slot is skipped
    obs[LAYOUT["dealer"]] = [0, 1, 1, 0]  # not one-hot: the first largest, as numpy reads it
    for dtype in (np.float32, np.int16):
        view = decode_observation(obs.astype(dtype))
        assert view.hand == (52, 52)
        assert view.trick == (parse_card("Qs"),)
        assert view.dealer == int(np.argmax(obs[LAYOUT["dealer"]])) == 1


@pytest.mark.parametrize(
    ("turned", "lead", "hand", "card", "voids"),
    [
        ("2s", "9h", "2c 3c", "2c", "h s Jk"),  # void in hearts, then neither trump nor joker
        ("2s", "9h", "3s 4c", "3s", "h"),  # trumped: void in hearts only
        ("2s", "9s", "2c 3c", "2c", "s Jk"),  # trump led, no trump nor joker
        ("2s", "Jk>h", "2c 3c", "2c", "h s Jk"),  # joker lead: void of the called suit too
        ("Jk", "9h", "2c 3c", "2c", "h"),  # no-trump deal: a void shows nothing more
        ("2s", "9h", "Th 3c", "Th", ""),  # followed suit
    ],
)
def test_voids_are_what_the_follow_rules_prove(
    turned: str, lead: str, hand: str, card: str, voids: str
) -> None:
    lead_card = lead.split(">")[0]
    filler = "5d 6d"
    hands = [filler, f"{lead_card} 7d", hand, "8d 9d"]
    game = NamelessPokerGame(deals=[2])
    state = game.new_state(pack_order(hands, turned), rng=np.random.default_rng(0))
    apply_all(game, state, [0, 0, 0, 0])
    first = PLAY + parse_card(lead_card) if ">" not in lead else LEAD_JOKER + 1
    apply_all(game, state, [first, PLAY + parse_card(card)])
    columns = {"s": 0, "h": 1, "d": 2, "c": 3, "Jk": 4}
    expected = [0] * 5
    for name in voids.split():
        expected[columns[name]] = 1
    assert state.voids[2].tolist() == expected
    assert decode_observation(game.observe(state, 1)).voids[1].tolist() == [
        bool(v) for v in expected
    ]


def swap(state: NamelessPokerState, a: int, b: int, rng: np.random.Generator) -> bool:
    """Swap one random card of seat ``a``'s hand with one of seat ``b``'s (different cards)."""
    if not state.hands[a] or not state.hands[b]:
        return False
    i, j = rng.integers(len(state.hands[a])), rng.integers(len(state.hands[b]))
    if state.hands[a][i] == state.hands[b][j]:
        return False
    state.hands[a][i], state.hands[b][j] = state.hands[b][j], state.hands[a][i]
    state.hands[a].sort()
    state.hands[b].sort()
    return True


def test_hidden_cards_never_change_an_observation() -> None:
    """Two states differing only in cards a seat cannot see give it the same observation."""
    game = NamelessPokerGame()
    rng = np.random.default_rng(11)
    swaps = 0
    state = game.new_state(rng=np.random.default_rng(11))
    while not game.is_terminal(state):
        for observer in range(4):
            others = [s for s in range(4) if s != observer]
            a, b = rng.choice(others, size=2, replace=False)
            changed = copy.deepcopy(state)
            if swap(changed, int(a), int(b), rng):
                swaps += 1
                assert np.array_equal(
                    encode_observation(state, observer), encode_observation(changed, observer)
                )
                assert game.render(state) == game.render(changed)
        seat = game.current_player(state)
        game.apply(state, seat, int(rng.choice(np.flatnonzero(game.legal_mask(state, seat)))))
    assert swaps > 1000


def test_the_own_hand_is_hidden_until_the_dark_bid() -> None:
    game = NamelessPokerGame(deals=[19])
    rng = np.random.default_rng(3)
    state = game.new_state(rng=np.random.default_rng(3))
    seat = game.current_player(state)
    changed = copy.deepcopy(state)
    assert swap(changed, seat, (seat + 1) % 4, rng)
    assert np.array_equal(encode_observation(state, seat), encode_observation(changed, seat))
    game.apply(state, seat, 2)
    game.apply(changed, seat, 2)
    assert not np.array_equal(
        encode_observation(state, seat), encode_observation(changed, seat)
    )  # now it is shown
    assert decode_observation(encode_observation(state, seat)).hand == tuple(state.hands[seat])


@pytest.mark.parametrize(
    "options",
    [
        {"deals": [1]},
        {"deals": [8, 19, 23, 27]},
        {},
        {"dealer_restriction": True, "reward": "relative"},
    ],
)
def test_observations_stay_in_bounds_and_decode_consistently(options: dict[str, object]) -> None:
    game = NamelessPokerGame(**options)  # type: ignore[arg-type]
    rng = np.random.default_rng(5)
    for episode in range(2):
        state = game.new_state(rng=np.random.default_rng(episode))
        while True:
            for observer in range(4):
                obs = game.observe(state, observer)
                assert obs.dtype == np.float32 and obs.shape == (LAYOUT.size,)
                assert (obs >= LAYOUT.low).all() and (obs <= LAYOUT.high).all()
                view = decode_observation(obs)
                assert view.seat == observer and view.totals[0] == state.totals[observer]
                if not view.hand_hidden:
                    assert view.hand == tuple(state.hands[observer])
                assert (view.unseen >= 0).all()
            if game.is_terminal(state):
                break
            seat = game.current_player(state)
            view = decode_observation(game.observe(state, seat))
            assert view.to_act == 0
            game.apply(state, seat, int(rng.choice(np.flatnonzero(game.legal_mask(state, seat)))))


def test_decode_rejects_a_wrong_shape() -> None:
    with pytest.raises(ValueError, match="bad observation shape"):
        decode_observation(np.zeros(10, dtype=np.int16))


def test_render_shows_the_public_table() -> None:
    game, state = three_card_deal()
    apply_all(game, state, [1, 0, 2, 1])
    apply_all(game, state, [PLAY + parse_card(c) for c in ("9s", "Ks", "As", "Qh")])
    game.apply(state, 0, PLAY + parse_card("2d"))
    check_render(
        game.render(state),
        "Deal 3 (regular, 3 cards each), 1 of 2 in the episode; dealer player_0; "
        "turned Th: trump h",
        shows=[
            "player_0    1       1      0      1",
            "player_1    1       0      0      2  <- to play",
            "trick (led by player_0): 2d",
            "last trick (led by player_1): 9s Ks As Qh, taken by player_0",
        ],
        hides=["5c", "4d", "Jk", "3h", "7c", "8c", "6d"],
    )
