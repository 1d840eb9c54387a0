//! Property tests with fixed seeds: random strings and mutations of valid FENs, variant files
//! and Betza strings never panic; FENs that parse round-trip and give sound move generation
//! (make/unmake restore the position, the incremental key matches a fresh one).

use hoplite_core::BUILTINS;
use hoplite_core::{
    betza, parse_suite, perft, Bitboard, Colour, Move, PieceType, Position, TypeSet, Variant, MAX_TYPES,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// Iterations scale with `HOPLITE_FUZZ_SCALE` (default 1) for longer runs by hand; the seed
/// with `HOPLITE_FUZZ_SEED` (default 0).
fn scale(n: u64) -> u64 {
    n * std::env::var("HOPLITE_FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1)
}

fn rng_for(seed: u64) -> ChaCha8Rng {
    let extra: u64 = std::env::var("HOPLITE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    ChaCha8Rng::seed_from_u64(seed ^ extra.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

const SUITES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/");

const FEN_ALPHABET: &[u8] = b"0123456789/ -pnbrqkPNBRQKhHlLgGcCwWmMaAeEdDxwbKQkqsS[]~+";
/// Variants with a hand, beside the built-ins, with their suites: holdings and `~` fuzzed too.
const HAND_VARIANTS: &[&str] = &["crazyhouse", "shogi"];

/// The built-ins and the hand variants, each with its perft suite's path.
fn fuzzed_variants() -> impl Iterator<Item = (&'static str, String)> {
    let builtins = BUILTINS.iter().map(|b| (b.name, format!("{SUITES}{}.epd", b.name)));
    builtins.chain(HAND_VARIANTS.iter().map(|&n| (n, format!("{SUITES}fsf/{n}.epd"))))
}
const TOML_ALPHABET: &[u8] = b"0123456789 =\"[]\n.#,-_abcdefghijklmnopqrstuvwxyzKQRBNWFDAHO";
const BETZA_ALPHABET: &[u8] = b"WFDNAHCZGKQRBOfblrvsmceinxyz0123456789";

/// One random edit: bit flip, replacement, deletion, duplication, digit change, insertion,
/// swap, truncation.
fn mutate(rng: &mut ChaCha8Rng, s: &str, alphabet: &[u8]) -> String {
    let mut b = s.as_bytes().to_vec();
    let edits = if rng.gen_bool(0.6) { 1 } else { rng.gen_range(2..=4) };
    for _ in 0..edits {
        let len = b.len();
        match rng.gen_range(0..9) {
            0 if len > 0 => {
                let i = rng.gen_range(0..len);
                b[i] ^= 1 << rng.gen_range(0..8);
            }
            1 if len > 0 => {
                let i = rng.gen_range(0..len);
                b[i] = *alphabet.choose(rng).unwrap();
            }
            2 if len > 0 => {
                let i = rng.gen_range(0..len);
                let j = (i + rng.gen_range(1..=4)).min(len);
                b.drain(i..j);
            }
            3 if len > 0 => {
                let i = rng.gen_range(0..len);
                let j = (i + rng.gen_range(1..=6)).min(len);
                let chunk: Vec<u8> = b[i..j].to_vec();
                let at = rng.gen_range(0..=len);
                b.splice(at..at, chunk);
            }
            4 => {
                let digits: Vec<usize> = (0..len).filter(|&i| b[i].is_ascii_digit()).collect();
                if let Some(&i) = digits.choose(rng) {
                    match rng.gen_range(0..3) {
                        0 => b[i] = b'0' + rng.gen_range(0..10),
                        1 => b.insert(i, b'0' + rng.gen_range(0..10)),
                        _ => {
                            b.remove(i);
                        }
                    }
                }
            }
            5 => {
                let at = rng.gen_range(0..=len);
                b.insert(at, *alphabet.choose(rng).unwrap());
            }
            6 if len > 1 => {
                let (i, j) = (rng.gen_range(0..len), rng.gen_range(0..len));
                b.swap(i, j);
            }
            7 if len > 0 => b.truncate(rng.gen_range(0..len)),
            _ => {
                let at = rng.gen_range(0..=len);
                b.insert(at, rng.gen());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// A structure-preserving edit of a FEN: pieces of the variant put on, taken off or moved
/// between squares, and random side, castling, e.p. and counter fields. Always well-formed,
/// rarely a legal chess position (kings missing or in numbers, pawns on the last rank, the side
/// not to move in check).
fn mutate_board(rng: &mut ChaCha8Rng, v: &Variant, fen: &str) -> String {
    let geo = v.geometry;
    let mut grid: Vec<Option<char>> = vec![None; geo.files * geo.ranks];
    let placement = fen.split(' ').next().unwrap();
    for (i, row) in placement.split('/').enumerate().take(geo.ranks) {
        let rank = geo.ranks - 1 - i;
        let mut file = 0;
        let mut run = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            file += run;
            run = 0;
            if file < geo.files {
                grid[geo.square(file, rank)] = Some(c);
            }
            file += 1;
        }
    }
    let letters = v.letters();
    let n = grid.len();
    for _ in 0..rng.gen_range(1..=4) {
        let sq = rng.gen_range(0..n);
        match rng.gen_range(0..3) {
            0 => {
                let l = *letters.choose(rng).unwrap();
                grid[sq] = Some(if rng.gen() { l.to_ascii_uppercase() } else { l });
            }
            1 => grid[sq] = None,
            _ => {
                let to = rng.gen_range(0..n);
                grid[to] = grid[sq].take();
            }
        }
    }
    let mut out = String::new();
    for rank in (0..geo.ranks).rev() {
        let mut empty = 0;
        for file in 0..geo.files {
            match grid[geo.square(file, rank)] {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out.push(c);
                }
            }
        }
        if empty > 0 {
            out += &empty.to_string();
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let fields: Vec<&str> = fen.split(' ').collect();
    let keep = |i: usize, d: &str| fields.get(i).copied().unwrap_or(d).to_string();
    let side = if rng.gen_bool(0.3) { ["w", "b"].choose(rng).unwrap().to_string() } else { keep(1, "w") };
    let castling = if rng.gen_bool(0.3) {
        let s: String = "KQkq".chars().filter(|_| rng.gen()).collect();
        if s.is_empty() {
            "-".into()
        } else {
            s
        }
    } else {
        keep(2, "-")
    };
    let ep = if rng.gen_bool(0.3) {
        let file = rng.gen_range(0..geo.files);
        let rank = rng.gen_range(0..geo.ranks);
        let len = rng.gen_range(1..=3);
        (0..len).filter(|&k| rank + k < geo.ranks).map(|k| geo.name(geo.square(file, rank + k))).collect()
    } else {
        keep(3, "-")
    };
    let half = if rng.gen_bool(0.2) { rng.gen_range(0..120).to_string() } else { keep(4, "0") };
    let full = if rng.gen_bool(0.2) { rng.gen_range(1..5).to_string() } else { keep(5, "1") };
    format!("{out} {side} {castling} {ep} {half} {full}")
}

/// Line-level edit (delete, duplicate, swap, move): mostly keeps TOML syntax valid.
fn mutate_lines(rng: &mut ChaCha8Rng, s: &str) -> String {
    let mut lines: Vec<&str> = s.lines().collect();
    for _ in 0..rng.gen_range(1..=3) {
        let n = lines.len();
        if n < 2 {
            break;
        }
        let (i, j) = (rng.gen_range(0..n), rng.gen_range(0..n));
        match rng.gen_range(0..3) {
            0 => {
                lines.remove(i);
            }
            1 => lines.insert(j, lines[i]),
            _ => lines.swap(i, j),
        }
    }
    lines.join("\n") + "\n"
}

fn random_string(rng: &mut ChaCha8Rng, alphabet: &[u8], max: usize) -> String {
    let n = rng.gen_range(0..=max);
    let b: Vec<u8> =
        (0..n).map(|_| if rng.gen_bool(0.9) { *alphabet.choose(rng).unwrap() } else { rng.gen() }).collect();
    String::from_utf8_lossy(&b).into_owned()
}

fn legal_uci(p: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| p.move_to_uci(m)).collect();
    v.sort();
    v
}

/// Runs `f`, turning a panic into an error that names the input.
fn guarded(what: &str, input: &str, f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(|e| format!("{what} {input:?}: {e}")),
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!("{what} {input:?}: panicked: {msg}"))
        }
    }
}

/// Whether a side has more than one piece that castles (two kings in chess: never in a game).
/// The FEN reader then takes the first such piece from the a-file as the castling one, so a
/// move that changes which piece that is changes the rights read back; key and FEN checks after
/// moves are skipped for such positions.
fn ambiguous_castling(p: &Position) -> bool {
    let v = p.variant();
    Colour::BOTH.into_iter().any(|c| {
        v.piece_types().filter(|&t| v.piece(t).moves.castling.is_some()).map(|t| p.pieces(c, t).count()).sum::<u32>()
            > 1
    })
}

/// The checks on a position that parsed: FEN round trip, the same moves and key after
/// re-reading, every legal move made and unmade, the key after each move equal to the key of
/// its FEN read afresh, and a short random game with outcomes.
fn check_position(p: &Position, rng: &mut ChaCha8Rng, plies: usize) -> Result<(), String> {
    let v = p.variant().clone();
    let fen = p.to_fen();
    let q = Position::from_fen(&v, &fen).map_err(|e| format!("to_fen output rejected: {e}"))?;
    if q.to_fen() != fen {
        return Err(format!("round trip: '{fen}' read back as '{}'", q.to_fen()));
    }
    if q.key() != p.key() {
        return Err(format!("key differs after round trip of '{fen}'"));
    }
    let moves = legal_uci(p);
    if legal_uci(&q) != moves {
        return Err(format!("moves differ after round trip of '{fen}'"));
    }
    let _ = p.outcome();
    let _ = p.in_check();
    let mut w = p.clone();
    let mut list = Vec::new();
    w.legal_moves(&mut list);
    for &m in &list {
        w.make(m);
        // Sound: the mover is not left in check (all of its royal pieces attacked).
        let mover = p.side_to_move();
        let royals = w.royals(mover);
        let (occ, them) = (w.occupied(), w.colour_bb(!mover));
        if royals.non_empty() && royals.into_iter().all(|r| w.attacked_by(r, !mover, occ, them)) {
            return Err(format!("{} from '{fen}' leaves the mover in check", p.move_to_uci(m)));
        }
        let after = w.to_fen();
        let fresh =
            Position::from_fen(&v, &after).map_err(|e| format!("after {} from '{fen}': {e}", p.move_to_uci(m)))?;
        if fresh.key() != w.key() && !ambiguous_castling(p) {
            return Err(format!("incremental key differs from '{after}' (after {} from '{fen}')", p.move_to_uci(m)));
        }
        let mut next = Vec::new();
        w.legal_moves(&mut next);
        w.unmake();
        if w.to_fen() != fen || w.key() != p.key() {
            return Err(format!("unmake of {} from '{fen}'", p.move_to_uci(m)));
        }
    }
    // A short random game.
    let mut g = p.clone();
    let mut buf: Vec<Move> = Vec::new();
    for _ in 0..plies {
        if g.outcome().is_some() {
            break;
        }
        g.legal_moves(&mut buf);
        let Some(&m) = buf.choose(rng) else { break };
        let uci = g.move_to_uci(m);
        if g.parse_uci(&uci) != Ok(m) {
            return Err(format!("parse_uci({uci}) in '{}'", g.to_fen()));
        }
        g.make(m);
        let f = g.to_fen();
        let r = Position::from_fen(&v, &f).map_err(|e| format!("game FEN '{f}': {e}"))?;
        if r.to_fen() != f && !ambiguous_castling(&g) {
            return Err(format!("round trip in game: '{f}' -> '{}'", r.to_fen()));
        }
    }
    Ok(())
}

/// Valid FENs per built-in variant: the setup, the perft suites and positions from random games.
fn seed_fens(rng: &mut ChaCha8Rng) -> Vec<(Arc<Variant>, String)> {
    let mut out = Vec::new();
    for (name, suite) in fuzzed_variants() {
        let v = Variant::builtin(name);
        let mut fens = vec![v.setup.clone()];
        if let Ok(text) = std::fs::read_to_string(suite) {
            for line in parse_suite(name, &text).unwrap() {
                fens.push(line.fen);
            }
        }
        let starts = fens.clone();
        let mut buf = Vec::new();
        for start in &starts {
            for _ in 0..3 {
                let mut p = Position::from_fen(&v, start).unwrap();
                for _ in 0..60 {
                    p.legal_moves(&mut buf);
                    let Some(&m) = buf.choose(rng) else { break };
                    p.make(m);
                    if rng.gen_bool(0.3) {
                        fens.push(p.to_fen());
                    }
                }
            }
        }
        out.extend(fens.into_iter().map(|f| (v.clone(), f)));
    }
    out
}

#[test]
fn fuzz_fens() {
    let mut rng = rng_for(0x5EED_F0E1);
    let seeds = seed_fens(&mut rng);
    let variants: Vec<Arc<Variant>> = fuzzed_variants().map(|(name, _)| Variant::builtin(name)).collect();
    let mut failures = Vec::new();
    let mut parsed = 0;
    // The seeds themselves.
    for (v, fen) in &seeds {
        let r = guarded(&v.name, fen, || {
            let p = Position::from_fen(v, fen).map_err(|e| e.to_string())?;
            check_position(&p, &mut ChaCha8Rng::seed_from_u64(1), 4)
        });
        failures.extend(r.err());
    }
    let n = scale(20_000);
    for i in 0..n {
        let (v, fen) = seeds.choose(&mut rng).unwrap();
        // Mostly the FEN's own variant, sometimes another one.
        let v = if i % 8 == 0 { variants.choose(&mut rng).unwrap() } else { v };
        let text = if i % 10 == 0 {
            random_string(&mut rng, FEN_ALPHABET, 80)
        } else if i % 2 == 0 {
            mutate_board(&mut rng, v, fen)
        } else {
            mutate(&mut rng, fen, FEN_ALPHABET)
        };
        let mut local = ChaCha8Rng::seed_from_u64(i);
        let r = guarded(&v.name, &text, || match Position::from_fen(v, &text) {
            Err(e) if e.to_string().is_empty() => Err("empty error message".into()),
            Err(_) => Ok(()),
            Ok(p) => {
                parsed += 1;
                check_position(&p, &mut local, 6)
            }
        });
        failures.extend(r.err());
        if failures.len() > 20 {
            break;
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{parsed} of {n} mutated FENs parsed");
    assert!(parsed > n / 4, "only {parsed} mutated FENs parsed");
}

#[test]
fn fuzz_variant_files() {
    let mut rng = rng_for(0x5EED_7011);
    let mut seeds: Vec<String> = BUILTINS.iter().map(|b| b.file.to_string()).collect();
    seeds.push("extends = \"rumi-shatranj\"\n[rules]\nrumi_opening = \"forced\"\n".into());
    seeds.push("extends = \"spartan\"\nname = \"spartan-rn\"\n[[pieces]]\nletter = \"g\"\nbetza = \"RN\"\n".into());
    seeds.push(
        "extends = \"great-shatranj\"\n[[pieces]]\nletter = \"p\"\nbetza = \"fmWfcFifmnD\"\n[[pieces]]\nletter = \"g\"\nbetza = \"WFAD\"\n"
            .into(),
    );
    let mut failures = Vec::new();
    let mut loaded = 0;
    let n = scale(2_500);
    for i in 0..n {
        let seed = seeds.choose(&mut rng).unwrap();
        let text = match i % 5 {
            0 => mutate_lines(&mut rng, seed),
            1 => random_string(&mut rng, TOML_ALPHABET, 120),
            _ => mutate(&mut rng, seed, TOML_ALPHABET),
        };
        let mut local = ChaCha8Rng::seed_from_u64(i);
        let r = guarded("variant file", &text, || match Variant::from_toml("fuzz.toml", &text) {
            Err(e) => {
                if e.problems.is_empty() || e.problems.iter().any(|p| p.to_string().is_empty()) {
                    return Err("error without a message".into());
                }
                Ok(())
            }
            Ok(v) => {
                loaded += 1;
                let mut p = Position::startpos(&v);
                perft(&mut p, 2);
                check_position(&p, &mut local, 20)
            }
        });
        failures.extend(r.err());
        if failures.len() > 20 {
            break;
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n---\n"));
    eprintln!("{loaded} of {n} mutated variant files loaded");
    assert!(loaded > n / 20, "only {loaded} mutated variant files loaded");
}

#[test]
fn fuzz_betza() {
    let mut rng = rng_for(0x5EED_BE72);
    let mut seeds: Vec<String> =
        BUILTINS.iter().flat_map(|b| Variant::builtin(b.name).pieces.clone()).map(|p| p.betza).collect();
    for s in [
        "ifmnDifmnH",
        "KO4",
        "FAmsW",
        "nN",
        "ffN",
        "vR",
        "W4",
        "lfW",
        "B0",
        "NN",
        "mQcN",
        "fsN",
        "ifmR",
        "nA",
        "nG",
        "cR2",
        "bmW3",
        "WFAD",
        "ifmB",
        "fceW",
        "sbN",
        "O3",
        "nH",
    ] {
        seeds.push(s.into());
    }
    let mut failures = Vec::new();
    let mut played = 0;
    let n = scale(20_000);
    for i in 0..n {
        let text = if i % 3 == 0 {
            random_string(&mut rng, BETZA_ALPHABET, 10)
        } else {
            let s = seeds.choose(&mut rng).unwrap().clone();
            mutate(&mut rng, &s, BETZA_ALPHABET)
        };
        let parsed = match catch_unwind(|| betza::parse(&text)) {
            Ok(r) => r,
            Err(_) => {
                failures.push(format!("betza {text:?}: panicked"));
                continue;
            }
        };
        let Ok(b) = parsed else {
            let e = parsed.unwrap_err();
            if e.position > text.chars().count() || e.message.is_empty() {
                failures.push(format!("betza {text:?}: bad error {e:?}"));
            }
            continue;
        };
        // Only an empty string is a piece without moves.
        assert!(!b.rules.is_empty() || b.castling.is_some() || text.trim().is_empty(), "{text:?}");
        // Every so often give the piece to a variant and play with it: as the knight of chess
        // (both colours) and as a Spartan hoplite (a pawn type that promotes).
        if i % 20 != 0 || !text.chars().all(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        let (base, letter) = if i % 40 == 0 { ("spartan", "h") } else { ("chess", "n") };
        let src = format!("extends = \"{base}\"\n[[pieces]]\nletter = \"{letter}\"\nbetza = \"{text}\"\n");
        let mut local = ChaCha8Rng::seed_from_u64(i);
        let r = guarded("piece", &text, || match Variant::from_toml("b.toml", &src) {
            Err(e) => Err(format!("valid Betza refused in a variant: {e}")),
            Ok(v) => {
                played += 1;
                let mut p = Position::startpos(&v);
                perft(&mut p, 2);
                check_position(&p, &mut local, 30)
            }
        });
        failures.extend(r.err());
        if failures.len() > 20 {
            break;
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{played} fuzzed pieces played");
    assert!(played > n / 200, "only {played} fuzzed pieces played");
}

/// Where a piece would attack a square from, taken at the squares its pieces stand on, is
/// exactly the set of attackers, and a square has attackers just when it is attacked: every
/// built-in piece in the setups, the perft positions and random games, and lame and one-sided
/// pieces (a Mao, a piece that captures forward-left only) among chess pieces in random games.
#[test]
fn attack_origins_hold_the_attackers() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let lame = Variant::from_toml(
        "lame.toml",
        "extends = \"chess\"\nname = \"lame\"\nsetup = \"lnbqkbnl/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQ - 0 1\"\n\
         [[pieces]]\nletter = \"m\"\nbetza = \"nN\"\n[[pieces]]\nletter = \"l\"\nbetza = \"mWcflF\"\n",
    )
    .unwrap();
    let mut positions = seed_fens(&mut rng);
    let mut buf = Vec::new();
    for _ in 0..20 {
        let mut p = Position::startpos(&lame);
        for _ in 0..40 {
            p.legal_moves(&mut buf);
            let Some(&m) = buf.choose(&mut rng) else { break };
            p.make(m);
            positions.push((lame.clone(), p.to_fen()));
        }
    }
    for (v, fen) in positions {
        let p = Position::from_fen(&v, &fen).unwrap();
        let occ = p.occupied();
        for sq in v.geometry.all() {
            for by in Colour::BOTH {
                let alone: Vec<Bitboard> =
                    v.piece_types().map(|ty| p.attack_origins_of(sq, by, TypeSet::single(ty), occ)[ty]).collect();
                let from_origins = v.piece_types().fold(Bitboard::EMPTY, |b, ty| b | (alone[ty] & p.pieces(by, ty)));
                let attackers = p.attackers_to(sq, by, occ);
                let at = format!("{}: {fen}, square {}, side {by}", v.name, v.geometry.name(sq));
                assert!(from_origins == attackers, "{at}");
                assert_eq!(p.attacked_by(sq, by, occ, p.colour_bb(by)), attackers.non_empty(), "{at}");
                // Asked for several types at once (rays shared among them), each type's own.
                let types: TypeSet = v.piece_types().filter(|_| rng.gen()).collect();
                let together = p.attack_origins_of(sq, by, types, occ);
                for (ty, &origins) in PieceType::first(MAX_TYPES).zip(&together) {
                    let own = if types.contains(ty) { alone[ty] } else { Bitboard::EMPTY };
                    assert!(origins == own, "{at}, types {types:?}");
                }
            }
        }
    }
}
