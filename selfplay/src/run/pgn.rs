//! Games in PGN: moves in SAN from the start position (the opening included), with the
//! variant's letters and a `[Variant]` tag as Fairy-Stockfish reads them.

use crate::run::game::GameRecord;
use hoplite_core::{Colour, Position};

/// One game in PGN, moves in SAN from the start position (the opening included).
pub fn pgn_text(rec: &GameRecord) -> String {
    let variant = &rec.variant;
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        s.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")))
    };
    tag(&mut s, "Event", &format!("hoplite {}", rec.config));
    tag(&mut s, "Site", "hoplite");
    tag(&mut s, "Date", "????.??.??");
    tag(&mut s, "Round", &(rec.game_id + 1).to_string());
    tag(&mut s, "White", &rec.white);
    tag(&mut s, "Black", &rec.black);
    tag(&mut s, "Result", rec.result.as_str());
    tag(&mut s, "Variant", &variant.name);
    if rec.start_fen != variant.setup {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &rec.start_fen);
    }
    tag(&mut s, "Termination", rec.termination.as_str());
    tag(&mut s, "GameId", &rec.game_id.to_string());
    s.push('\n');
    let start = Position::from_fen(variant, &rec.start_fen).expect("the game's own start");
    let mut number = start.fullmove_number();
    let mut black = start.side_to_move() == Colour::Black;
    let mut text = String::new();
    for (i, m) in rec.opening_san.iter().chain(&rec.san).enumerate() {
        if !black {
            text += &format!("{number}. ");
        } else if i == 0 {
            text += &format!("{number}... ");
        }
        text += m;
        text.push(' ');
        if black {
            number += 1;
        }
        black = !black;
    }
    text += rec.result.as_str();
    // Wrap at about 80 columns.
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + word.len() >= 80 {
            s += &line;
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += word;
    }
    s += &line;
    s += "\n\n";
    s
}
