//! Values written in the kit's syntax: TOML strings, squares and square sets, results.

use crate::rules::{Squares, Val};

/// A setting's value as FSF's ini would write it, for messages.
pub(super) fn show(v: &Val) -> String {
    match v {
        Val::Bool(b) => b.to_string(),
        Val::Int(n) => n.to_string(),
        Val::Text(t) => t.clone(),
        Val::Squares(s) => {
            let v: Vec<String> = s.iter().map(|&(f, r)| square(f, r)).collect();
            if v.is_empty() {
                "-".into()
            } else {
                v.join(" ")
            }
        }
        Val::Types(t) if t.is_empty() => "-".into(),
        Val::Types(t) => t.join(","),
    }
}

/// A square's name: `a1`.
fn square(f: u8, r: u8) -> String {
    format!("{}{}", (b'a' + f) as char, r + 1)
}

/// A TOML string.
pub(super) fn q(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Per-colour square sets written in the kit's syntax: one string in White's view when Black's
/// is its mirror image, else a `{ white, black }` table.
pub(super) fn squares_value(w: &Squares, b: &Squares, files: u8, ranks: u8) -> String {
    let mirror: Squares = w.iter().map(|&(f, r)| (f, ranks - 1 - r)).collect();
    if mirror == *b {
        q(&square_list(w, files, ranks))
    } else {
        format!("{{ white = {}, black = {} }}", q(&square_list(w, files, ranks)), q(&square_list(b, files, ranks)))
    }
}

/// A square set as `*` (the board), `*3` (a rank), `c*` (a file) and squares.
fn square_list(s: &Squares, files: u8, ranks: u8) -> String {
    let mut s = s.clone();
    if s.len() == files as usize * ranks as usize {
        return "*".into();
    }
    let mut items = Vec::new();
    for r in 0..ranks {
        let row: Squares = (0..files).map(|f| (f, r)).collect();
        if row.is_subset(&s) {
            items.push(format!("*{}", r + 1));
            s = &s - &row;
        }
    }
    for f in 0..files {
        let col: Squares = (0..ranks).map(|r| (f, r)).collect();
        if col.is_subset(&s) {
            items.push(format!("{}*", (b'a' + f) as char));
            s = &s - &col;
        }
    }
    let mut rest: Vec<(u8, u8)> = s.into_iter().collect();
    rest.sort_by_key(|&(f, r)| (r, f));
    items.extend(rest.into_iter().map(|(f, r)| square(f, r)));
    items.join(" ")
}

/// The kit's name of an FSF value (win / loss / draw).
pub(super) fn result(v: &str) -> Option<&'static str> {
    match v {
        "win" => Some("win"),
        "loss" => Some("loss"),
        "draw" => Some("draw"),
        _ => None,
    }
}
