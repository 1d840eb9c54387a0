#!/usr/bin/env python3
"""How deep a UCI engine searches at a node budget, by the side to move.

Reads positions.csv of a run (`hoplite selfplay --out DIR`), draws up to SAMPLE of its
positions, has the engine search each from a fresh table to NODES nodes (`go nodes`), and
prints the mean depth of the last completed iteration for White to move and for Black. In a
variant of two different armies, a side whose search reaches less deep at the same budget
plays weaker than its opponent in self-play at equal nodes, and a balance verdict would count
that against its army.

    python3 scripts/depth_by_side.py --positions runs/sp/positions.csv --variant spartan \
        --nodes 8000
"""

import argparse
import csv
import random
import subprocess


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", required=True, help="a run's positions.csv")
    ap.add_argument("--variant", required=True, help="UCI_Variant value")
    ap.add_argument("--nodes", type=int, default=8000)
    ap.add_argument("--sample", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="target/release/hoplite uci", help="command line")
    args = ap.parse_args()

    with open(args.positions, newline="") as f:
        fens = [row["fen"] for row in csv.DictReader(f)]
    random.seed(args.seed)
    fens = random.sample(fens, min(args.sample, len(fens)))

    engine = subprocess.Popen(args.engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def read_until(word):
        lines = []
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit(f"the engine ended before '{word}'")
            lines.append(line.split())
            if lines[-1][:1] == [word]:
                return lines

    send("uci")
    read_until("uciok")
    send(f"setoption name UCI_Variant value {args.variant}")
    send("isready")
    read_until("readyok")
    depths = {"w": [], "b": []}
    for fen in fens:
        send("ucinewgame")
        send(f"position fen {fen}")
        send(f"go nodes {args.nodes}")
        info = [l for l in read_until("bestmove") if l[:2] == ["info", "depth"]]
        if info:
            depths[fen.split()[1]].append(int(info[-1][2]))
    send("quit")
    for side, name in (("w", "White"), ("b", "Black")):
        d = depths[side]
        if d:
            print(f"{name} to move: {len(d)} positions, mean depth {sum(d) / len(d):.2f}")


if __name__ == "__main__":
    main()
