"""The ``pokerzoo`` command: train, evaluate, play, list.

::

    pokerzoo train GAME [--config configs/GAME.yaml] [--timesteps N] [--seed S] [--out DIR]
                        [--resume] [--n-envs N] [--threads N] [--eval-episodes N]
    pokerzoo evaluate RUN_OR_MODEL [--episodes N] [--opponents BOT ...] [--seed S]
    pokerzoo play GAME [--against MODEL_OR_BOT] [--seed S]
    pokerzoo list

torch and Stable-Baselines3 are imported only by the commands that need them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pokerzoo", description="Train and evaluate agents on pokerzoo's card games."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    train = commands.add_parser(
        "train", help="train MaskablePPO on a game, then evaluate it against the bots"
    )
    train.add_argument("game", help="game name (see `pokerzoo list`)")
    train.add_argument("--config", help="YAML config (default: configs/GAME.yaml)")
    train.add_argument("--timesteps", type=int, help="total env steps (overrides the config)")
    train.add_argument("--seed", type=int, help="seed (overrides the config)")
    train.add_argument("--n-envs", type=int, help="parallel envs (overrides the config)")
    train.add_argument("--threads", type=int, help="torch threads (overrides the config)")
    train.add_argument("--out", help="run folder (default: runs/GAME-sSEED)")
    train.add_argument(
        "--resume", action="store_true", help="continue the run in --out from its checkpoint"
    )
    train.add_argument(
        "--eval-episodes",
        type=int,
        help="deals per bot in the final evaluation (0 skips it; default: the config's)",
    )
    train.add_argument("--no-progress", action="store_true", help="no progress bar")

    evaluate = commands.add_parser(
        "evaluate", help="evaluate a run (or a model file) against every bot of its game"
    )
    evaluate.add_argument("run", metavar="RUN_OR_MODEL", help="run folder or model .zip")
    evaluate.add_argument("--episodes", type=int, help="deals per bot (default: the run's)")
    evaluate.add_argument("--opponents", nargs="+", metavar="BOT", help="bots (default: all)")
    evaluate.add_argument("--seed", type=int, help="first deal's seed (default: the run's)")
    evaluate.add_argument("--game", help="the game, for a model file outside its run folder")
    evaluate.add_argument("--out", help="folder for the reports (default: the run folder)")

    play = commands.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", help="game name (see `pokerzoo list`)")
    play.add_argument(
        "--against",
        metavar="MODEL_OR_BOT",
        help="bot name, run folder or model .zip (Poker Squares: the hint giver; default greedy)",
    )
    play.add_argument("--seed", type=int, help="deal seed (default: random)")
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="env option, e.g. --option scoring=english (value read as JSON when it parses)",
    )

    commands.add_parser("list", help="the games, their options and their bots")
    return parser


def _cmd_list() -> int:
    from .games import GAMES

    for spec in GAMES.values():
        players = "one player" if spec.players == 1 else f"{spec.players} players"
        print(f"{spec.name}: {spec.title} ({players}) - {spec.summary}")
        print("  options:")
        for name, text in spec.options.items():
            print(f"    {name}: {text}")
        try:
            bots = ", ".join(spec.bots)
        except (ImportError, AttributeError) as error:
            bots = f"(unavailable: {error})"
        print(f"  bots: {bots}")
        print(f"  training features: {', '.join(['raw', *spec.features])}")
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from .evaluate import evaluate_run
    from .report import format_table
    from .train import resolve_config, train

    config = resolve_config(
        args.game,
        args.config,
        timesteps=args.timesteps,
        seed=args.seed,
        n_envs=args.n_envs,
        threads=args.threads,
    )
    out = Path(args.out) if args.out else Path("runs") / f"{config.game}-s{config.seed}"
    result = train(config, out, resume=args.resume, progress_bar=not args.no_progress)
    print(
        f"trained {result.timesteps} steps in {result.run_dir}: "
        f"{result.throughput['steps_per_second']:.0f} env steps/s during learn"
    )
    episodes = args.eval_episodes
    if episodes is None:
        episodes = config.evaluation.final_episodes
    if episodes > 0:
        evaluation, paths = evaluate_run(result.run_dir, episodes=episodes)
        print(format_table(evaluation))
        print("reports: " + ", ".join(str(p) for p in paths.values()))
    return 0


def _cmd_evaluate(args: argparse.Namespace) -> int:
    from .evaluate import evaluate_run
    from .report import format_table

    evaluation, paths = evaluate_run(
        args.run, args.episodes, args.opponents, args.seed, args.game, args.out
    )
    print(format_table(evaluation))
    print("reports: " + ", ".join(str(p) for p in paths.values()))
    return 0


def _option(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"bad --option {text!r}: expected KEY=VALUE")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _cmd_play(args: argparse.Namespace) -> int:
    from .play import play

    options = dict(_option(text) for text in args.option)
    try:
        play(args.game, args.against, args.seed, options)
    except (KeyboardInterrupt, EOFError):
        print("\nbye")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pokerzoo`` console script."""
    args = _parser().parse_args(argv)
    from .config import ConfigError

    try:
        if args.command == "list":
            return _cmd_list()
        if args.command == "train":
            return _cmd_train(args)
        if args.command == "evaluate":
            return _cmd_evaluate(args)
        return _cmd_play(args)
    except (ConfigError, ValueError, FileNotFoundError, FileExistsError) as error:
        print(f"pokerzoo: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
