"""The self-play league of an rllib run: frozen snapshots of the learner as opponents, as an SB3
run keeps them (:class:`~pokerzoo.training.opponents.OpponentPool`).

Slots, not new modules
----------------------
The algorithm is built with ``opponents.max_snapshots`` snapshot modules
(:func:`~.table.snapshot_module`, :class:`~.modules.SnapshotModule`, none trained) from the
start. Every ``snapshot_every`` learner decisions (checked after each RLlib iteration, so at
the first iteration that reaches it) :meth:`League.step` copies the learner's weights into the
next slot, round-robin, so the slots hold the ``max_snapshots`` most recent snapshots: the
learner group gets the weights, the env runners get them by RLlib's own weight sync, and every
env runner's table is told which slots are filled (:meth:`~.table.BotTable.set_snapshots`;
told again after each iteration, so a restarted env runner catches up). The tables draw a
snapshot with ``snapshot_weight``, once one exists (:func:`~.table.draw_opponent`). Slots keep
the env runners' module set fixed: adding a module per snapshot (``Algorithm.add_module``)
would rebuild the modules and connectors of every env runner and learner each time, and
removing the oldest as often.

On disk
-------
Each snapshot is also saved, as RLlib saves a module (``RLModule.save_to_path``: the learner's
module class, its spaces and weights; ``RLModule.from_checkpoint`` reads it), to the run
folder's ``snapshots/step_N/`` (N: the learner's decisions when it was taken), and
:meth:`League.record` lists the kept ones for ``run.json``. A resumed run restores the league
from these folders: the snapshots taken up to the decisions it resumes from, in order, the
latest ``max_snapshots`` into their slots (the i-th of the run in slot i mod ``max_snapshots``,
as they were filled), whatever weights the checkpoint held; later ones (a run stopped after
its last checkpoint) are left out and renamed ``discarded_step_N``.
"""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path
from typing import Any

from .table import LEARNER, snapshot_module

__all__ = ["SNAPSHOTS", "League", "snapshot_steps"]

log = logging.getLogger(__name__)

SNAPSHOTS = "snapshots"
"""The run folder's sub-folder of saved snapshots."""
_STEP = re.compile(r"^step_(\d+)$")


def snapshot_steps(run_dir: Path) -> list[int]:
    """The learner decisions of the run's saved snapshots, oldest first (the folders
    ``snapshots/step_N``; one cut off while saving has another name)."""
    folder = run_dir / SNAPSHOTS
    if not folder.is_dir():
        return []
    found = (_STEP.match(path.name) for path in folder.iterdir() if path.is_dir())
    return sorted(int(match.group(1)) for match in found if match)


class League:
    """The snapshots of one run (see the module docstring).

    Args:
        run_dir: the run folder (snapshots go to its ``snapshots/``).
        every: learner decisions between snapshots.
        slots: snapshot modules of the algorithm (``opponents.max_snapshots``).
        learner_spec: the learner's ``RLModuleSpec`` (a snapshot is saved as this module).
    """

    def __init__(self, run_dir: Path, every: int, slots: int, learner_spec: Any) -> None:
        if every <= 0 or slots <= 0:
            raise ValueError(f"a league needs every > 0 and slots > 0, got {every}, {slots}")
        self.folder = run_dir / SNAPSHOTS
        self.every = every
        self.slots = slots
        self.taken = 0
        """Snapshots taken in the run so far (the next goes to slot ``taken % slots``)."""
        self.kept: list[tuple[int, int]] = []
        """(learner decisions, slot) of the snapshots the slots hold, oldest first."""
        self.next = every
        """Learner decisions at which the next snapshot is due."""
        self._spec = learner_spec
        self._module: Any = None

    # --- the run ------------------------------------------------------------------------------
    def start(self, algo: Any, steps: int) -> None:
        """Restore the snapshots taken up to ``steps`` (none in a new run) into their slots and
        tell the tables."""
        from ray.rllib.core.rl_module.rl_module import RLModule

        saved = snapshot_steps(self.folder.parent)
        later = [s for s in saved if s > steps]
        if later:
            # Renamed, not deleted: a later resume must not count them either.
            log.warning(
                "snapshots %s were taken after the %d decisions this run resumes from: left "
                "out (renamed discarded_step_N)",
                [f"step_{s}" for s in later],
                steps,
            )
            for taken in later:
                discarded = self.folder / f"discarded_step_{taken}"
                shutil.rmtree(discarded, ignore_errors=True)
                self._path(taken).rename(discarded)
        earlier = [s for s in saved if s <= steps]
        self.taken = len(earlier)
        first = max(0, self.taken - self.slots)
        self.kept = [(s, i % self.slots) for i, s in enumerate(earlier) if i >= first]
        weights = {}
        for taken, slot in self.kept:
            module = RLModule.from_checkpoint(self._path(taken).resolve())
            weights[snapshot_module(slot)] = module.get_state()
        if weights:
            _set_weights(algo, weights)
        self.next = (steps // self.every + 1) * self.every
        _tell_tables(algo, self.filled)

    def step(self, algo: Any, steps: int) -> bool:
        """After an RLlib iteration: take a snapshot if one is due at ``steps`` learner
        decisions, and tell the tables the filled slots. Returns whether it took one."""
        due = steps >= self.next
        if due:
            self.take(algo, steps)
            self.next = (steps // self.every + 1) * self.every
        _tell_tables(algo, self.filled)
        return due

    def take(self, algo: Any, steps: int) -> None:
        """Copy the learner's weights into the next slot and save them to
        ``snapshots/step_<steps>``."""
        weights = algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]
        slot = self.taken % self.slots
        _set_weights(algo, {snapshot_module(slot): weights})
        self._save(weights, steps)
        self.taken += 1
        self.kept = [(s, k) for s, k in self.kept if k != slot] + [(steps, slot)]

    @property
    def filled(self) -> list[int]:
        """The slots that hold a snapshot."""
        return sorted(slot for _, slot in self.kept)

    def record(self) -> dict[str, Any]:
        """The league for ``run.json``: its settings, the snapshots taken, and the kept ones
        (decisions, module id, folder relative to the run's)."""
        return {
            "snapshot_every": self.every,
            "max_snapshots": self.slots,
            "taken": self.taken,
            "snapshots": [
                {
                    "timesteps": taken,
                    "module": snapshot_module(slot),
                    "path": f"{SNAPSHOTS}/step_{taken}",
                }
                for taken, slot in self.kept
            ],
        }

    # --- internals ----------------------------------------------------------------------------
    def _path(self, steps: int) -> Path:
        return self.folder / f"step_{steps}"

    def _save(self, weights: dict[str, Any], steps: int) -> None:
        if self._module is None:
            self._module = self._spec.build()
        self._module.set_state(weights)
        path = self._path(steps)
        # Saved under another name first: a folder cut off while saving is never read back.
        partial = self.folder / f".partial_step_{steps}"
        shutil.rmtree(partial, ignore_errors=True)
        shutil.rmtree(path, ignore_errors=True)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._module.save_to_path(str(partial.resolve()))
        partial.rename(path)


def _set_weights(algo: Any, weights: dict[str, Any]) -> None:
    """Module id -> weights into the learner group, then to every env runner (inference-only
    modules there; RLlib's own sync after an update names the trained module only)."""
    algo.learner_group.set_weights(weights)
    algo.env_runner_group.sync_weights(
        policies=list(weights),
        from_worker_or_learner_group=algo.learner_group,
        inference_only=True,
    )


def _tell_tables(algo: Any, slots: list[int]) -> None:
    """Every env runner's tables draw from ``slots`` from their next episode on."""

    def tell(runner: Any) -> None:
        for env in getattr(getattr(runner, "env", None), "envs", None) or []:
            env.unwrapped.set_snapshots(slots)

    algo.env_runner_group.foreach_env_runner(tell, local_env_runner=True)
