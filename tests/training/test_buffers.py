"""The rollout buffer of our MaskablePPO runs gives sb3-contrib's minibatches, and runs train the
same weights with either."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
import torch
from gymnasium import spaces
from pokerzoo.training import buffers
from pokerzoo.training.buffers import EnvMajorRolloutBuffer
from pokerzoo.training.train import train
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

from .test_training import tiny

STEPS, ENVS, ACTIONS = 6, 3, 5
OBSERVATIONS = spaces.Box(0.0, 1.0, (4, 2), np.float32)


def filled(
    cls: type[MaskableRolloutBuffer], buffer: MaskableRolloutBuffer | None, seed: int
) -> MaskableRolloutBuffer:
    """``buffer`` (or a new ``cls``) reset and filled with one rollout of random data."""
    if buffer is None:
        buffer = cls(STEPS, OBSERVATIONS, spaces.Discrete(ACTIONS), "cpu", 0.9, 0.99, ENVS)
    buffer.reset()
    rng = np.random.default_rng(seed)
    for _ in range(STEPS):
        buffer.add(
            rng.random((ENVS, 4, 2), dtype=np.float32),
            rng.integers(ACTIONS, size=ENVS),
            rng.random(ENVS, dtype=np.float32),
            rng.random(ENVS) < 0.3,
            torch.as_tensor(rng.random(ENVS, dtype=np.float32)),
            torch.as_tensor(rng.random(ENVS, dtype=np.float32)),
            action_masks=rng.random((ENVS, ACTIONS)) < 0.7,
        )
    buffer.compute_returns_and_advantage(torch.as_tensor(rng.random(ENVS)), rng.random(ENVS) < 0.5)
    return buffer


@pytest.mark.parametrize("batch_size", [4, STEPS * ENVS, None])
def test_minibatches_are_sb3s_rollout_after_rollout(batch_size: int | None) -> None:
    """The same fields in the same minibatches as sb3-contrib's buffer, for two rollouts into
    the same buffer (the second overwriting the kept observations)."""
    ours: MaskableRolloutBuffer | None = None
    for seed in (1, 2):
        theirs = filled(MaskableRolloutBuffer, None, seed)
        ours = filled(EnvMajorRolloutBuffer, ours, seed)
        np.random.seed(seed)
        expected = list(theirs.get(batch_size))
        np.random.seed(seed)
        got = list(ours.get(batch_size))
        assert len(got) == len(expected) == -(-STEPS * ENVS // (batch_size or STEPS * ENVS))
        for batch, reference in zip(got, expected, strict=True):
            for field in batch._fields:
                a, b = getattr(batch, field), getattr(reference, field)
                assert a.dtype == b.dtype and torch.equal(a, b), field


def test_a_run_trains_the_same_weights_as_with_sb3s_buffer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def weights(run: Path) -> str:
        model = train(tiny("poker_squares"), run, progress_bar=False, verbose=0).model
        assert isinstance(model.rollout_buffer, buffers.EnvMajorRolloutBuffer)
        digest = hashlib.sha256()
        for tensor in model.policy.state_dict().values():
            digest.update(tensor.numpy().tobytes())
        return digest.hexdigest()

    ours = weights(tmp_path / "ours")
    monkeypatch.setattr(buffers, "EnvMajorRolloutBuffer", MaskableRolloutBuffer)
    assert weights(tmp_path / "sb3") == ours
    monkeypatch.undo()
    # a run saved with sb3's buffer (as every run before this buffer) resumes with ours
    longer = tiny("poker_squares", timesteps=512)
    resumed = train(longer, tmp_path / "sb3", resume=True, progress_bar=False, verbose=0).model
    assert type(resumed.rollout_buffer) is EnvMajorRolloutBuffer
