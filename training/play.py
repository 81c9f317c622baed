"""``pokerzoo play``: a person plays a game in the terminal.

- One-player games (Poker Squares): the person places every card; the chosen bot or trained
  agent shows where it would place it (the hint, taken with an empty answer). At the end the
  hint player's own score on the same deal is shown for comparison.
- Games of several players (Quintet): the person takes one seat, the bot or trained agent the
  others; the person sees only what their seat's observation holds.

Input and output go through ``read`` and ``write`` so tests can script a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .games import GameSpec, get_game

__all__ = ["make_player", "play"]


def make_player(spec: GameSpec, against: str | None, seed: int | None, options: Mapping) -> Any:
    """A bot by name, or a trained agent from a run folder / model file, as a Bot."""
    bots = spec.bots
    if against is None:
        against = next((n for n in ("greedy",) if n in bots), next(iter(bots)))
    if against in bots:
        return spec.make_bot(against, seed=seed, **options)
    if Path(against).exists() or Path(against).with_suffix(".zip").exists():
        from .evaluate import find_run
        from .opponents import PolicyBot

        target = find_run(against, spec.name)
        return PolicyBot(
            target.model_path,
            name=f"agent ({target.model_path})",
            transform=spec.feature_fn(target.features),
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
    if seed is None:
        seed = int(np.random.default_rng().integers(2**31))
    player = make_player(spec, against, seed, options)
    write(f"{spec.title} (seed {seed}) with {player.name}")
    if spec.players == 1:
        return _play_single(spec, player, seed, options, read, write)
    return _play_multi(spec, player, against, seed, options, read, write)


def _ask(
    read: Callable[[str], str],
    write: Callable[[str], None],
    prompt: str,
    mask: np.ndarray,
    parse: Callable[[str], int],
    hint: int,
) -> int:
    while True:
        answer = read(prompt).strip().lower()
        if answer in ("q", "quit", "exit"):
            raise KeyboardInterrupt
        if answer == "":
            return hint
        try:
            action = parse(answer)
        except ValueError as error:
            write(f"  {error}")
            continue
        if 0 <= action < len(mask) and mask[action]:
            return action
        write("  that move is not legal here")


# --- Poker Squares (and any one-player grid game) ------------------------------------------------


def _cell(answer: str) -> int:
    parts = answer.replace(",", " ").split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"bad cell {answer!r}: type the row and the column, e.g. '3 4'")
    row, col = (int(p) for p in parts)
    if not (1 <= row <= 5 and 1 <= col <= 5):
        raise ValueError(f"bad cell {answer!r}: rows and columns are 1..5")
    return 5 * (row - 1) + (col - 1)


def _name_cell(cell: int) -> str:
    return f"{cell // 5 + 1} {cell % 5 + 1}"


def _play_single(
    spec: GameSpec,
    player: Any,
    seed: int,
    options: dict[str, Any],
    read: Callable[[str], str],
    write: Callable[[str], None],
) -> dict[str, Any]:
    env = spec.make_env(**{**options, "render_mode": "ansi"})
    observation, info = env.reset(seed=seed)
    player.reset(seed)
    while True:
        write(env.render())
        mask = info["action_mask"]
        hint = int(player.act(observation, mask))
        action = _ask(
            read,
            write,
            f"cell as 'row col' (1-5), Enter for {player.name}'s {_name_cell(hint)}, q quits: ",
            mask,
            _cell,
            hint,
        )
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    write(env.render())
    score = float(info[spec.score_key])
    # The hint player on the same deal, for comparison.
    observation, info = env.reset(seed=seed)
    player.reset(seed)
    while True:
        observation, _, terminated, truncated, info = env.step(
            int(player.act(observation, info["action_mask"]))
        )
        if terminated or truncated:
            break
    theirs = float(info[spec.score_key])
    write(f"your score: {score:g}; {player.name} scores {theirs:g} on the same deal")
    env.close()
    return {"score": score, "opponent_score": theirs}


# --- games of several players --------------------------------------------------------------------


def _describe_quintet(observation: np.ndarray) -> str:
    from ..envs.cards import format_card, format_cards
    from ..envs.quintet import POSITION_POINTS, decode_observation

    deal = decode_observation(observation)
    lines = [f"cards in play: {format_cards(deal.cards)}"]
    for p, pack in enumerate(deal.packs):
        lines.append(f"  pack {p + 1} ({POSITION_POINTS[p]} pts): {format_cards(pack)}")
    if deal.current is not None:
        lines.append(f"card to place: {format_card(deal.current)}")
    return "\n".join(lines)


_DESCRIBE: dict[str, Callable[[np.ndarray], str]] = {"quintet": _describe_quintet}


def _play_multi(
    spec: GameSpec,
    player: Any,
    against: str | None,
    seed: int,
    options: dict[str, Any],
    read: Callable[[str], str],
    write: Callable[[str], None],
) -> dict[str, Any]:
    env = spec.make_aec(**{**options, "render_mode": "ansi"})
    env.reset(seed=seed)
    seats = list(env.possible_agents)
    person = seats[0]
    # One player per other seat (bots keep a plan per deal, so seats never share one).
    bots = {seats[1]: player}
    for k, agent in enumerate(seats[2:], start=1):
        bots[agent] = make_player(spec, against, seed + k, options)
    describe = _DESCRIBE.get(spec.name, lambda observation: str(observation))
    write(f"you are {person}")
    while not all(env.terminations[a] or env.truncations[a] for a in env.agents):
        agent = env.agent_selection
        seen = env.observe(agent)
        if agent == person:
            write(describe(seen["observation"]))
            legal = [int(a) + 1 for a in np.flatnonzero(seen["action_mask"])]
            action = _ask(
                read,
                write,
                f"move ({', '.join(map(str, legal))}; Enter for the first legal, q quits): ",
                seen["action_mask"],
                lambda answer: int(answer) - 1,
                legal[0] - 1,
            )
            env.step(action)
        else:
            env.step(int(bots[agent].act(seen["observation"], seen["action_mask"])))
    write(env.render() or "")
    info = env.infos[person]
    points = info.get(spec.points_key) if spec.points_key else None
    env.close()
    return {"points": points, "winner": info.get("winner")}
