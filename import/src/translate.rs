//! A section's resolved FSF rules written as a hoplite variant file in the rule kit's keys
//! (notes/kit-spec.md), or refused with every reason: what the kit cannot express is never
//! dropped silently.

use super::betza::{parse_fsf, to_hoplite, Move, Travel};
use super::rules::{Origin, Rules, Setting, Squares, Val};
use std::collections::{BTreeMap, BTreeSet};
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

/// FSF's Betza of its built-in piece types (ini-keys.md), before their hard-coded extras.
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

/// FSF's pawn value (PawnValueMg), the unit of `pieceValueMg`.
const FSF_PAWN: i64 = 126;

struct Out<'a> {
    r: &'a Rules,
    place: &'a Place<'a>,
    refusals: Vec<Refusal>,
}

impl Out<'_> {
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
    fn refuse_key(&mut self, key: &str, why: &str) {
        let s = self.r.get(key).clone();
        self.refuse(&s, why);
    }
    /// A refusal about the section as a whole (no single key).
    fn refuse_section(&mut self, key: &str, why: &str) {
        let message = format!("{}:{}: [{}] {why}", self.place.file, self.place.line, self.r.name);
        self.refusals.push(Refusal { key: key.into(), message });
    }
}

fn show(v: &Val) -> String {
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

fn square(f: u8, r: u8) -> String {
    format!("{}{}", (b'a' + f) as char, r + 1)
}

/// A TOML string.
fn q(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Keys the kit has no counterpart for: refused when their value is not FSF's default. Keys
/// that only act on drops are left to `pieceDrops`, since without drops they change nothing.
const NOT_IN_KIT: &[(&str, &str)] = &[
    ("twoBoards", "bughouse's partner boards are not in hoplite's rule kit"),
    ("pieceDrops", "drops and holdings are not in hoplite's rule kit"),
    ("freeDrops", "drops are not in hoplite's rule kit"),
    ("gating", "gating (pieces entering on vacated squares) is not in hoplite's rule kit"),
    ("seirawanGating", "gating (pieces entering on vacated squares) is not in hoplite's rule kit"),
    ("cambodianMoves", "Ouk Chatrang's first moves are not in hoplite's rule kit"),
    ("wallOrMove", "a wall placed instead of a move (Atlantis) is not in hoplite's rule kit"),
    ("blastOnCapture", "explosions on capture (atomic) are not in hoplite's rule kit"),
    ("petrifyOnCaptureTypes", "capturers turning into walls are not in hoplite's rule kit"),
    ("diagonalLines", "Janggi's palace diagonals are not in hoplite's rule kit"),
    ("passWhite", "passing is not in hoplite's rule kit"),
    ("passBlack", "passing is not in hoplite's rule kit"),
    ("makpongRule", "Makpong's king-in-check rule is not in hoplite's rule kit"),
    ("flipEnclosedPieces", "flipping enclosed pieces is not in hoplite's rule kit"),
    ("nFoldValueAbsolute", "a repetition result from White's view is not in hoplite's rule kit"),
    ("moveRepetitionIllegal", "illegal move repetition is not in hoplite's rule kit"),
    ("chasingRule", "perpetual-chase rules are not in hoplite's rule kit"),
    ("shatarMateRule", "Shatar's mate rules are not in hoplite's rule kit"),
    ("bikjangRule", "bikjang (facing kings end the game) is not in hoplite's rule kit"),
    ("connectN", "connection wins are not in hoplite's rule kit"),
    ("connectNxN", "connection wins are not in hoplite's rule kit"),
    ("collinearN", "connection wins are not in hoplite's rule kit"),
    ("connectRegion1White", "connection wins are not in hoplite's rule kit"),
    ("connectRegion1Black", "connection wins are not in hoplite's rule kit"),
    ("connectRegion2White", "connection wins are not in hoplite's rule kit"),
    ("connectRegion2Black", "connection wins are not in hoplite's rule kit"),
    ("adjudicateFullBoard", "adjudication on a full board is not in hoplite's rule kit"),
    ("castlingWins", "castling as a win condition is not in hoplite's rule kit"),
    ("sittuyinPromotion", "Sittuyin's in-place promotion is not in hoplite's rule kit"),
    ("piecePromotionOnCapture", "promotion only on captures is not in hoplite's rule kit"),
    ("pieceDemotion", "demotion is not in hoplite's rule kit"),
];

fn is_default(v: &Val) -> bool {
    match v {
        Val::Bool(b) => !b,
        Val::Int(n) => *n == 0,
        Val::Text(t) => t == "none" || t == "-" || t.is_empty(),
        Val::Squares(s) => s.is_empty(),
        Val::Types(t) => t.is_empty(),
    }
}

/// Per-colour square sets written in the kit's syntax: one string in White's view when Black's
/// is its mirror image, else a `{ white, black }` table.
fn squares_value(w: &Squares, b: &Squares, files: u8, ranks: u8) -> String {
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

/// The FEN fields as FSF reads them (semantics.md, "FEN"), rewritten in hoplite's order.
struct Fen {
    board: String,
    pocket: Option<String>,
    side: String,
    castling: String,
    ep: String,
    checks: Option<(u32, u32)>,
    halfmove: String,
    fullmove: String,
}

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

/// The FEN board's squares: (file, rank) -> (letter as written, promoted `+`).
/// A FEN board: (file, rank) -> (letter as written, promoted with `+`).
type Board = BTreeMap<(u8, u8), (char, bool)>;

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

/// The kit's name of an FSF value (win / loss / draw).
fn result(v: &str) -> Option<&'static str> {
    match v {
        "win" => Some("win"),
        "loss" => Some("loss"),
        "draw" => Some("draw"),
        _ => None,
    }
}

/// Writes `rules` as a hoplite variant file, or says why it cannot be.
pub fn translate(r: &Rules, place: &Place) -> Result<String, Vec<Refusal>> {
    let mut o = Out { r, place, refusals: Vec::new() };
    let (files, ranks) = (r.files(), r.ranks());
    let on_board = |s: &Squares| -> Squares { s.iter().copied().filter(|&(f, rk)| f < files && rk < ranks).collect() };
    let sq = |key: &str| on_board(&r.val(key).squares());
    let types = |key: &str| r.val(key).types();
    let letters = |names: &[String]| -> String { names.iter().filter_map(|n| r.letter(n)).collect() };

    for s in &r.unknown {
        o.refuse(s, "not a key FSF knows (FSF ignores it); fix or remove it");
    }
    for &(key, why) in NOT_IN_KIT {
        let s = r.get(key).clone();
        let mut active = !is_default(&s.val);
        if key == "diagonalLines" || key.starts_with("connectRegion") {
            active = !on_board(&s.val.squares()).is_empty();
        }
        if active {
            o.refuse(&s, why);
        }
    }
    if r.val("blastOnCapture").bool() {
        // blastImmuneTypes and petrifyBlastPieces only matter with blasts, refused above.
    }
    if matches!(r.val("materialCounting").text(), "janggi") {
        o.refuse_key("materialCounting", "Janggi's point counting is not in hoplite's rule kit");
    }

    // The setup.
    let fen = read_fen(r.val("startFen").text());
    let board = match board_squares(&fen.board, ranks) {
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

    // The pieces that can occur: in the setup, promotion targets of those, promoted forms, and
    // pieces the end rules name.
    let mut occurs: BTreeSet<String> = board.values().filter_map(|&(c, _)| r.type_of(c).map(str::to_string)).collect();
    let royal_rule_types: Vec<String> = types("extinctionPieceTypes").into_iter().filter(|t| t != "*").collect();
    if r.val("extinctionValue").text() != "none" || r.val("extinctionPseudoRoyal").bool() {
        occurs.extend(royal_rule_types.iter().filter(|t| r.letter(t).is_some()).cloned());
    }
    loop {
        let before = occurs.len();
        for t in occurs.clone() {
            for c in ["White", "Black"] {
                if types(&format!("promotionPawnTypes{c}")).contains(&t) {
                    occurs.extend(types(&format!("promotionPieceTypes{c}")).into_iter().filter(|n| n != "*"));
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
    let has = |t: &str| pieces.iter().any(|p| p == t);

    // Which pieces make initial moves, where: FSF's double-step region.
    let double_step = r.val("doubleStep").bool();
    let ds = (sq("doubleStepRegionWhite"), sq("doubleStepRegionBlack"));
    let ts = (sq("tripleStepRegionWhite"), sq("tripleStepRegionBlack"));
    let ep_regions = (sq("enPassantRegionWhite"), sq("enPassantRegionBlack"));
    let ep_types = (types("enPassantTypesWhite"), types("enPassantTypesBlack"));

    // Royalty: FSF's king; pseudo-royal pieces; Spartan-style duple check.
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
        if ext_count != 0 || has("king") || types("extinctionPieceTypes").iter().any(|t| t == "*") {
            o.refuse_key(
                "dupleCheck",
                "duple check beside a royal king, with all pieces, or with a count is not in hoplite's rule kit",
            );
        } else {
            royal.extend(royal_rule_types.iter().cloned());
        }
    }

    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Imported from {}:{} [{}] by `hoplite import` (Fairy-Stockfish rules).",
        place.file, place.line, r.name
    );
    let _ = writeln!(text, "name = {}", q(&r.name));
    let _ = writeln!(text, "description = {}", q(&format!("Fairy-Stockfish's '{}'", r.name)));
    let _ = writeln!(text, "uci_variant = {}", q(&r.name));
    let _ = writeln!(text, "files = {files}");
    let _ = writeln!(text, "ranks = {ranks}");

    // Castling: on when FSF allows it, the setup gives rights and the pieces exist.
    let castle_king = (types("castlingKingPieceWhite"), types("castlingKingPieceBlack"));
    let castle_rooks = (types("castlingRookPiecesWhite"), types("castlingRookPiecesBlack"));
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
            let _ = writeln!(castle_section, "rook = {}", q(&letters(&rooks)));
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

    // Checks: the rule's count is the start position's.
    let checks = r.val("checkCounting").bool().then(|| fen.checks.unwrap_or((1, 1)));
    let setup = format!(
        "{} {} {} {}{} {} {}",
        fen.board,
        fen.side,
        if castling { fen.castling.as_str() } else { "-" },
        fen.ep,
        checks.map_or(String::new(), |(w, b)| format!(" {w}+{b}")),
        fen.halfmove,
        fen.fullmove
    );
    let _ = writeln!(text, "setup = {}", q(&setup));

    // En passant: FSF's en-passant regions limit the squares that become targets. Hoplite
    // has no such key, so a region must leave every square a move can create.
    let ep_possible = (!ep_regions.0.is_empty(), !ep_regions.1.is_empty());
    let mut promotes_any = false;
    let mut shogi_any = false;
    let mut limits: Vec<(char, i64)> = Vec::new();
    let mut piece_text = String::new();
    let n_move = r.val("nMoveRule").int();
    let nmr = (types("nMoveRuleTypesWhite"), types("nMoveRuleTypesBlack"));
    let immune = types("mutuallyImmuneTypes");
    // The types each colour can have: in its setup, then what those promote to. A per-colour
    // FSF setting matters only for the colours that own the type.
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
                if types(&format!("promotionPawnTypes{colour}")).contains(&t) {
                    owns[i].extend(types(&format!("promotionPieceTypes{colour}")).into_iter().filter(|n| n != "*"));
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
    // Whether a per-colour set treats a type the same for every colour that owns it, and
    // whether the type is in it.
    let same = |ty: &str, w: &[String], b: &[String]| -> (bool, bool) {
        let (iw, ib) = (w.iter().any(|t| t == ty), b.iter().any(|t| t == ty));
        match (owns[0].contains(ty), owns[1].contains(ty)) {
            (true, true) => (iw == ib, iw),
            (true, false) => (true, iw),
            (false, true) => (true, ib),
            (false, false) => (true, iw || ib),
        }
    };
    for ty in &pieces {
        let info = &r.types[ty];
        let letter = info.letter.expect("present");
        let letter_set = info.letter_set.clone().unwrap_or_else(|| r.get("startFen").clone());
        let custom = ty.starts_with("customPiece") || (ty == "king" && info.betza.is_some());
        let fsf_betza =
            if custom { info.betza.clone().unwrap_or_default() } else { builtin_betza(ty).unwrap_or("").to_string() };
        if ty == "janggiCannon" {
            o.refuse(
                &letter_set,
                "the Janggi cannon (may neither jump over nor capture a cannon) is not in hoplite's rule kit",
            );
            continue;
        }
        let mut moves = match parse_fsf(&fsf_betza) {
            Ok(m) => m,
            Err(e) => {
                o.refuse(&letter_set, &e);
                continue;
            }
        };
        let (ep_same, ep_type) = same(ty, &ep_types.0, &ep_types.1);
        let mut en_passant = ty == "pawn" || ep_type;
        if ty != "pawn" && !ep_same {
            o.refuse_key(
                "enPassantTypesBlack",
                "en-passant pieces that differ by colour are not in hoplite's rule kit",
            );
        }
        // En passant for one colour only: the other's region is empty.
        en_passant &= ep_possible.0 || ep_possible.1;
        let mut initial_used = false;
        let mut moves_from = String::new();
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
        if ty == "soldier" {
            let rank = r.val("soldierPromotionRank").int();
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
        // hoplite mirrors them: the same only when left and right are alike.
        if moves.iter().any(|m| !moves.contains(&Move { vector: (-m.vector.0, m.vector.1), ..*m })) {
            o.refuse(
                &letter_set,
                &format!("{ty}'s moves differ between left and right ('{fsf_betza}'): Fairy-Stockfish turns them round for Black, hoplite mirrors them"),
            );
            continue;
        }
        // A piece without moves (FSF's immobile) has an empty Betza string.
        let mut betza = match to_hoplite(&moves, en_passant) {
            Ok(b) => b,
            Err(e) => {
                o.refuse(&letter_set, &format!("{ty}'s Betza '{fsf_betza}': {e}"));
                continue;
            }
        };
        if let Some((k, n)) = &castle_o {
            if k == ty {
                betza.push_str(&format!("O{n}"));
            }
        }
        let _ = writeln!(piece_text, "\n[[pieces]]");
        let _ = writeln!(piece_text, "letter = {}", q(&letter.to_string()));
        let _ = writeln!(piece_text, "name = {}", q(ty));
        let _ = writeln!(piece_text, "betza = {}", q(&betza));
        piece_text.push_str(&moves_from);
        if let Some(v) = &info.value {
            let _ = writeln!(piece_text, "value = {}", (v.val.int() * 100 + FSF_PAWN / 2) / FSF_PAWN);
        }
        if royal.contains(ty) {
            let _ = writeln!(piece_text, "royal = true");
        }
        let (nmr_same, in_nmr) = same(ty, &nmr.0, &nmr.1);
        if n_move > 0 && !nmr_same {
            o.refuse_key("nMoveRuleTypesBlack", "move-rule pieces that differ by colour are not in hoplite's rule kit");
        }
        let resets = if n_move > 0 { in_nmr } else { ty == "pawn" };
        if resets {
            let _ = writeln!(piece_text, "pawn = true");
        }
        if immune.contains(ty) {
            let _ = writeln!(piece_text, "no_same_capture = true");
        }
        if initial_used {
            // Hoplite's default: the ranks the type stands on in the setup, per colour.
            let mut setup_ranks: [Squares; 2] = Default::default();
            for (&(_, rk), &(c, _)) in &board {
                if r.type_of(c) == Some(ty.as_str()) {
                    let side = usize::from(c.is_ascii_lowercase());
                    setup_ranks[side].extend((0..files).map(|f| (f, rk)));
                }
            }
            if setup_ranks[0] != ds.0 || setup_ranks[1] != ds.1 {
                let _ = writeln!(piece_text, "initial = {}", squares_value(&ds.0, &ds.1, files, ranks));
            }
        }
        // Mobility regions: FSF's empty region means the whole board.
        let mob = |i: usize| info.mobility[i].as_ref().map(|s| on_board(&s.val.squares())).unwrap_or_default();
        let (mw, mb) = (mob(0), mob(1));
        if !mw.is_empty() || !mb.is_empty() {
            let full: Squares = (0..files).flat_map(|f| (0..ranks).map(move |rk| (f, rk))).collect();
            let (mw, mb) = (if mw.is_empty() { full.clone() } else { mw }, if mb.is_empty() { full } else { mb });
            let _ = writeln!(piece_text, "region = {}", squares_value(&mw, &mb, files, ranks));
        }
        // Pawn-style promotion.
        let pp = (types("promotionPawnTypesWhite").contains(ty), types("promotionPawnTypesBlack").contains(ty));
        if pp.0 || pp.1 {
            let to = |c: &str, on: bool| -> String {
                if on {
                    letters(
                        &types(&format!("promotionPieceTypes{c}")).into_iter().filter(|t| t != "*").collect::<Vec<_>>(),
                    )
                } else {
                    String::new()
                }
            };
            let (w, b) = (to("White", pp.0), to("Black", pp.1));
            let shogi = info.promoted.as_ref().is_some_and(|p| !p.val.types().is_empty());
            // Nothing to promote to but promotion compulsory: FSF keeps the piece out of the
            // zone, which the kit writes `-`.
            let frozen = r.val("mandatoryPawnPromotion").bool() && !shogi;
            let (w, b) = (
                if w.is_empty() && pp.0 && frozen { "-".to_string() } else { w },
                if b.is_empty() && pp.1 && frozen { "-".to_string() } else { b },
            );
            if w == b {
                let _ = writeln!(piece_text, "promotes_to = {}", q(&w));
            } else {
                let _ = writeln!(piece_text, "promotes_to = {{ white = {}, black = {} }}", q(&w), q(&b));
            }
            promotes_any = true;
        }
        // Shogi-style promotion.
        if let Some(p) = &info.promoted {
            if let Some(to) = p.val.types().first().and_then(|t| r.letter(t)) {
                let _ = writeln!(piece_text, "promotes = {}", q(&to.to_string()));
                shogi_any = true;
            }
        }
        if let Some(l) = &info.limit {
            if l.val.int() > 0 {
                limits.push((letter, l.val.int()));
            }
        }
    }
    // Where en-passant captures may land, per capturer (FSF: the capturer's region).
    let full: Squares = (0..files).flat_map(|f| (0..ranks).map(move |rk| (f, rk))).collect();
    let ep_region = (has("pawn") && (ep_possible.0 || ep_possible.1) && (ep_regions.0 != full || ep_regions.1 != full))
        .then(|| format!("en_passant_region = {}\n", squares_value(&ep_regions.0, &ep_regions.1, files, ranks)));
    text.push_str(&piece_text);

    // [promotion]
    if promotes_any || shogi_any {
        let (pw, pb) = (sq("promotionRegionWhite"), sq("promotionRegionBlack"));
        let last: Squares = (0..files).map(|f| (f, ranks - 1)).collect();
        let first: Squares = (0..files).map(|f| (f, 0)).collect();
        let mut p = String::new();
        if pw != last || pb != first {
            let _ = writeln!(p, "region = {}", squares_value(&pw, &pb, files, ranks));
        }
        if promotes_any && !r.val("mandatoryPawnPromotion").bool() {
            let _ = writeln!(p, "optional = true");
        }
        if shogi_any && r.val("mandatoryPiecePromotion").bool() {
            let _ = writeln!(p, "mandatory = true");
        }
        if !limits.is_empty() {
            let items: Vec<String> = limits.iter().map(|(l, n)| format!("{l} = {n}")).collect();
            let _ = writeln!(p, "limit = {{ {} }}", items.join(", "));
        }
        if !p.is_empty() {
            let _ = write!(text, "\n[promotion]\n{p}");
        }
    }
    text.push_str(&castle_section);

    // [rules]
    let mut rules = String::new();
    for (key, kit) in [("checkmateValue", "checkmate"), ("stalemateValue", "stalemate")] {
        let v = r.val(key).text();
        let default = if key == "checkmateValue" { "loss" } else { "draw" };
        match result(v) {
            Some(x) if x != default => {
                let _ = writeln!(rules, "{kit} = {}", q(x));
            }
            Some(_) => {}
            None => o.refuse_key(key, "no result ('none') is not in hoplite's rule kit"),
        }
    }
    if r.val("stalematePieceCount").bool() {
        let _ = writeln!(rules, "stalemate_count = true");
    }
    if r.val("mustCapture").bool() {
        let _ = writeln!(rules, "must_capture = true");
    }
    if !r.val("checking").bool() {
        let _ = writeln!(rules, "no_check = true");
    }
    if let Some((w, b)) = checks {
        let _ = writeln!(rules, "checks = {}", w.max(b));
    }
    if r.val("flyingGeneral").bool() {
        let _ = writeln!(rules, "flying_general = true");
    }
    if r.val("immobilityIllegal").bool() {
        let _ = writeln!(rules, "immobility_illegal = true");
    }
    let ext_types = types("extinctionPieceTypes");
    let ext_letters = if ext_types.iter().any(|t| t == "*") { "*".to_string() } else { letters(&ext_types) };
    if pseudo && !duple && !ext_types.is_empty() {
        let _ = writeln!(rules, "pseudo_royal = {{ types = {}, count = {ext_count} }}", q(&ext_letters));
    }
    let ext_value = r.val("extinctionValue").text();
    if !pseudo && ext_value != "none" && !ext_types.is_empty() {
        if ext_types.iter().any(|t| t != "*" && r.letter(t).is_none()) {
            o.refuse_key("extinctionPieceTypes", "an extinction type that is not in the game");
        }
        let mut items = vec![format!("types = {}", q(&ext_letters))];
        if ext_count != 0 {
            items.push(format!("count = {ext_count}"));
        }
        let opp = r.val("extinctionOpponentPieceCount").int();
        if opp != 0 {
            items.push(format!("opponent_count = {opp}"));
        }
        if ext_value != "loss" {
            items.push(format!("value = {}", q(ext_value)));
        }
        if r.val("extinctionClaim").bool() {
            items.push("claim = true".into());
        }
        let _ = writeln!(rules, "extinction = {{ {} }}", items.join(", "));
    }
    let (fw, fb) = (sq("flagRegionWhite"), sq("flagRegionBlack"));
    if !fw.is_empty() || !fb.is_empty() {
        let (pw, pb) = (types("flagPieceWhite"), types("flagPieceBlack"));
        let name = |t: &Vec<String>| match t.first().map(String::as_str) {
            None | Some("*") => "*".to_string(),
            Some(n) => r.letter(n).map_or("?".into(), |c| c.to_string()),
        };
        let piece = if fw.is_empty() {
            name(&pb)
        } else if fb.is_empty() || name(&pw) == name(&pb) {
            name(&pw)
        } else {
            o.refuse_key(
                "flagPieceBlack",
                "flag pieces that differ by colour are not in hoplite's rule kit (flag.piece is one letter)",
            );
            name(&pw)
        };
        let mut items = Vec::new();
        if piece != "*" {
            items.push(format!("piece = {}", q(&piece)));
        }
        items.push(format!("region = {}", squares_value(&fw, &fb, files, ranks)));
        let count = r.val("flagPieceCount").int();
        if count != 1 {
            items.push(format!("count = {count}"));
        }
        for (key, kit) in [("flagMove", "move"), ("flagPieceSafe", "safe"), ("flagPieceBlockedWin", "blocked")] {
            if r.val(key).bool() {
                items.push(format!("{kit} = true"));
            }
        }
        let _ = writeln!(rules, "flag = {{ {} }}", items.join(", "));
    }
    if n_move * 2 != 100 {
        let _ = writeln!(rules, "move_rule = {}", n_move.max(0) * 2);
    }
    let n_fold = r.val("nFoldRule").int();
    if n_fold != 3 {
        let _ = writeln!(rules, "repetitions = {}", n_fold.max(0));
    }
    match result(r.val("nFoldValue").text()) {
        Some("draw") => {}
        Some(v) => {
            let _ = writeln!(rules, "repetition_value = {}", q(v));
        }
        None => o.refuse_key("nFoldValue", "no result ('none') for a repetition is not in hoplite's rule kit"),
    }
    if r.val("perpetualCheckIllegal").bool() {
        let _ = writeln!(rules, "perpetual_check = true");
    }
    match r.val("materialCounting").text() {
        "whitedrawodds" => {
            let _ = writeln!(rules, "material_counting = \"white_draw_odds\"");
        }
        "blackdrawodds" => {
            let _ = writeln!(rules, "material_counting = \"black_draw_odds\"");
        }
        "unweighted" => {
            let _ = writeln!(rules, "material_counting = \"unweighted\"");
        }
        _ => {}
    }
    if let Some(line) = ep_region {
        rules.push_str(&line);
    }
    match (r.val("passOnStalemateWhite").bool(), r.val("passOnStalemateBlack").bool()) {
        (false, false) => {}
        (true, true) => {
            let _ = writeln!(rules, "pass_on_stalemate = true");
        }
        _ => o.refuse_key("passOnStalemateBlack", "passing for one side only is not in hoplite's rule kit"),
    }
    match r.val("wallingRule").text() {
        "none" => {}
        rule @ ("arrow" | "duck" | "past" | "static") => {
            let _ = writeln!(rules, "walling = {}", q(rule));
            let region = (sq("wallingRegionWhite"), sq("wallingRegionBlack"));
            if region.0 != full || region.1 != full {
                let _ = writeln!(rules, "walling_region = {}", squares_value(&region.0, &region.1, files, ranks));
            }
        }
        _ => o.refuse_key("wallingRule", "walls on the board's edge (Atlantis) are not in hoplite's rule kit"),
    }
    if r.val("countingRule").text() != "none" {
        o.refuse_key("countingRule", "the counting rules of makruk and its kin are not in hoplite's rule kit");
    }
    if !rules.is_empty() {
        let _ = write!(text, "\n[rules]\n{rules}");
    }
    if o.refusals.is_empty() {
        Ok(text)
    } else {
        Err(o.refusals)
    }
}
