use super::terms::BARE_EDGE;
use super::terms::BARE_NEAR;
use super::terms::BARE_ROOM;
use super::*;
use crate::error::WeightsError;
use crate::score::MATE_BOUND;
use hoplite_core::builtin_names;
use hoplite_core::Colour;
use hoplite_core::PieceType;
use hoplite_core::Position;
use hoplite_core::Variant;
use std::path::Path;

fn blend(f: &Features, w: &Weights) -> i32 {
    let (mut mg, mut eg) = (0i64, 0i64);
    for (j, &x) in f.values.iter().enumerate() {
        mg += x as i64 * w.values[j] as i64;
        eg += x as i64 * w.values[w.end(j)] as i64;
    }
    ((mg * f.phase as i64 + eg * (PHASE - f.phase) as i64) / PHASE as i64) as i32
}

/// The feature of `group` for piece `letter` in `fen` (White's count minus Black's).
fn feature(variant: &str, fen: &str, group: Term, letter: char) -> i32 {
    let v = Variant::builtin(variant);
    let w = Weights::defaults(&v);
    features(&Position::from_fen(&v, fen).unwrap(), &w).values[w.index(group, v.piece_type(letter).unwrap())]
}

/// What the term of `group` for piece `letter` adds to White's evaluation of `fen` under
/// the default weights (the feature times its weights, blended by the phase).
fn contribution(variant: &str, fen: &str, group: Term, letter: char) -> i32 {
    let v = Variant::builtin(variant);
    let w = Weights::defaults(&v);
    let pos = Position::from_fen(&v, fen).unwrap();
    let j = w.index(group, v.piece_type(letter).unwrap());
    let f = features(&pos, &w);
    (f.values[j] * w.values[j] * f.phase + f.values[j] * w.values[w.end(j)] * (PHASE - f.phase)) / PHASE
}

#[test]
fn evaluation_is_the_blend_of_features_and_weights() {
    for name in builtin_names() {
        let v = Variant::builtin(name);
        let mut w = Weights::defaults(&v);
        // Distinct endgame weights, so that the blend is exercised.
        for j in 0..w.len() {
            let e = w.end(j);
            if e != j {
                w.values[e] = w.values[j] + (j % 7) as i32 - 3;
            }
        }
        let mut pos = Position::startpos(&v);
        let mut moves = Vec::new();
        for i in 0..40 {
            let f = features(&pos, &w);
            let white_view = pos.side_to_move().sign() * evaluate(&pos, &w);
            assert_eq!(blend(&f, &w), white_view, "{name}");
            // The search's narrow path evaluates alike where the board fits 64 bits.
            if v.geometry.fits::<u64>() {
                assert_eq!(evaluate(&pos.to::<u64>(), &w), evaluate(&pos, &w), "{name}: {}", pos.to_fen());
            }
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[(i * 7) % moves.len()]);
        }
    }
}

#[test]
fn start_positions_of_symmetric_variants_are_level() {
    for name in ["chess", "shatranj", "sultan", "great-shatranj", "rumi-shatranj"] {
        let v = Variant::builtin(name);
        assert_eq!(evaluate(&Position::startpos(&v), &Weights::defaults(&v)), 0, "{name}");
    }
}

#[test]
fn the_phase_runs_from_the_start_position_to_bare_pawns() {
    let v = Variant::builtin("chess");
    let w = Weights::defaults(&v);
    let at = |fen: &str| w.phase(&Position::from_fen(&v, fen).unwrap());
    assert_eq!(at("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), PHASE);
    assert_eq!(at("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"), 0);
    // Two queens of 900 out of 2 × (2 × 320 + 2 × 330 + 2 × 500 + 900) = 6,400.
    assert_eq!(at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1"), PHASE * 1800 / 6400);
}

#[test]
fn kings_follow_the_endgame_table_as_the_pieces_go() {
    let v = Variant::builtin("chess");
    let mut w = Weights::defaults(&v);
    w.values.iter_mut().for_each(|x| *x = 0);
    let k = v.piece_type('k').unwrap();
    w.set(Term::Centre, k, -10);
    let e = w.end(w.index(Term::Centre, k));
    w.values[e] = 20;
    let eval = |fen: &str| evaluate(&Position::from_fen(&v, fen).unwrap(), &w);
    // White's king on d4 stands 3 + 3 steps from the edges, Black's on h8 none.
    assert_eq!(eval("rnbqrbnk/pppppppp/8/8/3K4/8/PPPPPPPP/RNBQ1BNR w - - 0 1"), 6 * -10);
    assert_eq!(eval("7k/p7/8/8/3K4/8/P7/8 w - - 0 1"), 6 * 20);
    // Queens only: phase 18 of 64; Black's king on e8 stands 3 steps from the edges.
    assert_eq!(eval("4k3/8/8/8/3K4/8/8/3Q1q2 w - - 0 1"), (3 * -10 * 18 + 3 * 20 * 46) / 64);
}

#[test]
fn a_king_goes_to_the_centre_once_the_pieces_are_off() {
    // White's king on d4 stands 3 + 3 steps from the edges, Black's on h8 none.
    assert!(contribution("chess", "7k/p7/8/8/3K4/8/P7/8 w - - 0 1", Term::Centre, 'k') > 0);
    assert!(contribution("shatranj", "7k/p7/8/8/3K4/8/P7/8 w - - 0 1", Term::Centre, 'k') > 0);
    // With every piece on, where the king stands is the shelter's business.
    assert_eq!(contribution("chess", "rnbqrbnk/pppppppp/8/8/3K4/8/PPPPPPPP/RNBQ1BNR w - - 0 1", Term::Centre, 'k'), 0);
}

#[test]
fn a_pawn_is_passed_when_no_enemy_pawn_can_stop_it() {
    let passed = |fen: &str| feature("chess", fen, Term::Passed, 'p');
    // White's e5 pawn stands 4 ranks up, Black's g6 pawn 2: neither can stop the other.
    assert_eq!(passed("4k3/8/6p1/4P3/8/8/8/4K3 w - - 0 1"), 4 - 2);
    // On f6 and e5 each stands in the other's way.
    assert_eq!(passed("4k3/8/5p2/4P3/8/8/8/4K3 w - - 0 1"), 0);
    // A pawn behind (d4, 4 ranks up for Black) has passed: both count.
    assert_eq!(passed("4k3/8/8/4P3/3p4/8/8/4K3 w - - 0 1"), 4 - 4);
    assert_eq!(passed("4k3/8/8/4P3/8/8/3p4/4K3 w - - 0 1"), 4 - 6);
    assert_eq!(feature("chess", "4k3/8/6p1/4P3/8/8/8/4K3 w - - 0 1", Term::Passed2, 'p'), 16 - 4);
    // White's passed pawn counts for White, more the further it stands.
    let (far, near) = ("4k3/8/4P3/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
    let gain = |fen| contribution("chess", fen, Term::Passed, 'p') + contribution("chess", fen, Term::Passed2, 'p');
    assert!(gain(far) > gain(near) && gain(near) > 0);
}

#[test]
fn pieces_near_the_enemy_king_count() {
    // Around e8 the queen on e6 reaches d7, e7 and f7 (d8 and f8 lie behind them).
    let near = "4k3/8/4Q3/8/8/8/8/4K3 b - - 0 1";
    assert_eq!(feature("chess", near, Term::KingAttack, 'q'), 3);
    assert_eq!(feature("chess", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", Term::KingAttack, 'q'), 0);
    assert!(contribution("chess", near, Term::KingAttack, 'q') > 0);
    // Spartan: each of two kings has a zone; a rook on a6 sees a7 and a8 of b8's, on the
    // seventh it sees into both.
    assert_eq!(feature("spartan", "1k4k1/8/R7/8/8/8/8/4K3 w - - 0 1", Term::KingAttack, 'r'), 2);
    assert_eq!(feature("spartan", "1k4k1/R7/8/8/8/8/8/4K3 w - - 0 1", Term::KingAttack, 'r'), 6);
}

#[test]
fn two_pieces_at_the_king_are_an_assault() {
    let both =
        |fen: &str, l: char| (feature("chess", fen, Term::KingAttack, l), feature("chess", fen, Term::KingAssault, l));
    // The d4 queen reaches g7 and h8 next to the g8 king; alone, that is no assault.
    let alone = "6k1/8/8/8/3Q4/8/8/4K3 b - - 0 1";
    assert_eq!(both(alone, 'q'), (2, 0));
    // With the h5 knight (g7) it is, for both pieces; a pawn at the king does not make one.
    let two = "6k1/8/8/7N/3Q4/8/8/4K3 b - - 0 1";
    assert_eq!((both(two, 'q'), both(two, 'n')), ((2, 2), (1, 1)));
    assert_eq!(both("6k1/8/7P/8/3Q4/8/8/4K3 b - - 0 1", 'q'), (2, 0));
    // Fitted to Fairy-Stockfish's evaluations, a queen in an assault is worth more.
    let v = Variant::builtin("chess");
    assert!(Weights::for_variant(&v).get(Term::KingAssault, v.piece_type('q').unwrap()) > 0);
}

#[test]
fn a_kings_danger_is_the_square_of_the_attack_on_it() {
    // The d4 queen reaches g7 and h8 of the g8 king's zone, the h5 knight g7; the h6 pawn's
    // g7 and h7 are no part of it. Both pieces have safe checks.
    let fen = "6k1/8/7P/7N/3Q4/8/8/4K3 b - - 0 1";
    let part = |term, l| feature("chess", fen, term, l);
    let (zone, checks) = (
        part(Term::KingAttack, 'q') + part(Term::KingAttack, 'n'),
        part(Term::SafeCheck, 'q') + part(Term::SafeCheck, 'n'),
    );
    assert_eq!((zone, part(Term::KingAttack, 'p')), (3, 2));
    assert!(part(Term::SafeCheck, 'n') > 0 && part(Term::SafeCheck, 'q') > 0);
    assert_eq!(part(Term::KingDanger, 'k'), (zone + checks) * (zone + checks));
    // The same attack by Black counts against White; no attack, no danger.
    let black = "4k3/8/8/3q4/7n/7p/8/6K1 w - - 0 1";
    assert_eq!(feature("chess", black, Term::KingDanger, 'k'), -(zone + checks) * (zone + checks));
    assert_eq!(feature("chess", "4k3/3ppp2/8/8/8/8/PPPPPPPP/R3K3 w - - 0 1", Term::KingDanger, 'k'), 0);
}

#[test]
fn attacks_on_more_valuable_pieces_are_threats() {
    // The e4 pawn forks the rook and the bishop.
    let fork = "4k3/8/8/3r1b2/4P3/8/8/4K3 b - - 0 1";
    assert_eq!(feature("chess", fork, Term::Threat, 'p'), 2);
    assert!(contribution("chess", fork, Term::Threat, 'p') > 0);
    // A knight attacking a rook threatens it; a pawn or the king it attacks, not.
    assert_eq!(feature("chess", "4k3/8/3r4/8/4N3/8/8/4K3 b - - 0 1", Term::Threat, 'n'), 1);
    assert_eq!(feature("chess", "4k3/8/3p4/8/4N3/8/8/4K3 b - - 0 1", Term::Threat, 'n'), 0);
    assert_eq!(feature("chess", "8/8/3k4/8/4N3/8/8/4K3 b - - 0 1", Term::Threat, 'n'), 0);
    // Black's threats count against White.
    let black = "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1";
    assert_eq!(feature("chess", black, Term::Threat, 'p'), -1);
    assert!(contribution("chess", black, Term::Threat, 'p') < 0);
}

#[test]
fn checks_from_squares_the_enemy_does_not_attack_are_safe() {
    // The d5 knight can check from e7 and f6, which nothing of Black's attacks.
    let knight = "6k1/8/8/3N4/8/8/8/4K3 w - - 0 1";
    assert_eq!(feature("chess", knight, Term::SafeCheck, 'n'), 2);
    assert!(contribution("chess", knight, Term::SafeCheck, 'n') > 0);
    // The g7 pawn guards f6: one safe check left.
    assert_eq!(feature("chess", "6k1/6p1/8/3N4/8/8/8/4K3 w - - 0 1", Term::SafeCheck, 'n'), 1);
    // A rook checks along open lines only: from a8, not through the g2 pawn from g1.
    assert_eq!(feature("chess", "6k1/8/8/8/8/8/6P1/R3K3 w - - 0 1", Term::SafeCheck, 'r'), 1);
    // Black's checks count against White; a pawn's are not counted.
    assert_eq!(feature("chess", "4k3/8/8/8/3n4/8/8/6K1 w - - 0 1", Term::SafeCheck, 'n'), -2);
    assert_eq!(feature("chess", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", Term::SafeCheck, 'p'), 0);
}

#[test]
fn an_attacked_piece_nobody_defends_hangs() {
    // The rook attacks the knight, which nothing defends: Black's piece hangs.
    let hanging = "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1";
    assert_eq!(feature("chess", hanging, Term::Hanging, 'n'), -1);
    assert!(contribution("chess", hanging, Term::Hanging, 'n') > 0);
    // Defended by the e6 pawn, it does not; nor does a piece nobody attacks.
    assert_eq!(feature("chess", "4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1", Term::Hanging, 'n'), 0);
    assert_eq!(feature("chess", "4k3/8/8/3n4/8/8/8/2R1K3 w - - 0 1", Term::Hanging, 'n'), 0);
}

#[test]
fn files_without_pawns_are_open_or_semi_open() {
    // The e-file holds no pawn: open and semi-open for the rook on e1.
    let open = "k7/p7/8/8/8/8/P7/4RK2 w - - 0 1";
    assert_eq!((feature("chess", open, Term::Open, 'r'), feature("chess", open, Term::SemiOpen, 'r')), (1, 1));
    // Black's e7 pawn leaves it semi-open; White's e2 pawn closes it.
    let semi = "4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1";
    assert_eq!((feature("chess", semi, Term::Open, 'r'), feature("chess", semi, Term::SemiOpen, 'r')), (0, 1));
    let closed = "4k3/8/8/8/8/8/4P3/4RK2 w - - 0 1";
    assert_eq!((feature("chess", closed, Term::Open, 'r'), feature("chess", closed, Term::SemiOpen, 'r')), (0, 0));
    // Black's rook on an open file counts against White; pawns themselves never count.
    assert_eq!(feature("chess", "3rk3/8/8/8/8/8/8/4K3 w - - 0 1", Term::Open, 'r'), -1);
    assert_eq!(feature("chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Term::SemiOpen, 'p'), 0);
    // Fitted to Fairy-Stockfish's evaluations, a rook wants the open file (data/weights/).
    let v = Variant::builtin("chess");
    let (w, r) = (Weights::for_variant(&v), v.piece_type('r').unwrap());
    assert!(w.get(Term::Open, r) + w.get(Term::SemiOpen, r) > 0);
}

#[test]
fn a_piece_no_pawn_can_chase_stands_on_an_outpost() {
    // The d5 knight, defended by the e4 pawn, with no black pawn on c or e ahead of it.
    let outpost = "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(feature("chess", outpost, Term::Outpost, 'n'), 1);
    // A black pawn on c7 could come to c6 and chase it; undefended it is no outpost.
    assert_eq!(feature("chess", "4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1", Term::Outpost, 'n'), 0);
    assert_eq!(feature("chess", "4k3/8/8/3N4/8/8/8/4K3 w - - 0 1", Term::Outpost, 'n'), 0);
    // Black's, mirrored, counts against White.
    assert_eq!(feature("chess", "4k3/8/8/4p3/3n4/8/8/4K3 w - - 0 1", Term::Outpost, 'n'), -1);
    let v = Variant::builtin("chess");
    assert!(Weights::for_variant(&v).get(Term::Outpost, v.piece_type('n').unwrap()) > 0);
}

#[test]
fn kings_near_a_passed_pawn_escort_or_stop_it() {
    // White's e6 passer, its stop square e7: Black's king on a8 is 4 steps away, White's
    // on e5 two: +2 for White.
    let escorted = "k7/8/4P3/4K3/8/8/8/8 w - - 0 1";
    assert_eq!(feature("chess", escorted, Term::PasserKing, 'p'), 4 - 2);
    // Black's king in front of it, White's far: against White.
    assert_eq!(feature("chess", "4k3/8/4P3/8/8/8/8/K7 w - - 0 1", Term::PasserKing, 'p'), 1 - 6);
    // A pawn that is not passed has no such term.
    assert_eq!(feature("chess", "k7/4p3/4P3/4K3/8/8/8/8 w - - 0 1", Term::PasserKing, 'p'), 0);
    // In the endgame the escort is worth something, fitted on Fairy-Stockfish's evaluations.
    let v = Variant::builtin("chess");
    let w = Weights::for_variant(&v);
    assert!(w.values[w.end(w.index(Term::PasserKing, v.piece_type('p').unwrap()))] > 0);
}

#[test]
fn squares_an_enemy_pawn_attacks_restrict_a_piece() {
    let restricted = |variant: &str, fen: &str| feature(variant, fen, Term::Restricted, 'n');
    // The c6 pawn attacks b5 of the d4 knight's squares; with the e6 pawn f5 too.
    assert_eq!(restricted("chess", "4k3/8/2p5/8/3N4/8/8/4K3 w - - 0 1"), 1);
    assert_eq!(restricted("chess", "4k3/8/2p1p3/8/3N4/8/8/4K3 w - - 0 1"), 2);
    // Black's knight, restricted by White's pawn: counted against Black.
    assert_eq!(restricted("chess", "4k3/8/8/3n4/8/2P5/8/4K3 w - - 0 1"), -1);
    // A pawn-type piece restricts where it captures: a Spartan hoplite straight ahead (e5
    // of the d3 knight's squares), a chess pawn on the diagonals (none of them).
    assert_eq!(restricted("spartan", "4k3/8/4h3/8/8/3N4/8/4K3 w - - 0 1"), 1);
    assert_eq!(restricted("chess", "4k3/8/4p3/8/8/3N4/8/4K3 w - - 0 1"), 0);
    // Fitted to Fairy-Stockfish's chess games, the term costs a knight (data/weights/).
    let v = Variant::builtin("chess");
    assert!(Weights::for_variant(&v).get(Term::Restricted, v.piece_type('n').unwrap()) < 0);
}

#[test]
fn pawns_before_the_king_shelter_it() {
    let shelter = |fen: &str| feature("chess", fen, Term::Shelter, 'k');
    assert_eq!(shelter("4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1"), 3);
    assert_eq!(shelter("4k3/8/8/8/8/5PPP/8/6K1 w - - 0 1"), 0);
    assert_eq!(shelter("6k1/5ppp/8/8/8/8/5PP1/6K1 w - - 0 1"), 2 - 3);
    // It counts while pieces are on (a middlegame term by default).
    let sheltered = "r3k3/8/8/8/8/8/5PPP/R5K1 w - - 0 1";
    assert!(contribution("chess", sheltered, Term::Shelter, 'k') > 0);
}

#[test]
fn doubled_isolated_and_supported_pawns() {
    // c2 and c3 doubled (c2 has one in front... no: c3 has c2 behind it), isolated both.
    let fen = "4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1";
    assert_eq!(feature("chess", fen, Term::Doubled, 'p'), 1);
    assert_eq!(feature("chess", fen, Term::Isolated, 'p'), 2);
    assert_eq!(feature("chess", fen, Term::Supported, 'p'), 0);
    // A chain b2-c3 (b2 defends c3) and a phalanx f4-g4: three supported, none isolated.
    let chain = "4k3/8/8/8/5PP1/2P5/1P6/4K3 w - - 0 1";
    assert_eq!(feature("chess", chain, Term::Supported, 'p'), 3);
    assert_eq!(feature("chess", chain, Term::Isolated, 'p'), 0);
    assert!(contribution("chess", chain, Term::Supported, 'p') > 0);
    assert!(contribution("chess", fen, Term::Doubled, 'p') < 0);
    assert!(contribution("chess", fen, Term::Isolated, 'p') < 0);
}

#[test]
fn a_passed_pawn_whose_way_up_is_free() {
    let free = |fen: &str| feature("chess", fen, Term::PassedFree, 'p');
    // e5, 4 ranks up: e6, e7 and e8 empty and unattacked (Black's king on a8).
    assert_eq!(free("k7/8/8/4P3/8/8/8/4K3 w - - 0 1"), 4);
    // A rook attacking e7, or a piece standing on e8, holds the way.
    assert_eq!(free("k7/7r/8/4P3/8/8/8/4K3 w - - 0 1"), 0);
    assert_eq!(free("k3n3/8/8/4P3/8/8/8/4K3 w - - 0 1"), 0);
    // An own piece in the way does not; a pawn that is not passed has no free way.
    assert_eq!(free("k3N3/8/8/4P3/8/8/8/4K3 w - - 0 1"), 4);
    assert_eq!(free("k7/3p4/8/4P3/8/8/8/4K3 w - - 0 1"), 0);
    // Black's d4 pawn, 4 ranks up for Black: counted against White.
    assert_eq!(free("k7/8/8/8/3p4/8/8/7K w - - 0 1"), -4);
    // Fitted to Fairy-Stockfish's Great Shatranj, such a pawn is worth more in the endgame.
    let v = Variant::builtin("great-shatranj");
    let w = Weights::for_variant(&v);
    assert!(w.values[w.end(w.index(Term::PassedFree, v.piece_type('p').unwrap()))] > 0);
}

#[test]
fn supported_pawns_count_the_ranks_they_stand_up() {
    // d5 (4 ranks up) defended by e4; e4 itself is not supported.
    assert_eq!(feature("chess", "4k3/8/8/3P4/4P3/8/8/4K3 w - - 0 1", Term::SupportedUp, 'p'), 4);
    // A phalanx on the third rank: each 2 ranks up.
    assert_eq!(feature("chess", "4k3/8/8/8/8/3PP3/8/4K3 w - - 0 1", Term::SupportedUp, 'p'), 4);
}

#[test]
fn a_pair_of_colour_bound_pieces_gets_its_bonus() {
    assert_eq!(feature("chess", "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", Term::Pair, 'b'), 1);
    assert!(contribution("chess", "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", Term::Pair, 'b') > 0);
    assert_eq!(feature("chess", "4k3/8/8/8/8/8/8/2N1KN2 w - - 0 1", Term::Pair, 'n'), 1);
    let v = Variant::builtin("chess");
    let w = Weights::defaults(&v);
    // Only the colour-bound bishop has a default pair bonus.
    assert!(w.get(Term::Pair, v.piece_type('b').unwrap()) > 0);
    assert_eq!(w.get(Term::Pair, v.piece_type('n').unwrap()), 0);
    let shatranj = Variant::builtin("shatranj");
    assert!(Weights::defaults(&shatranj).get(Term::Pair, shatranj.piece_type('q').unwrap()) > 0, "the ferz too");
}

/// The bare-king terms of `fen` (chess): edge, near, room, from White's view.
fn bare(variant: &str, fen: &str) -> [i32; 3] {
    let v = Variant::builtin(variant);
    let w = Weights::defaults(&v);
    let f = features(&Position::from_fen(&v, fen).unwrap(), &w);
    [BARE_EDGE, BARE_NEAR, BARE_ROOM].map(|k| f.values[w.side_index(k)])
}

#[test]
fn a_bare_king_is_driven_to_the_edge_approached_and_boxed() {
    // Black's king on a1 alone: 6 steps from d4's centre value, 4 king steps from e1 (7
    // the longest), and of a2, b1, b2 the rook on h2 takes a2 and b2.
    assert_eq!(bare("chess", "8/8/8/8/8/8/7R/k3K3 b - - 0 1"), [6, 3, 1]);
    // The same for Black against White's bare king, counted for Black.
    assert_eq!(bare("chess", "K3k3/7r/8/8/8/8/8/8 w - - 0 1"), [-6, -3, -1]);
    // Not bare: a pawn left, or nothing but kings on either side.
    assert_eq!(bare("chess", "8/8/8/8/8/p7/7R/k3K3 b - - 0 1"), [0, 0, 0]);
    assert_eq!(bare("chess", "8/8/8/8/8/8/8/k3K3 b - - 0 1"), [0, 0, 0]);
    // 11×11: a corner is 10 steps from the centre's value, 10 the longest distance.
    assert_eq!(bare("sultan", "11/11/11/11/11/11/11/11/11/11/k5K3R w - - 0 1")[..2], [10, 4]);
    let w = Weights::defaults(&Variant::builtin("chess"));
    let weight = |k: usize| w.values[w.side_index(k)];
    assert!(weight(BARE_EDGE) > 0 && weight(BARE_NEAR) > 0 && weight(BARE_ROOM) < 0);
}

#[test]
fn piece_square_defaults_follow_mobility() {
    let v = Variant::builtin("chess");
    let w = Weights::defaults(&v);
    let n = v.piece_type('n').unwrap();
    let at = |sq: &str| w.values[w.pst_index(n, w.tables.class[Colour::White][v.geometry.parse(sq).unwrap()])];
    assert!(at("d4") > 0 && at("a1") < 0 && at("e5") == at("d5"), "{} {}", at("d4"), at("a1"));
    // Mirror images share a class; Black's are seen from rank 8.
    assert_eq!(
        w.tables.class[Colour::White][v.geometry.parse("b1").unwrap()],
        w.tables.class[Colour::White][v.geometry.parse("g1").unwrap()]
    );
    assert_eq!(
        w.tables.class[1][v.geometry.parse("b8").unwrap()],
        w.tables.class[Colour::White][v.geometry.parse("b1").unwrap()]
    );
    let pst = |fen: &str| {
        let f = features(&Position::from_fen(&v, fen).unwrap(), &w);
        f.values
            .iter()
            .enumerate()
            .filter(|&(j, _)| matches!(w.slot(j), Slot::Pst(..)))
            .map(|(j, &x)| x * w.values[j])
            .sum::<i32>()
    };
    assert!(pst("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1") > 0 && pst("4k3/8/8/8/8/8/8/N3K3 w - - 0 1") < 0);
    // Sultan's Game: 11 files, 6 classes a rank with the middle one.
    assert_eq!(Weights::defaults(&Variant::builtin("sultan")).classes(), 66);
}

#[test]
fn a_spare_king_has_material_value_the_last_has_none() {
    let v = Variant::builtin("spartan");
    let w = Weights::defaults(&v);
    let k = v.piece_type('k').unwrap();
    assert!(w.get(Term::Material, k) > 100, "the second Spartan king is worth something");
    let m = |fen: &str| feature("spartan", fen, Term::Material, 'k');
    assert_eq!(m("1k4k1/8/8/8/8/8/8/4K3 w - - 0 1"), -1);
    assert_eq!(m("1k6/8/8/8/8/8/8/4K3 w - - 0 1"), 0);
    assert!(contribution("spartan", "1k4k1/8/8/8/8/8/8/4K3 w - - 0 1", Term::Material, 'k') < 0, "Black's spare king");
    let chess = Variant::builtin("chess");
    assert_eq!(Weights::defaults(&chess).get(Term::Material, chess.piece_type('k').unwrap()), 0, "chess's only king");
}

#[test]
fn a_variant_without_pieces_is_all_ending_and_huge_weights_stay_below_mate() {
    let v = Variant::from_toml("t", "extends = \"chess\"\nsetup = \"4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\"\n")
        .unwrap();
    let mut w = Weights::defaults(&v);
    let pos = Position::startpos(&v);
    assert_eq!(w.phase(&pos), 0);
    let p = v.piece_type('p').unwrap();
    w.set(Term::Material, p, i32::MAX);
    let up = Position::from_fen(&v, "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").unwrap();
    assert_eq!(evaluate(&up, &w), MATE_BOUND - 1);
}

#[test]
fn estimated_values_follow_mobility() {
    let v = Variant::from_toml("t", "extends = \"chess\"\n[[pieces]]\nletter = \"a\"\nbetza = \"BN\"\n").unwrap();
    let w = Weights::defaults(&v);
    let a = v.piece_type('a').unwrap();
    // 8.75 bishop moves + 5.25 knight moves on average: 40 × 14 = 560.
    assert_eq!(w.get(Term::Material, a), 560);
}

#[test]
fn weights_round_trip_and_reject_unknown_tables_and_letters() {
    let v = Variant::builtin("spartan");
    let mut w = Weights::defaults(&v);
    w.set(Term::Material, v.piece_type('g').unwrap(), 777);
    w.set(Term::Advance, v.piece_type('h').unwrap(), -5);
    let j = w.pst_index(v.piece_type('w').unwrap(), 13);
    w.values[j] = 42;
    let e = w.end(j);
    w.values[e] = -42;
    let white = w.side_index(0);
    w.values[white] = -35;
    let back = Weights::from_toml(&v, "w.toml", &w.to_toml()).unwrap();
    assert_eq!(back, w);
    let err = Weights::from_toml(&v, "w.toml", "[material]\nz = 5\n").unwrap_err();
    assert!(matches!(&err, WeightsError::Letter { letter, .. } if letter == "z"), "{err}");
    let err = err.to_string();
    assert!(err.contains("'z' is not a piece letter"), "{err}");
    let err = Weights::from_toml(&v, "w.toml", "[material]\ng = 5\n\n[materials]\n").unwrap_err().to_string();
    assert!(err.starts_with("w.toml:4: [materials] is not a table"), "{err}");
    let err = Weights::from_toml(&v, "w.toml", "[material]\ng = \"five\"\n").unwrap_err().to_string();
    assert!(err.starts_with("w.toml:2"), "{err}");
    // Errors at the start of a line name that line; a bad letter names its own line.
    let err = Weights::from_toml(&v, "w.toml", "[material]\ng = 5\ng = 6\n").unwrap_err().to_string();
    assert!(err.starts_with("w.toml:3"), "{err}");
    let err = Weights::from_toml(&v, "w.toml", "[mobility] # per move\ng = 5\nz = 6\n").unwrap_err().to_string();
    assert!(err.starts_with("w.toml:3: [mobility]: 'z'"), "{err}");
    let err = Weights::from_toml(&v, "w.toml", "[pst]\ng = [1, 2]\n").unwrap_err().to_string();
    assert!(err.contains("needs 32 numbers"), "{err}");
}

#[test]
fn an_endgame_weight_left_out_follows_the_middlegame_one() {
    let v = Variant::builtin("chess");
    let w = Weights::from_toml(&v, "w.toml", "[mobility]\nn = 7\nb = 5\n[mobility_end]\nb = 1\n").unwrap();
    let (n, b, r) = (v.piece_type('n').unwrap(), v.piece_type('b').unwrap(), v.piece_type('r').unwrap());
    let end = |t: PieceType| w.values[w.end(w.index(Term::Mobility, t))];
    assert_eq!((end(n), end(b), end(r)), (7, 1, 2));
}

#[test]
fn weight_files_of_the_earlier_evaluation_still_load() {
    for name in builtin_names() {
        let v = Variant::builtin(name);
        let path = format!("{}/../data/piece-values/{name}-all.toml", env!("CARGO_MANIFEST_DIR"));
        let w = Weights::load(&v, Path::new(&path)).unwrap();
        assert_ne!(w, Weights::defaults(&v), "{name}");
    }
}
