#!/usr/bin/env python3
"""What Fairy-Stockfish's evaluation knows that hoplite's features cannot say.

Takes labelled positions (`hoplite label --out labelled.csv`: each row's `result` is White's
expected score by a labelling engine), fits the labels' log-odds by ridge regression on
hoplite's features (`hoplite eval --features`, each split into a middlegame and an endgame part
by the phase, as the evaluation tapers them) on three quarters of the positions, and on the
other quarter asks how much of what the fit leaves each term of Fairy-Stockfish's classical
evaluation explains (its `eval` trace; each term's middlegame and endgame blended by hoplite's
phase). A term that explains much of the rest is one hoplite's evaluation lacks; little from
all of them together says that what is left is the search's, not a static term's.

    python3 scripts/fsf_residual.py --positions labelled.csv --variant chess \
        --engine /path/to/fairy-stockfish [--ini variants.ini] --sample 12000 [--bins "King safety"]

Needs numpy.
"""

import argparse
import csv
import math
import random
import subprocess

import numpy as np

TERMS = ["Material", "Imbalance", "Pawns", "Knights", "Bishops", "Rooks", "Queens", "Mobility",
         "King safety", "Threats", "Passed", "Space", "Variant", "Winnable"]


def fsf_terms(engine, ini, variant, fens):
    """Each FEN's (middlegame, endgame) per term of the classical evaluation, White's view, cp."""
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    send("uci")
    send("setoption name Use NNUE value false")
    if ini:
        send(f"load {ini}")
    send(f"setoption name UCI_Variant value {variant}")
    send("isready")
    while p.stdout.readline().strip() != "readyok":
        pass
    rows = []
    for fen in fens:
        send(f"position fen {fen}")
        send("eval")
        terms = {}
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the engine ended during an eval trace")
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 4 and cells[0] in TERMS:
                mg, eg = cells[3].split()
                terms[cells[0]] = (float(mg) * 100, float(eg) * 100)
            if line.startswith("Final evaluation"):
                break
        rows.append([terms.get(t, (0.0, 0.0)) for t in TERMS])
    send("quit")
    return np.array(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", required=True, help="labelled positions.csv (hoplite label)")
    ap.add_argument("--variant", required=True, help="hoplite's name, and Fairy-Stockfish's unless --fsf-variant")
    ap.add_argument("--fsf-variant", help="Fairy-Stockfish's UCI_Variant, if it differs")
    ap.add_argument("--engine", required=True, help="a Fairy-Stockfish binary")
    ap.add_argument("--ini", help="a variants.ini for Fairy-Stockfish to load")
    ap.add_argument("--hoplite", default="target/release/hoplite")
    ap.add_argument("--weights", help="hoplite's weights file (default: the variant's)")
    ap.add_argument("--sample", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--bins", metavar="TERM", help="also what is left in six bands of this term (5%%, 10%%, 35%%, 35%%, 10%%, 5%%)")
    args = ap.parse_args()

    with open(args.positions, newline="") as f:
        rows = list(csv.DictReader(f))
    random.seed(args.seed)
    rows = random.sample(rows, min(args.sample, len(rows)))
    fens = [r["fen"] for r in rows]
    p = np.array([float(r["result"]) for r in rows]).clip(0.01, 0.99)
    y = np.log(p / (1 - p)) * 400 / math.log(10)

    cmd = [args.hoplite, "eval", "--variant", args.variant, "--features"]
    if args.weights:
        cmd += ["--weights", args.weights]
    out = subprocess.run(cmd, input="".join(f + "\n" for f in fens), capture_output=True, text=True, check=True)
    table = list(csv.reader(out.stdout.splitlines()))
    values = np.array([row[1:] for row in table[1:]], dtype=float)
    eval_cp, phase, x = values[:, 0], values[:, 1] / 64, values[:, 2:]
    x = x[:, x.std(0) > 0]
    design = np.hstack([x * phase[:, None], x * (1 - phase[:, None]), np.ones((len(y), 1))])

    n = len(y)
    fit = np.arange(n) < n * 3 // 4
    held = ~fit
    a = design[fit]
    w = np.linalg.solve(a.T @ a + args.ridge * np.eye(a.shape[1]), a.T @ y[fit])
    rest = y - design @ w
    r2 = 1 - rest[held].var() / y[held].var()
    own = np.corrcoef(eval_cp[held], y[held])[0, 1]
    print(f"{n} positions; the labels' log-odds: sd {y[held].std():.0f} cp")
    print(f"hoplite's features fitted: R² {r2:.3f} on the held-out quarter, {rest[held].std():.0f} cp left")
    print(f"hoplite's evaluation as it plays: correlation {own:.3f} with the labels")

    fsf = fsf_terms(args.engine, args.ini, args.fsf_variant or args.variant, fens)
    blended = fsf[:, :, 0] * phase[:, None] + fsf[:, :, 1] * (1 - phase[:, None])
    print("\nFairy-Stockfish term   sd (cp)   share of what is left")
    for k, term in enumerate(TERMS):
        b = blended[held, k]
        if b.std() == 0:
            continue
        c = np.corrcoef(b, rest[held])[0, 1]
        print(f"  {term:<18} {b.std():7.1f}   {c * c:6.3f}")
    joint = np.hstack([blended, np.ones((n, 1))])
    wj = np.linalg.lstsq(joint[fit], rest[fit], rcond=None)[0]
    left = rest - joint @ wj
    print(f"  {'all together':<18} {'':7}   {1 - left[held].var() / rest[held].var():6.3f}")
    if args.bins:
        b = blended[:, TERMS.index(args.bins)]
        edges = np.quantile(b, [0, 0.05, 0.15, 0.5, 0.85, 0.95, 1])
        print(f"\n{args.bins} (Fairy-Stockfish, cp)   positions   mean left (cp)")
        for k, (lo, hi) in enumerate(zip(edges[:-1], edges[1:])):
            m = (b >= lo) & ((b < hi) | (k == len(edges) - 2))
            print(f"  {lo:7.0f} to {hi:7.0f}   {m.sum():9d}   {rest[m].mean():+8.1f}")


if __name__ == "__main__":
    main()
