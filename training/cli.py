"""The ``pokerzoo`` command: train, evaluate, league, play, list.

::

    pokerzoo train GAME [--config configs/GAME.yaml] [--timesteps N] [--seed S] [--out DIR]
                        [--resume] [--n-envs N] [--workers K] [--threads N]
                        [--update-threads N] [--eval-episodes N]
                        [--backend sb3|rllib] [--num-env-runners N] [--address ADDR]
    pokerzoo evaluate RUN_OR_MODEL [--episodes N] [--opponents BOT ...] [--seed S]
                                   [--processes P] [--threads N] [--lbr DEALS] [--sampled]
    pokerzoo league GAME [--runs RUN ...] [--bots BOT ...] [--episodes N] [--seed S]
                         [--out DIR] [--processes P] [--threads N] [--option KEY=VALUE ...]
                         [--sampled]
    pokerzoo play GAME [--against MODEL_OR_BOT] [--seed S] [--option KEY=VALUE ...]
    pokerzoo list
    pokerzoo --version

Game names may be written with ``-`` for ``_`` (``poker-squares``). A mistake in what the user
typed or configured (an unknown game, bot or option, a bad value, a missing run folder) ends
with one line, ``pokerzoo: error: ...``, and exit status 2; anything else is a bug and shows its
traceback. torch and Stable-Baselines3 are imported only by the commands that need them, and
Ray only by ``--backend rllib`` and the evaluation of an RLlib run.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..envs.core.registry import GameSpec, games, get_game
from .config import ConfigError, TrainConfig
from .hooks import hooks_for

if TYPE_CHECKING:
    from .runs import RunTarget

__all__ = ["UsageError", "main"]

_INSTALL_RAY = 'pip install -e ".[train,rllib]"'
"""What the rllib backend and the evaluation of its runs need beyond the ``train`` extra."""


class UsageError(Exception):
    """Something the user typed or configured is wrong (reported in one line, exit 2)."""


def _count(low: int) -> Callable[[str], int]:
    """An argparse type: an integer >= ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {value}")
        return value

    return parse


def _version() -> str:
    try:
        return metadata.version("pokerzoo")
    except metadata.PackageNotFoundError:  # running from a checkout that is not installed
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pokerzoo", description="Train and evaluate agents on pokerzoo's card games."
    )
    parser.add_argument("--version", action="version", version=f"pokerzoo {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    train = commands.add_parser(
        "train", help="train MaskablePPO on a game, then evaluate it against the bots"
    )
    train.add_argument("game", help="game name (see `pokerzoo list`)")
    train.add_argument("--config", help="YAML config (default: configs/GAME.yaml)")
    train.add_argument("--timesteps", type=_count(1), help="total env steps (overrides the config)")
    train.add_argument("--seed", type=_count(0), help="seed (overrides the config)")
    train.add_argument("--n-envs", type=_count(1), help="parallel envs (overrides the config)")
    train.add_argument(
        "--workers",
        type=_count(1),
        help="processes stepping the training tables of a game of several players "
        "(overrides the config)",
    )
    train.add_argument(
        "--threads", type=_count(1), help="torch and BLAS threads (overrides the config)"
    )
    train.add_argument(
        "--update-threads",
        type=_count(1),
        help="torch threads during PPO's updates (overrides the config; default: --threads)",
    )
    train.add_argument(
        "--out", help="run folder (default: runs/GAME-sSEED; algorithm: td, runs/GAME_td-sSEED)"
    )
    train.add_argument(
        "--resume", action="store_true", help="continue the run in --out from its checkpoint"
    )
    train.add_argument(
        "--eval-episodes",
        type=_count(0),
        help="deals per bot in the final evaluation (0 skips it; default: the config's)",
    )
    train.add_argument("--no-progress", action="store_true", help="no progress bar")
    train.add_argument(
        "--backend",
        choices=["sb3", "rllib"],
        help="sb3 (MaskablePPO here) or rllib (Ray RLlib, local or on a cluster); default: "
        "the config's",
    )
    train.add_argument(
        "--num-env-runners",
        type=_count(0),
        help="rllib: sampling actors (overrides rllib.num_env_runners)",
    )
    train.add_argument(
        "--address",
        help="rllib: the Ray cluster to join (HOST:6379 or auto; default: start Ray locally)",
    )

    evaluate = commands.add_parser(
        "evaluate", help="evaluate a run (or a model file) against every bot of its game"
    )
    evaluate.add_argument("run", metavar="RUN_OR_MODEL", help="run folder or model .zip")
    evaluate.add_argument("--episodes", type=_count(1), help="deals per bot (default: the run's)")
    evaluate.add_argument("--opponents", nargs="+", metavar="BOT", help="bots (default: all)")
    evaluate.add_argument("--seed", type=_count(0), help="first deal's seed (default: the run's)")
    evaluate.add_argument("--game", help="the game, for a model file outside its run folder")
    evaluate.add_argument("--out", help="folder for the reports (default: the run folder)")
    evaluate.add_argument(
        "--processes",
        type=_count(1),
        help="worker processes for the duplicate deals of a game of several players and "
        "for --lbr's deals (default: one per core this process may use; results are the same)",
    )
    _threads_argument(evaluate)
    evaluate.add_argument(
        "--lbr",
        type=_count(1),
        metavar="DEALS",
        help="also play the local best response against the agent and each bot on DEALS "
        "duplicate deals (heads-up five-card stud or draw poker): how exploitable each is",
    )
    evaluate.add_argument(
        "--sampled",
        action="store_true",
        help="also play the agent sampling each action from its policy's probabilities "
        "(seeded per deal) on the same deals, and with --lbr its LBR row, beside the most "
        "probable action it plays by default (a MaskablePPO run of a game of several players)",
    )

    league = commands.add_parser(
        "league", help="rank a game's bots and runs in a round robin on duplicate deals"
    )
    league.add_argument("game", help="game name (see `pokerzoo list`)")
    league.add_argument(
        "--runs", nargs="+", default=[], metavar="RUN", help="run folders or model files"
    )
    league.add_argument(
        "--bots", nargs="+", metavar="BOT", help="bots (default: every bot of the game)"
    )
    league.add_argument("--episodes", type=_count(1), default=200, help="deals a pairing (200)")
    league.add_argument("--seed", type=_count(0), default=2_000_000, help="first deal's seed")
    league.add_argument("--out", help="folder for the reports (default: runs/league-GAME)")
    league.add_argument(
        "--processes",
        type=_count(1),
        help="worker processes (default: one per core this process may use; results are the same)",
    )
    _threads_argument(league)
    league.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="env option of every table (the runs must have been trained with it)",
    )
    league.add_argument(
        "--sampled",
        action="store_true",
        help="also enter each run sampling its actions from its policy's probabilities "
        "(seeded per deal), beside its most probable action (games of several players)",
    )

    play = commands.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", help="game name (see `pokerzoo list`)")
    play.add_argument(
        "--against",
        metavar="MODEL_OR_BOT",
        help="bot name, run folder or model .zip (one-player games: the hint giver)",
    )
    play.add_argument("--seed", type=_count(0), help="deal seed (default: random)")
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="env option, e.g. --option scoring=english (value read as JSON when it parses)",
    )

    commands.add_parser("list", help="the games, their options and their bots")
    return parser


def _game(name: str) -> GameSpec:
    try:
        return get_game(name)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _check_options(spec: GameSpec, options: Mapping[str, Any], where: str) -> None:
    """Build the game's env once with ``options``; an error names the option (``where.key``)."""
    try:
        spec.check_options(options)
    except (ValueError, TypeError) as error:
        text = str(error)
        key = next((k for k in options if re.search(rf"\b{re.escape(k)}\b", text)), None)
        raise UsageError(f"{where}.{key}: {text}" if key else f"{where}: {text}") from None


def _check_bots(spec: GameSpec, names: Sequence[str] | None) -> None:
    bots = spec.bot_classes
    for name in names or []:
        if name not in bots:
            raise UsageError(f"unknown bot {name!r} for {spec.name}: expected one of {list(bots)}")


def _check_sampled(target: RunTarget) -> None:
    """Refuse ``--sampled`` for a run whose agent cannot sample its actions, saying why."""
    from .report import check_sampled

    try:
        check_sampled(target)
    except ValueError as error:
        raise UsageError(f"--sampled: {error}") from None


def _cmd_list() -> int:
    for spec in games().values():
        players = "one player" if spec.players == 1 else f"{spec.players} players"
        if "num_players" in spec.options:
            players += " by default"
        print(f"{spec.name}: {spec.title} ({players}) - {spec.summary}")
        print("  options:")
        for name, text in spec.options.items():
            print(f"    {name}: {text}")
        print(f"  bots: {', '.join(spec.bot_classes)}")
        hooks = hooks_for(spec)
        print(f"  training features: {', '.join(['raw', *hooks.features])}")
        if hooks.formulations:
            print(f"  training actions: {', '.join(['native', *hooks.formulations])}")
        if hooks.td is not None:
            print("  training algorithms: ppo, td (the game's own value learner)")
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from .report import evaluate_run, format_table
    from .runs import default_config_path, resolve_config
    from .train import train, validate_for_game

    spec = _game(args.game)
    config = resolve_config(
        spec.name,
        args.config,
        timesteps=args.timesteps,
        seed=args.seed,
        n_envs=args.n_envs,
        workers=args.workers,
        threads=args.threads,
        update_threads=args.update_threads,
        backend=args.backend,
    )
    source = args.config or default_config_path(spec.name) or "the built-in defaults"
    _check_options(spec, config.env, f"{source}: env")
    kind = "_td" if config.algorithm == "td" else ""  # a td run never lands in a PPO run's folder
    out = Path(args.out) if args.out else Path("runs") / f"{config.game}{kind}-s{config.seed}"
    if config.algorithm == "td":
        run_dir = _train_td(args, config, source, spec, out)
    elif config.backend == "rllib":
        run_dir = _train_rllib(args, config, source, out)
    elif args.num_env_runners is not None or args.address is not None:
        raise UsageError("--num-env-runners and --address are options of --backend rllib")
    else:
        try:
            validate_for_game(config, spec)
        except ConfigError as error:
            raise ConfigError(f"{source}: {error}") from None
        result = train(config, out, resume=args.resume, progress_bar=not args.no_progress)
        run_dir = result.run_dir
        throughput = result.throughput
        updates = throughput["update_seconds"] / max(throughput["seconds"], 1e-9)
        print(
            f"trained {result.timesteps} steps in {result.run_dir}: "
            f"{throughput['steps_per_second']:.0f} env steps/s during learn "
            f"({updates:.0%} of it in PPO's updates)"
            + (
                f"; {throughput['exploiter_seconds']:.0f} s training exploiters"
                if throughput["exploiter_seconds"]
                else ""
            )
        )
    episodes = args.eval_episodes
    if episodes is None:
        episodes = config.evaluation.final_episodes
    if episodes > 0:  # the run's workers share its duplicate deals (the same table for any count)
        evaluation, paths = evaluate_run(run_dir, episodes=episodes, processes=config.workers)
        print(format_table(evaluation))
        print("reports: " + ", ".join(str(p) for p in paths.values()))
    return 0


def _train_td(
    args: argparse.Namespace, config: TrainConfig, source: object, spec: GameSpec, out: Path
) -> Path:
    """``pokerzoo train`` of an ``algorithm: td`` config: the game's own value learner
    (:mod:`pokerzoo.training.td`); the run folder."""
    from .td import learner_for, train_td

    for flag, given in (
        ("--timesteps", args.timesteps),
        ("--n-envs", args.n_envs),
        ("--workers", args.workers),
        ("--update-threads", args.update_threads),
        ("--backend", args.backend),
        ("--num-env-runners", args.num_env_runners),
        ("--address", args.address),
    ):
        if given is not None:
            raise UsageError(f"{flag} is a PPO setting; an algorithm: td run is set by `td:`")
    from .train import validate_for_game

    try:
        learner_for(spec)
        validate_for_game(config, spec)
        result = train_td(config, out, resume=args.resume)
    except ConfigError as error:
        raise ConfigError(f"{source}: {error}") from None
    rate = result.games / max(result.seconds, 1e-9)
    print(
        f"trained {result.games:,} games in {result.run_dir} "
        f"({result.seconds / 60:.1f} min, {rate:,.0f} games/s)"
    )
    return result.run_dir


def _train_rllib(args: argparse.Namespace, config: TrainConfig, source: object, out: Path) -> Path:
    """``pokerzoo train --backend rllib``: the command line's cluster settings, then
    :func:`pokerzoo.training.rllib.train.train` (which checks the config for the game and the
    backend); the run folder."""
    from .rllib.settings import with_overrides

    if find_spec("ray") is None:
        raise UsageError(f"the rllib backend needs Ray: {_INSTALL_RAY}")
    config = with_overrides(config, num_env_runners=args.num_env_runners, address=args.address)
    from .rllib.train import train

    try:
        result = train(config, out, resume=args.resume)
    except ConfigError as error:
        raise ConfigError(f"{source}: {error}") from None
    throughput = result.throughput
    print(
        f"trained {result.timesteps} learner decisions in {result.run_dir}: "
        f"{throughput['steps_per_second']:.0f} decisions/s "
        f"({throughput['env_steps_per_second']:.0f} env steps/s, every seat) during training"
    )
    return result.run_dir


def _threads_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--threads",
        type=_count(1),
        default=1,
        help="torch and BLAS threads of this process (default: 1; each worker runs one)",
    )


def _cmd_evaluate(args: argparse.Namespace) -> int:
    from .forking import default_processes, torch_threads
    from .report import evaluate_run, format_table
    from .runs import find_run

    torch_threads(args.threads)

    game = _game(args.game).name if args.game else None
    try:
        target = find_run(args.run, game)
    except ValueError as error:  # the run's game is not the one named, or none is named
        raise UsageError(str(error)) from None
    _check_bots(_game(target.game), args.opponents)
    if target.backend == "rllib" and find_spec("ray") is None:
        raise UsageError(f"{args.run} is an RLlib run: evaluating it needs Ray: {_INSTALL_RAY}")
    spec = _game(target.game)
    if args.lbr and (hooks_for(spec).hidden is None or spec.players != 2):
        raise UsageError(
            f"--lbr: no local best response for {spec.name}: it plays heads-up games whose "
            "training hooks describe their hidden cards (five-card stud, draw poker)"
        )
    if args.sampled:
        _check_sampled(target)
    evaluation, paths = evaluate_run(
        args.run,
        args.episodes,
        args.opponents,
        args.seed,
        game,
        args.out,
        args.processes or default_processes(),
        lbr_deals=args.lbr or 0,
        sampled=args.sampled,
    )
    print(format_table(evaluation))
    print("reports: " + ", ".join(str(p) for p in paths.values()))
    return 0


def _cmd_league(args: argparse.Namespace) -> int:
    from .forking import default_processes, torch_threads
    from .league import Entrant, play_league, write_league
    from .report import run_policy, run_probabilities
    from .runs import find_run

    torch_threads(args.threads)
    spec = _game(args.game)
    options = dict(_option(text) for text in args.option)
    _check_options(spec, options, "--option")
    _check_bots(spec, args.bots)
    entrants = [Entrant(f"bot {name}", bot=name) for name in args.bots or spec.bot_classes]
    for path in args.runs:
        try:
            target = find_run(path, spec.name)
        except ValueError as error:
            raise UsageError(str(error)) from None
        if target.options != options:
            raise UsageError(
                f"{path} was trained with env options {target.options}, the league plays "
                f"{options}: pass the run's options with --option"
            )
        if args.sampled:
            _check_sampled(target)
        entrants.append(Entrant(f"run {path}", policy=run_policy(target)[0]))
        if args.sampled:
            name = f"run {path} (sampled)"
            entrants.append(Entrant(name, probabilities=run_probabilities(target)))
    if len(entrants) < 2:
        raise UsageError(f"a league needs two entrants or more, got {[e.name for e in entrants]}")
    processes = args.processes or default_processes()
    league = play_league(spec, entrants, options, args.episodes, args.seed, processes)
    paths = write_league(league, args.out or Path("runs") / f"league-{spec.name}")
    print(league.table())
    print("reports: " + ", ".join(str(p) for p in paths.values()))
    return 0


def _option(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise UsageError(f"bad --option {text!r}: expected KEY=VALUE")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _cmd_play(args: argparse.Namespace) -> int:
    from .play import make_player, play

    spec = _game(args.game)
    options = dict(_option(text) for text in args.option)
    _check_options(spec, options, "--option")
    try:
        make_player(spec, args.against, args.seed, options)
    except ValueError as error:
        raise UsageError(str(error)) from None
    try:
        play(spec.name, args.against, args.seed, options)
    except (KeyboardInterrupt, EOFError):
        print("\nbye")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pokerzoo`` console script."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    commands = {
        "list": lambda _: _cmd_list(),
        "train": _cmd_train,
        "evaluate": _cmd_evaluate,
        "league": _cmd_league,
    }
    try:
        return commands.get(args.command, _cmd_play)(args)
    except (UsageError, ConfigError, FileNotFoundError, FileExistsError) as error:
        print(f"pokerzoo: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
