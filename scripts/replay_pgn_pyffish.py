#!/usr/bin/env python3
"""Replays every game of a hoplite games.pgn in pyffish (Fairy-Stockfish's Python binding).

Each SAN move must match exactly one legal move as Fairy-Stockfish writes it (check marks
aside); where games.csv stands beside the PGN, the final placement must equal hoplite's
final_fen and, where the game ended by a rule, the result must be the one Fairy-Stockfish gives
the final position. Usage:
    pip install pyffish
    python3 scripts/replay_pgn_pyffish.py runs/selfplay-spartan/games.pgn
Exit status 0 when every game replays, 1 otherwise.
"""
import csv
import os
import re
import sys

import pyffish as sf


def games(text):
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', "[Event " + chunk, re.M))
        movetext = " ".join(l for l in chunk.splitlines()[1:] if not l.startswith("["))
        moves = [t for t in movetext.split() if not re.fullmatch(r"\d+\.(\.\.)?|1-0|0-1|1/2-1/2|\*", t)]
        yield tags, moves


def strip(san):
    return san.rstrip("+#!?")


# Ends that are no rule of the game: Fairy-Stockfish has no result for them to compare.
NOT_RULES = {"max_plies", "adjudication", "illegal_move", "crash", "timeout", "time_forfeit", "resign"}


def san_of(variant, fen, move):
    """The move in SAN as Fairy-Stockfish writes it, whatever notation the variant defaults to
    (shogi's is Hodges')."""
    return sf.get_san(variant, fen, move, False, sf.NOTATION_SAN)


def replay(tags, moves):
    variant = tags.get("Variant", "chess")
    fen = tags.get("FEN") or sf.start_fen(variant)
    played = []
    for i, san in enumerate(moves):
        here = sf.get_fen(variant, fen, played)
        legal = sf.legal_moves(variant, fen, played)
        found = [m for m in legal if strip(san_of(variant, here, m)) == strip(san)]
        if len(found) != 1:
            sans = sorted(san_of(variant, here, m) for m in legal)
            return f"ply {i + 1}: '{san}' matches {len(found)} legal moves in {here}; legal: {' '.join(sans)}"
        played.append(found[0])
    return None, sf.get_fen(variant, fen, played), fsf_result(variant, fen, played)


def fsf_result(variant, fen, played):
    """The result Fairy-Stockfish gives the final position ("1-0", "0-1", "1/2-1/2"), or None
    where the game goes on: no legal move, a rule's immediate end, or an end a player may
    claim (repetition, the move rule), which hoplite's arbiter applies."""
    value = None
    if not sf.legal_moves(variant, fen, played):
        value = sf.game_result(variant, fen, played)
    else:
        for ends in (sf.is_immediate_game_end, sf.is_optional_game_end):
            over, result = ends(variant, fen, played)
            if over:
                value = result
                break
    if value is None:
        return None
    if value == 0:
        return "1/2-1/2"
    white_to_move = sf.get_fen(variant, fen, played).split()[1] == "w"
    return "1-0" if (value > 0) == white_to_move else "0-1"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    finals = {}
    games_csv = os.path.join(os.path.dirname(path), "games.csv")
    if os.path.exists(games_csv):
        with open(games_csv, newline="", encoding="utf-8") as f:
            finals = {row["game_id"]: row for row in csv.DictReader(f)}
    failures = 0
    count = 0
    for tags, moves in games(open(path, encoding="utf-8").read()):
        count += 1
        result = replay(tags, moves)
        game_id = tags.get("GameId")
        if isinstance(result, str):
            failures += 1
            print(f"game {game_id}: {result}")
        elif game_id in finals and finals[game_id]["final_fen"].split()[0] != result[1].split()[0]:
            failures += 1
            print(f"game {game_id}: Fairy-Stockfish ends in {result[1]}, hoplite in {finals[game_id]['final_fen']}")
        elif game_id in finals and finals[game_id]["termination"] not in NOT_RULES and result[2] != tags.get("Result"):
            failures += 1
            row = finals[game_id]
            print(f"game {game_id}: hoplite {tags.get('Result')} by {row['termination']}, Fairy-Stockfish {result[2]}")
    print(f"{count - failures} passed, {failures} failed")
    sys.exit(1 if failures or count == 0 else 0)


if __name__ == "__main__":
    main()
