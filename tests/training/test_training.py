"""Training and evaluation smoke tests: tiny budgets on both games, through the API and the CLI.

Each run trains a few hundred steps with tiny networks; what is checked is the machinery (run
folder contents, resume, reports, determinism, a saved model acting like the live one), not
how well the agent plays.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training import evaluate, forking
from pokerzoo.training.cli import main
from pokerzoo.training.config import ConfigError, from_dict, load_config
from pokerzoo.training.evaluate import (
    PIECE_DEALS,
    Contender,
    _play_lockstep,
    _play_vector,
    evaluate_agent,
    evaluate_contenders,
    make_tables,
    model_policy,
    play_duplicate,
    play_duplicate_forked,
)
from pokerzoo.training.exploiters import kept_random_state
from pokerzoo.training.features import Gate
from pokerzoo.training.hooks import feature_set
from pokerzoo.training.opponents import PolicyBot
from pokerzoo.training.play import play
from pokerzoo.training.report import evaluate_run
from pokerzoo.training.stats import mean_ci, rate_ci
from pokerzoo.training.train import (
    make_training_env,
    train,
    validate_for_game,
    with_exploiters,
)

TINY_PPO = {"n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": [16]}


TINY = {
    "poker_squares": {
        "n_envs": 4,
        "features": "lines",
        "checkpoint_every": 128,
        "env": {"reward": "incremental"},
        "ppo": {**TINY_PPO, "policy": "per_action", "head_arch": [8], "context": 8},
        "evaluation": {"every": 128, "episodes": 4, "opponents": ["random"], "final_episodes": 0},
    },
    "quintet": {
        "n_envs": 2,
        "vec_env": "subproc",
        "checkpoint_every": 0,
        "ppo": {**TINY_PPO, "n_steps": 64},
        "opponents": {
            "bots": {"random": 1, "greedy": 1},
            "snapshot_weight": 1,
            "snapshot_every": 128,
        },
        "evaluation": {"every": 256, "episodes": 2, "opponents": ["random"], "final_episodes": 0},
    },
}
"""Each game's tiny settings: a few hundred steps with tiny networks."""


def tiny(game: str, **changes: Any) -> Any:
    """The game's tiny config (:data:`TINY`), with ``changes`` on top."""
    return from_dict({"game": game, "timesteps": 256, **TINY[game], **changes})


def observations(n: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """Poker Squares observations and masks from a few steps into seeded games."""
    env = get_game("poker_squares").make_vector(n)
    obs, info = env.reset(seed=5)
    for _ in range(7):
        obs, _, _, _, info = env.step(info["action_mask"].argmax(axis=1))
    return obs, info["action_mask"].astype(bool)


def without_seconds(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: without_seconds(v) for k, v in data.items() if not k.endswith("seconds")}
    return data


@pytest.fixture(scope="module")
def poker_squares_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    run = tmp_path_factory.mktemp("runs") / "ps"
    result = train(tiny("poker_squares"), run, progress_bar=False, verbose=0)
    return run, result


def test_run_folder_holds_model_config_seed_and_versions(poker_squares_run: Any) -> None:
    run, result = poker_squares_run
    assert result.timesteps >= 256
    for name in ("model.zip", "config.yaml", "run.json", "monitor.csv", "evaluations.csv"):
        assert (run / name).is_file(), name
    assert (run / "checkpoints" / "model_128_steps.zip").is_file()
    assert any((run / "tb").iterdir())
    info = json.loads((run / "run.json").read_text())
    assert info["seed"] == 0 and info["game"] == "poker_squares"
    assert {"torch", "stable_baselines3", "sb3_contrib", "pokerzoo"} <= set(info["versions"])
    throughput = info["throughput"]
    assert throughput["steps_per_second"] > 0
    assert (throughput["workers"], throughput["threads"], throughput["update_threads"]) == (1, 1, 1)
    # learn splits into collecting rollouts and PPO's updates, the evaluations left out of both;
    # run.json keeps milliseconds, so a tiny run's few milliseconds of updates survive the rounding
    assert result.throughput["collection_seconds"] > 0 and result.throughput["update_seconds"] > 0
    assert throughput["collection_seconds"] > 0 and throughput["update_seconds"] >= 0
    assert throughput["update_seconds"] == pytest.approx(
        result.throughput["update_seconds"], abs=0.003
    )
    total = throughput["collection_seconds"] + throughput["update_seconds"]
    assert total == pytest.approx(throughput["seconds"], abs=0.002)
    assert info["segments"][-1]["collection_seconds"] == throughput["collection_seconds"]
    rows = (run / "evaluations.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,agent_mean,bot_mean/random")
    assert len(rows) >= 3  # 128, 256


def test_a_segment_records_when_it_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """run.json's ``started`` is the segment's start, not its end: ``learn`` is made to take
    over a second, so a time taken after it lies past the second ``learn`` was called in."""
    from sb3_contrib import MaskablePPO

    called: list[datetime] = []
    learn = MaskablePPO.learn

    def slow_learn(self: Any, *args: Any, **kwargs: Any) -> Any:
        called.append(datetime.now(timezone.utc))
        time.sleep(1.2)
        return learn(self, *args, **kwargs)

    monkeypatch.setattr(MaskablePPO, "learn", slow_learn)
    train(tiny("poker_squares", timesteps=128), tmp_path / "ps", progress_bar=False, verbose=0)
    (segment,) = json.loads((tmp_path / "ps" / "run.json").read_text())["segments"]
    assert datetime.fromisoformat(segment["started"]) <= called[0]


def test_saved_model_loads_and_acts_identically(poker_squares_run: Any) -> None:
    from sb3_contrib import MaskablePPO

    run, result = poker_squares_run
    spec = get_game("poker_squares")
    transform = feature_set(spec, "lines")
    obs, masks = observations()
    live = model_policy(result.model, transform)(obs, masks)
    loaded = MaskablePPO.load(run / "model.zip", device="cpu")
    assert type(loaded.policy).__name__ == "PerActionPolicy"
    assert np.array_equal(model_policy(loaded, transform)(obs, masks), live)
    assert masks[np.arange(len(live)), live].all()


def test_evaluation_is_seeded_and_writes_reports(poker_squares_run: Any) -> None:
    run, _ = poker_squares_run
    first, paths = evaluate_run(run, episodes=6, opponents=["random", "greedy"], seed=11)
    second, _ = evaluate_run(run, episodes=6, opponents=["random", "greedy"], seed=11)
    assert without_seconds(first.as_dict()) == without_seconds(second.as_dict())
    for key in ("md", "json", "png"):
        assert paths[key].is_file()
    assert set(first.opponents) == {"random", "greedy"}
    greedy = first.opponents["greedy"]
    assert greedy.games == 6 and greedy.bot_mean is not None
    assert greedy.win.value + greedy.draw.value + greedy.loss.value == pytest.approx(1.0)
    assert first.threshold == 100.0
    report = json.loads(paths["json"].read_text())
    assert report["evaluation"]["opponents"]["greedy"]["games"] == 6
    assert "| greedy |" in paths["md"].read_text()


def test_resume_continues_from_the_checkpoint(poker_squares_run: Any, tmp_path: Path) -> None:
    import shutil

    run, _ = poker_squares_run
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    with pytest.raises(FileExistsError, match="--resume"):
        train(tiny("poker_squares"), copy, progress_bar=False, verbose=0)
    result = train(tiny("poker_squares", timesteps=512), copy, resume=True, progress_bar=False)
    assert result.timesteps >= 512
    info = json.loads((copy / "run.json").read_text())
    assert [s["from_timesteps"] for s in info["segments"]] == [0, 256]
    assert (copy / "resume1.monitor.csv").is_file()


def test_the_step_size_falls_linearly_to_learning_rate_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ppo.learning_rate_end``: each update's step size is read off the line from
    ``learning_rate`` to it over the run (two rollouts: half way, then the end), and a resumed
    run goes on along the saved line over its new total."""
    from sb3_contrib import MaskablePPO

    ppo = {**TINY["poker_squares"]["ppo"], "learning_rate": 1e-3, "learning_rate_end": 1e-4}
    seen: list[float] = []
    update = MaskablePPO.train

    def train_and_record(self: MaskablePPO) -> None:
        update(self)
        seen.append(self.policy.optimizer.param_groups[0]["lr"])

    monkeypatch.setattr(MaskablePPO, "train", train_and_record)
    train(tiny("poker_squares", ppo=ppo), tmp_path / "run", progress_bar=False, verbose=0)
    assert seen == pytest.approx([5.5e-4, 1e-4])
    seen.clear()
    longer = tiny("poker_squares", ppo=ppo, timesteps=512)
    train(longer, tmp_path / "run", resume=True, progress_bar=False, verbose=0)
    assert seen == pytest.approx([3.25e-4, 1e-4])  # at 384 and 512 of 512 steps
    seen.clear()
    constant = {**ppo, "learning_rate_end": None}
    train(tiny("poker_squares", ppo=constant), tmp_path / "flat", progress_bar=False, verbose=0)
    assert seen == [1e-3, 1e-3]


def test_vector_and_single_env_evaluation_agree() -> None:
    spec = get_game("poker_squares")

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        # Deterministic and observation-dependent: the legal cell nearest (obs sum mod 25).
        target = obs.astype(np.int64).sum(axis=1) % 25
        distance = np.abs(np.arange(25)[None, :] - target[:, None]) + 100 * ~masks
        return distance.argmin(axis=1)

    seeds = list(range(40, 52))
    vector = _play_vector(spec, policy, {}, seeds)
    single = _play_lockstep(spec, policy, {}, seeds)
    assert np.array_equal(vector, single)


def test_quintet_duplicate_deals_with_the_same_bot_draw() -> None:
    spec = get_game("quintet")
    greedy = spec.make_bot("greedy", seed=0)

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.array([greedy.act(o, m) for o, m in zip(obs, masks, strict=True)])

    result = evaluate_agent(spec, policy, {}, episodes=3, opponents=["greedy", "random"])
    same = result.opponents["greedy"]
    assert same.games == 6  # 3 deals x 2 seats
    assert (same.draw.value, same.margin.value) == (1.0, 0.0)
    assert result.opponents["random"].win.value == 1.0


def test_duplicate_deals_split_across_processes_match_one_process() -> None:
    spec = get_game("quintet")

    def first_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:  # a closure: not pickled
        return masks.argmax(axis=1)

    alone = play_duplicate(spec, first_legal, {}, 5, "greedy", seed=70)
    split = play_duplicate_forked(spec, first_legal, {}, 5, "greedy", 70, 4, processes=2)
    for field in ("wins", "draws", "own", "theirs"):
        assert np.array_equal(getattr(alone, field), getattr(split, field)), field
    assert alone.own.std() > 0  # the deals differ: the order of the chunks is checked too
    result = evaluate_agent(spec, first_legal, {}, 5, ["greedy"], seed=70, processes=2)
    assert result.processes == 2 and result.as_dict()["processes"] == 2
    assert result.opponents["greedy"].margin == alone.summary("greedy").margin
    with pytest.raises(ValueError, match="processes"):
        evaluate_agent(spec, first_legal, {}, 5, ["greedy"], processes=0)


@pytest.mark.parametrize(
    ("game", "bot"),
    [("draw_poker", "equity"), ("five_card_stud", "equity"), ("quintet", "mixed")],
)
def test_bots_of_many_games_in_flight_decide_as_in_one_game(game: str, bot: str) -> None:
    """Duplicate deals played one game at a time (every bot acts alone) and many at once (the
    bots that wait together asked in one batch) give the same results, deal by deal."""
    spec = get_game(game)

    def last_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:  # never folds
        return masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)

    alone = play_duplicate(spec, last_legal, {}, 4, bot, seed=90, batch=1)
    together = play_duplicate(spec, last_legal, {}, 4, bot, seed=90, batch=8)
    for field in ("wins", "draws", "own", "theirs"):
        assert np.array_equal(getattr(alone, field), getattr(together, field)), field
    assert alone.own.std() > 0


def test_tables_kept_from_bot_to_bot_play_as_fresh_ones() -> None:
    """An evaluation makes its tables once (:func:`make_tables`) and plays every bot on them:
    each game resets its table with its deal's seed, so the results are those of fresh tables,
    whatever was played on them before."""
    spec = get_game("five_card_stud")

    def last_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:  # never folds
        return masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)

    tables = make_tables(spec, {}, 3, batch=4)
    assert len(tables) == 4
    for bot in ("random", "rules", "equity"):
        kept = play_duplicate(spec, last_legal, {}, 3, bot, seed=50 + len(bot), tables=tables)
        fresh = play_duplicate(spec, last_legal, {}, 3, bot, seed=50 + len(bot), batch=4)
        for field in ("wins", "draws", "own", "theirs"):
            assert np.array_equal(getattr(kept, field), getattr(fresh, field)), (bot, field)
        assert kept.own.std() > 0


def test_contenders_played_together_score_as_each_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """One pass of several contenders against several bots (each chunk of deals played by
    all of them, in one process or split across two, in one piece or several) gives each
    contender the tables it gets evaluated alone."""
    spec = get_game("five_card_stud")

    def last_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:  # never folds
        return masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)

    def first_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:  # folds when it may
        return masks.argmax(axis=1)

    contenders = {"last": Contender(last_legal), "first": Contender(first_legal)}
    bots = ["random", "equity"]
    alone = {
        "last": evaluate_agent(spec, last_legal, {}, 6, bots, seed=31),
        "first": evaluate_agent(spec, first_legal, {}, 6, bots, seed=31),
    }
    for processes, piece in ((1, PIECE_DEALS), (2, PIECE_DEALS), (1, 4), (2, 2)):
        monkeypatch.setattr(evaluate, "PIECE_DEALS", piece)
        together = evaluate_contenders(spec, contenders, {}, 6, bots, 31, processes=processes)
        assert list(together) == ["last", "first"]
        for key, result in together.items():
            assert result.processes == processes
            for bot in bots:
                got, expected = result.opponents[bot], alone[key].opponents[bot]
                assert (got.margin, got.win, got.agent_mean) == (
                    expected.margin,
                    expected.win,
                    expected.agent_mean,
                ), (key, bot, processes)
    assert alone["last"].opponents["random"].margin != alone["first"].opponents["random"].margin
    with pytest.raises(ValueError, match="policy or a player"):
        Contender()
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        evaluate_contenders(spec, contenders, {}, 2, ["nobody"])
    with pytest.raises(ValueError, match="several players"):
        evaluate_contenders(get_game("poker_squares"), contenders, {}, 2)


PACKS = {
    "actions": "packs",
    "features": "candidates",
    "ppo": {**TINY_PPO, "n_steps": 64, "policy": "per_action", "head_arch": [8], "context": 8},
}


@pytest.mark.parametrize(
    ("vec_env", "settings"),
    [("subproc", {}), ("dummy", {}), ("native", {}), ("native", PACKS)],
    ids=["subproc", "dummy", "native", "native-packs"],
)
def test_quintet_self_play_trains_and_evaluates(
    vec_env: str, settings: dict[str, Any], tmp_path: Path
) -> None:
    """Snapshots reach the pool in every collection, through a formulation's wrapper too."""
    run = tmp_path / "q"
    train(tiny("quintet", vec_env=vec_env, **settings), run, progress_bar=False, verbose=0)
    assert sorted(p.name for p in (run / "snapshots").iterdir()) == [
        "step_128.zip",
        "step_256.zip",
    ]
    evaluation, paths = evaluate_run(run, episodes=2, opponents=["random", "greedy"])
    assert evaluation.opponents["greedy"].games == 4
    assert "| random | 4 |" in paths["md"].read_text()


@pytest.mark.parametrize("vec_env", ["dummy", "native"])
def test_a_run_with_hard_deal_replay_counts_its_replays(vec_env: str, tmp_path: Path) -> None:
    """``opponents.replay_share``: the tables replay deals lost to the named bots, in every
    collection (through the pack formulation's wrapper too), and run.json counts them."""
    opponents = {**TINY["quintet"]["opponents"], "replay_share": 0.5, "replay_bots": ["greedy"]}
    config = tiny("quintet", vec_env=vec_env, opponents=opponents, **PACKS)
    train(config, tmp_path / "q", progress_bar=False, verbose=0)
    (segment,) = json.loads((tmp_path / "q" / "run.json").read_text())["segments"]
    assert segment["replayed_deals"] > 0  # an untrained learner loses most deals to greedy
    train(tiny("quintet", vec_env=vec_env, **PACKS), tmp_path / "p", progress_bar=False)
    (segment,) = json.loads((tmp_path / "p" / "run.json").read_text())["segments"]
    assert "replayed_deals" not in segment


def test_a_trained_run_joins_the_opponent_pool(tmp_path: Path) -> None:
    """``opponents.runs``: a run of the game is drawn like a bot and plays its saved policy,
    loaded once for the tables of a process; a run of another game is a config error (the rllib
    backend's refusal: tests/rllib/test_table.py)."""
    first = tmp_path / "first"
    against_random = tiny("quintet", vec_env="dummy", opponents={"bots": {"random": 1}})
    train(against_random, first, progress_bar=False, verbose=0)
    config = tiny("quintet", vec_env="dummy", opponents={"runs": {str(first): 1}})
    venv = make_training_env(config)
    pools = venv.get_attr("pool")
    rng = np.random.default_rng(0)
    player = pools[0](1, rng)
    assert player.name == f"run:{first}" and pools[1](1, rng) is player
    saved = PolicyBot(first / "model.zip")
    env = get_game("quintet").make_single(opponent="random")
    obs, info = env.reset(seed=3)
    for _ in range(25):
        action = saved.act(obs, info["action_mask"])
        assert player.act(obs, info["action_mask"]) == action
        obs, _, done, _, info = env.step(action)
    assert done
    venv.close()
    native = tiny("quintet", vec_env="native", opponents={"runs": {str(first): 1}})
    result = train(native, tmp_path / "second", progress_bar=False, verbose=0)
    assert result.timesteps == 256
    with pytest.raises(ConfigError, match=f"opponents.runs: {first} is a quintet run, not"):
        validate_for_game(
            from_dict({"game": "five_card_stud", "opponents": {"runs": {str(first): 1}}}),
            get_game("five_card_stud"),
        )


def test_the_run_trains_exploiters_of_its_learner(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``opponents.exploiter_at``: the learner is frozen there, an exploiter trains against it
    alone in a run folder of its own, then the pool draws it at ``exploiter_weight``; one
    beyond the budget is skipped with a warning; a resumed run seats it without training it
    again; the learner's random state is put back."""
    run = tmp_path / "run"
    opponents = {
        "bots": {"random": 1},
        "exploiter_at": [128, 256],  # 256: the budget's last step, too late to meet it
        "exploiter_timesteps": 64,
        "exploiter_weight": 2,
    }
    config = tiny("quintet", vec_env="native", opponents=opponents)
    with caplog.at_level(logging.WARNING):
        result = train(config, run, progress_bar=False, verbose=0)
    assert result.timesteps == 256
    assert "exploiter_at [256]: at or beyond the run's 256 timesteps" in caplog.text
    assert sorted(p.name for p in (run / "exploiters").iterdir()) == ["learner_128.zip", "step_128"]
    learner, exploiter = run / "exploiters" / "learner_128.zip", run / "exploiters" / "step_128"
    assert learner.is_file() and (exploiter / "model.zip").is_file()
    trained = load_config(exploiter / "config.yaml")
    assert trained.opponents.runs == {str(learner): 1} and trained.opponents.bots == {}
    assert trained.timesteps == 128 and not trained.opponents.exploiter_at  # a whole rollout
    info = json.loads((run / "run.json").read_text())
    assert info["segments"][0]["exploiter_seconds"] == round(
        result.throughput["exploiter_seconds"], 3
    )
    assert result.throughput["exploiter_seconds"] > 0
    assert json.loads((exploiter / "run.json").read_text())["throughput"]["timesteps"] == 128

    seated = with_exploiters(config, run, 128)
    assert (
        seated.opponents.runs == {str(exploiter): 2} and with_exploiters(config, run, 127) == config
    )
    venv = make_training_env(seated.model_copy(update={"vec_env": "dummy"}))
    pool = venv.get_attr("pool")[0]
    drawn = {pool(1, np.random.default_rng(seed)).name for seed in range(40)}
    assert drawn == {"random", f"run:{exploiter}"}
    venv.env_method("add_opponent", "greedy", 1)
    assert "greedy" in {pool(1, np.random.default_rng(seed)).name for seed in range(40)}
    venv.close()

    def resume(timesteps: int) -> Any:
        grown = config.model_copy(update={"timesteps": timesteps})
        return train(grown, run, resume=True, progress_bar=False, verbose=0)

    stamp = (exploiter / "model.zip").stat().st_mtime_ns
    resumed = resume(384)
    assert resumed.timesteps == 384 and (exploiter / "model.zip").stat().st_mtime_ns == stamp
    # the budget now reaches 256: its exploiter trains at once, 128's is seated, not retrained
    assert (run / "exploiters" / "step_256" / "model.zip").is_file()
    (exploiter / "model.zip").unlink()  # as if stopped while the exploiter trained
    resumed = resume(512)
    assert resumed.throughput["exploiter_seconds"] > 0 and (exploiter / "model.zip").is_file()

    np.random.seed(5)
    expected = np.random.random()
    np.random.seed(5)
    with kept_random_state():
        np.random.seed(6)
    assert np.random.random() == expected

    with pytest.raises(ConfigError, match=r"opponents.exploiter_at: \[9, 3\] \(expected incr"):
        validate_for_game(
            tiny("quintet", opponents={**opponents, "exploiter_at": [9, 3]}), get_game("quintet")
        )
    with pytest.raises(ConfigError, match="one-player game"):
        validate_for_game(
            tiny("poker_squares", opponents={"exploiter_at": [9]}), get_game("poker_squares")
        )


def test_cli_list_train_evaluate_and_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "poker_squares" in out and "quintet" in out and "best_response" in out

    config = tmp_path / "q.yaml"
    config.write_text(
        "game: quintet\nn_envs: 1\nvec_env: dummy\ncheckpoint_every: 0\n"
        "ppo: {n_steps: 64, batch_size: 64, n_epochs: 1, net_arch: [16]}\n"
        "opponents: {bots: {random: 1}}\n"
        "evaluation: {every: 0, final_episodes: 2, opponents: [random]}\n"
    )
    run = tmp_path / "run"
    args = ["train", "quintet", "--config", str(config), "--timesteps", "64", "--out", str(run)]
    assert main([*args, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "| random | 4 |" in out and (run / "report.md").is_file()
    monkeypatch.setattr(forking, "default_processes", lambda: 3)  # the cores, by default
    assert main(["evaluate", str(run), "--episodes", "1", "--opponents", "greedy"]) == 0
    alone = capsys.readouterr().out
    assert "| greedy | 2 |" in alone
    assert "on 3 processes" in (run / "report.md").read_text()
    args = ["evaluate", str(run), "--episodes", "1", "--opponents", "greedy", "--processes", "2"]
    assert main(args) == 0
    assert capsys.readouterr().out.split("reports:")[0] == alone.split("reports:")[0]
    assert "on 2 processes" in (run / "report.md").read_text()
    with pytest.raises(SystemExit) as stop:
        main([*args[:-1], "0"])
    assert stop.value.code == 2
    assert "--processes: expected an integer >= 1, got 0" in capsys.readouterr().err

    config.write_text("game: quintet\nppo: {learnin_rate: 1}\n")
    assert main(["train", "quintet", "--config", str(config), "--out", str(tmp_path / "x")]) == 2
    assert "ppo.learnin_rate: unknown key" in capsys.readouterr().err
    assert main(["evaluate", str(tmp_path / "nothing")]) == 2
    assert main(["play", "chess"]) == 2


def test_play_poker_squares_with_hints() -> None:
    answers = iter(["9 9", "x", "1 1"] + [""] * 30)
    lines: list[str] = []
    result = play(
        "poker_squares", "greedy", seed=3, read=lambda _: next(answers), write=lines.append
    )
    text = "\n".join(lines)
    assert "rows and columns are 1..5" in text and "type the row and the column" in text
    assert f"your score: {result['score']:g}" in text
    assert result["opponent_score"] >= 0


def test_play_quintet_against_a_bot() -> None:
    lines: list[str] = []
    result = play("quintet", "greedy", seed=4, read=lambda _: "", write=lines.append)
    assert set(result["points"]) == {"player_0", "player_1"}
    assert "card to place" in "\n".join(lines)


@pytest.mark.parametrize(
    ("values", "mean", "half"),
    [([1.0, 1.0, 1.0], 1.0, 0.0), ([0.0, 2.0], 1.0, 1.959963984540054 * 2**0.5 / 2**0.5)],
)
def test_mean_ci(values: list[float], mean: float, half: float) -> None:
    estimate = mean_ci(values)
    assert estimate.value == mean
    assert estimate.high - estimate.value == pytest.approx(half)


def test_rate_ci_is_wilson() -> None:
    estimate = rate_ci(50, 100)
    assert (estimate.low, estimate.high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert rate_ci(0, 10).low == 0.0 and rate_ci(10, 10).high == 1.0
    with pytest.raises(ValueError):
        rate_ci(3, 2)


@pytest.mark.parametrize("games", [20, 2000])
def test_rates_at_0_and_100_percent_have_intervals_that_shrink_with_the_games(games: int) -> None:
    # A win rate of 100% (or 0%) is never reported as a zero-width [100.0, 100.0]: the interval
    # reflects how many games were played (Wilson: 1.92 / (n + 3.84) wide at the end).
    won, lost = rate_ci(games, games), rate_ci(0, games)
    width = 1.959963984540054**2 / (games + 1.959963984540054**2)
    assert won.value == 1.0 and won.high == 1.0 and won.low == pytest.approx(1 - width)
    assert lost.value == 0.0 and lost.low == 0.0 and lost.high == pytest.approx(width)


def test_duplicate_deal_rates_reflect_the_number_of_games() -> None:
    spec = get_game("quintet")
    greedy = spec.make_bot("greedy", seed=0)

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.array([greedy.act(o, m) for o, m in zip(obs, masks, strict=True)])

    result = evaluate_agent(spec, policy, {}, episodes=5, opponents=["random"])
    win = result.opponents["random"].win
    assert win.value == 1.0 and win.low < 0.8  # 10 games: far from certain


def test_reward_scale_reaches_the_learner_but_not_the_logs() -> None:
    from pokerzoo.training.train import make_training_env

    venv = make_training_env(tiny("quintet", vec_env="dummy", reward_scale=0.1))
    venv.seed(3)
    venv.reset()
    ended = []
    for _ in range(30):
        masks = np.stack(venv.env_method("action_masks"))
        _, rewards, dones, infos = venv.step(masks.argmax(axis=1))
        for reward, done, info in zip(rewards, dones, infos, strict=True):
            if done:
                ended.append((reward, info["episode"]["r"]))
    venv.close()
    assert ended  # 25 learner moves per game
    for scaled, logged in ended:
        assert scaled == pytest.approx(0.1 * logged)  # Quintet pays only at the end
        assert logged == int(logged) and -25 <= logged <= 25


def test_quintet_plans_policy_trains_and_a_saved_model_acts_identically(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    config = tiny(
        "quintet",
        vec_env="dummy",
        features="plans",
        ppo={**TINY_PPO, "n_steps": 64, "policy": "per_action", "head_arch": [8], "context": 8},
    )
    run = tmp_path / "plans"
    result = train(config, run, progress_bar=False, verbose=0)
    rows = (run / "evaluations.csv").read_text().splitlines()
    assert [row.split(",")[0] for row in rows[1:]] == ["0", "256"]  # untrained, then trained
    loaded = MaskablePPO.load(run / "model.zip", device="cpu")
    assert loaded.policy.action_net.layout.gate == Gate(9, 5, 14, 6, 2.0)
    transform = feature_set(get_game("quintet"), "plans")
    from pokerzoo.envs import quintet_v0

    env = quintet_v0.parallel_env()
    batch, masks = [], []
    for seed in range(4):  # a few cards into four deals
        obs, _ = env.reset(seed=seed)
        for _ in range(seed * 5):
            obs, *_ = env.step({a: int(obs[a]["action_mask"].argmax()) for a in env.agents})
        batch.append(obs["player_0"]["observation"])
        masks.append(obs["player_0"]["action_mask"].astype(bool))
    live = model_policy(result.model, transform)(np.stack(batch), np.stack(masks))
    assert np.array_equal(model_policy(loaded, transform)(np.stack(batch), np.stack(masks)), live)


@pytest.mark.parametrize(
    ("settings", "width"),
    [({"features": "packs"}, 262 + 5 * 9), ({"actions": "packs", "features": "candidates"}, None)],
    ids=["packs-features", "packs-actions"],
)
def test_every_collection_gives_the_same_observations(
    settings: dict[str, Any], width: int | None
) -> None:
    """DummyVecEnv (features batched in this process), SubprocVecEnv (features in each
    worker) and the native vector env of bot tables (bots batched) collect the same games."""
    from pokerzoo.training.train import make_training_env

    seen = {}
    for kind in ("dummy", "subproc", "native"):
        venv = make_training_env(tiny("quintet", vec_env=kind, **settings))
        venv.seed(7)
        batches = [venv.reset()]
        for _ in range(30):  # past the end of the first games: terminal observations too
            masks = np.stack(venv.env_method("action_masks"))
            observations, _, dones, infos = venv.step(masks.argmax(axis=1))
            batches.append(observations)
            batches += [
                info["terminal_observation"][None]
                for info in infos
                if "terminal_observation" in info
            ]
        venv.close()
        seen[kind] = np.concatenate(batches)
    if width is not None:
        assert seen["dummy"].shape == (31 * 2 + 2, width)  # one game ended in each env
    assert np.array_equal(seen["dummy"], seen["subproc"])
    assert np.array_equal(seen["dummy"], seen["native"])


def test_updates_run_on_update_threads_and_collection_on_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pokerzoo.training import train as train_module

    calls: list[int] = []
    monkeypatch.setattr(train_module, "set_threads", calls.append)
    config = tiny("poker_squares", timesteps=384, update_threads=2, checkpoint_every=0)
    no_evaluation = config.evaluation.model_copy(update={"every": 0})
    config = config.model_copy(update={"evaluation": no_evaluation})
    train(config, tmp_path / "run", progress_bar=False, verbose=0)
    # 384 steps = 3 rollouts of 32 x 4: collect on 1 thread, update on 2, back to 1 at the end
    assert calls == [1, 1, 2, 1, 2, 1, 2, 1]
