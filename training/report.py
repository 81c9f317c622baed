"""Evaluation tables (Markdown), ``report.json`` and the learning-curve PNG of a run folder, and
:func:`evaluate_run`, which evaluates a run (or a saved model) and writes them.

The learning curve has two panels: the periodic evaluations written during training
(``evaluations.csv``: the agent's mean score, or its win rate against each bot) and the
training episodes' return (``monitor.csv``, rolling mean).
"""

from __future__ import annotations

import csv
import functools
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ..envs.core.registry import GameSpec, get_game
from .evaluate import (
    Contender,
    Evaluation,
    OpponentResult,
    Policy,
    Probabilities,
    bot_maker,
    evaluate_agent,
    evaluate_contenders,
)
from .formulations import NATIVE
from .hooks import agent_policy, agent_probabilities, hooks_for, rule_policy, rules_for
from .lbr import ENDINGS, LBRResult, bot_policy, play_lbr
from .opponents import SampledPolicyBot, load_model
from .runs import RunTarget, find_run
from .td import kept_info, learner_for

__all__ = [
    "check_sampled",
    "evaluate_run",
    "format_table",
    "lbr_table",
    "plot_learning_curve",
    "run_policy",
    "run_probabilities",
    "write_report",
]


def format_table(evaluation: Evaluation) -> str:
    """The evaluation as a Markdown table (95% intervals), then one table per hand-written rule
    evaluated on the same deals (:attr:`Evaluation.rules`)."""
    tables = [_single_table(evaluation) if evaluation.players == 1 else _multi_table(evaluation)]
    if evaluation.variants:
        tables.insert(0, f"The {evaluation.player}{_pace(evaluation, ' ({})')}:")
    for variant in evaluation.variants.values():
        tables.append(f"The {variant.player}, same deals{_pace(variant, ' ({})')}:")
        tables.append(format_table(variant))
    for rule in evaluation.rules.values():
        tables.append(f"{rule.player}, hand-written over the same features, same deals:")
        tables.append(format_table(rule))
    if evaluation.lbr:
        tables.append(_lbr_table(evaluation))
    return "\n\n".join(tables)


def _lbr_table(evaluation: Evaluation) -> str:
    """The local best response's chips per hand against the agent and each bot (lower: less
    exploitable; :mod:`.lbr`)."""
    rows = [
        "Exploitability: the local best response's result against each player (chips per hand, "
        "95% interval over duplicate deals; lower is less exploitable), and how its hands "
        "ended: each way's share of the hands (LBR's chips from them, per hand played):",
        "",
        "| player | deals | LBR chips per hand | " + " | ".join(ENDINGS) + " |",
        "|---|---:|---:|" + "---:|" * len(ENDINGS),
    ]
    for name, result in evaluation.lbr.items():
        endings = [
            f"{100 * share:.1f}% ({chips:+.2f})"
            for share, chips in (result.endings.get(e, (0.0, 0.0)) for e in ENDINGS)
        ]
        rows.append(
            f"| {name} | {result.deals} | {result.chips.format()} | " + " | ".join(endings) + " |"
        )
    return "\n".join(rows)


def _pace(evaluation: Evaluation, form: str) -> str:
    """``form`` filled with a one-player agent's time per game (``"14.0 ms per game"``), or
    nothing when there is none."""
    if evaluation.players != 1 or not evaluation.agent_seconds:
        return ""
    return form.format(f"{1000 * evaluation.agent_seconds / evaluation.episodes:.1f} ms per game")


def _processes(evaluation: Evaluation) -> str:
    return f" on {evaluation.processes} processes" if evaluation.processes > 1 else ""


def _markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _share(estimate: Any) -> str:
    return estimate.format(percent=True) if estimate is not None else "-"


def _outcomes(result: OpponentResult) -> list[str]:
    """The agent's win, draw and loss rates against one bot."""
    return [_share(result.win), _share(result.draw), _share(result.loss)]


def _single_table(ev: Evaluation) -> str:
    threshold = f"share >= {ev.threshold:g}" if ev.threshold is not None else "share >= threshold"
    who = ev.player.split()[0]
    header = ["player", "mean score", threshold, f"{who} wins", "draws", f"{who} losses"]
    rows = [[f"**{who}**", ev.agent_mean.format(), _share(ev.agent_threshold), "", "", "", ""]]
    rows += [
        [r.name, r.bot_mean.format(), _share(r.bot_threshold), *_outcomes(r), r.margin.format()]
        for r in ev.opponents.values()
    ]
    return _markdown([*header, f"{who} - bot"], rows)


def _multi_table(ev: Evaluation) -> str:
    who = ev.player.split()[0]
    header = ["opponent", "games", f"{who} win rate", "draws", "losses", f"{ev.unit} margin"]
    header.append(f"{who} {ev.unit}s per game")
    rows = [
        [r.name, str(r.games), *_outcomes(r), r.margin.format(), _estimate(r.agent_mean)]
        for r in ev.opponents.values()
    ]
    return _markdown(header, rows)


def _estimate(estimate: Any) -> str:
    return estimate.format() if estimate is not None else "-"


def _describe(ev: Evaluation) -> str:
    if ev.players == 1:
        return (
            f"{ev.episodes} deals (seeds {ev.seed}..{ev.seed + ev.episodes - 1}); the agent and "
            "every bot play the same deals. Intervals are 95% (normal for means, Wilson for "
            "shares); win/draw/loss compare the agent with the bot on the same deal."
        )
    return (
        f"{ev.episodes} duplicate deals per bot (seeds {ev.seed}..{ev.seed + ev.episodes - 1}), "
        "each played with the agent in every seat; rates (against the best bot at the table) "
        f"have Wilson 95% intervals over the games; results per game and the {ev.unit} margin "
        "(the agent's result minus the bots' mean) have 95% intervals over deals."
    )


def write_report(
    evaluation: Evaluation,
    folder: str | Path,
    model: str,
    run_info: dict[str, Any] | None = None,
) -> dict[str, Path]:
    """Write ``report.md``, ``report.json`` and (if the run has curves) ``learning_curve.png``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"md": folder / "report.md", "json": folder / "report.json"}
    curve = plot_learning_curve(folder, evaluation.players)
    if curve is not None:
        paths["png"] = curve
    run_info = run_info or {}
    data = {"model": model, "evaluation": evaluation.as_dict(), "run": run_info}
    paths["json"].write_text(json.dumps(data, indent=2, default=str) + "\n")
    text = [
        f"# {evaluation.game}: evaluation of `{model}`",
        "",
        _describe(evaluation),
        f"Options: `{json.dumps(evaluation.options)}`. Took {evaluation.seconds:.0f} s"
        f"{_processes(evaluation)}{_pace(evaluation, ', the agent {}')}.",
        "",
        format_table(evaluation),
        "",
    ]
    throughput = run_info.get("throughput")
    if throughput and "games" in throughput:
        text += [
            f"Training: {throughput['games']:,} games ({throughput['timesteps']:,} env steps) "
            f"in {throughput['seconds'] / 60:.1f} min "
            f"({throughput['steps_per_second']:.0f} env steps/s).",
            "",
        ]
        kept = run_info.get("kept")
        if kept and kept["validation"] is not None and kept["games"] != throughput["games"]:
            text += [
                f"The model is the table of {kept['games']:,} games: the best of the run's "
                f"validation checks (mean {kept['validation']:.2f} without look-ahead on "
                "validation deals of its own).",
                "",
            ]
    elif throughput:
        text += [
            f"Training: {throughput['timesteps']} env steps in {throughput['seconds']:.0f} s "
            f"of `learn` ({throughput['steps_per_second']:.0f} env steps/s).",
            "",
        ]
    if curve is not None:
        text += [f"![learning curve]({curve.name})", ""]
    paths["md"].write_text("\n".join(text))
    return paths


def _read_csv(path: Path) -> dict[str, np.ndarray]:
    with path.open() as handle:
        lines = [line for line in handle if not line.startswith("#")]
    rows = list(csv.DictReader(lines))
    if not rows:
        return {}
    return {key: np.array([float(row[key]) for row in rows]) for key in rows[0]}


def _read_monitors(folder: Path) -> dict[str, np.ndarray]:
    """Training episodes of ``monitor.csv`` then each resumed segment's
    ``resume<k>.monitor.csv``: return ``r`` and end step ``step``. A file that ``run.json``
    ties to a segment starts at that segment's first step, else where the previous one ended."""
    paths = [folder / "monitor.csv"] + sorted(
        folder.glob("resume*.monitor.csv"), key=lambda p: int(p.name[6:].split(".")[0])
    )
    starts: dict[str, int] = {}
    if (folder / "run.json").exists():
        for segment in json.loads((folder / "run.json").read_text()).get("segments", []):
            if "monitor" in segment:
                starts[segment["monitor"]] = segment["from_timesteps"]
    returns, steps = [], []
    end = 0
    for path in paths:
        part = _read_csv(path) if path.exists() else {}
        if not part:
            continue
        start = starts.get(path.name, end)
        steps.append(start + np.cumsum(part["l"]))
        returns.append(part["r"])
        end = int(steps[-1][-1])
    if not returns:
        return {}
    return {"r": np.concatenate(returns), "step": np.concatenate(steps)}


def plot_learning_curve(folder: str | Path, players: int = 1) -> Path | None:
    """``learning_curve.png`` from the run's ``evaluations.csv`` and ``monitor.csv``."""
    folder = Path(folder)
    evaluations = (
        _read_csv(folder / "evaluations.csv") if (folder / "evaluations.csv").exists() else {}
    )
    monitor = _read_monitors(folder)
    if not evaluations and not monitor:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    if evaluations:
        steps = evaluations["timesteps"]
        colours = iter(f"C{k}" for k in range(1, 10))
        for key, values in evaluations.items():
            if key == "timesteps":
                continue
            if players == 1 and key.startswith("bot_mean/"):
                top.axhline(
                    values[-1],
                    linestyle="--",
                    linewidth=1,
                    color=next(colours, "grey"),
                    label=f"{key.split('/', 1)[1]} (bot)",
                )
            elif key.startswith("reference/"):
                top.axhline(
                    values[-1],
                    linestyle=":",
                    linewidth=1.5,
                    color=next(colours, "grey"),
                    label=key.split("/", 1)[1],
                )
            elif players == 1 and key.split("/")[0] == "agent_mean":
                how = key.partition("/")[2]  # "agent_mean/no look-ahead": how the agent played
                top.plot(steps, values, marker="o", label=f"agent, {how}" if how else "agent")
            elif players > 1 and key.startswith("win_rate/"):
                top.plot(steps, values, marker="o", label=f"vs {key.split('/', 1)[1]}")
        top.set_ylabel("mean score" if players == 1 else "win rate")
        top.set_title("periodic evaluation")
        top.legend()
        top.grid(alpha=0.3)
    if monitor:
        steps = monitor["step"]
        window = max(1, min(500, len(steps) // 10))
        rolling = np.convolve(monitor["r"], np.ones(window) / window, mode="valid")
        bottom.plot(steps[window - 1 :], rolling)
        bottom.set_title(f"training episodes' return (rolling mean of {window})")
        bottom.grid(alpha=0.3)
    bottom.set_xlabel("env steps")
    figure.tight_layout()
    path = folder / "learning_curve.png"
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def lbr_table(
    spec: GameSpec,
    policy: Policy,
    options: dict[str, Any],
    bots: Iterable[str],
    deals: int,
    seed: int = 3_000_000,
    processes: int = 1,
    probabilities: Probabilities | None = None,
) -> dict[str, LBRResult]:
    """The local best response against the agent (``policy``) and each bot of ``bots``, on the
    same ``deals`` duplicate deals, shared among ``processes`` forked workers (the same
    result); with the agent's ``probabilities``, also against the agent sampling its actions
    from them (row ``"agent (sampled)"``)."""
    from .opponents import PolicyBot

    hidden = hooks_for(spec).hidden
    if hidden is None or spec.players != 2:
        raise ValueError(
            f"no local best response for {spec.name}: it plays heads-up games whose training "
            "hooks describe their hidden cards"
        )
    options = {**options, **spec.scoring.eval_options}
    agent = PolicyBot.from_policy(policy, "agent")
    played = {"deals": deals, "seed": seed, "processes": processes}
    table = {"agent": play_lbr(spec, hidden, "agent", lambda _: agent, policy, options, **played)}
    if probabilities is not None:
        sampled = functools.partial(SampledPolicyBot, probabilities, name="agent (sampled)")
        table["agent (sampled)"] = play_lbr(
            spec,
            hidden,
            "agent (sampled)",
            sampled,
            None,
            options,
            **played,
            probabilities=probabilities,
        )
    for name in bots:
        player = bot_maker(spec, name, options)
        asked = bot_policy(spec, name, options)
        table[name] = play_lbr(spec, hidden, name, player, asked, options, **played)
    return table


def run_policy(target: RunTarget) -> tuple[Policy, Any]:
    """The batched policy a run's model plays (its features and action formulation applied),
    and the model (``None`` for an RLlib checkpoint, read without keeping Ray's objects)."""
    spec = get_game(target.game)
    if target.backend == "rllib":
        from .rllib.policy import agent_policy as rllib_policy

        return rllib_policy(spec, target.model_path, target.features, target.actions), None
    if target.backend == "td":
        learner = learner_for(spec)
        model = learner.load(target.model_path)
        lookahead = target.td.lookahead if target.td is not None else True
        return learner.policy(model, lookahead), model
    model = load_model(target.model_path)
    return agent_policy(spec, model, target.features, target.actions), model


def run_probabilities(target: RunTarget, model: Any = None) -> Probabilities:
    """The action probabilities of a run's model (its features applied; ``model``: the run's,
    loaded already), for a player that samples its actions: an SB3 run whose decisions are the
    game's own actions, of a game of several players; any other raises ``ValueError`` saying
    why."""
    check_sampled(target)
    spec = get_game(target.game)
    model = model if model is not None else load_model(target.model_path)
    return agent_probabilities(spec, model, target.features, target.actions)


def check_sampled(target: RunTarget) -> None:
    """Raise ``ValueError`` unless the run's agent can sample its actions
    (:func:`run_probabilities`), saying why."""
    spec = get_game(target.game)
    if target.backend != "sb3" or spec.players == 1 or target.actions != NATIVE:
        if target.backend != "sb3":
            what = f"a {target.backend} run"
        elif spec.players == 1:
            what = f"{spec.name} is a one-player game"
        else:
            what = f"its decisions are those of the action formulation {target.actions!r}"
        raise ValueError(
            f"bad run {target.model_path} for sampled play: {what}; expected a MaskablePPO "
            f"(sb3) run of a game of several players, in the game's own actions"
        )


def evaluate_run(
    path: str | Path,
    episodes: int | None = None,
    opponents: list[str] | None = None,
    seed: int | None = None,
    game: str | None = None,
    out: str | Path | None = None,
    processes: int = 1,
    lbr_deals: int = 0,
    sampled: bool = False,
) -> tuple[Evaluation, dict[str, Path]]:
    """Evaluate a run folder or a saved model (an SB3 ``.zip`` or an RLlib checkpoint folder)
    against the bots, and each of the game's hand-written rules over the run's features on the
    same deals (:mod:`.rules`), and write its report files (beside the model: a checkpoint or
    snapshot reports beside itself, not over its run's). ``processes``: worker processes for the
    duplicate deals of a game of several players (:func:`.evaluate.evaluate_agent`).
    ``lbr_deals`` > 0 also plays the local best response (:mod:`.lbr`) against the agent and
    each bot evaluated, on that many duplicate deals (heads-up games whose hooks describe
    their hidden cards). ``sampled`` also plays the agent sampling each action from its
    policy's probabilities (:class:`~.opponents.SampledPolicyBot`, seeded per deal), on the
    same deals (variant ``"sampled"``, and its LBR row), beside the most probable action it
    plays otherwise (:func:`run_probabilities` says which runs can)."""
    target = find_run(path, game)
    spec = get_game(target.game)
    if sampled:
        check_sampled(target)
    defaults = target.evaluation
    if episodes is None:
        episodes = defaults.final_episodes if defaults and defaults.final_episodes else 1000
    if opponents is None and defaults is not None:
        opponents = defaults.opponents
    if seed is None:
        seed = defaults.seed if defaults is not None else 1_000_000
    variants = {}
    policy, model = run_policy(target)
    probabilities = run_probabilities(target, model) if sampled else None
    if target.backend == "td" and (target.td is None or target.td.lookahead):
        learner = learner_for(spec)
        variants.update(learner.variants(model))
        variants["no look-ahead"] = learner.policy(model, False)
    rules = {
        name: (rule_policy(spec, rule, target.actions), rule.params)
        for name, rule in rules_for(spec, target.features, target.actions).items()
    }
    if spec.players == 1:
        evaluation = evaluate_agent(spec, policy, target.options, episodes, opponents, seed)
        for name, variant in variants.items():
            played = evaluate_agent(spec, variant, target.options, episodes, [], seed)
            played.player = f"agent ({name})"
            evaluation.variants[name] = played
        for name, (rule, _) in rules.items():
            evaluation.rules[name] = evaluate_agent(
                spec, rule, target.options, episodes, opponents, seed
            )
    else:
        # one pass: every contender meets every bot on each chunk of deals (the features of
        # a deal worked out once serve all of them)
        contenders = {"agent": Contender(policy)}
        if probabilities is not None:
            sampled_player = functools.partial(
                SampledPolicyBot, probabilities, name="agent (sampled)"
            )
            contenders["sampled"] = Contender(player=sampled_player)
        contenders.update({f"rule {name}": Contender(rule) for name, (rule, _) in rules.items()})
        played = evaluate_contenders(
            spec, contenders, target.options, episodes, opponents, seed, processes=processes
        )
        evaluation = played["agent"]
        if probabilities is not None:
            played["sampled"].player = "agent (sampled)"
            evaluation.variants["sampled"] = played["sampled"]
        for name in rules:
            evaluation.rules[name] = played[f"rule {name}"]
    for name, (_, params) in rules.items():
        thresholds = ", ".join(f"{k}={v:g}" for k, v in params.items())
        evaluation.rules[name].player = f"rule {name} ({thresholds})"
    if lbr_deals:
        evaluation.lbr = lbr_table(
            spec,
            policy,
            target.options,
            evaluation.opponents,
            lbr_deals,
            processes=processes,
            probabilities=probabilities,
        )
    run_info_path = target.run_dir / "run.json"
    run_info = json.loads(run_info_path.read_text()) if run_info_path.exists() else {}
    if target.backend == "td":
        run_info["kept"] = kept_info(model)
    folder = Path(out) if out is not None else target.model_path.parent
    paths = write_report(evaluation, folder, str(target.model_path), run_info)
    return evaluation, paths
