//! A piece's moves: FSF's Betza of the type, with the section's initial steps, en passant and
//! castling, written in hoplite's Betza; refused where the two cannot agree.

use super::kit::squares_value;
use super::setup::Board;
use super::Out;
use crate::betza::{parse_fsf, to_hoplite, Move, Travel};
use crate::rules::Squares;
use std::collections::BTreeSet;
use std::fmt::Write;

/// FSF's Betza of its built-in piece types (as data/fsf/variants.ini's header lists them),
/// before their hard-coded extras.
fn builtin_betza(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "pawn" => "fmWfceF",
        "knight" => "N",
        "bishop" => "B",
        "rook" => "R",
        "queen" => "Q",
        "fers" => "F",
        "alfil" => "A",
        "fersAlfil" => "FA",
        "silver" => "FfW",
        "aiwok" => "RNF",
        "bers" => "RF",
        "archbishop" => "BN",
        "chancellor" => "RN",
        "amazon" => "QN",
        "knibis" => "mNcB",
        "biskni" => "mBcN",
        "kniroo" => "mNcR",
        "rookni" => "mRcN",
        "shogiPawn" => "fW",
        "lance" => "fR",
        "shogiKnight" => "fN",
        "gold" => "WfF",
        "dragonHorse" => "BW",
        "clobber" => "cW",
        "breakthrough" => "fmWfF",
        "immobile" => "",
        "cannon" => "mRcpR",
        "janggiCannon" => "pR",
        "soldier" => "fsW",
        "horse" => "nN",
        "elephant" => "nA",
        "janggiElephant" => "nZ",
        "banner" => "RcpRnN",
        "wazir" => "W",
        "commoner" => "K",
        "centaur" => "KN",
        "king" => "K",
        _ => return None,
    })
}

/// The section's per-type rules the pieces' tables need: initial steps, en passant, the move
/// rule's pieces, mutual immunity, and which colours own each type.
pub(super) struct PerType {
    pub(super) double_step: bool,
    pub(super) ds: (Squares, Squares),
    ts: (Squares, Squares),
    ep_types: (Vec<String>, Vec<String>),
    ep_possible: (bool, bool),
    pub(super) n_move: i64,
    pub(super) nmr: (Vec<String>, Vec<String>),
    pub(super) immune: Vec<String>,
    owns: [BTreeSet<String>; 2],
}

impl PerType {
    /// Reads the per-type rules of the section whose setup is `board`.
    pub(super) fn new(o: &Out, board: &Board) -> PerType {
        // En passant: FSF's en-passant regions limit the squares that become targets. Hoplite
        // has no such key, so a region must leave every square a move can create.
        let ep_regions = (o.sq("enPassantRegionWhite"), o.sq("enPassantRegionBlack"));
        PerType {
            double_step: o.r.val("doubleStep").bool(),
            ds: (o.sq("doubleStepRegionWhite"), o.sq("doubleStepRegionBlack")),
            ts: (o.sq("tripleStepRegionWhite"), o.sq("tripleStepRegionBlack")),
            ep_types: (o.types("enPassantTypesWhite"), o.types("enPassantTypesBlack")),
            ep_possible: (!ep_regions.0.is_empty(), !ep_regions.1.is_empty()),
            n_move: o.r.val("nMoveRule").int(),
            nmr: (o.types("nMoveRuleTypesWhite"), o.types("nMoveRuleTypesBlack")),
            immune: o.types("mutuallyImmuneTypes"),
            owns: owners(o, board),
        }
    }

    /// Whether a per-colour set treats a type the same for every colour that owns it, and
    /// whether the type is in it.
    pub(super) fn same(&self, ty: &str, w: &[String], b: &[String]) -> (bool, bool) {
        let (iw, ib) = (w.iter().any(|t| t == ty), b.iter().any(|t| t == ty));
        match (self.owns[0].contains(ty), self.owns[1].contains(ty)) {
            (true, true) => (iw == ib, iw),
            (true, false) => (true, iw),
            (false, true) => (true, ib),
            (false, false) => (true, iw || ib),
        }
    }
}

/// The types each colour can have: in its setup, then what those promote to. A per-colour
/// FSF setting matters only for the colours that own the type.
fn owners(o: &Out, board: &Board) -> [BTreeSet<String>; 2] {
    let r = o.r;
    let mut owns: [BTreeSet<String>; 2] = Default::default();
    for &(c, _) in board.values() {
        if let Some(t) = r.type_of(c) {
            owns[usize::from(c.is_ascii_lowercase())].insert(t.to_string());
        }
    }
    for (i, colour) in ["White", "Black"].iter().enumerate() {
        loop {
            let before = owns[i].len();
            for t in owns[i].clone() {
                if o.types(&format!("promotionPawnTypes{colour}")).contains(&t) {
                    owns[i].extend(o.types(&format!("promotionPieceTypes{colour}")).into_iter().filter(|n| n != "*"));
                }
                if let Some(p) = r.types.get(&t).and_then(|x| x.promoted.as_ref()) {
                    owns[i].extend(p.val.types());
                }
            }
            if owns[i].len() == before {
                break;
            }
        }
    }
    owns
}

/// A piece's moves as the kit writes them.
pub(super) struct Moves {
    /// Its Betza, with castling.
    pub(super) betza: String,
    /// Its `moves_from` lines (the soldier's sideways steps past the river).
    pub(super) moves_from: String,
    /// Whether it makes initial moves (which then need their squares).
    pub(super) initial_used: bool,
    /// Whether its moves differ between left and right: Fairy-Stockfish turns them round
    /// for Black, which hoplite's `turned` says.
    pub(super) turned: bool,
}

/// The moves of a piece type in hoplite's Betza, or `None` when it is refused.
pub(super) fn piece_moves(o: &mut Out, ty: &str, k: &PerType, castle_king: &Option<(String, u32)>) -> Option<Moves> {
    let r = o.r;
    let letter_set = r.types[ty].letter_set.clone().unwrap_or_else(|| r.get("startFen").clone());
    let (fsf_betza, mut moves) = fsf_moves(o, ty)?;
    let (ep_same, ep_type) = k.same(ty, &k.ep_types.0, &k.ep_types.1);
    let mut en_passant = ty == "pawn" || ep_type;
    if ty != "pawn" && !ep_same {
        o.refuse_key("enPassantTypesBlack", "en-passant pieces that differ by colour are not in hoplite's rule kit");
    }
    // En passant for one colour only: the other's region is empty.
    en_passant &= k.ep_possible.0 || k.ep_possible.1;
    let initial_used = initial_steps(o, ty, &mut moves, k);
    let moves_from = soldier_steps(o, ty, &mut moves);
    if en_passant {
        let quiet: BTreeSet<(i8, i8)> = moves.iter().filter(|m| !m.capture).map(|m| m.vector).collect();
        if moves.iter().any(|m| {
            m.capture
                && m.travel == Travel::Leap
                && quiet.contains(&m.vector)
                && !moves.contains(&Move { capture: false, ..*m })
        }) {
            o.refuse(
                &letter_set,
                "en passant with a capture another move also makes quietly cannot be written in hoplite's Betza",
            );
        }
    }
    // Fairy-Stockfish turns a piece's moves round for Black (its right is White's left),
    // hoplite mirrors them unless the piece is `turned`: the same when left and right are alike.
    let turned = moves.iter().any(|m| !moves.contains(&Move { vector: (-m.vector.0, m.vector.1), ..*m }));
    // A piece without moves (FSF's immobile) has an empty Betza string.
    let mut betza = match to_hoplite(&moves, en_passant) {
        Ok(b) => b,
        Err(e) => {
            o.refuse(&letter_set, &format!("{ty}'s Betza '{fsf_betza}': {e}"));
            return None;
        }
    };
    if let Some((k, n)) = castle_king {
        if k == ty {
            betza.push_str(&format!("O{n}"));
        }
    }
    Some(Moves { betza, moves_from, initial_used, turned })
}

/// FSF's Betza of a type (a custom piece's own, else the built-in's) and the moves it makes;
/// `None` when it is refused.
fn fsf_moves(o: &mut Out, ty: &str) -> Option<(String, BTreeSet<Move>)> {
    let r = o.r;
    let info = &r.types[ty];
    let letter_set = info.letter_set.clone().unwrap_or_else(|| r.get("startFen").clone());
    let custom = ty.starts_with("customPiece") || (ty == "king" && info.betza.is_some());
    let fsf_betza =
        if custom { info.betza.clone().unwrap_or_default() } else { builtin_betza(ty).unwrap_or("").to_string() };
    if ty == "janggiCannon" {
        o.refuse(
            &letter_set,
            "the Janggi cannon (may neither jump over nor capture a cannon) is not in hoplite's rule kit",
        );
        return None;
    }
    match parse_fsf(&fsf_betza) {
        Ok(m) => Some((fsf_betza, m)),
        Err(e) => {
            o.refuse(&letter_set, &e);
            None
        }
    }
}

/// The pawn's double and triple steps from FSF's regions, and FSF's `doubleStep = false`
/// turning off every initial move; whether the piece then makes initial moves.
fn initial_steps(o: &mut Out, ty: &str, moves: &mut BTreeSet<Move>, k: &PerType) -> bool {
    let (double_step, ds, ts) = (k.double_step, &k.ds, &k.ts);
    let mut initial_used = false;
    if ty == "pawn" {
        if double_step && (!ds.0.is_empty() || !ds.1.is_empty()) {
            moves.insert(Move { initial: true, capture: false, travel: Travel::Lame, vector: (0, 2) });
            initial_used = true;
        }
        if !ts.0.is_empty() || !ts.1.is_empty() {
            if ts != ds || !double_step {
                o.refuse_key(
                    "tripleStepRegionWhite",
                    "a triple step from other squares than the double step: hoplite's `initial` is one region per piece",
                );
            }
            moves.insert(Move { initial: true, capture: false, travel: Travel::Lame, vector: (0, 3) });
        }
    } else if moves.iter().any(|m| m.initial) {
        if double_step {
            initial_used = true;
        } else {
            // FSF's `doubleStep = false` turns off every initial move.
            moves.retain(|m| !m.initial);
        }
    }
    initial_used
}

/// The soldier past FSF's `soldierPromotionRank`: its sideways steps as a `moves_from` line.
fn soldier_steps(o: &Out, ty: &str, moves: &mut BTreeSet<Move>) -> String {
    let (files, ranks) = (o.files, o.ranks);
    let mut moves_from = String::new();
    if ty == "soldier" {
        let rank = o.r.val("soldierPromotionRank").int();
        if rank > 1 {
            moves.retain(|m| m.vector.0 == 0);
            let zone: Squares = (0..files).flat_map(|f| ((rank - 1) as u8..ranks).map(move |rk| (f, rk))).collect();
            let black: Squares = zone.iter().map(|&(f, rk)| (f, ranks - 1 - rk)).collect();
            let _ = writeln!(
                moves_from,
                "moves_from = {{ squares = {}, betza = \"sW\" }}",
                squares_value(&zone, &black, files, ranks)
            );
        }
    }
    moves_from
}
