"""The ``pokerzoo`` command's handling of what users type: one-line errors with exit status 2 for
their mistakes, a traceback for the package's own bugs."""

from __future__ import annotations

import gc
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training import cli
from pokerzoo.training.cli import main
from pokerzoo.training.config import from_dict
from pokerzoo.training.train import train


def error_of(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run the command, expect exit status 2 and one line on stderr; return it."""
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("pokerzoo: error: ")
    return lines[0]


def test_play_with_an_unknown_option_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = error_of(capsys, ["play", "poker_squares", "--option", "bogus=1"])
    assert "unknown option 'bogus'" in line and "scoring" in line
    line = error_of(capsys, ["play", "quintet", "--option", "reward=chips"])
    assert "--option.reward: bad reward 'chips'" in line
    assert "bad --option 'noequals'" in error_of(
        capsys, ["play", "quintet", "--option", "noequals"]
    )
    assert "--against 'alphago'" in error_of(capsys, ["play", "quintet", "--against", "alphago"])


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", "runs/x", "--episodes", "0"],
        ["evaluate", "runs/x", "--threads", "0"],
        ["league", "quintet", "--threads", "0"],
        ["train", "quintet", "--eval-episodes", "-1"],
        ["train", "quintet", "--timesteps", "many"],
        ["train", "quintet", "--n-envs", "0"],
        ["train", "quintet", "--workers", "0"],
    ],
)
def test_bad_numbers_are_refused_by_the_parser(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "expected an integer" in capsys.readouterr().err


def test_resume_of_a_missing_run_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = error_of(capsys, ["train", "quintet", "--resume", "--out", str(tmp_path / "none")])
    assert "holds no run to continue" in line


def test_an_option_error_in_a_config_names_the_file_and_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "ps.yaml"
    config.write_text("game: poker_squares\nenv: {scoring: french}\n")
    line = error_of(capsys, ["train", "poker-squares", "--config", str(config)])
    assert f"{config}: env.scoring: bad scoring 'french'" in line
    config.write_text("game: quintet\nopponents: {bots: {grumpy: 1}}\n")
    line = error_of(capsys, ["train", "quintet", "--config", str(config)])
    assert f"{config}: opponents.bots: unknown bot 'grumpy'" in line


def test_more_workers_than_tables_is_an_error_naming_both(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = error_of(capsys, ["train", "five-card-stud", "--n-envs", "2", "--workers", "3"])
    assert "workers: 3 is more than n_envs (2)" in line
    line = error_of(capsys, ["train", "poker-squares", "--workers", "2"])
    assert "workers: 2 splits the native tables of a game of several players" in line


def test_version_and_game_names_with_dashes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.startswith("pokerzoo ")
    assert get_game("poker-squares").name == "poker_squares"
    assert "unknown game 'chess'" in error_of(capsys, ["play", "chess"])


def test_a_bug_is_not_reported_as_a_user_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> int:
        raise ValueError("a bug inside the package")

    monkeypatch.setattr(cli, "_cmd_list", broken)
    with pytest.raises(ValueError, match="a bug inside the package"):
        main(["list"])


def test_timesteps_round_up_to_whole_rollouts(tmp_path: Path) -> None:
    config = from_dict(
        {
            "game": "poker_squares",
            "timesteps": 100,
            "n_envs": 2,
            "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [8]},
            "evaluation": {"every": 0, "final_episodes": 0},
            "checkpoint_every": 0,
        }
    )
    result = train(config, tmp_path / "run", progress_bar=False, verbose=0)
    assert result.timesteps == 128  # one rollout of 64 steps x 2 envs, not 128 of "100"
    saved = yaml.safe_load((tmp_path / "run" / "config.yaml").read_text())
    assert saved["timesteps"] == 128


def test_list_says_which_seat_counts_are_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    heads = [line for line in capsys.readouterr().out.splitlines() if not line.startswith(" ")]
    assert "draw_poker: Draw poker (2 players by default) - 2-10 players" in heads[0]
    assert any(
        line.startswith("nameless_poker: Poker without a name (4 players) -") for line in heads
    )
    assert any(line.startswith("poker_squares: Poker Squares (one player) -") for line in heads)


def test_lbr_is_refused_where_no_game_hooks_describe_hidden_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "model.zip"
    model.write_bytes(b"")
    assert main(["evaluate", str(model), "--game", "quintet", "--lbr", "2"]) == 2
    assert "no local best response for quintet" in capsys.readouterr().err


def test_sampled_play_is_refused_where_the_agent_cannot_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "model.zip"
    model.write_bytes(b"")
    assert main(["evaluate", str(model), "--game", "poker_squares", "--sampled"]) == 2
    error = capsys.readouterr().err
    assert "--sampled: bad run" in error and "poker_squares is a one-player game" in error
    league = ["league", "poker_squares", "--runs", str(model), "--sampled"]
    assert main(league) == 2
    assert "poker_squares is a one-player game" in capsys.readouterr().err


def test_train_with_workers_evaluates_on_as_many_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pokerzoo.training import report

    used: list[int] = []
    evaluate_run = report.evaluate_run

    def spy(*args: Any, **kwargs: Any) -> Any:
        used.append(kwargs["processes"])
        return evaluate_run(*args, **kwargs)

    monkeypatch.setattr(report, "evaluate_run", spy)
    config = tmp_path / "stud.yaml"
    config.write_text(
        "game: five_card_stud\ntimesteps: 64\nn_envs: 4\nworkers: 2\ncheckpoint_every: 0\n"
        "features: equity\nppo: {n_steps: 16, batch_size: 32, n_epochs: 1, net_arch: [8]}\n"
        "opponents: {bots: {caller: 1}, snapshot_every: 0}\n"
        "evaluation: {every: 0, final_episodes: 4, opponents: [caller]}\n"
    )
    out = tmp_path / "run"
    argv = ["train", "five_card_stud", "--config", str(config), "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    assert used == [2]
    printed = capsys.readouterr().out
    assert "trained 64 steps" in printed and "| caller | 8 |" in printed


def test_the_evaluating_commands_set_torch_threads_without_importing_torch(
    tmp_path: Path,
) -> None:
    """``--threads`` of ``league`` (and ``evaluate``): a league of bots never imports torch, so
    the count waits in ``OMP_NUM_THREADS`` for whatever imports it later; where torch is
    loaded already it is set at once."""
    code = (
        "import os, sys\n"
        "from pokerzoo.training.cli import main\n"
        "from pokerzoo.training.forking import torch_threads\n"
        "argv = ['league', 'quintet', '--bots', 'greedy', 'sacrifice', '--episodes', '2']\n"
        f"main([*argv, '--threads', '1', '--out', {str(tmp_path)!r}])\n"
        "print('torch' in sys.modules, os.environ['OMP_NUM_THREADS'])\n"
        "import torch\n"
        "print(torch.get_num_threads())\n"
        "torch_threads(2)\n"
        "print(torch.get_num_threads())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-3:] == ["False 1", "1", "2"]


def test_thread_counts_reach_numpys_blas_in_the_command_and_its_workers(tmp_path: Path) -> None:
    """``--threads`` sets numpy's BLAS threads as well as torch's (a BLAS pool spins while it
    waits: the numpy actor's products slowed forked workers on 2 cores), in the command's
    process and in the forked workers that play its deals (one thread each); the training
    code's ``set_threads`` too."""
    pytest.importorskip("threadpoolctl")
    code = (
        "import numpy\n"
        "from threadpoolctl import threadpool_info\n"
        "from pokerzoo.training.cli import main\n"
        "from pokerzoo.training.forking import fork_map\n"
        "from pokerzoo.training.train import set_threads\n"
        "def blas(_=None):\n"
        "    pools = threadpool_info()\n"
        "    return sorted({i['num_threads'] for i in pools if i['user_api'] == 'blas'})\n"
        "argv = ['league', 'quintet', '--bots', 'greedy', 'sacrifice', '--episodes', '2']\n"
        f"main([*argv, '--threads', '3', '--out', {str(tmp_path)!r}])\n"
        "print(blas())\n"
        "print(fork_map(blas, [0, 1], processes=2))\n"
        "set_threads(2)\n"
        "print(blas())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-3:] == ["[3]", "[[1], [1]]", "[2]"]


def test_the_default_process_count_is_the_cores_this_process_may_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``evaluate`` and ``league`` without ``--processes`` share the deals among the cores this
    process may use (the tables are the same for any count); one process where the platform
    cannot fork."""
    from pokerzoo.training import forking

    monkeypatch.setattr(forking.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert forking.default_processes() == 3
    monkeypatch.setattr(forking.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert forking.default_processes() == 1


@pytest.mark.parametrize(
    ("deals", "processes", "least", "sizes"),
    [
        (1000, 2, 1, [63] * 8 + [62] * 8),
        (100, 2, 1, [7] * 4 + [6] * 12),
        (10, 2, 1, [1] * 10),
        (7, 3, 1, [1] * 7),
        (1, 4, 1, [1]),
        (250, 1, 1, [32] * 2 + [31] * 6),
        # Fewer chunks where they would hold fewer than ``least`` deals: a multiple of the
        # processes, and never fewer chunks than processes while there are deals for them.
        (10, 2, 4, [5, 5]),
        (40, 2, 4, [4] * 10),
        (42, 2, 4, [5, 5] + [4] * 8),
        (5, 2, 4, [3, 2]),
        (3, 4, 8, [1, 1, 1]),
        (1000, 2, 8, [63] * 8 + [62] * 8),
    ],
)
def test_deal_chunks_cover_every_deal_once_in_order(
    deals: int, processes: int, least: int, sizes: list[int]
) -> None:
    """The deals' chunks are consecutive, cover every deal once and differ by one deal at
    most: ``CHUNKS_PER_PROCESS`` a process where the deals allow it, fewer where a chunk would
    hold fewer than ``least`` deals."""
    from pokerzoo.training import forking

    chunks = forking.deal_chunks(500, deals, processes, least)
    seeds = [first + k for first, count in chunks for k in range(count)]
    assert seeds == list(range(500, 500 + deals))
    assert [count for _, count in chunks] == sizes


@pytest.mark.parametrize(
    ("deals", "processes", "least"), [(0, 2, 1), (10, 0, 1), (10, 2, 0), (-1, 1, 1)]
)
def test_deal_chunks_refuse_nothing_to_split(deals: int, processes: int, least: int) -> None:
    from pokerzoo.training import forking

    with pytest.raises(ValueError, match=f"deals={deals}, processes={processes}, least={least}"):
        forking.deal_chunks(500, deals, processes, least)


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(),
    reason="this platform cannot fork worker processes",
)
def test_forked_workers_keep_what_they_inherit_out_of_their_collections() -> None:
    """Each of ``fork_map``'s workers freezes what it was forked with (``gc.freeze``: its full
    collections stop walking torch's and the model's objects), on one torch thread; this
    process's collector is left as it was."""
    from pokerzoo.training import forking

    def worker(chunk: int) -> tuple[int, int, str]:
        torch = sys.modules.get("torch")
        threads = str(torch.get_num_threads()) if torch else os.environ.get("OMP_NUM_THREADS")
        return chunk, gc.get_freeze_count(), threads

    before = gc.get_freeze_count()
    seen = forking.fork_map(worker, [1, 2, 3], 2)
    assert [chunk for chunk, _, _ in seen] == [1, 2, 3]
    assert all(frozen > before and threads == "1" for _, frozen, threads in seen)
    assert gc.get_freeze_count() == before and gc.isenabled()


def test_one_process_spares_its_objects_only_while_it_plays() -> None:
    """``fork_map`` in one process keeps what this process holds out of the collections while
    the chunks play (``gc.freeze``), and puts it back after, even when a chunk raises; where
    objects were frozen already (a worker's), it leaves them as they are."""
    from pokerzoo.training import forking

    def frozen(chunk: int) -> int:
        if chunk < 0:
            raise ValueError("a failing chunk")
        return gc.get_freeze_count()

    assert gc.get_freeze_count() == 0  # (nothing in the test process froze anything)
    seen = forking.fork_map(frozen, [1, 2], 1)
    assert seen[0] > 0 and seen[0] == seen[1] and gc.get_freeze_count() == 0
    with pytest.raises(ValueError, match="a failing chunk"):
        forking.fork_map(frozen, [1, -1], 1)
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        already = gc.get_freeze_count()
        assert forking.fork_map(frozen, [1], 1) == [already]
        assert gc.get_freeze_count() == already
    finally:
        gc.unfreeze()
