"""Training configs: the shipped YAML files load, and every bad key or value is named."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pokerzoo.envs.core.registry import get_game
from pokerzoo.training.config import ConfigError, TrainConfig, from_dict, load_config
from pokerzoo.training.train import validate_for_game

ROOT = Path(__file__).resolve().parents[2]
NAMELESS = {"game": "nameless_poker", "vec_env": "dummy", "opponents": {"bots": {"rules": 1}}}


@pytest.mark.parametrize("path", sorted((ROOT / "configs").glob("*.yaml")), ids=lambda p: p.stem)
def test_shipped_configs_load_and_validate(path: Path) -> None:
    config = load_config(path)
    game = config.game
    assert path.stem.startswith(game)
    assert config.threads == 1
    validate_for_game(config, get_game(game))


def test_defaults_fill_missing_keys() -> None:
    config = from_dict({"game": "poker_squares", "ppo": {"learning_rate": "1e-3"}})
    assert isinstance(config, TrainConfig)
    assert config.ppo.learning_rate == 1e-3  # YAML reads 1e-3 (no dot) as a string
    assert config.ppo.n_epochs == 4
    assert config.evaluation.opponents is None
    assert config.threads == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "game: missing"),
        ({"game": "quintet", "learning_rate": 0.1}, "learning_rate: unknown key"),
        ({"game": "quintet", "ppo": {"learnin_rate": 0.1}}, "ppo.learnin_rate: unknown key"),
        ({"game": "quintet", "ppo": {"learning_rate": "fast"}}, "ppo.learning_rate: expected a"),
        ({"game": "quintet", "ppo": {"learning_rate": 0}}, "ppo.learning_rate: expected .* > 0"),
        ({"game": "quintet", "ppo": {"gamma": 1.5}}, "ppo.gamma: expected .* <= 1"),
        ({"game": "quintet", "ppo": {"net_arch": [64, 0]}}, r"ppo.net_arch: .*each >= 1"),
        ({"game": "quintet", "ppo": {"net_arch": 64}}, "ppo.net_arch: expected a list"),
        ({"game": "quintet", "ppo": {"activation": "gelu"}}, "ppo.activation: expected one of"),
        ({"game": "quintet", "ppo": {"normalize_advantage": 1}}, "normalize_advantage: expected"),
        ({"game": "quintet", "n_envs": 0}, "n_envs: expected an integer >= 1"),
        ({"game": "quintet", "n_envs": 2.5}, "n_envs: expected an integer"),
        ({"game": "quintet", "threads": True}, "threads: expected an integer"),
        ({"game": "quintet", "update_threads": 0}, "update_threads: expected an integer >= 1"),
        ({"game": "quintet", "workers": 0}, "workers: expected an integer >= 1"),
        (
            {"game": "quintet", "pin_workers": "yes"},
            "pin_workers: expected one of 'auto', True or False, got 'yes'",
        ),
        ({"game": "quintet", "vec_env": "gpu"}, "vec_env: expected one of"),
        ({"game": "quintet", "env": [1]}, "env: expected a mapping"),
        ({"game": "quintet", "evaluation": {"every": -1}}, "evaluation.every: expected"),
        ({"game": "quintet", "evaluation": 3}, "evaluation: expected a mapping"),
        ({"game": "quintet", "opponents": {"bots": {"greedy": -1}}}, "opponents.bots.greedy"),
        ({"game": "quintet", "opponents": {"bots": {"greedy": "x"}}}, "opponents.bots.greedy"),
        ({"game": "quintet", "env_variants": [{"envs": 0, "options": {}}]}, "env_variants.0.envs"),
        ({"game": "quintet", "env_variants": [{"envs": 1}]}, "env_variants.0.options: missing"),
        ({"game": "quintet", "env_variants": {"envs": 1}}, "env_variants: expected a list"),
        ({"game": "quintet", "ppo": {"learning_rate_end": -1e-4}}, "ppo.learning_rate_end"),
    ],
)
def test_bad_config_names_the_key(data: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        from_dict(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"game": "poker_squares", "env": {"scoring": "french"}}, "env: .*french"),
        ({"game": "poker_squares", "env": {"jokes": 1}}, "env: .*jokes"),
        ({"game": "quintet", "env": {"reward": "chips"}}, "env: .*chips"),
        (
            {"game": "poker_squares", "opponents": {"bots": {"greedy": 1}}},
            "opponents: Poker Squares is a one-player game",
        ),
        ({"game": "quintet", "opponents": {"bots": {"grumpy": 1}}}, "opponents.bots: unknown bot"),
        ({"game": "quintet"}, "opponents.bots: needs at least one bot"),
        (
            {"game": "poker_squares", "opponents": {"runs": {"runs/x": 1}}},
            "opponents: Poker Squares is a one-player game",
        ),
        (
            {"game": "quintet", "opponents": {"runs": {"no/such/run": 1}}},
            "opponents.runs: no run folder or model at no/such/run",
        ),
        (
            {"game": "quintet", "evaluation": {"opponents": ["grumpy"]}},
            "evaluation.opponents: unknown bot 'grumpy'",
        ),
        (
            {**NAMELESS, "env_variants": [{"envs": 2, "options": {"deals": [19, 19]}}]},
            r"env_variants.0.options: .*deal 19 is listed twice",
        ),
        (
            {**NAMELESS, "env_variants": [{"envs": 1, "options": {"reward": "chips"}}]},
            r"env_variants.0.options: .*chips",
        ),
        (
            {**NAMELESS, "n_envs": 4, "env_variants": [{"envs": 3, "options": {}}] * 2},
            r"env_variants: 6 envs in all, expected at most n_envs \(4\)",
        ),
        (
            {**NAMELESS, "backend": "rllib", "env_variants": [{"envs": 1, "options": {}}]},
            "env_variants: only SB3 PPO runs take them, not backend: rllib",
        ),
        (
            {"game": "poker_squares", "env_variants": [{"envs": 1, "options": {}}]},
            "env_variants: the native vector env plays one set of options",
        ),
    ],
)
def test_config_checked_against_the_game(data: dict, message: str) -> None:
    config = from_dict(data)
    with pytest.raises(ConfigError, match=message):
        validate_for_game(config, get_game(config.game))


def test_a_one_player_game_without_a_vector_env_has_no_native_collection() -> None:
    spec = dataclasses.replace(get_game("poker_squares"), vector=None, name="squares_alone")
    config = from_dict({"game": "poker_squares", "vec_env": "native"})
    with pytest.raises(ConfigError, match="vec_env: squares_alone has no native vector env"):
        validate_for_game(config, spec)


@pytest.mark.parametrize(
    "data",
    [
        {"game": "quintet", "vec_env": "native", "opponents": {"bots": {"random": 1}}},
        {**NAMELESS, "vec_env": "native", "env_variants": [{"envs": 1, "options": {}}]},
        {"game": "draw_poker", "vec_env": "auto", "opponents": {"bots": {"random": 1}}},
    ],
)
def test_games_of_several_players_collect_natively(data: dict) -> None:
    """The vector env of bot tables takes any game of several players, its tables' options
    one by one (env_variants) and its formulations."""
    config = from_dict(data)
    validate_for_game(config, get_game(config.game))


def test_yaml_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("game: quintet\nppo:\n  clip_range: -1\n")
    with pytest.raises(ConfigError, match=r"bad.yaml: ppo.clip_range"):
        load_config(path)
    path.write_text("- just\n- a list\n")
    with pytest.raises(ConfigError, match="expected a mapping"):
        load_config(path)
    path.write_text("game: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(path)
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(tmp_path / "missing.yaml")


def test_yaml_is_loaded_safely(tmp_path: Path) -> None:
    path = tmp_path / "evil.yaml"
    path.write_text("game: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(path)


def test_overrides_apply_on_top_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("game: quintet\nseed: 3\ntimesteps: 100\n")
    config = load_config(path, {"timesteps": 500, "seed": None})
    assert (config.timesteps, config.seed) == (500, 3)
    with pytest.raises(ConfigError, match="timesteps"):
        load_config(path, {"timesteps": -5})
