"""The line-pattern afterstate learner for Poker Squares: the pattern abstraction on fixed lines,
the incremental line state against the definition, the afterstate values and the one-card
look-ahead against brute force, a short training run, save/reload playing identically, and the
``algorithm: td`` run through the CLI (train, resume, evaluate, play). Checks machinery, not
strength (the strength is measured by the README's record run)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest
from pokerzoo.envs.core.cards import parse_cards
from pokerzoo.envs.core.hands import hand_classes
from pokerzoo.envs.core.registry import get_game
from pokerzoo.envs.poker_squares.rules import EMPTY, LINES, resolve_scoring, score_grid
from pokerzoo.training.cli import main
from pokerzoo.training.evaluate import play_policy_single
from pokerzoo.training.games.poker_squares import td
from pokerzoo.training.games.poker_squares.lines import LINE_CELLS, LineState, line_points
from pokerzoo.training.games.poker_squares.td import TDConfig
from pokerzoo.training.play import play

OUTS = td.OUTS
RANK_OUTS = td.RANK_OUTS
T = td.T_SIZE


def key_parts(key: int) -> dict[str, int]:
    """Decode a pattern id (the inverse of the formula in the module docstring)."""
    key, t = divmod(key, T)
    key, rivals = divmod(key, td.RIVALS)
    key, suit_outs = divmod(key, OUTS)
    key, single_outs = divmod(key, RANK_OUTS)
    key, pair_outs = divmod(key, RANK_OUTS)
    key, column = divmod(key, 2)
    key, straight = divmod(key, td.STRAIGHTS)
    shape, flush = divmod(key, 2)
    return {
        "shape": td.SHAPES[shape],
        "flush": flush,
        "straight": straight,
        "column": column,
        "pair_outs": pair_outs,
        "single_outs": single_outs,
        "suit_outs": suit_outs,
        "rivals": rivals,
        "t": t,
    }


def grid_of(row0: str) -> np.ndarray:
    """A grid holding ``row0``'s cards in the first row, the rest empty."""
    grid = np.full(25, EMPTY, dtype=np.int64)
    ids = parse_cards(row0) if row0 else []
    grid[: len(ids)] = ids
    return grid


@pytest.mark.parametrize(
    ("row0", "shape", "flush", "straight", "outs", "suit_outs"),
    [
        # outs: (pair outs, single outs) = unseen cards of the ranks held twice or more, once
        ("", (), 1, 3, (0, 0), 0),
        ("7s", (1,), 1, 3, (0, 3), 3),  # 12 spades unseen, 4 needed: plenty
        ("7s 7h", (2,), 0, 0, (2, 0), 0),
        ("7s 7h 7d 7c", (4,), 0, 0, (0, 0), 0),
        ("As 2s 3s 4s", (1, 1, 1, 1), 1, 1, (0, 6), 3),  # A-2-3-4 fits the wheel: a 5 only
        ("As Ks 3s", (1, 1, 1), 1, 0, (0, 6), 3),  # K-A-3 fits no window (no wrap)
        ("9h Th Jh Qh", (1, 1, 1, 1), 1, 2, (0, 6), 3),  # open-ended: an 8 or a king
        ("5c 6d 8h", (1, 1, 1), 0, 3, (0, 6), 0),  # 4, 7 or 9 (the windows 4-8 and 5-9)
        ("2d 2c 5d", (2, 1), 0, 0, (2, 3), 0),
        ("2d 2c 5d 5c", (2, 2), 0, 0, (4, 0), 0),
        ("Kd Kc Kh 4c", (3, 1), 0, 0, (1, 3), 0),
    ],
)
def test_line_pattern_of_first_row(
    row0: str, shape: tuple, flush: int, straight: int, outs: tuple, suit_outs: int
) -> None:
    grid = grid_of(row0)[None]
    lines = grid[:, np.array(LINES)]
    rank_left, suit_left = td.left_counts(grid)
    t = len(parse_cards(row0)) if row0 else 0
    keys = td.line_keys(lines, t, rank_left[:, None], suit_left[:, None])
    parts = key_parts(int(keys[0, 0]))
    assert parts == {
        "shape": shape,
        "flush": flush,
        "straight": straight,
        "column": 0,
        "pair_outs": outs[0],
        "single_outs": outs[1],
        "suit_outs": suit_outs,
        "rivals": 0,
        "t": t,
    }
    assert key_parts(int(keys[0, 5]))["column"] == 1


def test_suit_outs_count_what_is_left() -> None:
    # Four hearts in row 0, eight more hearts elsewhere: 1 heart unseen, 1 needed -> bucket 1.
    grid = np.full(25, EMPTY, dtype=np.int64)
    grid[:4] = parse_cards("2h 3h 4h 5h")
    grid[5:13] = parse_cards("6h 7h 8h 9h Th Jh Qh Kh")
    rank_left, suit_left = td.left_counts(grid[None])
    keys = td.line_keys(grid[None, np.array(LINES)], 12, rank_left[:, None], suit_left[:, None])
    assert key_parts(int(keys[0, 0]))["suit_outs"] == 1
    grid[13] = parse_cards("Ah")[0]  # the last heart gone: no flush can happen in row 0
    rank_left, suit_left = td.left_counts(grid[None])
    keys = td.line_keys(grid[None, np.array(LINES)], 13, rank_left[:, None], suit_left[:, None])
    assert key_parts(int(keys[0, 0]))["suit_outs"] == 0


def test_full_lines_are_valued_by_their_points() -> None:
    # The seed example of RULES §3 scores 302 American: a full grid's value is its score.
    cards = parse_cards(
        "8c Qc Tc 4c 2c 9h Qh Th Jh Kh Ad 8d Td 4h 5s As Qs Ts Js Ks 3d 6s 7h 4d 5d"
    )
    state = LineState.of_grids(np.array(cards, dtype=np.int64)[None])
    assert td.LineValues().state_values(state).sum() == score_grid(cards) == 302


def random_states(games: int, cards: int, seed: int = 1) -> tuple[LineState, np.ndarray]:
    """``games`` grids with ``cards`` cards placed at random cells, and each game's deal."""
    rng = np.random.default_rng(seed)
    deals = np.argsort(rng.random((games, 52)), axis=1)
    state = LineState.empty(games)
    for step in range(cards):
        cells = np.argmax(np.where(state.grid == EMPTY, rng.random((games, 25)), -1), axis=1)
        state.place(deals[:, step], cells)
    return state, deals


def test_incremental_lines_match_the_definition_card_by_card() -> None:
    rng = np.random.default_rng(2)
    deals = np.argsort(rng.random((200, 52)), axis=1)
    state = LineState.empty(200)
    for step in range(25):
        cells = np.argmax(np.where(state.grid == EMPTY, rng.random((200, 25)), -1), axis=1)
        state.place(deals[:, step], cells)
        rank_left, suit_left = td.left_counts(state.grid)
        expected = td.line_keys(
            state.grid[:, LINE_CELLS], step + 1, rank_left[:, None], suit_left[:, None]
        )
        np.testing.assert_array_equal(state.keys(), expected)
    rebuilt = LineState.of_grids(state.grid)
    np.testing.assert_array_equal(rebuilt.keys(), state.keys())


@pytest.mark.parametrize("scoring", ["american", "english"])
def test_full_line_points_match_the_rules(scoring: str) -> None:
    rng = np.random.default_rng(5)
    hands = [np.argsort(rng.random((3000, 52)), axis=1)[:, :5]]
    hands.append(
        np.argsort(rng.random((3000, 13)), axis=1)[:, :5] * 4 + rng.integers(0, 4, (3000, 1))
    )
    low = rng.integers(0, 9, (3000, 1))
    hands.append((np.arange(5) + low) * 4 + rng.integers(0, 4, (3000, 5)))  # straights
    hands.append((np.arange(5) + low) * 4 + 2)  # straight flushes, royal flushes
    hands.append(np.array([parse_cards("As 2h 3d 4c 5s"), parse_cards("Ah 2h 3h 4h 5h")]))
    lines = np.concatenate(hands)
    grid = np.full((len(lines), 25), EMPTY)
    grid[:, :5] = lines
    ours = line_points(scoring)[LineState.of_grids(grid).full_index()[:, 0]]
    rules = np.asarray(resolve_scoring(scoring)[1])[hand_classes(lines)]
    np.testing.assert_array_equal(ours, rules)


@pytest.fixture(scope="module")
def noisy() -> td.LineValues:
    """A table of random values: every pattern distinct, so that a wrong sum shows."""
    values = td.LineValues()
    values.table = np.random.default_rng(0).normal(size=values.table.shape) * 10
    return values


@pytest.mark.parametrize("placed", [0, 7, 16, 23])
def test_afterstate_values_are_the_placed_grids_values(noisy: td.LineValues, placed: int) -> None:
    state, deals = random_states(6, placed)
    card = deals[:, placed]
    fast = td.afterstate_values(noisy, state, card)
    for game in range(6):
        for cell in range(25):
            if state.grid[game, cell] != EMPTY:
                assert np.isneginf(fast[game, cell])
                continue
            grid = state.grid[game].copy()
            grid[cell] = card[game]
            slow = noisy.state_values(LineState.of_grids(grid[None])).sum()
            assert fast[game, cell] == pytest.approx(slow)


def rivals_grid() -> np.ndarray:
    """Flushes in the making that compete: column 0 holds four hearts, column 1 two, rows 1-3
    hearts only, column 2 a spade."""
    grid = np.full(25, EMPTY, dtype=np.int64)
    for cell, card in zip(
        (0, 5, 10, 15, 1, 6, 2), parse_cards("2h 3h 4h 5h 7h 8h Ks"), strict=True
    ):
        grid[cell] = card
    return grid


@pytest.mark.parametrize("card", ["9h", "9s", "Ac"])
def test_rival_flushes_change_with_each_placement(noisy: td.LineValues, card: str) -> None:
    # A heart on cell 20 completes column 0 (column 1 loses its rival); on an empty column it
    # starts a rival; another suit on column 0 or 1, or on rows 1-3, ends a flush in the making.
    grid = rivals_grid()
    state = LineState.of_grids(grid[None])
    fast = td.afterstate_values(noisy, state, np.array(parse_cards(card)))[0]
    rivals = []
    for cell in np.flatnonzero(grid == EMPTY):
        placed = grid.copy()
        placed[cell] = parse_cards(card)[0]
        after = LineState.of_grids(placed[None])
        rivals.append(tuple(after.parts().rivals[0]))
        assert fast[cell] == pytest.approx(noisy.state_values(after).sum())
    assert len(set(rivals)) >= 3  # the placements tell different rival counts apart


def assert_expectimax(
    values: td.LineValues,
    state: LineState,
    card: np.ndarray,
    unseen: np.ndarray,
    extrapolation: float = 0.0,
) -> None:
    """The look-ahead's cell has the best mean ``L`` over the next card of the best placement of
    that card (extrapolated: the best ``L + x (L - V)``, ``V`` the cell's afterstate value),
    computed one placed grid at a time."""
    chosen = td.lookahead_actions(values, state, card, unseen, extrapolation=extrapolation)
    for game in range(len(card)):
        scores = {}
        for cell in np.flatnonzero(state.grid[game] == EMPTY):
            grid = state.grid[game].copy()
            grid[cell] = card[game]
            after = LineState.of_grids(grid[None])
            value = values.state_values(after).sum()
            nxt = np.flatnonzero(unseen[game, :52])
            best = [td.afterstate_values(values, after, np.array([c])).max() for c in nxt]
            mean = float(np.mean(best))
            scores[int(cell)] = mean + extrapolation * (mean - value)
        assert scores[int(chosen[game])] == pytest.approx(max(scores.values()))


def unseen_of(grids: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """``(B, 53)`` the cards that may come next: neither on the grid nor in hand."""
    unseen = np.ones((len(grids), 53), dtype=np.int64)
    unseen[:, 52] = 0
    for game, grid in enumerate(grids):
        unseen[game, grid[grid != EMPTY]] = 0
        unseen[game, cards[game]] = 0
    return unseen


@pytest.mark.parametrize("placed", [2, 21])
def test_lookahead_is_expectimax_over_the_next_card(noisy: td.LineValues, placed: int) -> None:
    state, deals = random_states(3, placed, seed=7)
    card = deals[:, placed]
    assert_expectimax(noisy, state, card, unseen_of(state.grid, card))


@pytest.mark.parametrize("extrapolation", [1.0, 3.0])
def test_lookahead_extrapolates_the_next_cards_correction(
    noisy: td.LineValues, extrapolation: float
) -> None:
    state, deals = random_states(4, 12, seed=11)
    card = deals[:, 12]
    unseen = unseen_of(state.grid, card)
    assert_expectimax(noisy, state, card, unseen, extrapolation)
    plain = td.lookahead_actions(noisy, state, card, unseen)
    far = td.lookahead_actions(noisy, state, card, unseen, extrapolation=50.0)
    assert (plain != far).any()  # the extrapolation changes some choice on these grids


@pytest.mark.parametrize("card", ["9h", "9s"])
def test_lookahead_counts_rival_flushes(noisy: td.LineValues, card: str) -> None:
    grid = rivals_grid()[None]
    cards = np.array(parse_cards(card))
    assert_expectimax(noisy, LineState.of_grids(grid), cards, unseen_of(grid, cards))


TINY = TDConfig(games=1024, batch=256, minutes=10, select_every=0)


@pytest.fixture(scope="module")
def trained() -> td.LineValues:
    values = td.LineValues()
    td.train(values, TINY, seed=3)
    return values


def test_training_counts_games_and_learns_something(trained: td.LineValues) -> None:
    assert trained.games == 1024
    assert (trained.counts > 0).sum() > 100
    assert np.isfinite(trained.table).all()


def test_a_seed_and_a_game_budget_replay_the_same_table(trained: td.LineValues) -> None:
    again = td.LineValues()
    td.train(again, TINY, seed=3)
    np.testing.assert_array_equal(again.table, trained.table)


@pytest.mark.parametrize("extrapolation", [0.0, 1.0])
def test_reload_plays_identically(
    trained: td.LineValues, tmp_path: Path, extrapolation: float
) -> None:
    model = replace(trained, extrapolation=extrapolation)
    path = tmp_path / "values.npz"
    model.save(path)
    again = td.LineValues.load(path)
    assert again.extrapolation == extrapolation
    spec = get_game("poker_squares")
    seeds = list(range(1_000_000, 1_000_016))
    for lookahead in (False, True):
        first = play_policy_single(
            spec, td.make_policy(model, lookahead), {"scoring": "american"}, seeds, 8
        )
        second = play_policy_single(
            spec, td.make_policy(again, lookahead), {"scoring": "american"}, seeds, 8
        )
        np.testing.assert_array_equal(first, second)
        assert (first > 0).all()


def test_the_report_plays_the_plain_expectimax_beside_an_extrapolating_agent(
    trained: td.LineValues,
) -> None:
    assert td.variants(trained) == {}  # the fixture plays the plain expectimax itself
    (name,) = td.variants(replace(trained, extrapolation=1.0))
    assert name == "plain expectimax"


def test_training_keeps_the_best_validated_table() -> None:
    config = TDConfig(games=2048, batch=256, select_every=512, select_deals=128)
    values = td.LineValues()
    stats = td.train(values, config, seed=5)
    assert [games for games, _ in stats.checks] == [512, 1024, 1536, 2048]
    means = [mean for _, mean in stats.checks]
    assert len(set(means)) > 1  # the checks tell the tables apart
    best = int(np.argmax(means))
    assert (values.kept_games, values.validation) == stats.checks[best]
    assert values.games == 2048
    # the table kept is the one that was checked: it replays its validation score
    assert td.validation_mean(values, 5, 128) == values.validation
    # a resumed run's saved table is checked first and competes with the new ones
    more = td.train(values, config.model_copy(update={"games": 2560}), seed=5, start_games=2048)
    assert more.checks[0] == (2048, stats.checks[best][1])
    assert values.validation == max(mean for _, mean in more.checks)


def test_without_checks_the_last_table_is_kept(trained: td.LineValues) -> None:
    assert trained.kept_games == trained.games
    assert np.isnan(trained.validation)


def test_greedy_action_is_the_best_afterstate(trained: td.LineValues) -> None:
    state, deals = random_states(1, 9, seed=0)
    card = deals[:, 9]
    values = td.afterstate_values(trained, state, card)
    assert td.greedy_actions(trained, state, card)[0] == int(np.argmax(values[0]))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jokers": 1}, "jokers=1"),
        ({"variant": "shuffle"}, "variant='shuffle'"),
        ({"placement": "adjacent"}, "placement='adjacent'"),
    ],
)
def test_the_learner_names_an_option_it_cannot_play(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        td.new_values(TDConfig(), options)


def test_english_scoring_round_trips(tmp_path: Path) -> None:
    values = td.new_values(TDConfig(), {"scoring": "english"})
    values.save(tmp_path / "v.npz")
    again = td.LineValues.load(tmp_path / "v.npz")
    assert again.scoring == "english"
    np.testing.assert_array_equal(again.points, line_points("english"))


# --- the ``algorithm: td`` run through the CLI ----------------------------------------------------


@pytest.fixture(scope="module")
def td_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("td")
    config = folder / "td.yaml"
    config.write_text(
        "game: poker_squares\nalgorithm: td\n"
        "td: {games: 2048, batch: 512, eval_every: 1024, select_every: 512, select_deals: 64,"
        " extrapolation: 1}\n"
        "evaluation: {episodes: 16, final_episodes: 8, opponents: [greedy]}\n"
    )
    run = folder / "run"
    assert main(["train", "poker_squares", "--config", str(config), "--out", str(run)]) == 0
    return run


def test_a_td_run_writes_a_run_folder(td_run: Path) -> None:
    for name in ("config.yaml", "run.json", "values.npz", "monitor.csv", "evaluations.csv"):
        assert (td_run / name).exists(), name
    assert td.LineValues.load(td_run / "values.npz").games == 2048
    rows = (td_run / "evaluations.csv").read_text().splitlines()
    assert len(rows) == 3  # header, 1,024 and 2,048 games
    assert "reference/2013 contest winner, 125.18" in rows[0]
    assert rows[0].startswith("timesteps,agent_mean/no look-ahead,")
    report = (td_run / "report.md").read_text()
    assert "The agent (no look-ahead), same deals" in report
    assert "The agent (plain expectimax), same deals" in report
    assert td.LineValues.load(td_run / "values.npz").extrapolation == 1.0
    assert "2,048 games (51,200 env steps)" in report
    info = json.loads((td_run / "run.json").read_text())
    (segment,) = info["segments"]  # as a PPO run's segment: when it started, by what command
    assert set(segment) == {"started", "command", "from_games", "games", "seconds"}
    assert datetime.fromisoformat(segment["started"]) <= datetime.now(timezone.utc)
    assert (segment["from_games"], segment["games"]) == (0, 2048)
    kept = info["kept"]
    values = td.LineValues.load(td_run / "values.npz")
    assert kept == {"games": values.kept_games, "validation": values.validation}
    assert kept["games"] in (512, 1024, 1536, 2048)
    line = f"The model is the table of {kept['games']:,} games"
    assert (line in report) == (kept["games"] != 2048)


def test_a_td_run_evaluates_and_resumes(
    td_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["evaluate", str(td_run), "--episodes", "4", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| greedy |" in out and "The agent (no look-ahead), same deals" in out
    config = tmp_path / "more.yaml"
    config.write_text(
        "game: poker_squares\nalgorithm: td\ntd: {games: 3072, batch: 512, eval_every: 0}\n"
    )
    copy = tmp_path / "run"
    copy.mkdir()
    for name in ("values.npz", "run.json"):
        (copy / name).write_bytes((td_run / name).read_bytes())
    args = ["train", "poker_squares", "--config", str(config), "--out", str(copy)]
    assert main([*args, "--resume", "--eval-episodes", "0"]) == 0
    resumed = td.LineValues.load(copy / "values.npz")
    assert resumed.games == 3072
    assert resumed.extrapolation == 0.0  # it plays as the resumed run's config says
    assert main([*args[:-1], str(tmp_path / "missing"), "--resume"]) == 2
    assert "no values.npz" in capsys.readouterr().err


def test_a_td_run_has_its_own_default_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "td.yaml"
    config.write_text("game: poker_squares\nalgorithm: td\ntd: {games: 256, eval_every: 0}\n")
    args = ["train", "poker_squares", "--config", str(config), "--eval-episodes", "0"]
    assert main([*args, "--seed", "4"]) == 0
    assert (tmp_path / "runs" / "poker_squares_td-s4" / "values.npz").exists()


def test_td_settings_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "td.yaml"
    config.write_text("game: quintet\nalgorithm: td\n")
    out = str(tmp_path / "x")
    assert main(["train", "quintet", "--config", str(config), "--out", out]) == 2
    assert "Quintet has no value learner" in capsys.readouterr().err
    config.write_text("game: poker_squares\nalgorithm: td\n")
    assert main(["train", "poker_squares", "--config", str(config), "--timesteps", "9"]) == 2
    assert "--timesteps is a PPO setting" in capsys.readouterr().err
    config.write_text("game: poker_squares\nalgorithm: td\nenv: {jokers: 2}\n")
    assert main(["train", "poker_squares", "--config", str(config), "--out", out]) == 2
    assert "jokers=2" in capsys.readouterr().err
    config.write_text("game: poker_squares\nalgorithm: td\ntd: {lam: 2}\n")
    assert main(["train", "poker_squares", "--config", str(config), "--out", out]) == 2
    assert "td.lam" in capsys.readouterr().err
    config.write_text("game: poker_squares\nalgorithm: td\ntd: {extrapolation: -1}\n")
    assert main(["train", "poker_squares", "--config", str(config), "--out", out]) == 2
    assert "td.extrapolation" in capsys.readouterr().err


def test_list_names_the_learner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert out.count("training algorithms: ppo, td") == 1  # Poker Squares only


def test_play_takes_hints_from_a_td_run(td_run: Path) -> None:
    lines: list[str] = []
    result = play("poker_squares", str(td_run), seed=3, read=lambda _: "", write=lines.append)
    assert f"agent ({td_run / 'values.npz'})" in lines[0]
    assert result["score"] == result["opponent_score"]  # every hint taken: the agent's own game
