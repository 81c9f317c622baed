"""A league table of one game: every bot and every given run, round robin on duplicate deals.

``pokerzoo league GAME [--runs RUN ...] [--bots BOT ...]`` ranks the entrants by their mean
margin over the field:

- **Games of several players**: for each ordered pair (A, B), A takes one seat and B every
  other, on ``episodes`` duplicate deals (each deal once per seat of A, the players reset with
  the same seeds whichever seat A takes: the tables :mod:`.evaluate` plays). A's margin against
  B on a deal is A's result minus the mean of B's at A's table, averaged over A's seats. With
  two players the games of (A, B) are those of (B, A) seen from the other seat, so each pair is
  played once and B's margin is minus A's. In Quintet, whose seats play blind, each entrant
  lays out each deal once as an A and once as a B (their seeds differ), and every pair is
  scored from those moves (:func:`~.evaluate.play_pairs`: the same tables).
- **One-player games**: every entrant plays the same deals; A's margin against B on a deal is
  A's score minus B's.

An entrant's **league score** is its mean margin over all the others, deal by deal (each deal's
margins against every opponent averaged), with a 95% interval over the deals; the table also
gives every pairwise margin and, for games of several players, A's win rate against B (A's
result above the best of B's at its table). Bots play as the registry builds them, seeded per
deal; a run plays its trained policy (deterministic), its features and formulation included,
or, as an entrant given its ``probabilities`` (``--sampled``), samples each action from them
(:class:`~.opponents.SampledPolicyBot`, seeded per deal; games of several players).
:func:`write_league` writes ``league.md``, ``league.json`` and ``league.png`` (the scores with
their intervals, and the matrix of margins).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..envs.core.options import check_int
from ..envs.core.registry import GameSpec
from .evaluate import (
    BotMaker,
    Contender,
    Policy,
    Probabilities,
    bot_maker,
    play_bot_single,
    play_pairs,
    play_policy_single,
)
from .stats import Estimate, mean_ci, rate_ci

__all__ = ["Entrant", "League", "play_league", "write_league"]


@dataclass(frozen=True)
class Entrant:
    """One player of a league: a bot of the game (``bot``), a trained policy (``policy``), or a
    trained policy that samples its actions from its ``probabilities``; one of the three."""

    name: str
    bot: str | None = None
    policy: Policy | None = None
    probabilities: Probabilities | None = None

    def __post_init__(self) -> None:
        given = [self.bot is not None, self.policy is not None, self.probabilities is not None]
        if sum(given) != 1:
            raise ValueError(
                f"bad entrant {self.name!r}: expected one of a bot, a policy or probabilities"
            )

    def maker(self, spec: GameSpec, options: Mapping[str, Any]) -> BotMaker:
        """A player per game, seeded for it (a policy ignores the seed: it is deterministic)."""
        from .opponents import PolicyBot, SampledPolicyBot  # imported where a run plays

        if self.bot is not None:
            return bot_maker(spec, self.bot, options)
        if self.probabilities is not None:
            return functools.partial(SampledPolicyBot, self.probabilities, name=self.name)
        player = PolicyBot.from_policy(self._policy(), self.name)
        return lambda seed: player

    def _policy(self) -> Policy:
        if self.policy is None:
            raise ValueError(
                f"bad entrant {self.name!r}: it samples its actions, which a one-player league "
                "does not play; enter the run's policy"
            )
        return self.policy


@dataclass
class League:
    """A league's results (module docstring); ``margins[a][b]`` is ``a``'s margin against
    ``b``, ``wins[a][b]`` its win rate (games of several players)."""

    game: str
    episodes: int
    seed: int
    options: dict[str, Any]
    entrants: list[str]
    scores: dict[str, Estimate] = field(default_factory=dict)
    margins: dict[str, dict[str, Estimate]] = field(default_factory=dict)
    wins: dict[str, dict[str, Estimate]] = field(default_factory=dict)
    seconds: float = 0.0

    def ranking(self) -> list[str]:
        """The entrants, best league score first."""
        return sorted(self.entrants, key=lambda name: -self.scores[name].value)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "episodes": self.episodes,
            "seed": self.seed,
            "options": self.options,
            "seconds": self.seconds,
            "ranking": [
                {
                    "entrant": name,
                    "score": self.scores[name].as_dict(),
                    "margins": {b: m.as_dict() for b, m in self.margins[name].items()},
                    "wins": {b: w.as_dict() for b, w in self.wins.get(name, {}).items()},
                }
                for name in self.ranking()
            ],
        }

    def table(self) -> str:
        """The ranking in Markdown: league score, then the margin against each entrant."""
        order = self.ranking()
        head = ["rank", "entrant", "league score", *order]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * (len(order) + 1)]
        for rank, name in enumerate(order, start=1):
            cells = [str(rank), name, self.scores[name].format()]
            for other in order:
                margin = self.margins[name].get(other)
                cells.append("" if margin is None else f"{margin.value:+.2f}")
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)


def play_league(
    spec: GameSpec,
    entrants: Sequence[Entrant],
    options: Mapping[str, Any],
    episodes: int,
    seed: int = 2_000_000,
    processes: int = 1,
) -> League:
    """Play the round robin of ``entrants`` (module docstring) on ``episodes`` deals."""
    started = time.perf_counter()
    check_int("episodes", episodes, 1)
    names = [e.name for e in entrants]
    if len(set(names)) != len(names) or len(names) < 2:
        raise ValueError(f"bad entrants {names}: expected at least two, each named once")
    options = {**options, **spec.scoring.eval_options}
    league = League(spec.name, episodes, seed, dict(options), names)
    per_deal: dict[str, list[np.ndarray]] = {name: [] for name in names}
    if spec.players == 1:
        seeds = list(range(seed, seed + episodes))
        scores = {e.name: _single_scores(spec, e, options, seeds) for e in entrants}
        for a in names:
            league.margins[a] = {}
            for b in names:
                if a != b:
                    difference = scores[a] - scores[b]
                    league.margins[a][b] = mean_ci(difference)
                    per_deal[a].append(difference)
    else:
        # with two players the games of (A, B) are those of (B, A) from the other seat
        pairs = [
            (a, b)
            for i, a in enumerate(names)
            for j, b in enumerate(names)
            if a != b and (spec.players > 2 or i < j)
        ]
        makers = {e.name: e.maker(spec, options) for e in entrants}
        contenders = {name: Contender(player=maker) for name, maker in makers.items()}
        played = play_pairs(
            spec, contenders, makers, pairs, options, episodes, seed, processes=processes
        )
        for a, b in pairs:
            deals = played[a, b][0]
            margin = (deals.own - deals.theirs).mean(axis=1)
            league.margins.setdefault(a, {})[b] = mean_ci(margin)
            games = deals.wins.size
            league.wins.setdefault(a, {})[b] = rate_ci(float(deals.wins.sum()), games)
            per_deal[a].append(margin)
            if spec.players == 2:
                league.margins.setdefault(b, {})[a] = mean_ci(-margin)
                lost = games - float(deals.wins.sum()) - float(deals.draws.sum())
                league.wins.setdefault(b, {})[a] = rate_ci(lost, games)
                per_deal[b].append(-margin)
    for name in names:
        league.scores[name] = mean_ci(np.mean(per_deal[name], axis=0))
    league.seconds = time.perf_counter() - started
    return league


def _single_scores(
    spec: GameSpec, entrant: Entrant, options: Mapping[str, Any], seeds: list[int]
) -> np.ndarray:
    """An entrant's scores on the deals ``seeds`` of a one-player game."""
    if entrant.bot is not None:
        return play_bot_single(spec, entrant.bot, options, seeds)
    return play_policy_single(spec, entrant._policy(), options, seeds, 256)


def write_league(league: League, folder: str | Path) -> dict[str, Path]:
    """``league.md``, ``league.json`` and ``league.png`` in ``folder``; their paths."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"md": out / "league.md", "json": out / "league.json", "png": out / "league.png"}
    title = f"League of {league.game}: {league.episodes} deals a pairing (seeds {league.seed}..)"
    note = (
        "League score: mean margin over the field per deal, 95% interval over the deals; a "
        "column is the row's mean margin against that entrant."
    )
    paths["md"].write_text(f"# {title}\n\n{league.table()}\n\n{note}\n")
    paths["json"].write_text(json.dumps(league.as_dict(), indent=2) + "\n")
    _plot(league, paths["png"], title)
    return paths


def _plot(league: League, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = league.ranking()
    scores = [league.scores[n] for n in order]
    matrix = np.array(
        [[league.margins[a].get(b, Estimate(0.0, 0.0, 0.0, 0)).value for b in order] for a in order]
    )
    figure, (bars, grid) = plt.subplots(1, 2, figsize=(6 + len(order), 3 + 0.4 * len(order)))
    y = np.arange(len(order))[::-1]
    values = np.array([s.value for s in scores])
    errors = np.array([[s.value - s.low for s in scores], [s.high - s.value for s in scores]])
    bars.barh(y, values, xerr=errors, color="tab:blue", capsize=3)
    bars.set_yticks(y, order)
    bars.axvline(0.0, color="black", linewidth=0.8)
    bars.set_xlabel("league score (mean margin, 95% interval)")
    limit = float(np.abs(matrix).max()) or 1.0
    image = grid.imshow(matrix, cmap="RdBu", vmin=-limit, vmax=limit)
    grid.set_xticks(range(len(order)), order, rotation=45, ha="right")
    grid.set_yticks(range(len(order)), order)
    grid.set_title("row's margin against column")
    figure.colorbar(image, ax=grid)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
