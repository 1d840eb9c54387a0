//! Castling: the `[castling]` table, and the king's castling move (`O` in its Betza).

use super::kit::q;
use super::setup::{Board, Fen};
use super::Out;
use std::fmt::Write;

/// Whether castling is on, its table, and the castling king's type with the files it moves.
pub(super) struct Castling {
    pub(super) on: bool,
    pub(super) table: String,
    pub(super) king: Option<(String, u32)>,
}

/// Castling: on when FSF allows it, the setup gives rights and the pieces exist.
pub(super) fn castling(o: &mut Out, fen: &Fen, board: &Board, pieces: &[String]) -> Castling {
    let (r, files, ranks) = (o.r, o.files, o.ranks);
    let has = |t: &str| pieces.iter().any(|p| p == t);
    let castle_king = (o.types("castlingKingPieceWhite"), o.types("castlingKingPieceBlack"));
    let castle_rooks = (o.types("castlingRookPiecesWhite"), o.types("castlingRookPiecesBlack"));
    let chess960 = r.val("chess960").bool();
    let rights_given = fen.castling != "-" && !fen.castling.is_empty();
    let mut castling = r.val("castling").bool() && rights_given;
    let mut castle_section = String::new();
    let mut castle_o: Option<(String, u32)> = None;
    if castling {
        let king = castle_king.0.first().cloned().unwrap_or_default();
        let rooks: Vec<String> = castle_rooks.0.iter().filter(|t| has(t)).cloned().collect();
        if castle_king.0 != castle_king.1 {
            o.refuse_key(
                "castlingKingPieceBlack",
                "castling pieces that differ by colour are not in hoplite's rule kit",
            );
        }
        if castle_rooks.0 != castle_rooks.1 {
            o.refuse_key(
                "castlingRookPiecesBlack",
                "castling rooks that differ by colour are not in hoplite's rule kit",
            );
        }
        let rank = r.val("castlingRank").int();
        if !(1..=ranks as i64).contains(&rank) {
            o.refuse_key("castlingRank", &format!("{rank} is not a rank of the board (1 to {ranks})"));
            castling = false;
        } else if !has(&king) || rooks.is_empty() {
            castling = false;
        } else {
            let rank = rank as u8;
            let starts: Vec<u8> = board
                .iter()
                .filter(|(&(_, rk), &(c, _))| rk == rank - 1 && c.is_ascii_uppercase() && r.type_of(c) == Some(&king))
                .map(|(&(f, _), _)| f)
                .collect();
            if starts.len() > 1 {
                o.refuse_key(
                    "castlingKingFile",
                    "several castling kings on the castling rank: the kit has no castling king file",
                );
            }
            let ks = r.val("castlingKingsideFile").int();
            let qs = r.val("castlingQueensideFile").int();
            let start = starts.first().map(|&f| f as i64 + 1).unwrap_or(ks - 2);
            let n = (ks - start).max(1) as u32;
            castle_o = Some((king.clone(), n));
            let file = |n: i64| ((b'a' + (n - 1) as u8) as char).to_string();
            let _ = writeln!(castle_section, "\n[castling]");
            let _ = writeln!(castle_section, "rook = {}", q(&o.letters(&rooks)));
            if ks != start + n as i64 {
                let _ = writeln!(castle_section, "king_side = {}", q(&file(ks)));
            }
            if qs != start - n as i64 {
                let _ = writeln!(castle_section, "queen_side = {}", q(&file(qs)));
            }
            if rank != 1 {
                let _ = writeln!(castle_section, "rank = {rank}");
            }
            let rks = r.val("castlingRookKingsideFile").int().min(files as i64);
            let rqs = r.val("castlingRookQueensideFile").int();
            if rks != files as i64 || rqs != 1 {
                let _ = writeln!(
                    castle_section,
                    "rook_files = {{ king_side = {}, queen_side = {} }}",
                    q(&file(rks)),
                    q(&file(rqs))
                );
            }
            if chess960 {
                let _ = writeln!(castle_section, "chess960 = true");
            }
            if r.val("oppositeCastling").bool() {
                let _ = writeln!(castle_section, "opposite = true");
            }
        }
    }
    Castling { on: castling, table: castle_section, king: castle_o }
}
