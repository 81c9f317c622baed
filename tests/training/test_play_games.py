"""``pokerzoo play`` for the betting and trick games: a person reads the table and types moves
by name; scripted answers stand in for the keyboard."""

from __future__ import annotations

import numpy as np
import pytest
from pokerzoo.envs.core.betting import CALL, FOLD, RAISE
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.draw_poker import STAND_PAT, DrawPokerGame
from pokerzoo.envs.nameless_poker import BID, LEAD_JOKER, PLAY, NamelessPokerGame, pack_order
from pokerzoo.training.games.draw_poker import hooks as draw_poker
from pokerzoo.training.games.five_card_stud import hooks as five_card_stud
from pokerzoo.training.games.nameless_poker import hooks as nameless_poker
from pokerzoo.training.play import play


def test_draw_poker_moves_by_name() -> None:
    game = DrawPokerGame()
    state = game.new_state(game.pack_for(["As Kd 7h 7c 2s", "Qs Qh 9d 5c 3h"]))
    observation = game.observe(state, 1)
    mask = game.legal_mask(state, 1)
    hand = draw_poker.decode_observation(observation).cards
    assert draw_poker.parse_move("raise", observation, mask) == RAISE
    assert draw_poker.parse_move("check", observation, mask) == CALL
    assert draw_poker.parse_move("fold", observation, mask) == FOLD
    assert draw_poker.parse_move("stand pat", observation, mask) == STAND_PAT
    action = draw_poker.parse_move("discard 9d 3h", observation, mask)
    assert action == STAND_PAT + sum(1 << hand.index(c) for c in parse_cards("9d 3h"))
    assert draw_poker.move_text(action, observation) == "discard 9d 3h"
    with pytest.raises(ValueError, match="you do not hold As"):
        draw_poker.parse_move("discard As", observation, mask)
    with pytest.raises(ValueError, match="bad move 'shove'"):
        draw_poker.parse_move("shove", observation, mask)


def test_nameless_poker_moves_by_name() -> None:
    game = NamelessPokerGame(deals=[1])
    state = game.new_state(pack_order(["Jk", "2h", "3h", "4h"], "5h"))
    observation = game.observe(state, 1)
    mask = game.legal_mask(state, 1)
    parse = nameless_poker.parse_move
    assert parse("bid 1", observation, mask) == BID + 1
    assert parse("play Qh", observation, mask) == PLAY + parse_cards("Qh")[0]
    assert parse("lead Jk calling hearts", observation, mask) == LEAD_JOKER + 1
    assert parse("lead jk c", observation, mask) == LEAD_JOKER + 3
    with pytest.raises(ValueError, match="bad move 'pass'"):
        parse("pass", observation, mask)


@pytest.mark.parametrize(
    ("game", "options", "answers", "shown"),
    [
        ("draw_poker", {}, ["shove", "call", "discard 2x", "stand pat"], "your cards:"),
        ("five_card_stud", {}, ["check", "call"], "showing, stack"),
        ("nameless_poker", {"deals": [2, 20]}, ["bid 9", "bid 1", "play Zz"], "your hand:"),
    ],
)
def test_play_a_whole_game_with_scripted_answers(
    game: str, options: dict, answers: list[str], shown: str
) -> None:
    replies = iter([*answers, *[""] * 5000])
    lines: list[str] = []
    result = play(
        game, None, seed=5, options=options, read=lambda _: next(replies), write=lines.append
    )
    text = "\n".join(lines)
    assert shown in text
    assert "bad move" in text or "not legal" in text or "bad card" in text
    points = result["points"]
    assert set(points) == {f"player_{i}" for i in range(len(points))}
    if game != "nameless_poker":
        assert np.isclose(sum(points.values()), 0.0)  # chips are zero-sum


def test_five_card_stud_reads_betting_words() -> None:
    assert five_card_stud.parse_move("raise", np.zeros(1), np.ones(3)) == RAISE
    with pytest.raises(ValueError, match="type fold, check, call, bet or raise"):
        five_card_stud.parse_move("allin", np.zeros(1), np.ones(3))
