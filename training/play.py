"""``pokerzoo play``: a person plays a game in the terminal.

- One-player games (Poker Squares): the person places every card; the chosen bot or trained
  agent shows where it would play (the hint, taken with an empty answer). At the end the hint
  player's own score on the same deal is shown for comparison.
- Games of several players: the person takes one seat, the bot or trained agent the others; at
  each turn the person reads what their seat's observation holds (the game's ``describe`` hook,
  else the env's text view) and types an action the game's hook reads.

What a game shows and reads comes from its training hooks (:mod:`pokerzoo.training.hooks`).
Input and output go through ``read`` and ``write`` so tests can script a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..envs.core.registry import GameSpec, get_game
from .evaluate import by_agent
from .hooks import TrainingHooks, feature_set, formulation, hooks_for
from .opponents import PolicyBot
from .runs import find_run
from .td import learner_for

__all__ = ["make_player", "play"]


def make_player(spec: GameSpec, against: str | None, seed: int | None, options: Mapping) -> Any:
    """A bot by name, or a trained agent from a run folder / model file, as a Bot."""
    bots = spec.bot_classes
    if against is None:
        against = hooks_for(spec).play_bot or next(iter(bots))
    if against in bots:
        return spec.make_bot(against, seed=seed, **options)
    if Path(against).exists() or Path(against).with_suffix(".zip").exists():
        target = find_run(against, spec.name)
        if target.backend == "td":
            lookahead = target.td.lookahead if target.td is not None else True
            learner = learner_for(spec)
            policy = learner.policy(learner.load(target.model_path), lookahead)
            return PolicyBot.from_policy(policy, f"agent ({target.model_path})")
        return PolicyBot(
            target.model_path,
            name=f"agent ({target.model_path})",
            transform=feature_set(spec, target.features, target.actions),
            formulation=formulation(spec, target.actions),
        )
    raise ValueError(
        f"--against {against!r}: neither a bot of {spec.name} ({', '.join(bots)}) nor a model "
        "file or run folder"
    )


def play(
    game: str,
    against: str | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Play one game; returns the result (``score`` or ``points``)."""
    spec = get_game(game)
    options = dict(options or {})
    spec.check_options(options)
    if seed is None:
        seed = int(np.random.default_rng().integers(2**31))
    player = make_player(spec, against, seed, options)
    write(f"{spec.title} (seed {seed}) with {player.name}")
    session = _Session(spec, hooks_for(spec), player, against, seed, options, read, write)
    return _play_single(session) if spec.players == 1 else _play_multi(session)


@dataclass(frozen=True)
class _Session:
    """One game in the terminal: the game, the other player, the deal, the console."""

    spec: GameSpec
    hooks: TrainingHooks
    player: Any
    against: str | None
    seed: int
    options: dict[str, Any]
    read: Callable[[str], str]
    write: Callable[[str], None]


def _ask(
    session: _Session, observation: np.ndarray, mask: np.ndarray, default: int, whose: str
) -> int:
    """Ask until the answer is a legal action; an empty answer takes ``default`` (``whose``
    choice it is, for the prompt)."""
    hooks, write = session.hooks, session.write
    shown = hooks.action_text(default, observation)
    prompt = f"{hooks.prompt}, Enter for {whose} {shown}, q quits: "
    while True:
        answer = session.read(prompt).strip().lower()
        if answer in ("q", "quit", "exit"):
            raise KeyboardInterrupt
        if answer == "":
            return default
        try:
            action = hooks.parse_action(answer, observation, mask)
        except ValueError as error:
            write(f"  {error}")
            continue
        if 0 <= action < len(mask) and mask[action]:
            return action
        write("  that move is not legal here")


def _play_single(session: _Session) -> dict[str, Any]:
    spec, player, seed, write = session.spec, session.player, session.seed, session.write
    env = spec.make_single(**{**session.options, "render_mode": "ansi"})
    score_key = spec.scoring.score_key
    observation, info = env.reset(seed=seed)
    player.reset(seed)
    while True:
        write(env.render())
        mask = info["action_mask"]
        hint = int(player.act(observation, mask))
        action = _ask(session, observation, mask, hint, f"{player.name}'s")
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    write(env.render())
    score = float(info[score_key])
    # The hint player on the same deal, for comparison.
    observation, info = env.reset(seed=seed)
    player.reset(seed)
    while True:
        observation, _, terminated, truncated, info = env.step(
            int(player.act(observation, info["action_mask"]))
        )
        if terminated or truncated:
            break
    theirs = float(info[score_key])
    write(f"your score: {score:g}; {player.name} scores {theirs:g} on the same deal")
    env.close()
    return {"score": score, "opponent_score": theirs}


def _play_multi(session: _Session) -> dict[str, Any]:
    spec, seed, options, write = session.spec, session.seed, session.options, session.write
    env = spec.make_aec(**{**options, "render_mode": "ansi"})
    env.reset(seed=seed)
    seats = list(env.possible_agents)
    person = seats[0]
    # One player per other seat (bots keep a plan per deal, so seats never share one).
    bots = {seats[1]: session.player}
    for k, agent in enumerate(seats[2:], start=1):
        bots[agent] = make_player(spec, session.against, seed + k, options)
    for k, bot in enumerate(bots.values()):
        bot.reset(seed + 7919 * k)
    write(f"you are {person}")
    returns = dict.fromkeys(seats, 0.0)
    while not all(env.terminations[a] or env.truncations[a] for a in env.agents):
        agent = env.agent_selection
        seen = env.observe(agent)
        if agent == person:
            observation, mask = seen["observation"], seen["action_mask"]
            hooks = session.hooks
            write(hooks.describe(observation) if hooks.describe else env.render() or "")
            first = int(np.flatnonzero(mask)[0])
            env.step(_ask(session, observation, mask, first, "the first legal,"))
        else:
            env.step(int(bots[agent].act(seen["observation"], seen["action_mask"])))
        for name, reward in env.rewards.items():
            returns[name] += float(reward)
    write(env.render() or "")
    info = env.infos[person]
    points_key = spec.scoring.points_key
    points = by_agent(info[points_key], seats) if points_key else returns
    winner = info.get("winner")
    if isinstance(winner, (int, np.integer)):  # a seat index, -1 for none
        winner = seats[winner] if winner >= 0 else None
    env.close()
    return {"points": points, "winner": winner}
