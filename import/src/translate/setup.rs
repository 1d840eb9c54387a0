//! The setup: FSF's start FEN read as FSF reads it, its board, and the kit's `setup` line.

use super::Out;
use std::collections::BTreeMap;

/// The FEN fields as FSF reads them (its `startFen` key), rewritten in hoplite's order.
pub(super) struct Fen {
    board: String,
    pub(super) pocket: Option<String>,
    side: String,
    pub(super) castling: String,
    ep: String,
    pub(super) checks: Option<(u32, u32)>,
    halfmove: String,
    fullmove: String,
}

/// FSF's FEN fields: board and pocket, side, castling, en passant, checks and the counters.
fn read_fen(fen: &str) -> Fen {
    let t: Vec<&str> = fen.split_whitespace().collect();
    let mut board = t.first().copied().unwrap_or("").to_string();
    let mut pocket = None;
    if let Some(i) = board.find('[') {
        pocket = Some(board[i + 1..].trim_end_matches(']').to_string());
        board.truncate(i);
    }
    let side = t.get(1).copied().unwrap_or("w").to_string();
    let mut i = 2;
    let (mut castling, mut ep) = ("-".to_string(), "-".to_string());
    // A number right after the side to move: no castling or en-passant fields.
    if t.get(i).is_some_and(|s| !s.starts_with(|c: char| c.is_ascii_digit())) {
        castling = t[i].to_string();
        i += 1;
        if let Some(s) = t.get(i) {
            ep = s.to_string();
            i += 1;
        }
    }
    let mut checks = None;
    if let Some(s) = t.get(i).filter(|s| s.contains('+')) {
        let parts: Vec<&str> = s.trim_start_matches('+').split('+').collect();
        if parts.len() == 2 {
            let (w, b) = (parts[0].parse().unwrap_or(0), parts[1].parse().unwrap_or(0));
            // Lichess style `+W+B` counts checks given, of three.
            checks = Some(if s.starts_with('+') { (3u32.saturating_sub(w), 3u32.saturating_sub(b)) } else { (w, b) });
        }
        i += 1;
    }
    let halfmove = t.get(i).copied().unwrap_or("0").to_string();
    let fullmove = t.get(i + 1).copied().unwrap_or("1").to_string();
    // An en-passant field that is no square (a counting limit) names no en-passant square.
    if !ep.starts_with(|c: char| c.is_ascii_lowercase()) {
        ep = "-".into();
    }
    Fen { board, pocket, side, castling, ep, checks, halfmove, fullmove }
}

/// A FEN board: (file, rank) -> (letter as written, promoted with `+`).
pub(super) type Board = BTreeMap<(u8, u8), (char, bool)>;

/// The FEN board's squares: (file, rank) -> (letter as written, promoted `+`).
fn board_squares(board: &str, ranks: u8) -> Result<Board, String> {
    let mut out = BTreeMap::new();
    for (i, row) in board.split('/').enumerate() {
        let r = ranks as i64 - 1 - i as i64;
        let mut f = 0u8;
        let mut plus = false;
        let cs: Vec<char> = row.chars().collect();
        let mut j = 0;
        while j < cs.len() {
            let c = cs[j];
            if c.is_ascii_digit() {
                let d: String = cs[j..].iter().take_while(|c| c.is_ascii_digit()).collect();
                f += d.parse::<u8>().map_err(|_| format!("bad number in the FEN row '{row}'"))?;
                j += d.len();
                continue;
            }
            match c {
                '+' => plus = true,
                '~' => {}
                '*' => f += 1,
                c if c.is_ascii_alphabetic() => {
                    if r >= 0 {
                        out.insert((f, r as u8), (c, plus));
                    }
                    plus = false;
                    f += 1;
                }
                _ => return Err(format!("'{c}' in the FEN board")),
            }
            j += 1;
        }
    }
    Ok(out)
}

/// The start position's FEN and board; refused when the board does not read or holds a letter
/// that is no piece of the variant.
pub(super) fn read_setup(o: &mut Out) -> (Fen, Board) {
    let r = o.r;
    let fen = read_fen(r.val("startFen").text());
    let board = match board_squares(&fen.board, o.ranks) {
        Ok(b) => b,
        Err(e) => {
            o.refuse_key("startFen", &e);
            BTreeMap::new()
        }
    };
    if fen.pocket.as_deref().is_some_and(|p| !p.is_empty() && p != "-") && !r.val("pieceDrops").bool() {
        // A pocket without drops never enters play; dropped from the setup below.
    }
    for (_, &(c, _)) in board.iter() {
        if r.type_of(c).is_none() {
            o.refuse_key("startFen", &format!("'{c}' in the start position is no piece of the variant"));
            break;
        }
    }
    (fen, board)
}

/// The kit's `setup`: FSF's FEN in hoplite's order, castling rights only where castling is on,
/// the checks' count when checks are counted, and the pieces in hand where drops are on.
pub(super) fn setup_line(fen: &Fen, castling: bool, checks: Option<(u32, u32)>, drops: bool) -> String {
    let pocket = fen.pocket.as_deref().filter(|_| drops).map_or(String::new(), |p| format!("[{p}]"));
    format!(
        "{}{pocket} {} {} {}{} {} {}",
        fen.board,
        fen.side,
        if castling { fen.castling.as_str() } else { "-" },
        fen.ep,
        checks.map_or(String::new(), |(w, b)| format!(" {w}+{b}")),
        fen.halfmove,
        fen.fullmove
    )
}
