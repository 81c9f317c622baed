"""The rllib backend's pieces that need no Ray: the multi-agent table (agent ids, observation
dict, rewards, terminations, masked actions, seeding), the learner's seat in an action
formulation (Quintet's packs), the backend's config checks and run folders, the command line's
refusals, and Ray staying out of ``import pokerzoo.training``."""

from __future__ import annotations

import logging
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pytest
import yaml
from pokerzoo.envs.core.errors import GameOverError, IllegalActionError
from pokerzoo.envs.core.registry import games, get_game
from pokerzoo.training.cli import main
from pokerzoo.training.config import ConfigError, from_dict, to_dict
from pokerzoo.training.games.quintet.packs import CONTEXT, RowDraft, encode_draft
from pokerzoo.training.hooks import feature_set
from pokerzoo.training.opponents import OpponentPool
from pokerzoo.training.rllib.settings import league_slots, validate_for_rllib, with_overrides
from pokerzoo.training.rllib.table import (
    ACTION_MASK,
    LEARNER,
    OBSERVATIONS,
    TABLE,
    BotTable,
    SeatTable,
    bot_id,
    draw_opponent,
    module_of,
    seat_env,
    snapshot_id,
)
from pokerzoo.training.runs import find_run, latest_checkpoint, resolve_config

# A fixed row of the toy game: ranks A=12, K=11, 2=0, 3=1, 4=2.
ROW = ["As", "Ks", "2c", "3d", "4h"]


def make_table(game: str = "take_two", bots: dict[str, float] | None = None, **kwargs) -> BotTable:
    options = kwargs.pop("options", {})
    return BotTable(
        get_game(game).make_aec(**options), bots or {"random": 1, "greedy": 1}, **kwargs
    )


def seat_of(table: BotTable, role: str) -> str:
    return next(seat for seat, r in table.roles.items() if r == role)


def test_agent_ids_name_the_learner_and_each_bot_at_each_position() -> None:
    table = make_table(
        "draw_poker", {"random": 1, "caller": 2, "equity": 0}, options={"num_players": 3}
    )
    expected = [LEARNER, *(bot_id(n, p) for p in (1, 2) for n in ("random", "caller"))]
    assert table.possible_agents == expected
    assert table.bot_of == {bot_id(n, p): n for p in (1, 2) for n in ("random", "caller")}
    for agent in expected:
        space = table.observation_spaces[agent]
        # a bot's observation names its table too: its module keeps one bot per table
        extra = {TABLE} if agent in table.bot_of else set()
        assert set(space.spaces) == {OBSERVATIONS, ACTION_MASK, *extra}
        assert space[ACTION_MASK].shape == (table.num_actions,)
        assert table.action_spaces[agent].n == table.num_actions


def test_the_acting_role_alone_observes_its_legal_actions() -> None:
    table = make_table("draw_poker", options={"num_players": 3}, bots={"random": 1, "caller": 1})
    observations, infos = table.reset(seed=3)
    assert infos == {}
    assert sorted(table.roles) == ["player_0", "player_1", "player_2"]
    assert table.agents == list(table.roles.values()) and LEARNER in table.agents
    assert set(table.bot_seeds) == set(table.agents) - {LEARNER}
    rng = np.random.default_rng(0)
    while True:
        (role,) = observations
        seat = table.aec.agent_selection
        assert table.roles[seat] == role
        seen = observations[role]
        assert seen[ACTION_MASK].dtype == np.int8
        np.testing.assert_array_equal(seen[ACTION_MASK], table.aec.observe(seat)["action_mask"])
        assert table.observation_spaces[role].contains(seen)
        if role != LEARNER:
            assert int(seen[TABLE]) == table.table_id
        action = int(rng.choice(np.flatnonzero(seen[ACTION_MASK])))
        observations, rewards, terminated, truncated, _ = table.step({role: action})
        assert set(rewards) == set(table.agents)
        if terminated["__all__"]:
            break
        assert terminated == {"__all__": False} and truncated == {"__all__": False}


def test_a_scripted_game_pays_each_role_its_share_once_and_ends_every_role() -> None:
    table = make_table(options={"payoff": "margin"}, reward_scale=0.5)
    observations, _ = table.reset(seed=0, options={"cards": ROW})
    learner_seat = seat_of(table, LEARNER)
    (bot,) = set(table.agents) - {LEARNER}
    # Each seat takes the highest card left: player_0 takes A and 4 (14), player_1 K and 3 (12).
    for step, card in enumerate([0, 1, 4, 3]):
        (role,) = observations
        observations, rewards, terminated, truncated, _ = table.step({role: card})
        if step < 3:
            assert rewards == {LEARNER: 0.0, bot: 0.0}
    margin = 2.0 if learner_seat == "player_0" else -2.0
    assert rewards == {LEARNER: 0.5 * margin, bot: -margin}
    assert terminated == {LEARNER: True, bot: True, "__all__": True}
    assert truncated == {LEARNER: False, bot: False, "__all__": False}
    assert set(observations) == {LEARNER, bot}  # every role's final observation
    assert table.actions_checked == 4
    with pytest.raises(GameOverError):
        table.step({LEARNER: 2})


def test_a_masked_action_is_refused_and_changes_nothing() -> None:
    table = make_table()
    observations, _ = table.reset(seed=1, options={"cards": ROW})
    (role,) = observations
    table.step({role: 0})
    before = table.aec.observe(table.aec.agent_selection)
    (role,) = [table.roles[table.aec.agent_selection]]
    with pytest.raises(IllegalActionError, match=rf"action of {role} at player_1 0: legal are"):
        table.step({role: 0})  # card 0 is taken
    with pytest.raises(ValueError, match="expected an action for"):
        table.step({"someone": 1})
    after = table.aec.observe(table.aec.agent_selection)
    np.testing.assert_array_equal(before["observation"], after["observation"])
    assert table.actions_checked == 1
    table.step({role: 1})
    assert table.actions_checked == 2


def test_a_seeded_table_replays_its_seating_deals_and_bot_seeds() -> None:
    first, second = make_table(), make_table()
    runs = []
    for table in (first, second):
        table.reset(seed=7)
        seen = []
        for _ in range(30):
            seen.append((dict(table.roles), dict(table.bot_seeds), table.aec.game_state.row))
            table.reset()
        runs.append(seen)
    assert runs[0] == runs[1]
    learner_seats = {next(s for s, r in roles.items() if r == LEARNER) for roles, _, _ in runs[0]}
    assert learner_seats == {"player_0", "player_1"}
    bots = {role for roles, _, _ in runs[0] for role in roles.values()} - {LEARNER}
    assert bots == {bot_id("random", 1), bot_id("greedy", 1)}


def test_a_bot_of_weight_zero_never_sits() -> None:
    table = make_table(bots={"random": 0, "greedy": 1})
    assert table.possible_agents == [LEARNER, bot_id("greedy", 1)]
    with pytest.raises(ValueError, match="one of them > 0"):
        make_table(bots={"random": 0})


def test_the_learner_sees_the_feature_set_and_the_bots_the_raw_observation() -> None:
    spec = get_game("draw_poker")
    features = feature_set(spec, "equity")
    table = make_table("draw_poker", {"caller": 1}, transform=features)
    raw = spec.make_aec().observation_space("player_0")["observation"].shape
    width = features(np.zeros((1, *raw), dtype=np.float32)).shape[1:]
    assert table.observation_spaces[LEARNER][OBSERVATIONS].shape == width
    assert table.observation_spaces[bot_id("caller", 1)][OBSERVATIONS].shape == raw
    observations, _ = table.reset(seed=2)
    shapes = {}
    while True:
        (role,) = observations
        shapes[role] = observations[role][OBSERVATIONS].shape
        action = int(np.flatnonzero(observations[role][ACTION_MASK])[0])
        observations, _, terminated, _, _ = table.step({role: action})
        if terminated["__all__"]:
            break
    assert shapes == {LEARNER: width, bot_id("caller", 1): raw}


# --- the self-play league: snapshots of the learner at the table ----------------------------


def test_an_opponent_is_drawn_as_the_sb3_pool_draws_it() -> None:
    rng = np.random.default_rng(0)
    weights = np.array([1.0, 3.0])
    # No snapshot yet: the bots alone, by their weights, whatever snapshot_weight says.
    draws = [draw_opponent(rng, weights, 6.0, []) for _ in range(4000)]
    assert {snapshot for snapshot, _ in draws} == {False}
    assert np.mean([index for _, index in draws]) == pytest.approx(0.75, abs=0.03)
    # Then "a snapshot" weighs 6 against the bots' 4, and is one of the filled slots, uniformly.
    draws = [draw_opponent(rng, weights, 6.0, [0, 2]) for _ in range(4000)]
    slots = [index for snapshot, index in draws if snapshot]
    assert len(slots) / len(draws) == pytest.approx(0.6, abs=0.03)
    assert set(slots) == {0, 2} and np.mean(slots) == pytest.approx(1.0, abs=0.08)
    bots = [index for snapshot, index in draws if not snapshot]
    assert np.mean(bots) == pytest.approx(0.75, abs=0.04)
    assert {s for s, _ in (draw_opponent(rng, weights, 0.0, [1]) for _ in range(200))} == {False}
    # Draw for draw, with the same generator, what the SB3 pool draws.
    pool = OpponentPool(
        lambda name: name, {"random": 1, "greedy": 3}, 6.0, snapshots=["step_1", "step_2"]
    )
    first, second = np.random.default_rng(9), np.random.default_rng(9)
    for _ in range(300):
        snapshot, index = draw_opponent(first, weights, 6.0, [0, 1])
        drawn = pool(1, second)
        expected = pool.snapshots[index] if snapshot else ["random", "greedy"][index]
        assert (drawn.name.removeprefix("snapshot:") if snapshot else drawn) == expected


def test_a_league_table_seats_snapshots_once_told_with_the_learners_view() -> None:
    spec = get_game("draw_poker")
    features = feature_set(spec, "equity")
    table = make_table(
        "draw_poker",
        {"caller": 2},
        options={"num_players": 3},
        transform=features,
        snapshot_weight=8,
        snapshot_slots=2,
    )
    snapshots = [snapshot_id(slot, p) for p in (1, 2) for slot in (0, 1)]
    assert table.possible_agents == [LEARNER, bot_id("caller", 1), bot_id("caller", 2), *snapshots]
    assert [module_of(agent) for agent in snapshots] == ["snapshot_0", "snapshot_1"] * 2
    assert module_of(bot_id("caller", 1)) == bot_id("caller", 1) and module_of(LEARNER) == LEARNER
    for agent in snapshots:  # a snapshot observes what the learner observes
        assert table.observation_spaces[agent] == table.observation_spaces[LEARNER]
    with pytest.raises(ValueError, match=r"snapshot slots \[2\]: the table has 2"):
        table.set_snapshots([0, 2])

    def seated(episodes: int) -> list[str]:
        roles = []
        for _ in range(episodes):
            table.reset()
            roles += [role for role in table.roles.values() if role != LEARNER]
            assert table.snapshot_seats == sum(
                r.startswith("snapshot_") for r in table.roles.values()
            )
            assert set(table.bot_seeds) == {r for r in table.roles.values() if r.startswith("bot_")}
        return roles

    table.reset(seed=0)
    assert set(seated(50)) == {bot_id("caller", 1), bot_id("caller", 2)}  # none filled yet
    table.set_snapshots([1])
    roles = seated(300)  # a snapshot weighs 8 against the bots' 2, as the SB3 pool weighs
    assert set(roles) == {bot_id("caller", 1), bot_id("caller", 2), *snapshots[1::2]}
    assert sum(r.startswith("snapshot_") for r in roles) / len(roles) == pytest.approx(
        0.8, abs=0.06
    )
    # A snapshot plays a hand through with the learner's features.
    observations, _ = table.reset(seed=11)
    while table.snapshot_seats == 0:
        observations, _ = table.reset()
    width = table.observation_spaces[LEARNER][OBSERVATIONS].shape
    while True:
        (role,) = observations
        if role != LEARNER and role.startswith("snapshot_"):
            assert observations[role][OBSERVATIONS].shape == width
        action = int(np.flatnonzero(observations[role][ACTION_MASK])[0])
        observations, rewards, terminated, _, _ = table.step({role: action})
        if terminated["__all__"]:
            break
    assert set(rewards) == set(table.agents)


def test_a_seeded_league_table_replays_its_draws() -> None:
    runs = []
    for _ in range(2):
        table = make_table(snapshot_weight=1, snapshot_slots=3)
        table.set_snapshots([0, 2])
        table.reset(seed=5)
        seen = []
        for _ in range(40):
            seen.append((dict(table.roles), dict(table.bot_seeds)))
            table.reset()
        runs.append(seen)
    assert runs[0] == runs[1]
    assert any("snapshot_2_1" in roles.values() for roles, _ in runs[0])


# --- an action formulation: the learner's seat, the bots inside -------------------------------


def packs_table(bots: dict[str, float] | None = None, reward_scale: float = 1.0) -> SeatTable:
    spec = get_game("quintet")
    env = seat_env("quintet", {"reward": "points"}, bots or {"greedy": 1, "random": 1}, "packs")
    return SeatTable(env, feature_set(spec, "candidates", "packs"), reward_scale)


def test_the_learner_makes_the_packs_formulations_decisions_and_the_bots_play_the_cards() -> None:
    table = packs_table(reward_scale=0.5)
    assert table.possible_agents == [LEARNER] and table.bot_of == {}
    assert table.action_spaces[LEARNER].n == 120
    assert (
        table.observation_spaces[LEARNER][OBSERVATIONS].shape
        == encode_draft(RowDraft(np.arange(20, 45), 16)).shape
    )
    observations, infos = table.reset(seed=5)
    assert infos == {} and table.agents == [LEARNER] and table.bot_seeds == {}
    seen = observations[LEARNER]
    # The deal's cards, as the formulation's observation shows them: replay its decisions.
    dealt = seen[OBSERVATIONS][CONTEXT["dealt"]]
    draft = RowDraft(np.flatnonzero(dealt) + 20, 16)
    for decision in range(5):
        assert table.observation_spaces[LEARNER].contains(seen)
        np.testing.assert_array_equal(seen[OBSERVATIONS], encode_draft(draft))
        np.testing.assert_array_equal(seen[ACTION_MASK], draft.mask())
        action = int(np.flatnonzero(seen[ACTION_MASK])[-1])  # the weakest candidate, the last order
        draft.commit(action)
        observations, rewards, terminated, truncated, _ = table.step({LEARNER: action})
        seen = observations[LEARNER]
        if decision < 4:
            assert rewards == {LEARNER: 0.0}
            assert terminated == truncated == {"__all__": False}
    assert terminated == {LEARNER: True, "__all__": True}
    assert truncated == {LEARNER: False, "__all__": False}
    assert table.actions_checked == 5
    # The bots played the game's own actions underneath: the deal is over, the learner's row is
    # the one its decisions laid out, and its reward is its (scaled) points margin.
    view = table.env.unwrapped
    state = view.aec.game_state
    seat = view.aec.possible_agents.index(view.learner)
    assert (state.placed == 25).all()
    pack_of = draft.pack_of()
    np.testing.assert_array_equal(state.assignment[seat], pack_of[state.cards.astype(np.int64)])
    assert rewards[LEARNER] == 0.5 * view.aec.rewards[view.learner]
    with pytest.raises(GameOverError):
        table.step({LEARNER: 0})


def test_the_packs_seat_refuses_masked_decisions_and_replays_when_seeded() -> None:
    table = packs_table()
    observations, _ = table.reset(seed=1)
    mask = observations[LEARNER][ACTION_MASK]
    assert mask[0] and not mask[16:].any()  # candidate packs only, at most 16
    with pytest.raises(IllegalActionError, match="action of learner 16: legal are"):
        table.step({LEARNER: 16})
    with pytest.raises(ValueError, match="expected an action for learner only"):
        table.step({bot_id("greedy", 1): 0})
    assert table.actions_checked == 0
    runs = []
    for replay in (packs_table(), packs_table()):
        replay.reset(seed=3)
        seen = []
        for _ in range(4):
            view = replay.env.unwrapped
            seen.append((view.learner, view.aec.game_state.cards.tolist()))
            rewards: dict[str, float] = {}
            for _ in range(5):
                _, rewards, _, _, _ = replay.step({LEARNER: 0})
            seen.append(rewards[LEARNER])
            replay.reset()
        runs.append(seen)
    assert runs[0] == runs[1]


# --- config, settings, run folders ----------------------------------------------------------


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"lr": "fast"}, "rllib.lr: expected a number, got 'fast'"),
        ({"num_env_runners": -1}, "rllib.num_env_runners: expected an integer >= 0"),
        ({"fcnet_hiddens": [64, 0]}, "rllib.fcnet_hiddens: expected an integer (each >= 1), got 0"),
        ({"workers": 2}, "rllib.workers: unknown key (expected one of: address, num_env_runners"),
    ],
)
def test_the_rllib_section_is_validated_like_the_rest(section: dict, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        from_dict({"game": "quintet", "rllib": section})
    assert str(error.value).startswith(message)


def test_the_resolved_config_round_trips_with_its_rllib_section() -> None:
    config = from_dict({"game": "quintet", "backend": "rllib", "rllib": {"lambda_": 0.9}})
    again = from_dict(yaml.safe_load(yaml.safe_dump(to_dict(config))))
    assert again == config and again.rllib.lambda_ == 0.9
    with pytest.raises(ConfigError, match="backend: expected one of 'sb3' or 'rllib'"):
        from_dict({"game": "quintet", "backend": "tf"})


def test_the_command_line_overrides_the_rllib_section() -> None:
    config = from_dict({"game": "quintet", "rllib": {"num_env_runners": 4}})
    changed = with_overrides(config, num_env_runners=1, address="10.0.0.1:6379")
    assert (changed.rllib.num_env_runners, changed.rllib.address) == (1, "10.0.0.1:6379")
    assert with_overrides(config, num_env_runners=None, address=None) is config


def test_the_backend_checks_the_game_then_refuses_one_player_games(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with pytest.raises(ConfigError, match="backend: rllib trains games of several players"):
        validate_for_rllib(from_dict({"game": "poker_squares"}), get_game("poker_squares"))
    quintet = get_game("quintet")
    bots = {"bots": {"greedy": 1}}
    with pytest.raises(ConfigError, match="opponents.bots: needs at least one bot"):
        validate_for_rllib(from_dict({"game": "quintet"}), quintet)  # the game's checks first
    runs = {**bots, "runs": {"runs/agent": 1}}
    with pytest.raises(ConfigError, match=r"opponents.runs: .* not trained runs \(\['runs/agent'"):
        validate_for_rllib(from_dict({"game": "quintet", "opponents": runs}), quintet)
    exploiters = {**bots, "exploiter_at": [100]}  # an SB3-only key, as stud's default has
    with caplog.at_level(logging.WARNING):
        validate_for_rllib(from_dict({"game": "quintet", "opponents": exploiters}), quintet)
    assert "exploiter_at [100]: the rllib backend trains no exploiters" in caplog.text
    caplog.clear()
    replay = {**bots, "replay_share": 0.2, "replay_bots": ["greedy"]}  # as Quintet's default
    with caplog.at_level(logging.WARNING):
        validate_for_rllib(from_dict({"game": "quintet", "opponents": replay}), quintet)
    assert "replay_share 0.2: the rllib backend replays no deals" in caplog.text
    assert caplog.text.count("replays no deals") == 1  # said once, by the check
    caplog.clear()
    with caplog.at_level(logging.WARNING):  # asked by each table and the league: no warning
        league_slots(from_dict({"game": "quintet", "opponents": replay}))
    assert "replays no deals" not in caplog.text
    packs = {"game": "quintet", "actions": "packs", "opponents": bots}
    validate_for_rllib(from_dict({**packs, "features": "candidates"}), quintet)
    with pytest.raises(ConfigError, match="features: unknown features 'packs' for quintet with"):
        validate_for_rllib(from_dict({**packs, "features": "packs"}), quintet)
    # The SB3 sections are no concern of an rllib run: per_action without per-action features.
    sb3_only = {"game": "quintet", "opponents": bots, "ppo": {"policy": "per_action"}}
    validate_for_rllib(from_dict(sb3_only), quintet)
    # The league: kept in the game's own actions, not in an action formulation (warned).
    league = {**bots, "snapshot_weight": 1, "snapshot_every": 100, "max_snapshots": 3}
    with caplog.at_level(logging.WARNING):
        native = from_dict({"game": "quintet", "opponents": league})
        validate_for_rllib(native, quintet)
    assert caplog.text == "" and league_slots(native) == 3
    with caplog.at_level(logging.WARNING):
        packs_league = from_dict({**packs, "features": "candidates", "opponents": league})
        validate_for_rllib(packs_league, quintet)
    assert "keeps no snapshots of the learner in an action formulation" in caplog.text
    assert "['greedy']" in caplog.text and league_slots(packs_league) == 0


@pytest.mark.parametrize(
    "game", [name for name, spec in sorted(games().items()) if spec.players > 1]
)
def test_every_multi_player_games_default_config_passes_the_backends_checks(game: str) -> None:
    config = resolve_config(game, None, backend="rllib")
    validate_for_rllib(config, get_game(game))


def _checkpoint(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "rllib_checkpoint.json").write_text("{}")
    return folder


def test_an_rllib_run_folder_is_found_and_told_from_an_sb3_one(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.yaml").write_text("game: quintet\nbackend: rllib\nfeatures: packs\n")
    for steps in (50, 100):
        _checkpoint(run / "checkpoints" / f"model_{steps}_steps")
    (run / "checkpoints" / "model_200_steps").mkdir()  # a checkpoint cut off while saving
    assert latest_checkpoint(run) == run / "checkpoints" / "model_100_steps"
    target = find_run(run)
    assert (target.model_path, target.backend) == (run / "checkpoints/model_100_steps", "rllib")
    _checkpoint(run / "model")
    target = find_run(run)
    assert (target.model_path, target.run_dir, target.backend) == (run / "model", run, "rllib")
    assert target.features == "packs"
    target = find_run(run / "checkpoints" / "model_50_steps")
    assert (target.run_dir, target.game, target.backend) == (run, "quintet", "rllib")
    (run / "checkpoints" / "model_300_steps.zip").write_bytes(b"")
    assert find_run(run / "checkpoints" / "model_300_steps.zip").backend == "sb3"


# --- the command line ---------------------------------------------------------------------------


def test_cluster_options_belong_to_the_rllib_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "quintet", "--timesteps", "64", "--address", "auto"]) == 2
    assert (
        "--num-env-runners and --address are options of --backend rllib" in capsys.readouterr().err
    )


@pytest.mark.skipif(find_spec("ray") is not None, reason="Ray is installed here")
def test_the_rllib_backend_without_ray_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["train", "quintet", "--backend", "rllib", "--out", str(tmp_path / "run")]
    assert main(argv) == 2
    assert 'needs Ray: pip install -e ".[train,rllib]"' in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
    run = tmp_path / "rllib-run"
    run.mkdir()
    (run / "config.yaml").write_text("game: quintet\nbackend: rllib\n")
    _checkpoint(run / "model")
    assert main(["evaluate", str(run), "--episodes", "2"]) == 2
    assert "is an RLlib run: evaluating it needs Ray" in capsys.readouterr().err


def test_the_training_package_does_not_import_ray() -> None:
    code = (
        "import sys\n"
        "import pokerzoo.training, pokerzoo.training.cli, pokerzoo.training.report\n"
        "import pokerzoo.training.rllib.table, pokerzoo.training.rllib.settings\n"
        "print('ray' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
