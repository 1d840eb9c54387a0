#!/bin/bash
# A scripted engine for tests/engines.rs: speaks `uci` or `xboard` ($1) and fails at its
# first move in the way $2 says: crash (exits), illegal (a move no piece can make), silent
# (never answers), slow (answers after 1.5 s), resign (xboard's `resign`), nomove (no move
# by its rules: UCI's `bestmove (none)`, xboard's result line), foreign (scores +50 cp and plays a move hoplite's
# rules do not allow; over xboard it alone offers setboard) or good (plays e2e4 as White, g8f6 as Black).
# Two fail before any move: garbage (answers every line with a line of nonsense, so it never
# starts) and deaf (starts, then never answers `isready` or `ping`).
proto=$1
mode=$2
moves=0
answer() {
    if [ "$proto" = uci ]; then echo "bestmove $1"; else echo "move $1"; fi
}
while read -r line; do
    if [ "$mode" = garbage ]; then echo "what is $line?"; continue; fi
    case "$line" in
        uci) echo "id name fake $mode"; echo "uciok" ;;
        isready) [ "$mode" = deaf ] || echo "readyok" ;;
        "protover 2")
            # Only `foreign` (scored from FENs by `hoplite label`) starts from a FEN.
            setboard=0; [ "$mode" = foreign ] && setboard=1
            echo "feature myname=\"fake $mode\" setboard=$setboard usermove=1 ping=1 done=1" ;;
        ping*) [ "$mode" = deaf ] || echo "pong ${line#ping }" ;;
        new) moves=0 ;;
        usermove*) moves=$((moves + 1)) ;;
        "position fen"*) case "$line" in *" moves "*) moves=1 ;; *) moves=0 ;; esac ;;
        go*)
            case "$mode" in
                crash) exit 3 ;;
                silent) ;;
                illegal) answer a1a5 ;;
                slow) sleep 1.5; answer e2e4 ;;
                resign) echo resign ;;
                nomove)
                    if [ "$proto" = uci ]; then echo "info depth 0 score mate 0"; echo "bestmove (none)"
                    else echo "1-0 {White mates}"; fi ;;
                foreign)
                    if [ "$proto" = uci ]; then echo "info depth 1 score cp 50 pv a1a5"; else echo "1 50 0 100 a1a5"; fi
                    answer a1a5 ;;
                good) if [ "$moves" -eq 0 ]; then answer e2e4; else answer g8f6; fi ;;
            esac ;;
        quit) exit 0 ;;
    esac
done
