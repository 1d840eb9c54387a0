//! The fast bitboard generator (`Position::legal_moves`) against an independent, deliberately
//! simple mailbox generator (`reference/mailbox.rs`), compared as sets of UCI strings over
//! positions reached by seeded random playouts in every built-in variant.

#[path = "reference/mailbox.rs"]
mod mailbox;

use hoplite_core::builtin_names;
use hoplite_core::MoveKind;
use hoplite_core::{Move, PieceType, Position, Variant};
use mailbox::{Kind, Notes, Reference};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Positions compared per built-in variant.
const POSITIONS: usize = 20000;
/// A game restarts from the setup after this many plies.
const MAX_PLIES: usize = 150;
/// Mismatches printed in full before the rest are only counted.
const MAX_REPORTS: usize = 10;

#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    moves: usize,
    games: usize,
    in_check: usize,
    royal_attacked_not_check: usize,
    no_moves: usize,
    decided: usize,
    castling: usize,
    en_passant: usize,
    promotion: usize,
    promotion_lost_type: usize,
    promotion_blocked: usize,
    lost_only_excluded: usize,
    distinct_colour_excluded: usize,
    opening: usize,
}

struct Outcome {
    coverage: Coverage,
    mismatches: usize,
    reports: Vec<String>,
}

fn fast_moves(pos: &Position) -> Vec<Move> {
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    v
}

fn uci_set(pos: &Position, moves: &[Move]) -> BTreeSet<String> {
    moves.iter().map(|&m| pos.move_to_uci(m)).collect()
}

fn diff(a: &BTreeSet<String>, b: &BTreeSet<String>) -> String {
    a.difference(b).cloned().collect::<Vec<_>>().join(" ")
}

/// Compares both generators on one position; returns a report on disagreement.
fn compare(
    reference: &Reference,
    variant: &Arc<Variant>,
    pos: &Position,
    fast: &[Move],
    cov: &mut Coverage,
) -> Option<String> {
    let fen = pos.to_fen();
    let board = match reference.parse_fen(&fen) {
        Ok(b) => b,
        Err(e) => return Some(format!("reference cannot read FEN {fen}: {e}")),
    };
    let mut notes = Notes::default();
    let ref_moves = reference.legal_moves(&board, &mut notes);
    let ref_set: BTreeSet<String> = ref_moves.iter().map(|m| reference.uci(m)).collect();
    let fast_set = uci_set(pos, fast);

    cov.positions += 1;
    cov.moves += ref_set.len();
    cov.in_check += notes.in_check as usize;
    cov.royal_attacked_not_check += notes.royal_attacked_not_check as usize;
    cov.no_moves += ref_set.is_empty() as usize;
    cov.decided += notes.decided as usize;
    cov.promotion_blocked += notes.promotion_blocked as usize;
    cov.lost_only_excluded += notes.lost_only_excluded as usize;
    cov.distinct_colour_excluded += notes.distinct_colour_excluded as usize;
    let any = |f: &dyn Fn(&mailbox::RefMove) -> bool| ref_moves.iter().any(f) as usize;
    cov.castling += any(&|m| matches!(m.kind, Kind::Castle { .. }));
    cov.en_passant += any(&|m| matches!(m.kind, Kind::EnPassant { .. }));
    cov.promotion += any(&|m| m.promo.is_some());
    cov.promotion_lost_type += any(&|m| m.promo.is_some_and(|t| variant.lost_only.contains(PieceType::new(t))));
    cov.opening += any(&|m| m.opening);

    let mut report = String::new();
    if ref_set != fast_set {
        report += &format!(
            "MISMATCH [{}] {fen}\n  only reference: {}\n  only fast:      {}\n",
            variant.name,
            diff(&ref_set, &fast_set),
            diff(&fast_set, &ref_set)
        );
    }
    // The same position read back from its FEN must give the same moves as after `make`.
    match Position::from_fen(variant, &fen) {
        Ok(reread) => {
            let again = uci_set(&reread, &fast_moves(&reread));
            if again != fast_set {
                report += &format!(
                    "FEN ROUND TRIP [{}] {fen}\n  only after make: {}\n  only from FEN:   {}\n",
                    variant.name,
                    diff(&fast_set, &again),
                    diff(&again, &fast_set)
                );
            }
        }
        Err(e) => report += &format!("fast cannot read its own FEN {fen}: {e}\n"),
    }
    (!report.is_empty()).then_some(report)
}

/// How a playout chooses its moves.
#[derive(Clone, Copy, Debug)]
enum Bias {
    /// Uniformly among the legal moves.
    Uniform,
    /// Promotions, then castling, then captures preferred: reaches promotions to lost types.
    Captures,
    /// Pawn moves preferred (multi-steps above all): reaches e.p. and blocked promotions.
    Pawns,
}

/// A class of moves a biased playout prefers, with the chance of taking one when there is one.
type Preference<'a> = (f64, &'a dyn Fn(&Move) -> bool);

/// A random legal move, chosen as `bias` says.
fn pick(pos: &Position, moves: &[Move], bias: Bias, rng: &mut ChaCha8Rng) -> Move {
    let v = pos.variant();
    let geo = v.geometry;
    let promotion = |m: &Move| m.promoted().is_some();
    let castle = |m: &Move| m.kind() == MoveKind::Castle;
    let capture = |m: &Move| m.kind() == MoveKind::EnPassant || pos.piece_at(m.to()).is_some();
    let pawn = |m: &Move| pos.piece_at(m.from()).is_some_and(|(_, t)| v.pieces[t].pawn);
    let multi_step = |m: &Move| pawn(m) && (geo.rank(m.from()) as i32 - geo.rank(m.to()) as i32).abs() >= 2;
    let classes: Vec<Preference> = match bias {
        Bias::Uniform => vec![],
        Bias::Captures => vec![(0.9, &promotion), (0.6, &castle), (0.6, &capture), (0.3, &pawn)],
        Bias::Pawns => vec![(0.9, &promotion), (0.5, &castle), (0.7, &capture), (0.5, &multi_step), (0.6, &pawn)],
    };
    for (p, class) in classes {
        let some: Vec<Move> = moves.iter().copied().filter(|m| class(m)).collect();
        if !some.is_empty() && rng.gen_bool(p) {
            return some[rng.gen_range(0..some.len())];
        }
    }
    moves[rng.gen_range(0..moves.len())]
}

/// Plays seeded random games from the given start positions (restarting when a game ends or
/// after `max_plies`, or a random 2 to 24 plies in a `short_games` share of the games) and
/// compares the generators at every position.
fn playouts(variant: &Arc<Variant>, starts: &[&str], positions: usize, seed: u64, short_games: f64) -> Outcome {
    let reference = Reference::new(variant);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Outcome { coverage: Coverage::default(), mismatches: 0, reports: Vec::new() };
    while out.coverage.positions < positions {
        let start = starts[rng.gen_range(0..starts.len())];
        let mut pos = Position::from_fen(variant, start).unwrap_or_else(|e| panic!("start position {start}: {e}"));
        let max_plies = if rng.gen_bool(short_games) { rng.gen_range(2..=24) } else { MAX_PLIES };
        let bias = [Bias::Uniform, Bias::Captures, Bias::Pawns][rng.gen_range(0..3)];
        out.coverage.games += 1;
        for _ in 0..=max_plies {
            let moves = fast_moves(&pos);
            if let Some(r) = compare(&reference, variant, &pos, &moves, &mut out.coverage) {
                out.mismatches += 1;
                if out.reports.len() < MAX_REPORTS {
                    eprint!("{r}");
                    out.reports.push(r);
                }
            }
            if moves.is_empty() || pos.outcome().is_some() || out.coverage.positions >= positions {
                break;
            }
            let m = pick(&pos, &moves, bias, &mut rng);
            pos.make(m);
        }
    }
    out
}

fn summary(label: &str, c: &Coverage) {
    eprintln!(
        "[{label}] {} positions in {} games, {} moves; in check {}, a royal attacked but not in check {}, no moves {}, decided by \
         rule {}; castling {}, e.p. {}, promotion {} (to a lost type {}), promotion blocked {}, \
         type withheld: lost_only {} distinct_colour {}; opening moves {}",
        c.positions,
        c.games,
        c.moves,
        c.in_check,
        c.royal_attacked_not_check,
        c.no_moves,
        c.decided,
        c.castling,
        c.en_passant,
        c.promotion,
        c.promotion_lost_type,
        c.promotion_blocked,
        c.lost_only_excluded,
        c.distinct_colour_excluded,
        c.opening
    );
}

fn check(
    label: &str,
    variant: &Arc<Variant>,
    starts: &[&str],
    positions: usize,
    seed: u64,
    short_games: f64,
) -> Coverage {
    let out = playouts(variant, starts, positions, seed, short_games);
    summary(label, &out.coverage);
    assert!(
        out.mismatches == 0,
        "[{label}] {} of {} positions disagree; first ones:\n{}",
        out.mismatches,
        out.coverage.positions,
        out.reports.join("")
    );
    out.coverage
}

fn check_builtin(name: &str, seed: u64) -> Coverage {
    let v = Variant::builtin(name);
    check(name, &v, &[&v.setup], POSITIONS, seed, 0.25)
}

#[test]
fn chess() {
    let c = check_builtin("chess", 1);
    assert!(c.castling > 0 && c.en_passant > 0 && c.promotion > 0, "{c:?}");
}

#[test]
fn shatranj() {
    let c = check_builtin("shatranj", 2);
    assert!(c.promotion > 0 && c.decided > 0, "{c:?}");
}

#[test]
fn sultan() {
    let c = check_builtin("sultan", 3);
    assert!(c.castling > 0 && c.en_passant > 0 && c.promotion_lost_type > 0, "{c:?}");
}

#[test]
fn spartan() {
    let c = check_builtin("spartan", 4);
    assert!(c.castling > 0 && c.promotion > 0, "{c:?}");
}

#[test]
fn rumi_shatranj() {
    let c = check_builtin("rumi-shatranj", 5);
    assert!(c.opening > 0 && c.promotion > 0, "{c:?}");
}

#[test]
fn great_shatranj() {
    let c = check_builtin("great-shatranj", 6);
    assert!(c.promotion_lost_type > 0, "{c:?}");
}

#[test]
fn great_shatranj_r() {
    let c = check_builtin("great-shatranj-r", 7);
    assert!(c.promotion_lost_type > 0, "{c:?}");
}

#[test]
fn rumi_shatranj_forced_opening() {
    let v =
        Variant::from_toml("forced-rumi", "extends = \"rumi-shatranj\"\n[rules]\nrumi_opening = \"forced\"\n").unwrap();
    // Mostly short games: the opening moves exist only on each player's first two moves.
    let c = check("rumi-shatranj forced", &v, &[&v.setup], 600, 8, 0.8);
    assert!(c.opening > 0, "{c:?}");
}

#[test]
fn every_builtin_variant_is_covered() {
    let covered = ["chess", "shatranj", "sultan", "spartan", "rumi-shatranj", "great-shatranj", "great-shatranj-r"];
    for name in builtin_names() {
        assert!(covered.contains(&name), "no reference test for '{name}'");
    }
}

/// Hand-made start positions aimed at the rare rules: e.p. (with pins, after triple steps),
/// castling with the rook passing the king, promotions that are blocked or limited, pawns next
/// to the enemy king on the last rank, two Spartan kings, bare kings.
const CRAFTED: &[(&str, &str)] = &[
    // Kiwipete, perft position 3 (e.p. pins), position 4.
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("chess", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2"),
    // Pawns waiting beside the files of enemy double and triple steps.
    ("sultan", "r4k4r/ppppppppppp/11/1P1P1P1P1P1/11/11/11/1p1p1p1p1p1/11/PPPPPPPPPPP/R4K4R w KQkq - 0 1"),
    ("sultan", "r4k4r/ppppppppppp/11/1P1P1P1P1P1/11/11/11/1p1p1p1p1p1/11/PPPPPPPPPPP/R4K4R b KQkq - 0 1"),
    // From the perft suite: castling with the rook passing the king, lost-type promotion.
    ("sultan", "r4k4r/3P7/11/11/11/11/11/11/11/7p3/R4K4R w KQkq - 0 1"),
    // A full army: the pawn on e10 may not promote, so it may not step or capture onto rank 11
    // (both generators still count it as attacking d11 and f11: the pawn on e2 gives check).
    ("sultan", "r4k5/4P6/11/11/11/11/11/11/11/PPPPPPPPPP1/RBNMCKQABNR b - - 0 1"),
    ("sultan", "rbnmckqabnr/pppp1ppppp1/11/11/11/11/11/11/11/4p6/R4K3R1 w Q - 0 1"),
    // Two Spartan kings against rooks; a hoplite that may become a second king.
    ("spartan", "3k1k2/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("spartan", "3k1k2/8/8/8/8/8/8/R3K2R b KQ - 0 1"),
    ("spartan", "4k3/8/8/8/8/8/3h4/R3K2R b KQ - 0 1"),
    ("spartan", "2k2k2/hh4hh/8/8/8/8/PP4PP/R3K2R w KQ - 0 1"),
    // Bare kings close at hand.
    ("shatranj", "3k4/8/8/8/8/8/4q3/3K3R w - - 0 1"),
    ("great-shatranj", "4k5/10/10/10/10/3n6/10/4K4N w - - 0 1"),
    ("great-shatranj", "4k5/6p3/10/10/10/10/3P6/4K5 w - - 0 1"),
    ("great-shatranj-r", "4k5/10/10/10/10/10/1p8/R3K5 w - - 0 1"),
    // Promotions: one elephant left (an elephant only on the other colour), or both; pawns one
    // step from the last rank.
    ("great-shatranj", "1d2k2d2/P1P1P1P1P1/10/10/10/10/10/4KE4 w - - 0 1"),
    ("great-shatranj-r", "1r2k2r2/PPP1P1PPPP/10/10/10/10/10/2E1KE4 w - - 0 1"),
    ("rumi-shatranj", "4k3/PPP1P1PP/8/8/8/8/ppp1p1pp/4K3 w - - 0 1"),
];

#[test]
fn crafted_starts() {
    for (i, (name, fen)) in CRAFTED.iter().enumerate() {
        let v = Variant::builtin(name);
        check(&format!("{name} from {fen}"), &v, &[fen], 300, 100 + i as u64, 0.5);
    }
}

/// After a triple step the writer must name the square beyond which the pawn stands: `h3` alone
/// (the only square a pawn can take on) would put the victim on h4.
#[test]
fn sultan_triple_step_fen_names_the_victim() {
    let v = Variant::builtin("sultan");
    let mut pos = Position::from_fen(&v, "5k5/11/11/11/11/11/11/8p2/11/7P3/5K5 w - - 0 1").unwrap();
    let m = pos.parse_uci("h2h5").unwrap();
    pos.make(m);
    let fen = pos.to_fen();
    assert_eq!(fen, "5k5/11/11/11/11/11/7P3/8p2/11/11/5K5 b - h3h4 0 1");
    let reread = Position::from_fen(&v, &fen).unwrap();
    assert!(reread.parse_uci("i4h3").is_ok());
    assert_eq!(reread.key(), pos.key());
}

/// The reference itself against the published perft counts of `data/perft` (Fairy-Stockfish,
/// SjaakII, the chess programming community), at every depth up to 100,000 leaves: the
/// reference is checked against sources that share nothing with the fast generator.
#[test]
fn reference_perft_matches_the_suites() {
    const SUITES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/");
    const MAX_LEAVES: u64 = 100_000;
    let mut checked = 0;
    for name in builtin_names() {
        let path = format!("{SUITES}{name}.epd");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let v = Variant::builtin(name);
        let reference = Reference::new(&v);
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim();
            let board = reference.parse_fen(fen).unwrap();
            for part in parts {
                let (d, n) = part.trim().split_once(' ').unwrap();
                let depth: usize = d.trim_start_matches('D').parse().unwrap();
                let expected: u64 = n.trim().parse().unwrap();
                if expected > MAX_LEAVES {
                    continue;
                }
                let got = reference.perft(&board, depth);
                assert_eq!(got, expected, "[{name}] reference perft {depth} of {fen}");
                checked += 1;
            }
        }
    }
    eprintln!("reference perft: {checked} (position, depth) pairs agree with data/perft");
    assert!(checked >= 20);
}

/// Chess with the piece of `letter` changed by one more field of the variant file.
fn chess_with(name: &str, letter: &str, field: &str) -> Arc<Variant> {
    let toml = format!("name = \"{name}\"\nextends = \"chess\"\n[[pieces]]\nletter = \"{letter}\"\n{field}\n");
    Variant::from_toml(name, &toml).unwrap()
}

/// A knight that also rides as a rook from its initial squares checks along a line the
/// shared rider lines do not hold: the check is met by a block on that line too, which the
/// generator must find by testing each move rather than confine the evasions to a capture.
#[test]
fn checks_by_initial_rides_are_blocked() {
    let v = chess_with("initial-rides", "n", "betza = \"NiR\"");
    // The b1 knight checks the king on b5 up the file; the rook may block on b3.
    let fen = "8/8/8/1k6/8/7r/8/1N2K3 b - - 0 1";
    let pos = Position::from_fen(&v, fen).unwrap();
    assert!(pos.in_check());
    assert!(uci_set(&pos, &fast_moves(&pos)).contains("h3b3"));
    check("initial rides", &v, &[fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"], 2000, 31, 0.5);
}

/// A rider confined to a region attacks no square outside it: it pins nothing to a king it
/// could not take. (The reference generator has no regions: the moves are listed here.)
#[test]
fn confined_riders_pin_only_kings_they_could_take() {
    let v = chess_with("confined-rooks", "r", "region = \"*1 *2 *3 *4\"");
    // Black's rooks keep to ranks 5 to 8: the e8 rook does not pin the e4 knight to e1, nor
    // attack the king's squares.
    let pos = Position::from_fen(&v, "k3r3/8/8/8/4N3/8/8/4K3 w - - 0 1").unwrap();
    let expected = "e1d1 e1d2 e1e2 e1f1 e1f2 e4c3 e4c5 e4d2 e4d6 e4f2 e4f6 e4g3 e4g5";
    assert_eq!(uci_set(&pos, &fast_moves(&pos)), expected.split(' ').map(String::from).collect());
}

/// A rook that also leaps two squares (`RD`) checks from two squares away by the ride and by
/// the leap at once: a block between does not meet the check, only a capture or a king move.
#[test]
fn a_block_does_not_meet_a_check_the_checker_also_leaps() {
    let v = chess_with("leaping-rooks", "r", "betza = \"RD\"");
    // The e3 rook checks the e1 king; the knight may not block on e2, the bishop may take.
    let fen = "4k3/8/8/8/8/4r3/8/2N1K1B1 w - - 0 1";
    let pos = Position::from_fen(&v, fen).unwrap();
    let moves = uci_set(&pos, &fast_moves(&pos));
    assert!(pos.in_check() && moves.contains("g1e3") && !moves.contains("c1e2"), "{moves:?}");
    check("leaping rooks", &v, &[fen, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"], 2000, 33, 0.5);
}
