"""Poker without a name's Monte-Carlo play-out: the bit-mask ``play_out`` against the same deals
played a card at a time through the rules policy (``reference_play_out``), and the same deals
played in batches on arrays (``play_outs``: numpy's steps, and numba's compiled loop where numba
is installed; the arrays' building included), in one run.

    python benchmarks/nameless_playout.py [--positions 2000] [--repeats 5] [--seed 0]

Every play-out of the Monte-Carlo bot and of the training features (``"reach"``)
is one of these, so they set the speed of the bot, of the features and of nameless poker's
training. ``--positions`` random positions (the 54-card pack dealt four hands of 1-8 cards,
every trump and kind of deal, random bids, any part of the deal already played) are each played
to the deal's end ``--repeats`` times by every row, which must end with the same tricks.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable, Sequence

import numpy as np
from pokerzoo.envs.core import jit
from pokerzoo.envs.core.cards import JOKER
from pokerzoo.envs.nameless_poker.analysis import reference_play_out
from pokerzoo.envs.nameless_poker.deals import (
    DEAL_KINDS,
    MAXIMUM,
    MINIMUM,
    NO_TRUMP,
    follow_options,
)
from pokerzoo.envs.nameless_poker.playout import World, play_out, play_outs, put

Position = tuple[World, int, int, int]
"""A world, its trump, its kind of deal and whether the turned card is a trump."""


def positions(count: int, seed: int) -> list[Position]:
    """``count`` random positions (module doc)."""
    rng = np.random.default_rng(seed)
    pack = list(range(JOKER)) + [JOKER, JOKER]
    made = []
    for _ in range(count):
        size = int(rng.integers(1, 9))
        trump = int(rng.integers(5)) - 1  # NO_TRUMP or a suit
        order = rng.permutation(pack).tolist()
        hands = [sorted(order[i * size : (i + 1) * size]) for i in range(4)]
        kind = int(rng.integers(len(DEAL_KINDS)))
        no_bids = kind in (MINIMUM, MAXIMUM)
        bids = [None if no_bids else int(b) for b in rng.integers(0, size + 1, 4)]
        world = World(hands, [], int(rng.integers(4)), NO_TRUMP, [0] * 4, bids, 0)
        for _ in range(int(rng.integers(4 * size))):  # any part of the deal already played
            seat = (world.leader + len(world.trick)) % 4
            options = follow_options(world.hands[seat], world.trick, trump, world.called)
            card = options[int(rng.integers(len(options)))]
            called = int(rng.integers(4)) if card == JOKER and not world.trick else NO_TRUMP
            put(world, seat, card, called, trump)
        turned = int(rng.integers(2)) if trump != NO_TRUMP else 0
        made.append((world, trump, kind, turned))
    return made


def time_rows(
    rows: dict[str, Callable[..., None]], worlds: list[Position], repeats: int
) -> dict[str, float]:
    """Seconds per play-out of each row, over ``repeats`` passes (rows interleaved per pass, so
    a busy machine slows both alike); every row must end each position with the same tricks."""
    spent = dict.fromkeys(rows, 0.0)
    for _ in range(repeats):
        for name, run in rows.items():
            copies = [world.copy() for world, *_ in worlds]
            start = time.perf_counter()
            for copy, (_, trump, kind, turned) in zip(copies, worlds, strict=True):
                run(copy, trump, kind, turned)
            spent[name] += time.perf_counter() - start
            tricks = [copy.tricks for copy in copies]
            if name == next(iter(rows)):
                expected = tricks
            elif tricks != expected:
                raise SystemExit(f"{name} ends with other tricks than {next(iter(rows))}")
    return {name: seconds / (repeats * len(worlds)) for name, seconds in spent.items()}


BATCHES = (32, 400)
"""Worlds per ``play_outs`` call of the batch rows (the Monte-Carlo bot's and the features'
batches hold tens to thousands)."""


def time_batches(
    worlds: list[Position], batch: int, compiled: bool, repeats: int
) -> tuple[float, list[list[int]]]:
    """Seconds per play-out of ``play_outs`` over the positions in batches of ``batch`` (the
    arrays built from the worlds included), by numba's loop (``compiled``) or numpy's steps,
    after one untimed batch (numba compiles at its first call); and the tricks they end with."""
    saved = jit.available()
    jit.AVAILABLE = compiled
    try:
        chunks = [worlds[i : i + batch] for i in range(0, len(worlds), batch)]
        columns = [[list(column) for column in zip(*chunk, strict=True)] for chunk in chunks]
        play_outs(*columns[0])
        spent = 0.0
        for _ in range(repeats):
            start = time.perf_counter()
            ended = [play_outs(*column) for column in columns]
            spent += time.perf_counter() - start
    finally:
        jit.AVAILABLE = saved
    return spent / (repeats * len(worlds)), np.concatenate(ended).tolist()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    worlds = positions(args.positions, args.seed)
    rows = {
        "`reference_play_out` (a card at a time through `rules_play`)": reference_play_out,
        "`play_out` (bit masks)": play_out,
    }
    seconds = time_rows(rows, worlds, args.repeats)
    expected = []
    for world, trump, kind, turned in worlds:
        alone = world.copy()
        play_out(alone, trump, kind, turned)
        expected.append(alone.tricks)
    for batch in BATCHES:
        for compiled in (False, True) if jit.available() else (False,):
            name = f"`play_outs`, batches of {batch}, {'numba' if compiled else 'numpy'}"
            seconds[name], tricks = time_batches(worlds, batch, compiled, args.repeats)
            if tricks != expected:
                raise SystemExit(f"{name} ends with other tricks than `play_out`")
    baseline = seconds[next(iter(rows))]
    print(
        f"{args.positions:,} positions x {args.repeats} play-outs per row; Python "
        f"{platform.python_version()}, {os.cpu_count()} cores; numba "
        f"{'installed' if jit.available() else 'not installed or off'}\n"
    )
    print("| play-out | µs per play-out | x reference |")
    print("|---|---:|---:|")
    for name, value in seconds.items():
        print(f"| {name} | {1e6 * value:.1f} | {baseline / value:.2f} |")


if __name__ == "__main__":
    main()
