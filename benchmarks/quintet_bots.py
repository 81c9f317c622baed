"""Round-robin table of the Quintet bots over duplicate deals.

    python benchmarks/quintet_bots.py [--deals 10000] [--seed 0] [--bots greedy,mixed,...]
        [--reward points|win]

Every pairing plays the same deals, and in each deal both players arrange the same 25 cards
(the rules remove the same seven cards from both decks). Seats need no swapping: the game is
simultaneous and symmetric (neither player sees anything of the other's row before the end and
the scoring treats both rows alike), so exchanging seats exchanges the two points totals and
nothing else. Each deal is therefore played once per pairing.

Because nothing reaches a player from the other before the end, a bot's row for a deal does not
depend on its opponent: each bot plays each deal once, through the :class:`Bot` protocol on the
engine's observations, and every pairing is scored from those rows. (A random bot's one row per
deal then serves in all its pairings; each pairing's estimate stays unbiased.)

The table gives, for the row bot against the column bot, the win rate (draws count half) and the
mean point margin per deal, each with a 95% confidence interval (normal approximation over deals),
then the time each bot spends per action.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
from pokerzoo.agents.quintet import BOTS
from pokerzoo.envs import quintet as game
from pokerzoo.envs.core.hands import evaluate

RULES = game.QuintetGame()


@dataclass(frozen=True)
class Args:
    """Command-line options."""

    deals: int = 10_000  # deals played by every pairing
    seed: int = 0  # seeds the deals and every bot
    bots: tuple[str, ...] = tuple(BOTS)  # bot names from the registry
    reward: str = "points"  # the bots' objective: "points" (margin) or "win"


def parse_args() -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=Args.deals, help="deals per pairing")
    parser.add_argument("--seed", type=int, default=Args.seed, help="seed of deals and bots")
    parser.add_argument(
        "--bots", default=",".join(Args.bots), help=f"comma-separated, from {', '.join(BOTS)}"
    )
    parser.add_argument(
        "--reward", default=Args.reward, choices=game.REWARDS, help="objective the bots optimise"
    )
    ns = parser.parse_args()
    if ns.deals < 1:
        parser.error(f"--deals must be positive, got {ns.deals}")
    names = tuple(name.strip() for name in ns.bots.split(",") if name.strip())
    unknown = [name for name in names if name not in BOTS]
    if unknown or len(names) < 2:
        parser.error(f"--bots needs two or more of {', '.join(BOTS)}, got {ns.bots!r}")
    return Args(deals=ns.deals, seed=ns.seed, bots=names, reward=ns.reward)


def play_rows(args: Args) -> tuple[np.ndarray, dict[str, float]]:
    """Keys of every bot's packs in every deal: ``(bots, deals, 5)``; and seconds per action."""
    seeds = np.random.SeedSequence(args.seed).spawn(len(args.bots) + 1)
    bots = [
        BOTS[name](seed=int(s.generate_state(1)[0]))
        for name, s in zip(args.bots, seeds, strict=False)
    ]
    deal_rng = np.random.default_rng(seeds[-1])
    rows = np.zeros((len(bots), args.deals, game.NUM_PACKS, game.PACK_SIZE), dtype=np.int64)
    seconds = np.zeros(len(bots))
    for d in range(args.deals):
        deal = RULES.deal(deal_rng)
        for b, bot in enumerate(bots):
            state = RULES.new_state(deal)
            start = time.perf_counter()
            for _ in range(game.NUM_CARDS):
                obs = game.encode_observation(state, 0)
                RULES.apply(state, 0, bot.act(obs, RULES.legal_mask(state, 0)))
            seconds[b] += time.perf_counter() - start
            rows[b, d] = RULES.pack_cards(state, 0)
    keys = evaluate(rows.reshape(-1, game.PACK_SIZE), "quintet").reshape(rows.shape[:3])
    per_action = seconds / (args.deals * game.NUM_CARDS)
    return keys, dict(zip(args.bots, per_action.tolist(), strict=True))


def pairing(keys_a: np.ndarray, keys_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per deal: the row bot's result (1 win, 0.5 draw, 0 loss) and its point margin."""
    results = np.sign(keys_a - keys_b)
    points = np.asarray(game.POSITION_POINTS)
    margin = (results * points).sum(axis=1)
    return (np.sign(margin) + 1) / 2, margin


def interval(values: np.ndarray) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval."""
    half = 1.96 * values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
    return float(values.mean()), float(half)


def table(args: Args, keys: np.ndarray) -> str:
    names = args.bots
    head = "| row vs column | " + " | ".join(f"`{n}`" for n in names) + " |"
    lines = [
        f"Win rate of the row bot (draws count half) and mean point margin per deal, 95% CIs, "
        f"{args.deals:,} duplicate deals per pairing (seed {args.seed}, bots optimising "
        f"{args.reward!r}).",
        "",
        head,
        "|" + "---|" * (len(names) + 1),
    ]
    for a, name in enumerate(names):
        cells = []
        for b in range(len(names)):
            if a == b:
                cells.append("-")
                continue
            win, margin = pairing(keys[a], keys[b])
            w, wh = interval(win)
            m, mh = interval(margin)
            cells.append(f"{100 * w:.1f}% ± {100 * wh:.1f}<br>{m:+.2f} ± {mh:.2f} pts")
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    args = parse_args()
    start = time.perf_counter()
    keys, per_action = play_rows(args)
    print(table(args, keys))
    print()
    print("| bot | µs per action (plan amortised; with encoding and engine step) |")
    print("|---|---|")
    for name, sec in per_action.items():
        print(f"| `{name}` | {1e6 * sec:.0f} |")
    print(f"\n{args.deals:,} deals in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
