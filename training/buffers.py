"""The rollout buffer of our MaskablePPO runs: sb3-contrib's, without its largest copies.

sb3 keeps a rollout's observations step-major (``(n_steps, n_envs, ...)``), allocates them anew
for every rollout, and on the first minibatch copies them env-major
(``swap_and_flatten``); each minibatch is then gathered from them and copied once more into a
tensor. A Quintet rollout's observations are 4,096 x 14,419 floats (236 MB), so these copies
were a tenth of its `learn` time. :class:`EnvMajorRolloutBuffer` writes each step's
observations straight into an env-major array kept from rollout to rollout, so that
``swap_and_flatten`` is a view, and hands the gathered minibatch to torch without copying it
again. The minibatches are the same, in the same order: training is unchanged to the bit
(``tests/training/test_buffers.py``).
"""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

__all__ = ["EnvMajorRolloutBuffer"]


class EnvMajorRolloutBuffer(MaskableRolloutBuffer):
    """:class:`~sb3_contrib.common.maskable.buffers.MaskableRolloutBuffer` whose observations
    live env-major in one array for the buffer's life (``observations`` is a step-major view
    of it), and whose minibatches (fresh arrays gathered by index) become tensors without a
    copy."""

    _env_major: np.ndarray | None = None

    def reset(self) -> None:
        super().reset()
        if self._env_major is None:
            shape = (self.n_envs, self.buffer_size, *self.obs_shape)
            self._env_major = np.zeros(shape, dtype=self.observation_space.dtype)
        # sb3 writes observations[pos] (one step of every env) and swap_and_flatten reads
        # them back env-major: both through this view, neither copying the array.
        self.observations = self._env_major.swapaxes(0, 1)

    def to_torch(self, array: np.ndarray, copy: bool = True) -> torch.Tensor:
        # Every array _get_samples passes is gathered by index or flattened: already a copy.
        return torch.as_tensor(array, device=self.device)
