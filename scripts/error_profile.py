#!/usr/bin/env python3
"""Where a player's games are lost: each of its moves scored by a stronger engine.

Reads a match directory (`hoplite match --out DIR`: games.csv and positions.csv), has a UCI
engine score every position of the games PLAYER lost, and counts PLAYER's moves made while the
game was still in the balance (the engine's score before the move within ±BALANCE centipawns)
by what each cost in the engine's eyes: the score before the move less the score after it,
both from PLAYER's side. Many cheap moves point at what the evaluation misjudges a little at a
time; a few dear ones at tactics the search did not see.

    python3 scripts/error_profile.py --dir runs/m/chess-fsf --player hoplite \
        --engine /path/to/fairy-stockfish --nodes 150000 --games 50

An engine's score moves by some tens of centipawns between one ply and the next of its own
line, so the cheapest rows hold its noise as much as the player's errors.
"""

import argparse
import collections
import csv
import os
import subprocess

BUCKETS = [(None, 20), (20, 50), (50, 100), (100, 200), (200, None)]
# A mate score, clamped with every score to this many centipawns.
CLAMP = 1500


class Engine:
    def __init__(self, command, hash_mb):
        self.proc = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, token):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the engine quit")
            if line.startswith(token):
                return line

    def score(self, fen, nodes):
        """The side to move's score of `fen` in centipawns (a mate as ±CLAMP)."""
        self.send("position fen " + fen)
        self.send(f"go nodes {nodes}")
        score = None
        while True:
            words = self.wait("").split()
            if "score" in words:
                i = words.index("score")
                value = int(words[i + 2])
                score = value if words[i + 1] == "cp" else (CLAMP if value > 0 else -CLAMP)
            if words and words[0] == "bestmove":
                return score


def lost_games(directory, player):
    with open(os.path.join(directory, "games.csv")) as f:
        games = list(csv.DictReader(f))
    lost = {}
    for g in games:
        winner = {"1-0": g["white"], "0-1": g["black"]}.get(g["result"])
        if winner is not None and winner != player and player in (g["white"], g["black"]):
            lost[g["game_id"]] = g["white"] == player
    return lost


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True, help="a match's output directory")
    ap.add_argument("--player", default="hoplite", help="the player's name in games.csv")
    ap.add_argument("--engine", required=True, help="a UCI engine's command")
    ap.add_argument("--nodes", type=int, default=150000, help="the engine's nodes a position")
    ap.add_argument("--hash", type=int, default=16, help="the engine's Hash, MiB")
    ap.add_argument("--games", type=int, default=50, help="lost games scored, the first ones")
    ap.add_argument("--balance", type=int, default=300, help="a move counts from a score within this")
    args = ap.parse_args()

    lost = lost_games(args.dir, args.player)
    chosen = sorted(lost, key=int)[: args.games]
    positions = collections.defaultdict(list)
    with open(os.path.join(args.dir, "positions.csv")) as f:
        for row in csv.DictReader(f):
            if row["game_id"] in lost and row["game_id"] in chosen:
                positions[row["game_id"]].append((int(row["ply"]), row["fen"]))
    engine = Engine(args.engine, args.hash)
    counts, costs = collections.Counter(), collections.Counter()
    for game in chosen:
        player_white = lost[game]
        before = None
        for _, fen in sorted(positions[game]):
            score = engine.score(fen, args.nodes)
            if score is None:
                before = None
                continue
            white_to_move = fen.split()[1] == "w"
            ours = max(-CLAMP, min(CLAMP, score if white_to_move == player_white else -score))
            # The move that led here was the player's when the other side is to move now.
            if before is not None and white_to_move != player_white and abs(before) <= args.balance:
                cost = before - ours
                bucket = next(b for b in BUCKETS if (b[1] is None or cost < b[1]))
                counts[bucket] += 1
                costs[bucket] += max(cost, 0)
            before = ours
    moves, total = sum(counts.values()), sum(costs.values())
    print(f"{len(chosen)} lost games, {moves} moves of {args.player} in the balance (within ±{args.balance} cp)")
    print("cost (cp)  moves  share   cp lost  share")
    for b in BUCKETS:
        label = f"< {b[1]}" if b[0] is None else (f"≥ {b[0]}" if b[1] is None else f"{b[0]}–{b[1]}")
        print(f"{label:>9}  {counts[b]:5}  {counts[b] / max(moves, 1):5.1%}  {costs[b]:8}  {costs[b] / max(total, 1):5.1%}")


if __name__ == "__main__":
    main()
