"""The ecosystem stage's tests (``tests/ecosystem``, marked ``ecosystem``): every registered game
through the third-party RL libraries users train with (tianshou, torchrl, skrl, SuperSuit,
Stable-Baselines3) and PettingZoo's own checkers, on the raw envs, with no wrapper of ours in
between. CI runs them in a virtualenv of their own with every library pinned (``.ci/ecosystem``,
``.ci/ecosystem-requirements.txt``). Elsewhere (the main test run) they are skipped: each module
skips itself without its library, and every test here is skipped unless all the stage's
libraries are installed, so that the stage's findings (the modules whose libraries the main venv
also has, SB3's and PettingZoo's, included) are reported by the stage alone."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

STAGE_LIBRARIES = ("tianshou", "torchrl", "tensordict", "skrl", "supersuit", "sb3_contrib")
"""What the ecosystem stage's venv has and the main venv lacks (most of it)."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "ecosystem: runs a game through a third-party RL library; run by CI in its own venv "
        "(.ci/ecosystem), skipped elsewhere",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = [name for name in STAGE_LIBRARIES if importlib.util.find_spec(name) is None]
    if not missing:
        return
    reason = f"the ecosystem stage's venv runs this (.ci/ecosystem); missing: {', '.join(missing)}"
    skip = pytest.mark.skip(reason=reason)
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)


@pytest.fixture
def one_torch_thread():
    """Small networks on a shared 2-core machine: one torch thread is the fastest."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
