#!/usr/bin/env python3
"""Nodes a second of UCI engines from one position, the engines in turn round after round, so
that a noisy machine's drift falls on all of them alike (docs/performance.md, "Search speed
against Fairy-Stockfish").

    python3 scripts/nps_side_by_side.py --rounds 6 --movetime 8000 \
        --engine "fsf=/path/to/stockfish" --engine "hoplite=target/release/hoplite uci" \
        --engine "hoplite-linear=target/release/hoplite uci|UseNetwork=false"

An engine is NAME=COMMAND, then `|OPTION=VALUE` for each option to set. Every engine gets one
thread and `Hash` 16. A run's figure is the engine's last `info` line with `depth` and `nps`
(its last completed iteration); the ratio is each engine's mean against the first engine's.
"""

import argparse
import shlex
import subprocess


def run(command, options, position, movetime):
    p = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lines = ["uci", "setoption name Threads value 1", "setoption name Hash value 16"]
    lines += [f"setoption name {k} value {v}" for k, v in options]
    lines += ["isready", f"position {position}", f"go movetime {movetime}"]
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    last = None
    for line in p.stdout:
        words = line.split()
        if words[:1] == ["info"] and "depth" in words and "nps" in words:
            last = words
        if words[:1] == ["bestmove"]:
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    if last is None:
        raise SystemExit(f"{command}: no info line with nps")
    field = lambda k: last[last.index(k) + 1]
    return int(field("nps")), int(field("depth")), int(field("nodes"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", action="append", required=True, help="NAME=COMMAND[|OPTION=VALUE...]")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--movetime", type=int, default=8000, help="milliseconds a run")
    ap.add_argument("--position", default="startpos", help="what follows `position` (default: startpos)")
    a = ap.parse_args()
    engines = []
    for spec in a.engine:
        name, rest = spec.split("=", 1)
        command, *opts = rest.split("|")
        engines.append((name, command, [tuple(o.split("=", 1)) for o in opts]))
    runs = {name: [] for name, _, _ in engines}
    for r in range(a.rounds):
        for name, command, opts in engines:
            nps, depth, nodes = run(command, opts, a.position, a.movetime)
            runs[name].append(nps)
            print(f"round {r + 1}: {name}: {nps} nodes/s (depth {depth}, {nodes} nodes)", flush=True)
    base = sum(runs[engines[0][0]]) / a.rounds
    print("| engine | nodes/s, each run | mean | against the first |")
    print("|---|---|---|---|")
    for name, _, _ in engines:
        mean = sum(runs[name]) / a.rounds
        each = " · ".join(f"{n:,}" for n in runs[name])
        print(f"| {name} | {each} | {mean / 1000:.0f}k | {mean / base:.2f}× |")


if __name__ == "__main__":
    main()
