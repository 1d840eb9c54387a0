#!/usr/bin/env python3
"""docs/fsf-variants.md: every game of Fairy-Stockfish's list, converted (with the rule-kit
features its file uses) or refused (with the keys that refuse it), from `hoplite import`.

    python3 scripts/fsf_variant_list.py target/release/hoplite > docs/fsf-variants.md
"""

import os
import re
import subprocess
import sys
import tempfile

FEATURES = [
    ("walling", "walls placed by moves"), ("flag", "flag region"), ("extinction", "extinction"),
    ("checks", "n-check"), ("pseudo_royal", "pseudo-royal"), ("must_capture", "compulsory capture"),
    ("no_check", "no checks"), ("flying_general", "flying general"), ("[castling]", "castling"),
    ("chess960", "Chess960"), ("\nregion =", "regions"), ("moves_from", "moves by square"),
    ("promotes =", "shogi promotion"), ("optional = true", "optional promotion"), ("limit", "promotion limits"),
    ("stalemate", "stalemate value"), ("checkmate", "checkmate value"), ("material_counting", "material counting"),
    ("en_passant_region", "en-passant region"), ("pass_on_stalemate", "pass on stalemate"), ("*", "walls in the setup"),
    ("drops = true", "drops"), ("captures_to_hand", "captures to hand"), ("drop_region", "drop region"),
    ("drop_no_doubled", "no doubled drops"), ("drop_mate", "pawn-drop mate"), ("pawn_drops_", "pawn drops anywhere"),
    ("drop_loop", "drop loop"), ("must_drop", "compulsory drops"), ("drop_fall", "drops that fall"), ("blast", "blast"), ("connect =", "connection"), ("counting =", "counting"),
    ("makpong", "makpong"), ("shatar_mate", "shatar mate"), ("castling_wins", "castling wins"),
    ("repetition_absolute", "repetition for White"), ("turned = true", "turned pieces"),
]


def features(text):
    found = []
    for key, name in FEATURES:
        if key == "*":
            setup = re.search(r'^setup = "([^ "]*)', text, re.M)
            if setup and "*" in setup.group(1):
                found.append(name)
        elif key in text:
            found.append(name)
    if re.search(r'betza = "[^"]*[pg][A-Z]', text):
        found.append("hoppers")
    return ", ".join(found) or "pieces and setup only"


def run(binary, source, args):
    out = tempfile.mkdtemp()
    p = subprocess.run([binary, "import", *args, "--out", out], capture_output=True, text=True)
    rows = []
    for f in sorted(os.listdir(out)):
        with open(os.path.join(out, f)) as t:
            rows.append((f[:-5], "converted", features(t.read())))
    for line in p.stdout.splitlines():
        m = re.match(r"refused \[([^\]]+)\]: (.*)", line)
        if m:
            keys = sorted(set(re.findall(r"\] (?:inherited from FSF's built-in '[\w-]+': )?(\w+) =", m.group(2))))
            rows.append((m.group(1), "refused", ", ".join(keys) or m.group(2)[:80]))
    return sorted(rows), p.stdout.splitlines()[-1]


def main():
    binary = sys.argv[1]
    print("# Fairy-Stockfish's variants in hoplite\n")
    print("Written by `python3 scripts/fsf_variant_list.py target/release/hoplite`: each game of")
    print("Fairy-Stockfish's list (commit c19b5f6), converted by `hoplite import` with the rule-kit")
    print("features its file uses, or refused with the keys that refuse it ([import.md](import.md)")
    print("says why each is refused).\n")
    for title, args in [("Built-ins (`hoplite import --builtins`)", ["--builtins"]),
                        ("variants.ini (`hoplite import data/fsf/variants.ini`)", ["data/fsf/variants.ini"])]:
        rows, summary = run(binary, title, args)
        print(f"## {title}\n\n{summary}\n\n| game | | features / refused for |\n|---|---|---|")
        for name, status, what in rows:
            print(f"| {name} | {status} | {what} |")
        print()


if __name__ == "__main__":
    main()
