"""Hands per second of pokerzoo's hand evaluator beside treys, phevaluator, eval7 and pokerkit.

    python benchmarks/hands.py [--hands 1000000] [--peers treys phevaluator eval7 pokerkit]
                               [--seed 0] [--repeat 7] [--loop-seconds 4]

One seeded set of ``--hands`` random 5-card hands (one 52-card deck each) is evaluated by every
row. Rows:

1. pokerzoo batched ``evaluate(hands, ruleset)`` for ``"standard"``, ``"quintet"`` (on as many
   random piquet hands), ``"draw"``, ``"low"``, and ``"standard"`` on the same hands with 0, 1 or
   2 of their cards replaced by jokers (a third each): the numpy path the vector envs use;
2. pokerzoo scalar ``make_evaluator("standard")`` called once per hand in a Python loop;
3. each peer's fastest documented Python call for one 5-card hand, in the same loop:
   ``treys.Evaluator().evaluate(hand, board)`` (2 + 3 cards), ``phevaluator.evaluate_5cards``
   (int ids), ``eval7.evaluate`` (a list of ``eval7.Card``) and pokerkit's
   ``StandardLookup().get_entry`` (a tuple of ``pokerkit.Card``; ``StandardHighHand`` does the
   same lookup plus validation).

Cards are converted to each library's format before timing; only the evaluation calls are timed
(loops collect the results in a list comprehension, as a caller would), with the garbage
collector off as ``timeit`` does. Batched rows keep the best of ``--repeat`` runs. A Python loop
that would take longer than ``--loop-seconds`` on all the hands (pokerkit, usually) runs on the
first part of them only, sized from a short pilot run; its rate is per hand, so it compares
directly, and the table says how many hands it timed.

The run also checks what it measures: pokerzoo's scalar and batched keys agree, and pokerzoo
orders the hands exactly as each peer does (same ties, same order) on every hand the peer
evaluated; the exit status is 1 if a check fails. The table ends with the issue's targets:
batched standard >= 8x the fastest peer, the other batched rulesets >= 2x, batched with up to
two wild cards >= 1 M hands/s, and the scalar standard call >= the fastest peer's call. The
default run takes well under a minute (two shared cores); the peers need the ``bench`` extra and
are skipped with a note when missing.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pokerzoo.envs.core.cards import JOKER, format_card, make_deck
from pokerzoo.envs.core.hands import evaluate, evaluate_draws, make_evaluator

PEERS = ("treys", "phevaluator", "eval7", "pokerkit")
PILOT_HANDS = 2_000
CHECK_HANDS = 20_000  # hands whose scalar and batched keys are compared for the other rulesets


@dataclass(frozen=True)
class Args:
    """Command-line options."""

    hands: int = 1_000_000  # random hands evaluated by every row
    peers: tuple[str, ...] = PEERS  # peer libraries to time
    seed: int = 0  # seeds the hands
    repeat: int = 7  # batched rows keep the best of this many runs
    loop_seconds: float = 4.0  # a Python loop longer than this on all hands times a prefix


@dataclass
class Row:
    path: str
    hands: int
    seconds: float
    peer: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.hands / self.seconds


def parse_args(argv: Sequence[str] | None = None) -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=Args.hands, help="hands per row")
    parser.add_argument(
        "--peers",
        nargs="*",
        default=list(PEERS),
        help=f"peers to time, space- or comma-separated, from {', '.join(PEERS)} (none: no peers)",
    )
    parser.add_argument("--seed", type=int, default=Args.seed, help="seed of the hands")
    parser.add_argument("--repeat", type=int, default=Args.repeat, help="runs per batched row")
    parser.add_argument(
        "--loop-seconds", type=float, default=Args.loop_seconds, help="time cap of a Python loop"
    )
    ns = parser.parse_args(argv)
    peers = tuple(p for item in ns.peers for p in item.split(",") if p and p != "none")
    unknown = sorted(set(peers) - set(PEERS))
    if unknown:
        parser.error(f"unknown peers {unknown}: expected some of {', '.join(PEERS)}")
    if ns.hands < PILOT_HANDS or ns.repeat < 1 or ns.loop_seconds <= 0:
        parser.error(f"--hands must be >= {PILOT_HANDS}, --repeat and --loop-seconds positive")
    return Args(ns.hands, tuple(dict.fromkeys(peers)), ns.seed, ns.repeat, ns.loop_seconds)


# --- hands ---------------------------------------------------------------------------------------
def deal(rng: np.random.Generator, deck: np.ndarray, n: int) -> np.ndarray:
    """``n`` hands of five different cards of ``deck``, as an (n, 5) int8 array."""
    hands = np.empty((n, 5), dtype=np.int8)
    filled = 0
    while filled < n:
        picks = rng.integers(0, deck.size, size=(n - filled + n // 4 + 16, 5))
        distinct = (np.diff(np.sort(picks, axis=1), axis=1) != 0).all(axis=1)
        fresh = deck[picks[distinct][: n - filled]]
        hands[filled : filled + len(fresh)] = fresh
        filled += len(fresh)
    return hands


def with_jokers(rng: np.random.Generator, hands: np.ndarray) -> np.ndarray:
    """A copy of ``hands`` with 0, 1 or 2 cards of each (a third each) replaced by jokers."""
    wild = hands.copy()
    count = rng.integers(0, 3, size=len(hands))
    slots = np.argsort(rng.random(hands.shape), axis=1)
    rows = np.arange(len(hands))
    for j in range(2):
        chosen = count > j
        wild[rows[chosen], slots[chosen, j]] = JOKER
    return wild


# --- timing --------------------------------------------------------------------------------------
def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    """Seconds one call takes (garbage collector off, as in ``timeit``) and its result."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        result = call()
        return time.perf_counter() - start, result
    finally:
        if enabled:
            gc.enable()


def best_of(repeat: int, call: Callable[[], Any]) -> tuple[float, Any]:
    runs = [timed(call) for _ in range(repeat)]
    return min(r[0] for r in runs), runs[0][1]


@dataclass(frozen=True)
class Loop:
    """One scalar evaluator: how to convert hands to its input, and the timed loop over them."""

    path: str
    convert: Callable[[np.ndarray], list[Any]]
    loop: Callable[[list[Any]], list[Any]]
    strength: Callable[[list[Any]], np.ndarray]  # results -> numbers, higher is stronger
    note: str = ""


def run_loop(spec: Loop, hands: np.ndarray, args: Args, peer: bool) -> tuple[Row, np.ndarray]:
    """Time ``spec`` on all hands, or on a prefix if all would take over ``--loop-seconds``."""
    pilot_seconds, _ = timed(lambda: spec.loop(spec.convert(hands[:PILOT_HANDS])))
    fits = int(args.loop_seconds / max(pilot_seconds, 1e-9) * PILOT_HANDS)
    n = len(hands) if fits >= len(hands) else max(PILOT_HANDS, fits // 1000 * 1000)
    inputs = spec.convert(hands[:n])
    seconds, results = timed(lambda: spec.loop(inputs))
    row = Row(spec.path, n, seconds, peer=peer, notes=[spec.note] if spec.note else [])
    if n < len(hands):
        row.notes.append(f"timed on the first {n:,} hands (too slow for all)")
    return row, spec.strength(results)


def pokerzoo_loop() -> Loop:
    strength = make_evaluator("standard")
    return Loop(
        'pokerzoo scalar `make_evaluator("standard")`',
        lambda hands: hands.tolist(),
        lambda rows: [strength(a, b, c, d, e) for a, b, c, d, e in rows],
        np.asarray,
    )


def peer_loop(name: str) -> Loop:
    notation = [format_card(card) for card in range(52)]
    if name == "treys":
        from treys import Card, Evaluator

        evaluator = Evaluator()
        ids = [Card.new(token) for token in notation]
        return Loop(
            "treys `Evaluator().evaluate(hand, board)`",
            lambda hands: [
                ([ids[c] for c in h[:2]], [ids[c] for c in h[2:]]) for h in hands.tolist()
            ],
            lambda rows: [evaluator.evaluate(hand, board) for hand, board in rows],
            lambda results: -np.asarray(results),  # rank 1 is the royal flush
        )
    if name == "phevaluator":
        from phevaluator import evaluate_5cards

        # phevaluator ids are 4 * rank + suit with suits c, d, h, s: ours (s, h, d, c) reversed.
        ids = [4 * (card // 4) + 3 - card % 4 for card in range(52)]
        return Loop(
            "phevaluator `evaluate_5cards(a, b, c, d, e)`",
            lambda hands: [[ids[c] for c in h] for h in hands.tolist()],
            lambda rows: [evaluate_5cards(a, b, c, d, e) for a, b, c, d, e in rows],
            lambda results: -np.asarray(results),  # rank 1 is the royal flush
        )
    if name == "eval7":
        import eval7

        cards = [eval7.Card(token) for token in notation]
        return Loop(
            "eval7 `evaluate(cards)`",
            lambda hands: [[cards[c] for c in h] for h in hands.tolist()],
            lambda rows: [eval7.evaluate(hand) for hand in rows],
            np.asarray,
        )
    if name == "pokerkit":
        from pokerkit import Card as PokerkitCard
        from pokerkit.lookups import StandardLookup

        lookup = StandardLookup()
        cards = [next(iter(PokerkitCard.parse(token))) for token in notation]
        return Loop(
            "pokerkit `StandardLookup().get_entry(cards)`",
            lambda hands: [tuple(cards[c] for c in h) for h in hands.tolist()],
            lambda rows: [lookup.get_entry(hand) for hand in rows],
            lambda results: np.array([entry.index for entry in results]),
        )
    raise ValueError(f"unknown peer {name!r}")


def same_order(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two strength arrays order their hands identically (same ties, same order)."""
    rank_a = np.unique(a, return_inverse=True)[1].ravel()
    rank_b = np.unique(b, return_inverse=True)[1].ravel()
    return bool(np.array_equal(rank_a, rank_b))


def version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


# --- the run -------------------------------------------------------------------------------------
DRAW_FUTURES = 600
"""Futures per held hand in the ``evaluate_draws`` row (the draw poker equity bot's)."""


def time_draws(hands: np.ndarray, repeat: int) -> tuple[Row, bool]:
    """The ``evaluate_draws`` row: every discard of held hands in :data:`DRAW_FUTURES` futures
    each, about as many hands as ``hands`` (its first rows held, the next ones drawn), and
    whether its keys are :func:`evaluate`'s of the hands built card by card."""
    held_count = max(1, len(hands) // (DRAW_FUTURES * 33))
    held = hands[:held_count]
    drawn = hands[held_count : held_count * (DRAW_FUTURES + 1)].reshape(held_count, -1, 5)
    discards = np.arange(32)
    seconds, keys = best_of(repeat, lambda: evaluate_draws(held, drawn, discards, "draw"))
    kept_then_drawn = np.array(
        [
            [i for i in range(5) if not b >> i & 1] + list(range(5, 5 + b.bit_count()))
            for b in range(32)
        ]
    )
    built = np.concatenate([np.broadcast_to(held[:, None], drawn.shape), drawn], axis=2)
    built = built[:, :, kept_then_drawn]  # (held, futures, discards, 5)
    same = bool(np.array_equal(keys, evaluate(built.reshape(-1, 5), "draw").reshape(keys.shape)))
    note = f"every discard of {held_count} hands in {drawn.shape[1]} futures each"
    call = '`evaluate_draws(held, replacements, discards, "draw")`'
    return Row(f"pokerzoo batched {call}", keys.size, seconds, notes=[note]), same


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    rng = np.random.default_rng(args.seed)
    hands = deal(rng, make_deck(), args.hands)
    piquet = deal(rng, make_deck("piquet"), args.hands)
    wild = with_jokers(rng, hands)
    checks: list[tuple[str, bool]] = []

    batched = [
        ("standard", '`evaluate(hands, "standard")`', hands, "standard"),
        ("quintet", '`evaluate(piquet_hands, "quintet")`', piquet, "quintet"),
        ("draw", '`evaluate(hands, "draw")`', hands, "draw"),
        ("low", '`evaluate(hands, "low")`', hands, "low"),
        ("wild", '`evaluate(wild_hands, "standard")`', wild, "standard"),
    ]
    rows: dict[str, Row] = {}
    batched_keys: dict[str, np.ndarray] = {}
    for label, call, arr, ruleset in batched:
        evaluate(arr[:16], ruleset)  # type: ignore[arg-type]  # builds the tables: not timed
        seconds, keys = best_of(args.repeat, lambda a=arr, r=ruleset: evaluate(a, r))
        note = {
            "quintet": "random piquet hands",
            "wild": "the same hands, 0-2 cards replaced by jokers",
        }.get(label, "")
        rows[label] = Row(f"pokerzoo batched {call}", len(arr), seconds, notes=[note] * bool(note))
        batched_keys[label] = keys
        if label != "standard":
            strength = make_evaluator(ruleset)  # type: ignore[arg-type]
            sample = arr[:CHECK_HANDS]
            scalar = [strength(*cards) for cards in sample.tolist()]
            checks.append(
                (
                    f"pokerzoo scalar == batched keys, {label} ({len(sample):,} hands)",
                    scalar == keys[: len(sample)].tolist(),
                )
            )

    rows["draws"], same = time_draws(hands, args.repeat)
    checks.append(("pokerzoo evaluate_draws == evaluate of the hands it stands for", same))

    row, scalar_keys = run_loop(pokerzoo_loop(), hands, args, peer=False)
    rows["scalar"] = row
    checks.append(
        (
            f"pokerzoo scalar == batched keys, standard ({row.hands:,} hands)",
            bool(np.array_equal(scalar_keys, batched_keys["standard"][: row.hands])),
        )
    )

    peer_rows: list[Row] = []
    skipped: list[str] = []
    for name in args.peers:
        try:
            spec = peer_loop(name)
        except ImportError as error:
            skipped.append(f"{name} ({error}; `pip install -e .[bench]`)")
            continue
        row, strength = run_loop(spec, hands, args, peer=True)
        peer_rows.append(row)
        checks.append(
            (
                f"pokerzoo and {name} order the same {row.hands:,} hands identically",
                same_order(batched_keys["standard"][: row.hands], strength),
            )
        )

    fastest = max(peer_rows, key=lambda r: r.rate) if peer_rows else None
    print_report(args, rows, peer_rows, fastest, checks, skipped)
    return 0 if all(ok for _, ok in checks) else 1


def print_report(
    args: Args,
    rows: dict[str, Row],
    peer_rows: list[Row],
    fastest: Row | None,
    checks: list[tuple[str, bool]],
    skipped: list[str],
) -> None:
    versions = ", ".join(f"{p} {version(p)}" for p in args.peers)
    print(
        f"{args.hands:,} random 5-card hands (seed {args.seed}); Python {platform.python_version()}"
        f", numpy {np.__version__}{', ' + versions if versions else ''}; {platform.machine()}"
    )
    print()
    print("| path | hands timed | hands/s | x fastest peer | notes |")
    print("|---|---:|---:|---:|---|")
    for row in [*rows.values(), *sorted(peer_rows, key=lambda r: -r.rate)]:
        ratio = f"{row.rate / fastest.rate:.2f}" if fastest else "n/a"
        print(
            f"| {row.path} | {row.hands:,} | {row.rate:,.0f} | {ratio} | {'; '.join(row.notes)} |"
        )
    print()
    if fastest:
        print(f"fastest peer: {fastest.path} at {fastest.rate:,.0f} hands/s")
    for note in skipped:
        print(f"skipped peer: {note}")
    print()
    print("targets (issue 2):")
    targets: list[tuple[str, float, float]] = [
        ("batched with up to two wild cards >= 1 M hands/s", rows["wild"].rate, 1e6)
    ]
    if fastest:
        targets = [
            ("batched standard >= 8x the fastest peer", rows["standard"].rate, 8 * fastest.rate),
            *(
                (f"batched {label} >= 2x the fastest peer", rows[label].rate, 2 * fastest.rate)
                for label in ("quintet", "draw", "low", "wild")
            ),
            *targets,
            ("scalar standard >= the fastest peer's call", rows["scalar"].rate, fastest.rate),
        ]
    for text, got, need in targets:
        verdict = "ok" if got >= need else "MISSED"
        print(f"  {verdict:6} {text}: {got:,.0f} vs {need:,.0f} hands/s")
    print()
    print("checks:")
    for text, ok in checks:
        print(f"  {'ok' if ok else 'FAILED':6} {text}")


if __name__ == "__main__":
    sys.exit(main())
