//! A section's resolved FSF rules written as a hoplite variant file in the rule kit's keys
//! (docs/variant-file.md), or refused with every reason: what the kit cannot express is never
//! dropped silently. One module for each part of the file: the setup, the pieces and their
//! moves, castling and the game's ends (`[rules]`).

mod castling;
mod ends;
mod hand;
mod kit;
mod moves;
mod outside;
mod pieces;
mod setup;

use crate::rules::{Origin, Rules, Setting, Squares};
use kit::{q, show};
use std::fmt::Write;

/// One reason a section is refused: the key (for the tally) and the whole message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub key: String,
    pub message: String,
}

/// Where the section being translated stands, for messages.
pub struct Place<'a> {
    pub file: &'a str,
    pub line: usize,
}

/// The section being translated, its board, and the reasons it is refused so far.
struct Out<'a> {
    r: &'a Rules,
    place: &'a Place<'a>,
    files: u8,
    ranks: u8,
    refusals: Vec<Refusal>,
}

impl Out<'_> {
    /// A refusal of a setting, naming where it comes from: a line, a built-in or FSF's default.
    fn refuse(&mut self, s: &Setting, why: &str) {
        let (file, name) = (self.place.file, &self.r.name);
        let shown = if s.raw.is_empty() { show(&s.val) } else { s.raw.clone() };
        let message = match &s.origin {
            Origin::File { file: f, section, line } if section == name => {
                format!("{f}:{line}: [{name}] {} = {shown}: {why}", s.key)
            }
            Origin::File { file: f, section, line } => {
                format!("{f}:{line}: [{name}] {} = {shown} (inherited from [{section}]): {why}", s.key)
            }
            Origin::Builtin(b) => format!(
                "{file}:{}: [{name}] inherited from FSF's built-in '{b}': {} = {shown}: {why}",
                self.place.line, s.key
            ),
            Origin::Default => {
                format!("{file}:{}: [{name}] FSF's default {} = {shown}: {why}", self.place.line, s.key)
            }
        };
        self.refusals.push(Refusal { key: s.key.clone(), message });
    }
    /// A refusal of a key's setting.
    fn refuse_key(&mut self, key: &str, why: &str) {
        let s = self.r.get(key).clone();
        self.refuse(&s, why);
    }
    /// A refusal about the section as a whole (no single key).
    fn refuse_section(&mut self, key: &str, why: &str) {
        let message = format!("{}:{}: [{}] {why}", self.place.file, self.place.line, self.r.name);
        self.refusals.push(Refusal { key: key.into(), message });
    }
    /// The squares of a set that are on the board.
    fn on_board(&self, s: &Squares) -> Squares {
        s.iter().copied().filter(|&(f, rk)| f < self.files && rk < self.ranks).collect()
    }
    /// A square-set key's squares on the board.
    fn sq(&self, key: &str) -> Squares {
        self.on_board(&self.r.val(key).squares())
    }
    /// A piece-type key's types.
    fn types(&self, key: &str) -> Vec<String> {
        self.r.val(key).types()
    }
    /// The letters of those types that are in the game.
    fn letters(&self, names: &[String]) -> String {
        names.iter().filter_map(|n| self.r.letter(n)).collect()
    }
    /// Every square of the board.
    fn full(&self) -> Squares {
        let ranks = self.ranks;
        (0..self.files).flat_map(|f| (0..ranks).map(move |rk| (f, rk))).collect()
    }
}

/// Writes `rules` as a hoplite variant file, or says why it cannot be.
pub fn translate(r: &Rules, place: &Place) -> Result<String, Vec<Refusal>> {
    let mut o = Out { r, place, files: r.files(), ranks: r.ranks(), refusals: Vec::new() };
    outside::refuse_outside_kit(&mut o);
    let (fen, board) = setup::read_setup(&mut o);
    // Pieces that start in hand are in play where they can be dropped.
    let hand = fen.pocket.as_deref().filter(|_| r.val("pieceDrops").bool()).unwrap_or("");
    let pieces = pieces::pieces_in_play(&mut o, &board, hand);
    let royal = pieces::royalty(&mut o, &pieces);
    let mut text = header(r, place);
    let castle = castling::castling(&mut o, &fen, &board, &pieces);
    // Checks: the rule's count is the start position's.
    let checks = r.val("checkCounting").bool().then(|| fen.checks.unwrap_or((1, 1)));
    let _ = writeln!(text, "setup = {}", q(&setup::setup_line(&fen, castle.on, checks, r.val("pieceDrops").bool())));
    let per_type = moves::PerType::new(&o, &board);
    let written = pieces::pieces_tables(&mut o, &pieces, &board, &royal, &castle.king, &per_type);
    text.push_str(&written.text);
    text.push_str(&pieces::promotion_table(&o, &written));
    text.push_str(&castle.table);
    let has_pawn = pieces.iter().any(|p| p == "pawn");
    let rules = ends::rules_table(&mut o, checks, has_pawn);
    if !rules.is_empty() {
        let _ = write!(text, "\n[rules]\n{rules}");
    }
    if o.refusals.is_empty() {
        Ok(text)
    } else {
        Err(o.refusals)
    }
}

/// The file's first lines: where it comes from, its names and its board.
fn header(r: &Rules, place: &Place) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Imported from {}:{} [{}] by `hoplite import` (Fairy-Stockfish rules).",
        place.file, place.line, r.name
    );
    let _ = writeln!(text, "name = {}", q(&r.name));
    let _ = writeln!(text, "description = {}", q(&format!("Fairy-Stockfish's '{}'", r.name)));
    let _ = writeln!(text, "uci_variant = {}", q(&r.name));
    let _ = writeln!(text, "files = {}", r.files());
    let _ = writeln!(text, "ranks = {}", r.ranks());
    text
}
