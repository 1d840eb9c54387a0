#!/usr/bin/env python3
"""Compare hoplite's rules with Fairy-Stockfish's, through pyffish.

For each variant: the start position against hoplite's setup, perft from it to a depth
(pyffish counts by walking its legal moves; hoplite by `hoplite perft`), then random playouts
from the start, where every position's legal moves (pyffish's FEN of the position, given to
`hoplite moves`) must be the same set in both. Any difference is printed with its FEN and the
command fails.

    python3 scripts/fsf_compare.py --hoplite target/release/hoplite --ini variants.ini \
        --dir imported/ kingofthehill xiangqi 3check

A variant is hoplite's built-in of that name, or DIR/NAME.toml; Fairy-Stockfish knows it by the
same name (its built-ins, or the sections of --ini, which pyffish loads). Needs `pip install
pyffish`.
"""

import argparse
import os
import random
import subprocess
import sys

import pyffish as sf


def hoplite_variant(name, directory):
    path = os.path.join(directory, name + ".toml") if directory else None
    return path if path and os.path.exists(path) else name


def hoplite_setup(binary, variant):
    """The board of hoplite's start position (`hoplite moves --start`)."""
    out = subprocess.run([binary, "moves", "--variant", variant, "--start"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return out.stdout.split(" ")[0]


class Hoplite:
    """`hoplite moves` kept running for one variant: a FEN in, its legal moves out."""

    def __init__(self, binary, variant):
        self.proc = subprocess.Popen(
            [binary, "moves", "--variant", variant],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def moves(self, fen):
        self.proc.stdin.write(fen + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("hoplite moves stopped: " + self.proc.stderr.read())
        if line.startswith("error"):
            raise RuntimeError(line.strip())
        return set(line.split())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def fsf_perft(variant, fen, depth):
    """Leaf count of pyffish's legal-move tree, each node by its FEN."""
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(fsf_perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def hoplite_perft(binary, variant, fen, depth):
    out = subprocess.run(
        [binary, "perft", "--variant", variant, "--fen", fen, "--depth", str(depth)],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return int(out.stdout.strip().splitlines()[-1].split()[-1])


def board_and_hand(fen):
    """A FEN's placement and its pieces in hand, in any order (`[]` and `[-]` alike)."""
    placement, _, hand = fen.split(" ")[0].partition("[")
    return placement, sorted(hand.rstrip("]").replace("-", ""))


def compare(args, name, rng):
    """The differences found for one variant (empty when the rules agree)."""
    problems = []
    variant = hoplite_variant(name, args.dir)
    start = sf.start_fen(name)
    # Both sides' moves are generated from Fairy-Stockfish's start, so a different setup would
    # go unseen there (a mirrored one even by perft).
    ours = hoplite_setup(args.hoplite, variant)
    if board_and_hand(ours) != board_and_hand(start):
        problems.append(f"start position: Fairy-Stockfish {start}, hoplite {ours}")
    for depth in range(1, args.depth + 1):
        a, b = fsf_perft(name, start, depth), hoplite_perft(args.hoplite, variant, start, depth)
        if a != b:
            problems.append(f"perft {depth} from {start}: Fairy-Stockfish {a}, hoplite {b}")
            break
    h = Hoplite(args.hoplite, variant)
    positions = 0
    try:
        for _ in range(args.playouts):
            fen = start
            for _ in range(args.plies):
                fsf = set(sf.legal_moves(name, fen, []))
                ours = h.moves(fen)
                positions += 1
                if fsf != ours:
                    problems.append(
                        f"{fen}: only Fairy-Stockfish {sorted(fsf - ours)}, only hoplite {sorted(ours - fsf)}"
                    )
                    break
                if not fsf:
                    break
                fen = sf.get_fen(name, fen, [rng.choice(sorted(fsf))])
            if problems:
                break
    finally:
        h.close()
    return problems, positions


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variants", nargs="+")
    p.add_argument("--hoplite", default="target/release/hoplite")
    p.add_argument("--ini", help="a variants.ini for pyffish (Fairy-Stockfish's own sections)")
    p.add_argument("--dir", help="where NAME.toml files are (else hoplite's built-ins)")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--playouts", type=int, default=10)
    p.add_argument("--plies", type=int, default=80)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if args.ini:
        with open(args.ini) as f:
            sf.load_variant_config(f.read())
    rng = random.Random(args.seed)
    failed = 0
    for name in args.variants:
        try:
            problems, positions = compare(args, name, rng)
        except RuntimeError as e:
            problems, positions = [str(e)], 0
        status = "ok" if not problems else "DIFFERS"
        print(f"{status:8} {name}: perft to depth {args.depth}, {positions} playout positions")
        for line in problems:
            print("         " + line)
        failed += bool(problems)
    print(f"{len(args.variants) - failed} of {len(args.variants)} variants agree with Fairy-Stockfish")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
