//! The pieces: which types are in play, which are royal, their `[[pieces]]` tables and the
//! `[promotion]` table.

use super::kit::{q, squares_value};
use super::moves::{piece_moves, Moves, PerType};
use super::setup::Board;
use super::Out;
use crate::rules::{Squares, TypeInfo};
use std::collections::BTreeSet;
use std::fmt::Write;

/// FSF's pawn value (PawnValueMg), the unit of `pieceValueMg`.
const FSF_PAWN: i64 = 126;

/// The pieces that can occur: in the setup or its hand, promotion targets of those, promoted forms, and
/// pieces the end rules name; refused beyond 16 types.
pub(super) fn pieces_in_play(o: &mut Out, board: &Board, hand: &str) -> Vec<String> {
    let r = o.r;
    let letters = board.values().map(|&(c, _)| c).chain(hand.chars());
    let mut occurs: BTreeSet<String> = letters.filter_map(|c| r.type_of(c).map(str::to_string)).collect();
    let royal_rule_types: Vec<String> = o.types("extinctionPieceTypes").into_iter().filter(|t| t != "*").collect();
    if r.val("extinctionValue").text() != "none" || r.val("extinctionPseudoRoyal").bool() {
        occurs.extend(royal_rule_types.iter().filter(|t| r.letter(t).is_some()).cloned());
    }
    loop {
        let before = occurs.len();
        for t in occurs.clone() {
            for c in ["White", "Black"] {
                if o.types(&format!("promotionPawnTypes{c}")).contains(&t) {
                    occurs.extend(o.types(&format!("promotionPieceTypes{c}")).into_iter().filter(|n| n != "*"));
                }
            }
            if let Some(p) = r.types.get(&t).and_then(|i| i.promoted.as_ref()) {
                occurs.extend(p.val.types());
            }
        }
        if occurs.len() == before {
            break;
        }
    }
    let pieces: Vec<String> = r.present().into_iter().filter(|t| occurs.contains(t)).collect();
    if pieces.len() > 16 {
        o.refuse_section("pieces", &format!("{} piece types: hoplite allows at most 16", pieces.len()));
    }
    pieces
}

/// Royalty: FSF's king; pseudo-royal pieces; Spartan-style duple check.
pub(super) fn royalty(o: &mut Out, pieces: &[String]) -> BTreeSet<String> {
    let r = o.r;
    let has = |t: &str| pieces.iter().any(|p| p == t);
    let royal_rule_types: Vec<String> = o.types("extinctionPieceTypes").into_iter().filter(|t| t != "*").collect();
    let pseudo = r.val("extinctionPseudoRoyal").bool();
    let duple = pseudo && r.val("dupleCheck").bool();
    let ext_count = r.val("extinctionPieceCount").int();
    let mut royal: BTreeSet<String> = BTreeSet::new();
    if has("king") {
        royal.insert("king".into());
    }
    if duple {
        // With duple check a side is in check only when all its kings are attacked: hoplite's
        // royal rule, exactly, while the count is 0 and no other royal exists.
        if ext_count != 0 || has("king") || o.types("extinctionPieceTypes").iter().any(|t| t == "*") {
            o.refuse_key(
                "dupleCheck",
                "duple check beside a royal king, with all pieces, or with a count is not in hoplite's rule kit",
            );
        } else {
            royal.extend(royal_rule_types.iter().cloned());
        }
    }
    royal
}

/// The pieces' `[[pieces]]` tables, and what the `[promotion]` table needs from them.
#[derive(Default)]
pub(super) struct Written {
    pub(super) text: String,
    promotes_any: bool,
    shogi_any: bool,
    limits: Vec<(char, i64)>,
}

/// The `[[pieces]]` table of every piece in play whose moves the kit can write.
pub(super) fn pieces_tables(
    o: &mut Out,
    pieces: &[String],
    board: &Board,
    royal: &BTreeSet<String>,
    castle_king: &Option<(String, u32)>,
    k: &PerType,
) -> Written {
    let mut w = Written::default();
    for ty in pieces {
        let Some(m) = piece_moves(o, ty, k, castle_king) else { continue };
        piece_table(o, ty, &m, board, royal, k, &mut w);
    }
    w
}

/// One piece's `[[pieces]]` table: its letter, name, moves, value, roles and regions.
fn piece_table(
    o: &mut Out,
    ty: &str,
    m: &Moves,
    board: &Board,
    royal: &BTreeSet<String>,
    k: &PerType,
    w: &mut Written,
) {
    let (r, files, ranks) = (o.r, o.files, o.ranks);
    let info = &r.types[ty];
    let letter = info.letter.expect("present");
    let piece_text = &mut w.text;
    let _ = writeln!(piece_text, "\n[[pieces]]");
    let _ = writeln!(piece_text, "letter = {}", q(&letter.to_string()));
    let _ = writeln!(piece_text, "name = {}", q(ty));
    let _ = writeln!(piece_text, "betza = {}", q(&m.betza));
    if m.turned {
        let _ = writeln!(piece_text, "turned = true");
    }
    piece_text.push_str(&m.moves_from);
    if let Some(v) = &info.value {
        let _ = writeln!(piece_text, "value = {}", (v.val.int() * 100 + FSF_PAWN / 2) / FSF_PAWN);
    }
    if royal.contains(ty) {
        let _ = writeln!(piece_text, "royal = true");
    }
    let (nmr_same, in_nmr) = k.same(ty, &k.nmr.0, &k.nmr.1);
    if k.n_move > 0 && !nmr_same {
        o.refuse_key("nMoveRuleTypesBlack", "move-rule pieces that differ by colour are not in hoplite's rule kit");
    }
    let resets = if k.n_move > 0 { in_nmr } else { ty == "pawn" };
    if resets {
        let _ = writeln!(piece_text, "pawn = true");
    }
    if k.immune.iter().any(|t| t == ty) {
        let _ = writeln!(piece_text, "no_same_capture = true");
    }
    if m.initial_used {
        // Hoplite's default: the ranks the type stands on in the setup, per colour.
        let mut setup_ranks: [Squares; 2] = Default::default();
        for (&(_, rk), &(c, _)) in board {
            if r.type_of(c) == Some(ty) {
                let side = usize::from(c.is_ascii_lowercase());
                setup_ranks[side].extend((0..files).map(|f| (f, rk)));
            }
        }
        if setup_ranks[0] != k.ds.0 || setup_ranks[1] != k.ds.1 {
            let _ = writeln!(piece_text, "initial = {}", squares_value(&k.ds.0, &k.ds.1, files, ranks));
        }
    }
    // Mobility regions: FSF's empty region means the whole board.
    let mob = |i: usize| info.mobility[i].as_ref().map(|s| o.on_board(&s.val.squares())).unwrap_or_default();
    let (mw, mb) = (mob(0), mob(1));
    if !mw.is_empty() || !mb.is_empty() {
        let full = o.full();
        let (mw, mb) = (if mw.is_empty() { full.clone() } else { mw }, if mb.is_empty() { full } else { mb });
        let _ = writeln!(piece_text, "region = {}", squares_value(&mw, &mb, files, ranks));
    }
    promotions(o, ty, info, w);
    if let Some(l) = &info.limit {
        if l.val.int() > 0 {
            w.limits.push((letter, l.val.int()));
        }
    }
}

/// A piece's promotion: pawn-style (`promotes_to`) and shogi-style (`promotes`).
fn promotions(o: &Out, ty: &str, info: &TypeInfo, w: &mut Written) {
    let r = o.r;
    let piece_text = &mut w.text;
    // Pawn-style promotion.
    let pp = (
        o.types("promotionPawnTypesWhite").iter().any(|t| t == ty),
        o.types("promotionPawnTypesBlack").iter().any(|t| t == ty),
    );
    if pp.0 || pp.1 {
        let to = |c: &str, on: bool| -> String {
            if on {
                o.letters(
                    &o.types(&format!("promotionPieceTypes{c}")).into_iter().filter(|t| t != "*").collect::<Vec<_>>(),
                )
            } else {
                String::new()
            }
        };
        let (wh, bl) = (to("White", pp.0), to("Black", pp.1));
        let shogi = info.promoted.as_ref().is_some_and(|p| !p.val.types().is_empty());
        // Nothing to promote to but promotion compulsory: FSF keeps the piece out of the
        // zone, which the kit writes `-`.
        let frozen = r.val("mandatoryPawnPromotion").bool() && !shogi;
        let (wh, bl) = (
            if wh.is_empty() && pp.0 && frozen { "-".to_string() } else { wh },
            if bl.is_empty() && pp.1 && frozen { "-".to_string() } else { bl },
        );
        if wh == bl {
            let _ = writeln!(piece_text, "promotes_to = {}", q(&wh));
        } else {
            let _ = writeln!(piece_text, "promotes_to = {{ white = {}, black = {} }}", q(&wh), q(&bl));
        }
        w.promotes_any = true;
    }
    // Shogi-style promotion.
    if let Some(p) = &info.promoted {
        if let Some(to) = p.val.types().first().and_then(|t| r.letter(t)) {
            let _ = writeln!(w.text, "promotes = {}", q(&to.to_string()));
            w.shogi_any = true;
        }
    }
}

/// The `[promotion]` table: the zone when not the last rank, optional pawn or mandatory
/// shogi-style promotion, and promotion limits; empty when there is nothing to say.
pub(super) fn promotion_table(o: &Out, w: &Written) -> String {
    let (r, files, ranks) = (o.r, o.files, o.ranks);
    let mut text = String::new();
    if w.promotes_any || w.shogi_any {
        let (pw, pb) = (o.sq("promotionRegionWhite"), o.sq("promotionRegionBlack"));
        let last: Squares = (0..files).map(|f| (f, ranks - 1)).collect();
        let first: Squares = (0..files).map(|f| (f, 0)).collect();
        let mut p = String::new();
        if pw != last || pb != first {
            let _ = writeln!(p, "region = {}", squares_value(&pw, &pb, files, ranks));
        }
        if w.promotes_any && !r.val("mandatoryPawnPromotion").bool() {
            let _ = writeln!(p, "optional = true");
        }
        if w.shogi_any && r.val("mandatoryPiecePromotion").bool() {
            let _ = writeln!(p, "mandatory = true");
        }
        if !w.limits.is_empty() {
            let items: Vec<String> = w.limits.iter().map(|(l, n)| format!("{l} = {n}")).collect();
            let _ = writeln!(p, "limit = {{ {} }}", items.join(", "));
        }
        if !p.is_empty() {
            let _ = write!(text, "\n[promotion]\n{p}");
        }
    }
    text
}
