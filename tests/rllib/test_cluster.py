"""docs/rllib.md's cluster set-up, on one machine: a Ray cluster of a head node and a second
node (one CPU each), joined by address through ``pokerzoo train --backend rllib --address``,
trains a multi-player game's config with two env runners, which the cluster can only place one
per node, then ``pokerzoo evaluate`` reads the run; the run records the node of each env runner
(``run.json``), and both nodes ran one (about a minute on 2 cores)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

pytest.importorskip("ray.rllib", reason="needs Ray RLlib: pip install -e '.[train,test,rllib]'")

import ray  # noqa: E402
from pokerzoo.training.cli import main  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

pytestmark = pytest.mark.rllib

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def two_nodes() -> Iterator[tuple[Cluster, list[str]]]:
    """A head node and a second node of one CPU each, on this machine (separate raylets, as on
    two machines); the node ids, head first. Stopped after the test, whatever happened."""
    if ray.is_initialized():  # another test module's local instance
        ray.shutdown()
    cluster = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    try:
        second = cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        yield cluster, [cluster.head_node.node_id, second.node_id]
    finally:
        if ray.is_initialized():  # a run that failed half-way
            ray.shutdown()
        cluster.shutdown()


@pytest.mark.slow
def test_a_run_joins_a_two_node_cluster_and_samples_on_both_nodes(
    two_nodes: tuple[Cluster, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cluster, nodes = two_nodes
    data = yaml.safe_load((ROOT / "configs" / "draw_poker.yaml").read_text())
    data.update(
        timesteps=300,
        checkpoint_every=0,
        evaluation={**data["evaluation"], "every": 10_000, "episodes": 4},
        rllib={
            "num_cpus_per_env_runner": 1,
            "train_batch_size": 400,
            "minibatch_size": 100,
            "num_epochs": 1,
            "fcnet_hiddens": [32, 32],
        },
    )
    config = tmp_path / "draw_poker.yaml"
    config.write_text(yaml.safe_dump(data))
    run = tmp_path / "run"
    argv = ["train", "draw_poker", "--config", str(config), "--out", str(run)]
    argv += ["--backend", "rllib", "--num-env-runners", "2", "--address", cluster.address]
    assert main([*argv, "--eval-episodes", "0"]) == 0, capsys.readouterr().err
    assert not ray.is_initialized()  # the run left the cluster, which still runs

    info = json.loads((run / "run.json").read_text())
    (segment,) = info["segments"]
    assert segment["address"] == cluster.address and segment["to_timesteps"] >= 300
    # One env runner per node: each node's single CPU holds one.
    assert segment["env_runner_nodes"] == {node: 1 for node in nodes}
    assert {n["NodeID"] for n in _live_nodes(cluster)} == set(nodes)

    report = tmp_path / "report"
    argv = ["evaluate", str(run), "--episodes", "4", "--out", str(report)]
    assert main(argv) == 0, capsys.readouterr().err
    evaluation = json.loads((report / "report.json").read_text())["evaluation"]
    assert {r["games"] for r in evaluation["opponents"].values()} == {4 * 2}


def _live_nodes(cluster: Cluster) -> list[dict]:
    """The cluster's live nodes, read by a short driver session (the run's has ended)."""
    ray.init(address=cluster.address, logging_level="WARNING")
    try:
        return [n for n in ray.nodes() if n["Alive"]]
    finally:
        ray.shutdown()
