//! A variant spec compiled into a `Variant`: every field checked (all problems reported in one
//! pass, each naming its file, line and field), then the attack tables built.

use crate::betza::{self, Betza, MoveRule};
use crate::bitboard::Bitboard;
use crate::error::{Problem, ProblemKind, VariantError};
use crate::geometry::Geometry;
use crate::setup::Setup;
use crate::spec::{Located, VariantSpec};
use crate::tables::{reach, MoveSet, Rays};
use crate::types::{Colour, PieceType, TypeSet, MAX_TYPES};
use crate::variant::{
    Attackers, BareKing, Castling, HopperAttack, LeaperAttack, OpeningMode, OpeningMove, PieceDef, RiderAttack,
    Stalemate, Variant,
};
use crate::zobrist::Zobrist;

/// The problems found so far.
#[derive(Default)]
struct Problems(Vec<Problem>);

impl Problems {
    fn add(&mut self, at: &str, field: impl Into<String>, kind: ProblemKind) {
        self.0.push(Problem::new(at, field, kind));
    }
}

/// Per colour and piece type.
type PerType<T> = [[T; MAX_TYPES]; 2];

impl Variant {
    /// Validates and compiles a spec, reporting every problem found. The setup is read here;
    /// whether its position can be played is checked by `Variant::load` (it needs a
    /// `Position`).
    pub fn compile(spec: VariantSpec) -> Result<Variant, VariantError> {
        let mut p = Problems::default();
        let name = spec.name.as_ref().map(|n| n.value.clone()).unwrap_or_default();
        let whole = format!("variant '{name}'");
        if name.is_empty() {
            p.add("variant", "name", ProblemKind::Missing);
        }
        let geometry = board(&spec, &whole, &mut p);
        let pieces = pieces(&spec, &whole, &mut p);
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
        let lost_only = letter_types(&letters, "promotion.lost_only", &spec.lost_only, &mut p);
        let distinct_colour = letter_types(&letters, "promotion.distinct_colour", &spec.distinct_colour, &mut p);
        let castling = castling(&spec, &letters, &pieces, &whole, &mut p);
        let (stalemate, bare_king, opening_mode) = rule_choices(&spec, &mut p);
        let (Some(geo), true) = (geometry, pieces.len() <= MAX_TYPES) else {
            return Err(VariantError { problems: p.0 });
        };
        // Go on to the setup and the rules even after a problem, so that one pass reports all.
        let start = setup(&spec, &geo, &letters, &whole, &mut p);
        let promotion_zone = promotion_zone(&spec, &geo, &mut p);
        let insufficient = insufficient(&spec, &letters, &mut p);
        let opening_moves = opening_moves(&spec, &geo, &letters, &mut p);
        if !p.0.is_empty() {
            return Err(VariantError { problems: p.0 });
        }
        let start = start.expect("a setup, as no problem was found");
        let mut start_counts = [[0u8; MAX_TYPES]; 2];
        let mut initial = [[Bitboard::EMPTY; MAX_TYPES]; 2];
        for p in &start.pieces {
            start_counts[p.colour][p.ty] += 1;
            initial[p.colour][p.ty] |= geo.rank_bb(geo.rank(p.square));
        }
        let tables = Tables::build(&geo, &pieces, &initial);
        let types = |f: &dyn Fn(&PieceDef) -> bool| {
            PieceType::first(pieces.len()).zip(&pieces).filter(|(_, p)| f(p)).map(|(t, _)| t).collect::<TypeSet>()
        };
        let royal_types = types(&|p| p.royal);
        let unreachable = unreachable(&geo, &pieces, &start, &initial, &promotion_zone);
        Ok(Variant {
            name,
            builtin: spec.builtin.clone(),
            description: spec.description.map(|d| d.value).unwrap_or_default(),
            uci_variant: spec.uci_variant.map(|v| v.value),
            xboard_variant: spec.xboard_variant.map(|v| v.value),
            dark_squares: geo.dark_squares(),
            geometry: geo,
            setup: spec.setup.map(|s| s.value).unwrap_or_default(),
            start,
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
            opening_plies: spec.opening_plies.map(|o| o.value),
            opening_margin: spec.opening_margin.map(|o| o.value),
            start_counts,
            initial,
            unreachable,
            lame_capture: Colour::BOTH
                .map(|c| tables.moves[c].iter().chain(&tables.initial_moves[c]).any(|m| m.has_lame_capture())),
            rays: tables.rays,
            moves: tables.moves,
            initial_moves: tables.initial_moves,
            attackers: tables.attackers,
            royal_types,
            pawn_types: types(&|p| p.pawn),
            ep_types: types(&|p| p.moves.rules.iter().any(|r| r.en_passant)),
            royal_promoters: types(&|p| !(p.promotes_to & royal_types).is_empty()),
            pieces,
            zobrist: Zobrist::new(),
        })
    }
}

fn board(spec: &VariantSpec, whole: &str, p: &mut Problems) -> Option<Geometry> {
    match (&spec.files, &spec.ranks) {
        (Some(f), Some(r)) => {
            Geometry::new(f.value, r.value).map_err(|e| p.add(&f.at, "files/ranks", ProblemKind::Board(e))).ok()
        }
        _ => {
            p.add(whole, "files/ranks", ProblemKind::NoBoard);
            None
        }
    }
}

fn pieces(spec: &VariantSpec, whole: &str, p: &mut Problems) -> Vec<PieceDef> {
    let mut pieces: Vec<PieceDef> = Vec::new();
    let mut accepted = Vec::new();
    for s in &spec.pieces {
        let (at, l) = (&s.letter.at, &s.letter.value);
        let letter = match l.chars().next() {
            Some(c) if l.chars().count() == 1 && c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
            _ => {
                p.add(at, "pieces.letter", ProblemKind::NotALetter(l.clone()));
                continue;
            }
        };
        if pieces.iter().any(|q| q.letter == letter) {
            p.add(at, "pieces.letter", ProblemKind::Duplicate(letter));
            continue;
        }
        let field = format!("pieces.{letter}.betza");
        let moves = match &s.betza {
            None => {
                p.add(at, field, ProblemKind::Missing);
                Betza::default()
            }
            Some(b) => betza::parse(&b.value).unwrap_or_else(|error| {
                p.add(&b.at, field, ProblemKind::Betza { text: b.value.clone(), error });
                Betza::default()
            }),
        };
        let flag = |v: &Option<Located<bool>>| v.as_ref().is_some_and(|v| v.value);
        pieces.push(PieceDef {
            letter,
            name: s.name.as_ref().map(|n| n.value.clone()).unwrap_or_else(|| letter.to_string()),
            betza: s.betza.as_ref().map(|b| b.value.clone()).unwrap_or_default(),
            moves,
            value: s.value.as_ref().map(|v| v.value),
            royal: flag(&s.royal),
            pawn: flag(&s.pawn),
            promotes_to: TypeSet::EMPTY,
            no_same_capture: flag(&s.no_same_capture),
        });
        accepted.push(s);
    }
    if pieces.is_empty() {
        p.add(whole, "pieces", ProblemKind::NoPieces);
    }
    if pieces.len() > MAX_TYPES {
        p.add(whole, "pieces", ProblemKind::TooManyTypes { count: pieces.len(), most: MAX_TYPES });
    }
    let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
    for (piece, s) in pieces.iter_mut().zip(accepted) {
        piece.promotes_to =
            letter_types(&letters, &format!("pieces.{}.promotes_to", s.letter.value), &s.promotes_to, p);
    }
    pieces
}

/// The piece types a string of letters names.
fn letter_types(letters: &[char], field: &str, v: &Option<Located<String>>, p: &mut Problems) -> TypeSet {
    let Some(v) = v else { return TypeSet::EMPTY };
    let mut types = TypeSet::EMPTY;
    for c in v.value.chars() {
        match letters.iter().position(|&l| l == c.to_ascii_lowercase()) {
            Some(i) if i < MAX_TYPES => types.insert(PieceType::new(i)),
            _ => p.add(&v.at, field, ProblemKind::UnknownLetter(c.to_string())),
        }
    }
    types
}

fn castling(
    spec: &VariantSpec,
    letters: &[char],
    pieces: &[PieceDef],
    whole: &str,
    p: &mut Problems,
) -> Option<Castling> {
    let r = spec.castling_rook.as_ref()?;
    let Some(rook) = letter_type(letters, &r.value) else {
        p.add(&r.at, "castling.rook", ProblemKind::UnknownLetter(r.value.clone()));
        return None;
    };
    if !pieces.iter().any(|p| p.moves.castling.is_some()) {
        p.add(whole, "castling", ProblemKind::NoCastlingPiece);
    }
    Some(Castling { rook, rook_moves: spec.castling_rook_moves.as_ref().map(|m| m.value) })
}

/// The piece type a one-letter string names, in lower case as the pieces are given.
fn letter_type(letters: &[char], l: &str) -> Option<PieceType> {
    letters.iter().position(|&x| l.len() == 1 && l.starts_with(x)).map(PieceType::new)
}

/// One of a few named options (`default` when left out).
fn choice<T: Copy>(v: &Option<Located<String>>, field: &str, options: &[(&str, T)], p: &mut Problems) -> T {
    let default = options[0].1;
    let Some(v) = v else { return default };
    match options.iter().find(|(name, _)| *name == v.value) {
        Some((_, value)) => *value,
        None => {
            let names: Vec<&str> = options.iter().map(|o| o.0).collect();
            p.add(&v.at, field, ProblemKind::NotOneOf { value: v.value.clone(), options: names.join(", ") });
            default
        }
    }
}

fn rule_choices(spec: &VariantSpec, p: &mut Problems) -> (Stalemate, BareKing, OpeningMode) {
    let stalemate = choice(
        &spec.stalemate,
        "rules.stalemate",
        &[("draw", Stalemate::Draw), ("loss", Stalemate::Loss), ("win", Stalemate::Win)],
        p,
    );
    let bare_king = choice(
        &spec.bare_king,
        "rules.bare_king",
        &[("none", BareKing::None), ("immediate", BareKing::Immediate), ("reply", BareKing::Reply)],
        p,
    );
    let opening = choice(
        &spec.rumi_opening,
        "rules.rumi_opening",
        &[("optional", OpeningMode::Optional), ("forced", OpeningMode::Forced)],
        p,
    );
    (stalemate, bare_king, opening)
}

fn setup(spec: &VariantSpec, geo: &Geometry, letters: &[char], whole: &str, p: &mut Problems) -> Option<Setup> {
    let Some(s) = &spec.setup else {
        p.add(whole, "setup", ProblemKind::Missing);
        return None;
    };
    Setup::parse(geo, letters, &s.value)
        .map_err(|e| {
            let kind = match e.kind {
                crate::error::FenErrorKind::Placement(e) => ProblemKind::Placement(e),
                _ => ProblemKind::Fen(e),
            };
            p.add(&s.at, "setup", kind)
        })
        .ok()
}

/// The ranks where each side promotes: the last `promotion.ranks` (1 by default).
fn promotion_zone(spec: &VariantSpec, geo: &Geometry, p: &mut Problems) -> [Bitboard; 2] {
    let depth = spec.promotion_ranks.as_ref().map_or(1, |r| r.value);
    if depth == 0 || depth > geo.ranks {
        let at = &spec.promotion_ranks.as_ref().expect("the default is in range").at;
        p.add(at, "promotion.ranks", ProblemKind::OutOfRange { most: geo.ranks });
    }
    let depth = depth.clamp(1, geo.ranks);
    let ranks = |r: std::ops::Range<usize>| r.fold(Bitboard::EMPTY, |b, r| b | geo.rank_bb(r));
    [ranks(geo.ranks - depth..geo.ranks), ranks(0..depth)]
}

/// Drawn material: per pattern, the piece counts of the two sides.
fn insufficient(spec: &VariantSpec, letters: &[char], p: &mut Problems) -> Vec<[[u8; MAX_TYPES]; 2]> {
    let Some(list) = &spec.insufficient_material else { return Vec::new() };
    let mut out = Vec::new();
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
            out.push(counts);
        } else {
            p.add(&list.at, "rules.insufficient_material", ProblemKind::Pattern(pat.clone()));
        }
    }
    out
}

fn opening_moves(spec: &VariantSpec, geo: &Geometry, letters: &[char], p: &mut Problems) -> Vec<OpeningMove> {
    let mut out = Vec::new();
    let letter = |l: &str| letter_type(letters, l);
    let both = |s: &str| geo.parse(s).map(|sq| [sq, geo.mirror(sq)]);
    for o in spec.opening_moves.iter().flatten() {
        let requires = match &o.requires {
            None => Some(None),
            Some(r) => {
                let (l, s) = r.split_once('@').unwrap_or(("", ""));
                letter(l).zip(both(s)).map(Some)
            }
        };
        match (letter(&o.piece), both(&o.from), both(&o.to), requires) {
            (Some(piece), Some(from), Some(to), Some(requires)) => {
                out.push(OpeningMove { player_move: o.player_move, piece, from, to, requires })
            }
            _ => p.add(
                &o.at,
                "opening_moves",
                ProblemKind::OpeningMove { piece: o.piece.clone(), from: o.from.clone(), to: o.to.clone() },
            ),
        }
    }
    out
}

/// Squares where a piece can never stand: a piece that must promote cannot stay on its
/// promotion ranks, and one that only moves forward (and is no promotion's result) cannot get
/// behind the rank it starts on. Squares the setup puts it on are always allowed.
fn unreachable(
    geo: &Geometry,
    pieces: &[PieceDef],
    start: &Setup,
    initial: &PerType<Bitboard>,
    zone: &[Bitboard; 2],
) -> PerType<Bitboard> {
    let mut out = [[Bitboard::EMPTY; MAX_TYPES]; 2];
    for (t, piece) in PieceType::first(pieces.len()).zip(pieces) {
        let rules = &piece.moves.rules;
        let forward_only = !rules.is_empty()
            && piece.moves.castling.is_none()
            && rules.iter().all(|r| r.steps.iter().all(|&(_, dy)| dy > 0));
        let promoted_to = pieces.iter().any(|q| q.promotes_to.contains(t));
        for c in Colour::BOTH {
            let mut never = if piece.promotes_to.is_empty() { Bitboard::EMPTY } else { zone[c] };
            let home = initial[c][t];
            if forward_only && !promoted_to && home.non_empty() {
                let behind = match c {
                    Colour::White => 0..geo.rank(home.lsb()),
                    Colour::Black => geo.rank(home.msb()) + 1..geo.ranks,
                };
                never |= behind.fold(Bitboard::EMPTY, |b, r| b | geo.rank_bb(r));
            }
            for p in start.pieces.iter().filter(|p| p.colour == c && p.ty == t) {
                never.clear(p.square);
            }
            out[c][t] = never;
        }
    }
    out
}

/// The move and attack tables of every piece type, for both sides.
struct Tables {
    rays: Rays,
    moves: [Vec<MoveSet>; 2],
    initial_moves: [Vec<MoveSet>; 2],
    attackers: [Attackers; 2],
}

/// A step in side `c`'s orientation: Black's steps are White's mirrored across the middle rank.
fn orient(c: Colour, (dx, dy): (i32, i32)) -> (i32, i32) {
    (dx, c.sign() * dy)
}

/// Rules with their steps oriented for side `c` (and reversed, for attack detection).
fn oriented(c: Colour, rules: &[&MoveRule], reverse: bool) -> Vec<(MoveRule, Vec<(i32, i32)>)> {
    let sign = if reverse { -1 } else { 1 };
    rules
        .iter()
        .map(|r| {
            let steps = r.steps.iter().map(|&s| orient(c, s)).map(|(x, y)| (sign * x, sign * y));
            ((*r).clone(), steps.collect())
        })
        .collect()
}

impl Tables {
    fn build(geo: &Geometry, pieces: &[PieceDef], initial: &PerType<Bitboard>) -> Tables {
        let mut steps: Vec<(i32, i32)> = Vec::new();
        for r in pieces.iter().flat_map(|p| &p.moves.rules).filter(|r| r.is_rider()) {
            for (c, &s) in Colour::BOTH.into_iter().flat_map(|c| r.steps.iter().map(move |s| (c, s))) {
                let o = orient(c, s);
                for v in [o, (-o.0, -o.1)] {
                    if !steps.contains(&v) {
                        steps.push(v);
                    }
                }
            }
        }
        let rays = Rays::new(geo, steps);
        let mut t = Tables {
            moves: [Vec::new(), Vec::new()],
            initial_moves: [Vec::new(), Vec::new()],
            attackers: [Attackers::default(), Attackers::default()],
            rays,
        };
        for c in Colour::BOTH {
            for (ty, p) in PieceType::first(pieces.len()).zip(pieces) {
                let normal: Vec<&MoveRule> = p.moves.rules.iter().filter(|r| !r.initial).collect();
                let init: Vec<&MoveRule> = p.moves.rules.iter().filter(|r| r.initial).collect();
                t.moves[c].push(MoveSet::compile(geo, &t.rays, &oriented(c, &normal, false), false));
                t.initial_moves[c].push(MoveSet::compile(geo, &t.rays, &oriented(c, &init, false), false));
                t.add_attackers(geo, c, ty, &normal, None);
                t.add_attackers(geo, c, ty, &init, Some(initial[c][ty]));
            }
        }
        t
    }

    /// Reversed captures of type `ty` of side `c`, for "is this square attacked"; `only`: the
    /// squares the piece must stand on for these rules (its initial moves).
    fn add_attackers(
        &mut self,
        geo: &Geometry,
        c: Colour,
        ty: PieceType,
        rules: &[&MoveRule],
        only_from: Option<Bitboard>,
    ) {
        let caps: Vec<MoveRule> = rules
            .iter()
            .filter(|r| r.capture)
            .map(|r| MoveRule { quiet: false, en_passant: false, ..(*r).clone() })
            .collect();
        let leaps: Vec<&MoveRule> = caps.iter().filter(|r| !r.is_rider() || only_from.is_some()).collect();
        let attackers = &mut self.attackers[c];
        if !leaps.is_empty() {
            let captures = MoveSet::compile(geo, &self.rays, &oriented(c, &leaps, true), true);
            attackers.leapers.push(LeaperAttack { ty, captures, only_from });
        }
        if only_from.is_some() {
            return;
        }
        for r in caps.iter().filter(|r| r.is_rider()) {
            for &s in &r.steps {
                let o = orient(c, s);
                let back = (-o.0, -o.1);
                let dir = self.rays.index(back);
                let reach = (r.range > 1).then(|| reach(geo, back, r.range));
                if let Some(kind) = r.hop {
                    attackers.hoppers.push(HopperAttack { dir, kind, reach, ty });
                    continue;
                }
                match attackers.riders.iter_mut().find(|a| a.dir == dir && a.reach.is_none() && reach.is_none()) {
                    Some(shared) => shared.types.insert(ty),
                    None => attackers.riders.push(RiderAttack { dir, reach, types: TypeSet::single(ty) }),
                }
            }
        }
    }
}
