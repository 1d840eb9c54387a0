#!/usr/bin/env python3
"""Write perft suites for Fairy-Stockfish variants, counted by Fairy-Stockfish (pyffish).

For each variant: its start position and positions reached by seeded random playouts, each
with its leaf counts to a depth, in the layout of data/perft/*.epd. These are the oracle for
hoplite's imported built-ins (configs/variants/fsf/):

    python3 scripts/fsf_perft_suite.py --out data/perft/fsf kingofthehill 3check

A count is pyffish's: the legal moves of each position walked by FEN (a position a rule has
already decided has none). Counts above --max-nodes are left out. Needs `pip install pyffish`.
"""

import argparse
import os
import random

import pyffish as sf

from fsf_compare import fsf_perft as perft


def counts(variant, fen, depth, max_nodes):
    out = []
    for d in range(1, depth + 1):
        n = perft(variant, fen, d)
        out.append((d, n))
        if n > max_nodes or n == 0:
            break
    return out


def positions(variant, rng, playouts, plies):
    """The start, then one position from each playout, `plies` in or where it ended."""
    start = sf.start_fen(variant)
    found = [start]
    for k in range(playouts):
        fen = start
        for _ in range(plies * (k + 1) // playouts + 4):
            moves = sf.legal_moves(variant, fen, [])
            if not moves:
                break
            nxt = sf.get_fen(variant, fen, [rng.choice(sorted(moves))])
            if not sf.legal_moves(variant, nxt, []):
                break
            fen = nxt
        if fen not in found:
            found.append(fen)
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variants", nargs="+")
    p.add_argument("--out", required=True)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--playouts", type=int, default=3)
    p.add_argument("--plies", type=int, default=36)
    p.add_argument("--max-nodes", type=int, default=200_000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.variants:
        rng = random.Random(f"{args.seed}:{name}")
        lines = [
            f"# {name}: counts by Fairy-Stockfish (pyffish {sf.version()}), "
            f"scripts/fsf_perft_suite.py --seed {args.seed}"
        ]
        for fen in positions(name, rng, args.playouts, args.plies):
            c = counts(name, fen, args.depth, args.max_nodes)
            lines.append(fen + "".join(f" ;D{d} {n}" for d, n in c))
        with open(os.path.join(args.out, name + ".epd"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print(name, len(lines) - 1, "positions")


if __name__ == "__main__":
    main()
