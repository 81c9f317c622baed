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


class CountedLinear(Linear):
    """:class:`Linear` that counts the rows of each forward pass."""

    def __init__(self, weights: np.ndarray) -> None:
        super().__init__(weights)
        self.passes: list[int] = []

    def predict(
        self, observations: np.ndarray, action_masks: np.ndarray, deterministic: bool
    ) -> tuple[np.ndarray, None]:
        self.passes.append(len(observations))
        return super().predict(observations, action_masks, deterministic)


def test_a_forced_row_takes_its_one_action_without_features_or_a_forward_pass() -> None:
    """A row whose mask allows one action (poker without a name forces about a third of its
    plays) takes it, as the policy's most probable legal action is, and neither the feature
    function nor the network sees it: in a run's shared call of its snapshots, in a policy
    bot's own pass and in the evaluated agent's policy (``model_policy``). A batch of forced
    rows asks neither; a batch without one is passed on whole."""
    from pokerzoo.training.evaluate import model_policy, without_forced
    from pokerzoo.training.opponents import PolicyBot

    rng = np.random.default_rng(5)
    shared = Counted(1.0)
    models = [CountedLinear(rng.normal(size=(4, 5))) for _ in range(2)]
    snapshots = [PolicyBot(model, transform=shared) for model in models]
    bots = [snapshots[row % 2] for row in range(6)]  # each snapshot at three tables
    observations = rng.normal(size=(6, 4))
    masks = np.ones((6, 5), dtype=bool)
    masks[[1, 4]] = np.eye(5, dtype=bool)[[3, 0]]  # rows 1 and 4 forced: actions 3 and 0
    features = np.tanh(observations)
    expected = [
        int(models[row % 2].predict(features[row][None], masks[row][None], True)[0][0])
        for row in range(6)
    ]
    assert expected[1] == 3 and expected[4] == 0
    for model in models:
        model.passes.clear()
    assert PolicyBot.act_batch(bots, observations, masks).tolist() == expected
    assert shared.calls == [4]  # rows 0, 2, 3 and 5
    assert [model.passes for model in models] == [[2], [2]]
    shared.calls.clear()
    forced = np.eye(5, dtype=bool)[[2, 1, 4, 0, 3, 2]]
    assert PolicyBot.act_batch(bots, observations, forced).tolist() == [2, 1, 4, 0, 3, 2]
    assert shared.calls == [] and [model.passes for model in models] == [[2], [2]]
    alone = [
        int(models[0].predict(features[row][None], masks[row][None], True)[0][0])
        for row in range(6)
    ]
    assert model_policy(models[0], shared)(observations, masks).tolist() == alone
    assert shared.calls == [4] and models[0].passes[-1] == 4
    seen: list[np.ndarray] = []

    def choose(rows: np.ndarray, row_masks: np.ndarray) -> np.ndarray:
        seen.append(rows)
        return np.full(len(rows), 9)

    assert without_forced(choose)(observations, masks).tolist() == [9, 3, 9, 9, 0, 9]
    assert np.array_equal(seen[0], observations[[0, 2, 3, 5]])
    free = np.ones((6, 5), dtype=bool)
    assert without_forced(choose)(observations, free).tolist() == [9] * 6
    assert seen[1] is observations  # nothing forced: the batch as it came
