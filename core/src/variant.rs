//! A variant: pieces, rules and the tables compiled from them. Built once, shared read-only
//! (`Arc<Variant>`) by every position, search and thread.

use crate::betza::{self, Betza, MoveRule};
use crate::bitboard::Bitboard;
use crate::fen::parse_placement;
use crate::geometry::Geometry;
use crate::spec::{parse_file, Located, VariantSpec};
use crate::tables::{MoveSet, Rays};
use std::path::Path;
use std::sync::Arc;

pub const MAX_TYPES: usize = 16;
pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

/// The built-in variants, embedded so that nothing needs to be on disk.
pub const BUILTIN: &[(&str, &str)] = &[
    ("chess", include_str!("../../configs/variants/chess.toml")),
    ("shatranj", include_str!("../../configs/variants/shatranj.toml")),
    ("sultan", include_str!("../../configs/variants/sultan.toml")),
    ("spartan", include_str!("../../configs/variants/spartan.toml")),
    ("rumi-shatranj", include_str!("../../configs/variants/rumi-shatranj.toml")),
    ("great-shatranj", include_str!("../../configs/variants/great-shatranj.toml")),
    ("great-shatranj-r", include_str!("../../configs/variants/great-shatranj-r.toml")),
];

#[derive(Clone, Debug)]
pub struct PieceType {
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub moves: Betza,
    pub value: Option<i32>,
    pub royal: bool,
    /// Pawn-type: its moves reset the move-rule counter.
    pub pawn: bool,
    pub promotes_to: Vec<usize>,
    pub no_same_capture: bool,
}

/// What a stalemate means for the side that has no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stalemate {
    Draw,
    Loss,
    Win,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BareKing {
    None,
    /// A side to move whose king is bare (opponent not) has lost.
    Immediate,
    /// A bared side makes one more move; baring the opponent too draws.
    Reply,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningMode {
    Optional,
    Forced,
}

/// A move allowed only on a player's n-th move, squares per colour.
#[derive(Clone, Debug)]
pub struct OpeningMove {
    pub player_move: u32,
    pub piece: usize,
    pub from: [usize; 2],
    pub to: [usize; 2],
    pub requires: Option<(usize, [usize; 2])>,
}

#[derive(Clone, Debug)]
pub struct Castling {
    pub rook: usize,
    /// How far the rook moves towards the king; `None`: it lands beside the king, inside.
    pub rook_moves: Option<u32>,
}

/// Reversed capture tables of one side, for "is this square attacked by that side".
#[derive(Clone, Debug, Default)]
pub struct Attackers {
    /// (type, reversed non-rider captures, squares the piece must stand on for these).
    pub leapers: Vec<(usize, MoveSet, Option<Bitboard>)>,
    /// (reversed direction, reach limit per square, types riding it as a bit mask).
    pub riders: Vec<(usize, Option<Vec<Bitboard>>, u32)>,
}

pub struct Zobrist {
    pub pieces: Vec<u64>,
    pub castling: [u64; 4],
    pub en_passant: [u64; 128],
    pub side: u64,
}

impl Zobrist {
    fn new() -> Zobrist {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            // splitmix64
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Zobrist {
            pieces: (0..2 * MAX_TYPES * 128).map(|_| next()).collect(),
            castling: std::array::from_fn(|_| next()),
            en_passant: std::array::from_fn(|_| next()),
            side: next(),
        }
    }
    #[inline(always)]
    pub fn piece(&self, colour: usize, ty: usize, sq: usize) -> u64 {
        self.pieces[(colour * MAX_TYPES + ty) * 128 + sq]
    }
}

pub struct Variant {
    pub name: String,
    pub description: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceType>,
    pub setup: String,
    pub promotion_zone: [Bitboard; 2],
    pub lost_only: u32,
    pub distinct_colour: u32,
    pub castling: Option<Castling>,
    pub stalemate: Stalemate,
    pub bare_king: BareKing,
    pub opening_mode: OpeningMode,
    pub opening_moves: Vec<OpeningMove>,
    /// Drawn material: per pattern, the piece counts of the two sides (either colour).
    pub insufficient: Vec<[[u8; MAX_TYPES]; 2]>,
    /// The most pieces any drawn pattern has (a quick rejection).
    pub insufficient_max_pieces: u32,
    pub move_rule: u32,
    pub repetitions: u32,
    pub start_counts: [[u8; MAX_TYPES]; 2],
    /// Squares where the `i` (initial) moves of a type apply: its ranks in the setup.
    pub initial: [[Bitboard; MAX_TYPES]; 2],
    pub rays: Rays,
    pub moves: [Vec<MoveSet>; 2],
    pub initial_moves: [Vec<MoveSet>; 2],
    pub attackers: [Attackers; 2],
    pub royal_mask: u32,
    pub pawn_mask: u32,
    /// Types whose lame multi-steps leave en-passant targets (those that capture e.p.).
    pub ep_mask: u32,
    pub lame_capture: [bool; 2],
    /// Types that may promote to a royal type (pins do not bind them).
    pub royal_promoters: u32,
    pub zobrist: Zobrist,
    pub dark_squares: Bitboard,
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Variant({})", self.name)
    }
}

/// Why a variant could not be loaded: every problem found, each naming file, line and field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    pub problems: Vec<String>,
}

impl std::fmt::Display for VariantError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.problems.join("\n"))
    }
}

impl std::error::Error for VariantError {}

impl From<String> for VariantError {
    fn from(s: String) -> Self {
        VariantError { problems: vec![s] }
    }
}

pub fn builtin_names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(n, _)| *n).collect()
}

/// Reads a spec by built-in name or path, following `extends`.
fn load_spec(name: &str, dir: Option<&Path>, depth: usize) -> Result<VariantSpec, String> {
    if depth > 8 {
        return Err(format!("'{name}': `extends` chain longer than 8 (a cycle?)"));
    }
    let (label, src, here) = if let Some((_, src)) = BUILTIN.iter().find(|(n, _)| *n == name) {
        (format!("configs/variants/{name}.toml"), src.to_string(), None)
    } else {
        let path = match dir {
            Some(d) if Path::new(name).is_relative() => d.join(name),
            _ => Path::new(name).to_path_buf(),
        };
        let looks_like_file = name.ends_with(".toml") || name.contains('/') || path.exists();
        if !looks_like_file {
            return Err(format!(
                "unknown variant '{name}' (built-in: {}; or give a path to a .toml file)",
                builtin_names().join(", ")
            ));
        }
        let src = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read variant file '{}': {e}", path.display()))?;
        let here = path.parent().map(|p| p.to_path_buf());
        (path.display().to_string(), src, here)
    };
    let (spec, extends) = parse_file(&label, &src)?;
    match extends {
        None => Ok(spec),
        Some(base) => {
            let base_spec = load_spec(&base.value, here.as_deref().or(dir), depth + 1)
                .map_err(|e| format!("{}: extends: {e}", base.at))?;
            Ok(base_spec.overlay(spec))
        }
    }
}

impl Variant {
    /// A built-in variant by name, or a variant file by path.
    pub fn load(name_or_path: &str) -> Result<Arc<Variant>, VariantError> {
        let spec = load_spec(name_or_path, None, 0)?;
        Variant::compile(spec).map(Arc::new)
    }

    /// A built-in variant; panics only if the shipped files are broken (tests check them).
    pub fn builtin(name: &str) -> Arc<Variant> {
        assert!(BUILTIN.iter().any(|(n, _)| *n == name), "no built-in variant '{name}'");
        Variant::load(name).unwrap_or_else(|e| panic!("built-in variant {name}: {e}"))
    }

    /// A variant from TOML text; `label` names it in errors.
    pub fn from_toml(label: &str, src: &str) -> Result<Arc<Variant>, VariantError> {
        let (spec, extends) = parse_file(label, src)?;
        let spec = match extends {
            None => spec,
            Some(base) => {
                load_spec(&base.value, None, 1).map_err(|e| format!("{}: extends: {e}", base.at))?.overlay(spec)
            }
        };
        Variant::compile(spec).map(Arc::new)
    }

    pub fn piece_index(&self, letter: char) -> Option<usize> {
        let l = letter.to_ascii_lowercase();
        self.pieces.iter().position(|p| p.letter == l)
    }

    /// A move in UCI notation: from, to, promotion letter (lower case); castling is the king's
    /// move.
    pub fn move_to_uci(&self, m: crate::Move) -> String {
        let geo = self.geometry;
        let mut s = geo.name(m.from()) + &geo.name(m.to());
        if let Some(t) = m.promoted() {
            s.push(self.pieces[t].letter);
        }
        s
    }

    pub fn letter(&self, colour: usize, ty: usize) -> char {
        let l = self.pieces[ty].letter;
        if colour == WHITE {
            l.to_ascii_uppercase()
        } else {
            l
        }
    }

    /// Validates and compiles a spec, reporting every problem found.
    pub fn compile(spec: VariantSpec) -> Result<Variant, VariantError> {
        let mut problems: Vec<String> = Vec::new();
        let mut bad = |at: &str, field: &str, msg: String| problems.push(format!("{at}: {field}: {msg}"));

        let name = spec.name.as_ref().map(|n| n.value.clone()).unwrap_or_default();
        if name.is_empty() {
            bad("variant", "name", "missing".into());
        }
        let geometry = match (&spec.files, &spec.ranks) {
            (Some(f), Some(r)) => match Geometry::new(f.value, r.value) {
                Ok(g) => Some(g),
                Err(e) => {
                    bad(&f.at, "files/ranks", e);
                    None
                }
            },
            _ => {
                bad(&format!("variant '{name}'"), "files/ranks", "board size missing".into());
                None
            }
        };

        // Pieces.
        let mut pieces: Vec<PieceType> = Vec::new();
        for p in &spec.pieces {
            let at = &p.letter.at;
            let l = &p.letter.value;
            let letter = match l.chars().next() {
                Some(c) if l.chars().count() == 1 && c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
                _ => {
                    bad(at, "pieces.letter", format!("'{l}' must be a single letter"));
                    continue;
                }
            };
            if pieces.iter().any(|q| q.letter == letter) {
                bad(at, "pieces.letter", format!("'{letter}' defined twice"));
                continue;
            }
            let moves = match &p.betza {
                None => {
                    bad(at, &format!("pieces.{letter}.betza"), "missing".into());
                    Betza::default()
                }
                Some(b) => betza::parse(&b.value).unwrap_or_else(|e| {
                    bad(&b.at, &format!("pieces.{letter}.betza"), format!("'{}' {e}", b.value));
                    Betza::default()
                }),
            };
            pieces.push(PieceType {
                letter,
                name: p.name.as_ref().map(|n| n.value.clone()).unwrap_or_else(|| letter.to_string()),
                betza: p.betza.as_ref().map(|b| b.value.clone()).unwrap_or_default(),
                moves,
                value: p.value.as_ref().map(|v| v.value),
                royal: p.royal.as_ref().is_some_and(|v| v.value),
                pawn: p.pawn.as_ref().is_some_and(|v| v.value),
                promotes_to: Vec::new(),
                no_same_capture: p.no_same_capture.as_ref().is_some_and(|v| v.value),
            });
        }
        if pieces.is_empty() {
            bad(&format!("variant '{name}'"), "pieces", "no pieces defined".into());
        }
        if pieces.len() > MAX_TYPES {
            bad(&format!("variant '{name}'"), "pieces", format!("{} piece types; at most {MAX_TYPES}", pieces.len()));
        }
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
        let mask_of = |field: &str, v: &Option<Located<String>>, problems: &mut Vec<String>| -> u32 {
            let Some(v) = v else { return 0 };
            let mut m = 0;
            for c in v.value.chars() {
                match letters.iter().position(|&l| l == c.to_ascii_lowercase()) {
                    Some(i) if i < MAX_TYPES => m |= 1 << i,
                    _ => problems.push(format!("{}: {field}: '{c}' is not a piece letter", v.at)),
                }
            }
            m
        };
        let mut promos = Vec::new();
        for p in &spec.pieces {
            let m = mask_of(&format!("pieces.{}.promotes_to", p.letter.value), &p.promotes_to, &mut problems);
            promos.push(m);
        }
        for (pt, m) in pieces.iter_mut().zip(promos) {
            pt.promotes_to = (0..MAX_TYPES).filter(|i| m >> i & 1 != 0).collect();
        }
        let lost_only = mask_of("promotion.lost_only", &spec.lost_only, &mut problems);
        let distinct_colour = mask_of("promotion.distinct_colour", &spec.distinct_colour, &mut problems);
        let mut bad = |at: &str, field: &str, msg: String| problems.push(format!("{at}: {field}: {msg}"));

        let castling = spec.castling_rook.as_ref().and_then(|r| {
            match letters.iter().position(|&l| r.value.len() == 1 && r.value.starts_with(l)) {
                Some(rook) => Some(Castling { rook, rook_moves: spec.castling_rook_moves.as_ref().map(|m| m.value) }),
                None => {
                    bad(&r.at, "castling.rook", format!("'{}' is not a piece letter", r.value));
                    None
                }
            }
        });
        if castling.is_some() && !pieces.iter().any(|p| p.moves.castling.is_some()) {
            bad(&format!("variant '{name}'"), "castling", "no piece castles (Betza O<n>)".into());
        }

        let choice = |v: &Option<Located<String>>,
                      field: &str,
                      options: &[&str],
                      default: &str,
                      bad: &mut dyn FnMut(&str, &str, String)|
         -> String {
            match v {
                None => default.to_string(),
                Some(v) if options.contains(&v.value.as_str()) => v.value.clone(),
                Some(v) => {
                    bad(&v.at, field, format!("'{}' is not one of {}", v.value, options.join(", ")));
                    default.to_string()
                }
            }
        };
        let stalemate =
            match choice(&spec.stalemate, "rules.stalemate", &["draw", "loss", "win"], "draw", &mut bad).as_str() {
                "loss" => Stalemate::Loss,
                "win" => Stalemate::Win,
                _ => Stalemate::Draw,
            };
        let bare_king = match choice(
            &spec.bare_king,
            "rules.bare_king",
            &["none", "immediate", "reply"],
            "none",
            &mut bad,
        )
        .as_str()
        {
            "immediate" => BareKing::Immediate,
            "reply" => BareKing::Reply,
            _ => BareKing::None,
        };
        let opening_mode =
            match choice(&spec.rumi_opening, "rules.rumi_opening", &["optional", "forced"], "optional", &mut bad)
                .as_str()
            {
                "forced" => OpeningMode::Forced,
                _ => OpeningMode::Optional,
            };

        let Some(geo) = geometry else {
            return Err(VariantError { problems });
        };
        if pieces.len() > MAX_TYPES {
            return Err(VariantError { problems });
        }
        // Go on to the setup and the rules even after a problem, so that one pass reports all.
        let mut bad = |at: &str, field: &str, msg: String| problems.push(format!("{at}: {field}: {msg}"));

        // Setup.
        let setup = spec.setup.as_ref().map(|s| s.value.clone()).unwrap_or_default();
        let mut start_counts = [[0u8; MAX_TYPES]; 2];
        let mut initial = [[Bitboard::EMPTY; MAX_TYPES]; 2];
        match &spec.setup {
            None => bad(&format!("variant '{name}'"), "setup", "missing".into()),
            Some(s) => match parse_placement(&geo, &letters, s.value.split_whitespace().next().unwrap_or("")) {
                Err(e) => bad(&s.at, "setup", e),
                Ok(placed) => {
                    for (sq, c, l) in placed {
                        let t = letters.iter().position(|&x| x == l).unwrap();
                        start_counts[c][t] += 1;
                        initial[c][t] |= geo.rank_bb(geo.rank(sq));
                    }
                }
            },
        }

        let promotion_ranks = spec.promotion_ranks.as_ref().map_or(1, |r| r.value);
        if promotion_ranks == 0 || promotion_ranks > geo.ranks {
            bad(&spec.promotion_ranks.as_ref().unwrap().at, "promotion.ranks", format!("must be 1 to {}", geo.ranks));
        }
        let zone_depth = promotion_ranks.clamp(1, geo.ranks);
        let promotion_zone = [
            (geo.ranks - zone_depth..geo.ranks).fold(Bitboard::EMPTY, |b, r| b | geo.rank_bb(r)),
            (0..zone_depth).fold(Bitboard::EMPTY, |b, r| b | geo.rank_bb(r)),
        ];

        let mut insufficient = Vec::new();
        if let Some(list) = &spec.insufficient_material {
            for pat in &list.value {
                let sides: Vec<&str> = pat.split(" v ").collect();
                let mut counts = [[0u8; MAX_TYPES]; 2];
                let mut ok = sides.len() == 2;
                for (i, side) in sides.iter().enumerate().take(2) {
                    for c in side.trim().chars() {
                        match letters.iter().position(|&l| l == c.to_ascii_lowercase()) {
                            Some(t) => counts[i][t] += 1,
                            None => ok = false,
                        }
                    }
                }
                if ok {
                    insufficient.push(counts);
                } else {
                    bad(
                        &list.at,
                        "rules.insufficient_material",
                        format!("'{pat}' is not of the form \"KB v K\" with this variant's letters"),
                    );
                }
            }
        }

        let mut opening_moves = Vec::new();
        for o in spec.opening_moves.iter().flatten() {
            let sq = |s: &str| geo.parse(s);
            let mirror = |s: usize| geo.square(geo.file(s), geo.ranks - 1 - geo.rank(s));
            let piece = letters.iter().position(|&l| o.piece.len() == 1 && o.piece.starts_with(l));
            let req = o.requires.as_ref().map(|r| {
                let (l, s) = r.split_once('@').unwrap_or(("", ""));
                (letters.iter().position(|&x| l.len() == 1 && l.starts_with(x)), sq(s))
            });
            match (piece, sq(&o.from), sq(&o.to), req) {
                (Some(piece), Some(f), Some(t), None) => opening_moves.push(OpeningMove { player_move: o.player_move, piece, from: [f, mirror(f)], to: [t, mirror(t)], requires: None }),
                (Some(piece), Some(f), Some(t), Some((Some(rp), Some(rs)))) => opening_moves.push(OpeningMove { player_move: o.player_move, piece, from: [f, mirror(f)], to: [t, mirror(t)], requires: Some((rp, [rs, mirror(rs)])) }),
                _ => bad(&o.at, "opening_moves", format!("needs a piece letter, squares 'from' and 'to' on the board, and 'requires' as LETTER@SQUARE (got piece '{}', from '{}', to '{}')", o.piece, o.from, o.to)),
            }
        }

        if !problems.is_empty() {
            return Err(VariantError { problems });
        }

        // Tables. Black's steps are White's mirrored across the middle rank.
        let orient = |c: usize, (dx, dy): (i32, i32)| if c == WHITE { (dx, dy) } else { (dx, -dy) };
        let mut steps: Vec<(i32, i32)> = Vec::new();
        for p in &pieces {
            for r in p.moves.rules.iter().filter(|r| r.is_rider()) {
                for &s in &r.steps {
                    for c in 0..2 {
                        for v in [orient(c, s), {
                            let o = orient(c, s);
                            (-o.0, -o.1)
                        }] {
                            if !steps.contains(&v) {
                                steps.push(v);
                            }
                        }
                    }
                }
            }
        }
        let rays = Rays::new(&geo, steps);
        let oriented = |c: usize, rules: &[&MoveRule], reverse: bool| -> Vec<(MoveRule, Vec<(i32, i32)>)> {
            rules
                .iter()
                .map(|r| {
                    let s = r.steps.iter().map(|&s| {
                        let o = orient(c, s);
                        if reverse {
                            (-o.0, -o.1)
                        } else {
                            o
                        }
                    });
                    ((*r).clone(), s.collect())
                })
                .collect()
        };
        let mut moves: [Vec<MoveSet>; 2] = [Vec::new(), Vec::new()];
        let mut initial_moves: [Vec<MoveSet>; 2] = [Vec::new(), Vec::new()];
        let mut attackers: [Attackers; 2] = [Attackers::default(), Attackers::default()];
        for c in 0..2 {
            for (t, p) in pieces.iter().enumerate() {
                let normal: Vec<&MoveRule> = p.moves.rules.iter().filter(|r| !r.initial).collect();
                let init: Vec<&MoveRule> = p.moves.rules.iter().filter(|r| r.initial).collect();
                moves[c].push(MoveSet::compile(&geo, &rays, &oriented(c, &normal, false)));
                initial_moves[c].push(MoveSet::compile(&geo, &rays, &oriented(c, &init, false)));
                // Reversed captures, for attack detection.
                for (rules, only) in [(normal, None), (init, Some(initial[c][t]))] {
                    let caps: Vec<MoveRule> = rules
                        .iter()
                        .filter(|r| r.capture)
                        .map(|r| MoveRule { quiet: false, en_passant: false, ..(*r).clone() })
                        .collect();
                    let leaps: Vec<&MoveRule> = caps.iter().filter(|r| !r.is_rider() || only.is_some()).collect();
                    if !leaps.is_empty() {
                        attackers[c].leapers.push((t, MoveSet::compile(&geo, &rays, &oriented(c, &leaps, true)), only));
                    }
                    if only.is_some() {
                        continue;
                    }
                    for r in caps.iter().filter(|r| r.is_rider()) {
                        for &s in &r.steps {
                            let o = orient(c, s);
                            let dir = rays.index((-o.0, -o.1));
                            let reach = (r.range > 1).then(|| {
                                (0..128)
                                    .map(|sq| crate::tables::reach(&geo, sq, (-o.0, -o.1), r.range))
                                    .collect::<Vec<_>>()
                            });
                            match attackers[c]
                                .riders
                                .iter_mut()
                                .find(|(d, rr, _)| *d == dir && rr.is_none() && reach.is_none())
                            {
                                Some(entry) => entry.2 |= 1 << t,
                                None => attackers[c].riders.push((dir, reach, 1 << t)),
                            }
                        }
                    }
                }
            }
        }
        let mask = |f: &dyn Fn(&PieceType) -> bool| {
            pieces.iter().enumerate().filter(|(_, p)| f(p)).fold(0u32, |m, (i, _)| m | 1 << i)
        };
        let royal_mask = mask(&|p| p.royal);
        let pawn_mask = mask(&|p| p.pawn);
        let ep_mask = mask(&|p| p.moves.rules.iter().any(|r| r.en_passant));
        let royal_promoters = mask(&|p| p.promotes_to.iter().any(|&t| royal_mask >> t & 1 != 0));
        let lame_capture = [0, 1].map(|c| moves[c].iter().chain(&initial_moves[c]).any(|m| m.has_lame_capture()));

        let variant = Arc::new(Variant {
            name,
            description: spec.description.map(|d| d.value).unwrap_or_default(),
            dark_squares: geo.dark_squares(),
            geometry: geo,
            pieces,
            setup,
            promotion_zone,
            lost_only,
            distinct_colour,
            castling,
            stalemate,
            bare_king,
            opening_mode,
            opening_moves,
            insufficient_max_pieces: insufficient
                .iter()
                .map(|p| p.iter().flatten().map(|&c| c as u32).sum())
                .max()
                .unwrap_or(0),
            insufficient,
            move_rule: spec.move_rule.map_or(100, |m| m.value),
            repetitions: spec.repetitions.map_or(3, |r| r.value),
            start_counts,
            initial,
            rays,
            moves,
            initial_moves,
            attackers,
            royal_mask,
            pawn_mask,
            ep_mask,
            lame_capture,
            royal_promoters,
            zobrist: Zobrist::new(),
        });
        // The setup's other fields (side, castling, e.p., counters): `Position::startpos` must
        // not fail later.
        if let Err(e) = crate::position::Position::from_fen(&variant, &variant.setup) {
            let at = spec.setup.as_ref().map_or("variant", |s| &*s.at);
            return Err(format!("{at}: setup: {e}").into());
        }
        Ok(Arc::try_unwrap(variant).expect("no position outlives the check"))
    }
}
