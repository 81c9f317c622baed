"""The opponent pool of multi-player training: seeded weighted draws, snapshots, one bot per
seat."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from pokerzoo.training.opponents import OpponentPool, choice_cdf, draw_index


class Named:
    def __init__(self, name: str) -> None:
        self.name = name
        self.seeds: list[int | None] = []

    def reset(self, seed: int | None = None) -> None:
        self.seeds.append(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[0])


def draws(pool: OpponentPool, n: int = 200, seed: int = 7) -> list[str]:
    rng = np.random.default_rng(seed)
    return [pool(1, rng).name for _ in range(n)]


def test_pool_sampling_is_seeded() -> None:
    def make() -> OpponentPool:
        return OpponentPool(Named, {"a": 1.0, "b": 2.0, "c": 0.0})

    first, second = draws(make()), draws(make())
    assert first == second
    assert set(first) == {"a", "b"}  # weight 0 is never drawn
    assert 0.5 < first.count("b") / first.count("a") < 4
    assert draws(make(), seed=8) != first


@pytest.mark.parametrize(
    "weights",
    [[1.0], [1.0, 2.0, 0.0], [0.25, 1.0, 1.5, 0.5], [0.0, 0.0, 3.0], [1e-9, 1.0, 1e9], [0.3] * 11],
)
def test_pool_draws_the_index_numpys_choice_draws(weights: list[float]) -> None:
    """The pool's draw is ``Generator.choice(n, p=w / w.sum())``'s, from the same numbers (so
    every seeded run and the RLlib tables draw the opponents they drew), and leaves the
    generator where ``choice`` leaves it."""
    w = np.array(weights)
    cdf = choice_cdf(w)
    ours, numpys = np.random.default_rng(3), np.random.default_rng(3)
    drawn = [draw_index(ours, cdf) for _ in range(2000)]
    assert drawn == [int(numpys.choice(len(w), p=w / w.sum())) for _ in range(2000)]
    assert ours.random() == numpys.random()
    assert all(w[i] > 0 for i in drawn)


def test_pool_keeps_one_bot_per_seat() -> None:
    pool = OpponentPool(Named, {"a": 1.0})
    rng = np.random.default_rng(0)
    assert pool(1, rng) is pool(1, rng)
    assert pool(1, rng) is not pool(2, rng)


def test_pool_snapshots_join_and_age_out() -> None:
    pool = OpponentPool(Named, {"a": 1.0}, snapshot_weight=3.0, max_snapshots=2)
    assert set(draws(pool, 50)) == {"a"}
    for step in (10, 20, 30):
        pool.add_snapshot(f"/runs/x/snapshots/step_{step}.zip")
    assert pool.snapshots == ["/runs/x/snapshots/step_20.zip", "/runs/x/snapshots/step_30.zip"]
    assert set(draws(pool, 100)) == {"a", "snapshot:step_20", "snapshot:step_30"}


def test_pools_of_one_process_load_each_snapshot_once() -> None:
    """Tables stepped in one process (the native vector env) share their snapshots' bots: one
    model, one forward pass for every table it sits at; each pool still ages them out."""
    loaded: dict = {}
    first, second = (
        OpponentPool(Named, {"a": 1.0}, snapshot_weight=1.0, max_snapshots=2, loaded=loaded)
        for _ in range(2)
    )
    for step in (10, 20, 30):
        for pool in (first, second):
            pool.add_snapshot(f"/runs/x/snapshots/step_{step}.zip")
    assert sorted(loaded) == ["/runs/x/snapshots/step_20.zip", "/runs/x/snapshots/step_30.zip"]
    for path in first.snapshots:
        assert first._snapshot_bots[path] is second._snapshot_bots[path] is loaded[path]


def test_pool_needs_a_bot() -> None:
    with pytest.raises(ValueError, match="at least one bot"):
        OpponentPool(Named, {"a": 0.0}, snapshot_weight=1.0)


def test_a_model_loaded_to_play_is_the_saved_policy_without_its_optimizer(tmp_path) -> None:
    """``load_model`` builds the saved policy with a stand-in optimizer: the same weights and
    actions as SB3's own load, no saved optimizer state read, no ``torch._dynamo`` imported
    (a torch optimizer's construction imports it: about a second of every evaluation)."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    import torch
    from pokerzoo.envs.poker_squares import PokerSquaresEnv
    from pokerzoo.training.opponents import PlayingOptimizer, load_model

    torch.set_num_threads(1)
    trained = sb3_contrib.MaskablePPO(
        "MlpPolicy", PokerSquaresEnv(), n_steps=32, batch_size=32, n_epochs=1, seed=4
    )
    trained.learn(32)  # the weights move away from any initialization
    trained.save(tmp_path / "model.zip")
    full = sb3_contrib.MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    played = load_model(tmp_path / "model.zip")
    assert isinstance(played.policy.optimizer, PlayingOptimizer)
    saved, loaded = full.policy.state_dict(), played.policy.state_dict()
    assert list(saved) == list(loaded)
    assert all(torch.equal(saved[name], loaded[name]) for name in saved)
    env = PokerSquaresEnv()
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        masks = info["action_mask"][None].astype(bool)
        expected, _ = full.predict(observation[None], action_masks=masks, deterministic=True)
        actual, _ = played.predict(observation[None], action_masks=masks, deterministic=True)
        assert np.array_equal(expected, actual)
    with pytest.raises(RuntimeError, match="loaded to play"):
        played.policy.optimizer.step()
    code = (
        "import sys\n"
        "from pokerzoo.training.opponents import load_model\n"
        f"load_model({str(tmp_path / 'model.zip')!r})\n"
        "print('torch._dynamo' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


class Linear:
    """A stand-in model: ``predict``'s most probable legal action of ``features @ weights``."""

    def __init__(self, weights: np.ndarray) -> None:
        self.weights = weights

    def predict(
        self, observations: np.ndarray, action_masks: np.ndarray, deterministic: bool
    ) -> tuple[np.ndarray, None]:
        assert deterministic
        scores = np.where(action_masks, observations @ self.weights, -np.inf)
        return scores.argmax(axis=1), None


class Counted:
    """A feature function that counts its calls and rows."""

    def __init__(self, scale: float) -> None:
        self.scale = scale
        self.calls: list[int] = []

    def __call__(self, observations: np.ndarray) -> np.ndarray:
        self.calls.append(len(observations))
        return np.tanh(self.scale * observations)


def test_a_runs_snapshots_share_one_call_of_their_feature_function() -> None:
    """The snapshots of a run (policy bots reading one feature function) work out the features
    of all their rows in one call, and each takes the action it takes alone; a bot with
    another feature function keeps its own call."""
    from pokerzoo.training.opponents import PolicyBot

    rng = np.random.default_rng(12)
    shared, other = Counted(1.0), Counted(3.0)
    first, second = (PolicyBot(Linear(rng.normal(size=(4, 5))), transform=shared) for _ in "ab")
    third = PolicyBot(Linear(rng.normal(size=(4, 5))), transform=other)
    bots = [first, second, third, first, second, second, third]
    observations = rng.normal(size=(len(bots), 4))
    masks = rng.random((len(bots), 5)) < 0.6
    masks[:, 4] = True
    alone = [bot.act(observations[row], masks[row]) for row, bot in enumerate(bots)]
    shared.calls.clear()
    other.calls.clear()
    assert PolicyBot.act_batch(bots, observations, masks).tolist() == alone
    assert shared.calls == [5] and other.calls == [2]
