"""Run folders and configs: where a run's config comes from and what its folder holds.

A run folder (``runs/GAME-sSEED`` by default) holds ``config.yaml`` (the resolved config),
``run.json`` (seed, package versions, training segments and throughput), ``model.zip``
(``model/``, an RLlib checkpoint folder, for ``backend: rllib``), ``checkpoints/``
(``model_N_steps`` after N timesteps: a ``.zip``, or an RLlib folder), ``snapshots/``
(self-play), ``tb/`` (TensorBoard), ``monitor.csv``, ``evaluations.csv`` and, after an
evaluation, ``report.md``, ``report.json`` and ``learning_curve.png``. This module finds those
files and writes a run's ``config.yaml`` and ``run.json`` when it starts
(:func:`write_run_info`, for every backend); it neither trains nor evaluates.
"""

from __future__ import annotations

import csv
import json
import platform
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from ..envs.core.registry import get_game
from .config import (
    ConfigError,
    EvaluationConfig,
    TrainConfig,
    from_dict,
    load_config,
    to_dict,
)
from .evaluate import Evaluation
from .schema import Section

__all__ = [
    "RunTarget",
    "checkpoint_steps",
    "default_config_path",
    "find_run",
    "is_rllib_checkpoint",
    "latest_checkpoint",
    "package_versions",
    "resolve_config",
    "snapshot_paths",
    "write_run_info",
]

TD_MODEL = "values.npz"
"""The model file of an ``algorithm: td`` run (:mod:`pokerzoo.training.td`)."""
TD_SUFFIX = ".npz"
_CHECKPOINT = re.compile(r"model_(\d+)_steps(?:\.zip)?$")


def default_config_path(game: str) -> Path | None:
    """``configs/<game>.yaml`` in the working directory, else the config the game's registry
    entry names (``GameSpec.config``: a plugin game's own), else the one shipped with the
    package.

    The repository's ``configs/`` folder is installed as ``pokerzoo.configs``, so a wheel
    install trains with the same tuned defaults as a checkout.
    """
    local = Path.cwd() / "configs" / f"{game}.yaml"
    if local.is_file():
        return local
    try:
        own = get_game(game).config_path()
    except ValueError:  # not a registered game: its config is looked for by name only
        own = None
    if own is not None:
        return own
    shipped = Path(str(resources.files("pokerzoo.configs").joinpath(f"{game}.yaml")))
    return shipped if shipped.is_file() else None


def resolve_config(
    game: str, config_path: str | Path | None = None, **overrides: Any
) -> TrainConfig:
    """The game's config file (or the built-in defaults) with ``overrides`` (None: keep)."""
    path = Path(config_path) if config_path is not None else default_config_path(game)
    if path is None:
        config = from_dict({"game": game, **{k: v for k, v in overrides.items() if v is not None}})
    else:
        config = load_config(path, overrides)
    if config.game != game:
        raise ConfigError(f"{path}: game: the file is for {config.game!r}, not {game!r}")
    return config


def package_versions() -> dict[str, str]:
    """Versions of Python and of the packages a run depends on, for ``run.json``."""
    versions = {"python": platform.python_version()}
    for name in (
        "pokerzoo",
        "numpy",
        "gymnasium",
        "pettingzoo",
        "torch",
        "stable_baselines3",
        "sb3_contrib",
    ):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def saved_run_config(run_dir: Path, resume: bool) -> TrainConfig | None:
    """The config a run resumed in ``run_dir`` keeps (None for a new run), after checking that
    the folder suits the request: a new run needs an empty or missing folder (never mix two runs'
    files), a resumed one the run's own ``config.yaml``."""
    if run_dir.exists() and any(run_dir.iterdir()) and not resume:
        raise FileExistsError(
            f"run folder {run_dir} is not empty: pass --resume to continue it, or another --out"
        )
    if not resume:
        return None
    if not (run_dir / "config.yaml").exists():
        raise FileNotFoundError(
            f"--resume: {run_dir} holds no run to continue (no config.yaml); leave out "
            "--resume to start a new run there"
        )
    return load_config(run_dir / "config.yaml")


def write_run_info(
    run_dir: Path, config: TrainConfig, backend: str | None = None, packages: Sequence[str] = ()
) -> dict[str, Any]:
    """Write the run's resolved ``config.yaml`` and bring its ``run.json`` up to date: game,
    seed, ``backend`` (where given), the versions of :func:`package_versions` and of
    ``packages``, threads; earlier segments are kept. Written when a run starts, so a run stopped
    before it ends still records its seed and versions. Returns ``run.json``'s contents."""
    import yaml

    (run_dir / "config.yaml").write_text(yaml.safe_dump(to_dict(config), sort_keys=False))
    path = run_dir / "run.json"
    info = json.loads(path.read_text()) if path.exists() else {}
    info.update(game=config.game, seed=config.seed)
    if backend is not None:
        info["backend"] = backend
    versions = package_versions() | {name: metadata.version(name) for name in packages}
    info.update(versions=versions, threads=config.threads)
    info.setdefault("segments", [])
    path.write_text(json.dumps(info, indent=2) + "\n")
    return info


def evaluation_row(evaluation: Evaluation, timesteps: int) -> dict[str, float]:
    """One row of a run's ``evaluations.csv`` (what the learning curve plots), the same columns
    for every backend."""
    row: dict[str, float] = {"timesteps": timesteps}
    if evaluation.agent_mean is not None:
        row["agent_mean"] = evaluation.agent_mean.value
    for name, result in evaluation.opponents.items():
        if result.bot_mean is not None:
            row[f"bot_mean/{name}"] = result.bot_mean.value
        row[f"win_rate/{name}"] = result.win.value
        row[f"margin/{name}"] = result.margin.value
    return row


def append_csv(path: Path, row: dict[str, Any]) -> None:
    """Append ``row`` to the CSV file ``path``, writing the header when the file is new."""
    new = not path.exists()
    with path.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)


def latest_checkpoint(run_dir: str | Path) -> Path | None:
    """The checkpoint with the most timesteps in ``run_dir/checkpoints``."""
    folder = Path(run_dir) / "checkpoints"
    found = [
        (int(m.group(1)), path)
        for path in folder.glob("model_*_steps*")
        if (m := _CHECKPOINT.search(path.name)) and (path.is_file() or is_rllib_checkpoint(path))
    ]
    return max(found)[1] if found else None


def is_rllib_checkpoint(path: str | Path) -> bool:
    """Whether ``path`` is an RLlib checkpoint folder (``Algorithm.save_to_path``), the model
    of a ``backend: rllib`` run (told by its marker file, without importing Ray)."""
    return (Path(path) / "rllib_checkpoint.json").is_file()


def checkpoint_steps(path: Path | None) -> int:
    """The timesteps in a checkpoint's name (-1 for anything else)."""
    match = _CHECKPOINT.search(path.name) if path is not None else None
    return int(match.group(1)) if match else -1


def snapshot_paths(run_dir: Path) -> list[str]:
    """The run's self-play snapshots, oldest first."""
    paths = sorted(
        (run_dir / "snapshots").glob("step_*.zip"), key=lambda p: int(p.stem.split("_")[1])
    )
    return [str(p) for p in paths]


@dataclass
class RunTarget:
    """What ``pokerzoo evaluate RUN_OR_MODEL`` points at."""

    model_path: Path
    run_dir: Path
    """The run folder (its config and run.json), or the model's own folder."""
    game: str
    options: dict[str, Any]
    evaluation: EvaluationConfig | None = None
    """The run's evaluation settings when there is a config."""
    features: str = "raw"
    actions: str = "native"
    """The run's action formulation (``native``: the game's own actions)."""
    td: Section | None = None
    """The run's ``td`` settings (``algorithm: td`` runs), its learner's section."""

    @property
    def backend(self) -> str:
        """What trained the model: ``"rllib"`` for an RLlib checkpoint folder, ``"td"`` for a
        game's own learner's ``.npz``, else ``"sb3"``."""
        if self.model_path.suffix == TD_SUFFIX:
            return "td"
        return "rllib" if is_rllib_checkpoint(self.model_path) else "sb3"


def find_run(path: str | Path, game: str | None = None) -> RunTarget:
    """Resolve a run folder (its ``model.zip``, ``model/`` or ``values.npz``, else its latest
    checkpoint) or a model (a ``.zip``, an RLlib checkpoint folder or a ``td`` run's ``.npz``;
    its run's ``config.yaml`` is looked for beside it and one folder up)."""
    path = Path(path)
    if is_rllib_checkpoint(path):
        model, run_dir = path, path.parent
    elif path.is_dir():
        run_dir = path
        model = path / "model.zip"
        if not model.exists():
            model = path / "model" if is_rllib_checkpoint(path / "model") else None
        if model is None and (path / TD_MODEL).exists():
            model = path / TD_MODEL
        if model is None:
            model = latest_checkpoint(path)
        if model is None:
            raise FileNotFoundError(f"{path} holds no model and no checkpoint")
    elif path.is_file() or path.with_suffix(".zip").is_file():
        model = path if path.is_file() else path.with_suffix(".zip")
        run_dir = model.parent
    else:
        raise FileNotFoundError(f"no run folder or model at {path}")
    for folder in (run_dir, run_dir.parent):
        if (folder / "config.yaml").exists():
            config = load_config(folder / "config.yaml")
            if game is not None and game != config.game:
                raise ValueError(f"{path} is a {config.game} run, not {game}")
            return RunTarget(
                model,
                folder,
                config.game,
                dict(config.env),
                config.evaluation,
                config.features,
                config.actions,
                config.td if config.algorithm == "td" else None,
            )
    if game is None:
        raise ValueError(f"{path}: no config.yaml beside the model; name the game with --game")
    return RunTarget(model, run_dir, game, {})
