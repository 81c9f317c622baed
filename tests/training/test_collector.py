"""The garbage collector's freezes (``pokerzoo.training.collector``): ``frozen`` keeps what the
process holds out of the collector's passes within its block and hands it back after, leaves a
caller's own freeze alone, and wraps ``learn`` in ``train``."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from pokerzoo.training import collector
from pokerzoo.training.config import from_dict
from pokerzoo.training.train import train
from sb3_contrib import MaskablePPO


@pytest.fixture(autouse=True)
def nothing_frozen() -> Any:
    """Each test starts and ends with nothing frozen (whatever a test left is handed back)."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_frozen_holds_what_the_process_holds_and_hands_it_back() -> None:
    held = object()
    with collector.frozen():
        assert gc.get_freeze_count() > 0
        assert held is not None
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_frozen_hands_it_back_when_the_block_raises() -> None:
    with pytest.raises(KeyError, match="raised inside"), collector.frozen():
        assert gc.get_freeze_count() > 0
        raise KeyError("raised inside")
    assert gc.get_freeze_count() == 0


def test_frozen_leaves_a_callers_freeze_alone() -> None:
    gc.freeze()
    theirs = gc.get_freeze_count()
    with collector.frozen():
        assert gc.get_freeze_count() == theirs
    assert gc.get_freeze_count() == theirs  # still frozen after the block


def test_freeze_inherited_stays() -> None:
    collector.freeze_inherited()
    assert gc.get_freeze_count() > 0


def test_train_learns_with_the_process_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    learn = MaskablePPO.learn

    def recording(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_freeze_count())
        return learn(self, *args, **kwargs)

    monkeypatch.setattr(MaskablePPO, "learn", recording)
    config = from_dict(
        {
            "game": "poker_squares",
            "timesteps": 64,
            "n_envs": 2,
            "checkpoint_every": 0,
            "ppo": {"n_steps": 32, "batch_size": 32, "n_epochs": 1, "net_arch": [8]},
            "evaluation": {"every": 0, "episodes": 2, "final_episodes": 0},
        }
    )
    train(config, tmp_path / "run", progress_bar=False, verbose=0)
    assert len(seen) == 1 and seen[0] > 0
    assert gc.get_freeze_count() == 0  # handed back once the run ends
