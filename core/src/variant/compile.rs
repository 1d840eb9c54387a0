//! A variant spec compiled into a `Variant`: every field checked (all problems reported in one
//! pass, each naming its file, line and field), then the attack tables built.

use crate::bitboard::Bitboard;
use crate::error::{Problem, ProblemKind, VariantError};
use crate::geometry::Geometry;
use crate::types::{Colour, PieceType, TypeSet, MAX_TYPES};
use crate::variant::betza::{self, Betza, MoveRule};
use crate::variant::setup::Letters;
use crate::variant::setup::Setup;
use crate::variant::spec::{Located, PerColour, VariantSpec};
use crate::variant::tables::{reach, MoveSet, Rays};
use crate::variant::zobrist::Zobrist;
use crate::variant::{
    Attackers, BareKing, Blast, Castling, Connect, Counting, DropFall, EndValue, Extinction, Flag, HopperAttack,
    LeaperAttack, MaterialCounting, OpeningMode, OpeningMove, PieceDef, PseudoRoyal, RiderAttack, Rules, ShatarMate,
    Variant, Walling,
};

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
        let Some(geo) = geometry else {
            // The pieces need the board (their regions); say at least that there are none.
            if spec.pieces.is_empty() {
                p.add(&whole, "pieces", ProblemKind::NoPieces);
            }
            return Err(VariantError { problems: p.0 });
        };
        let (mut pieces, initial_given) = pieces(&spec, &geo, &whole, &mut p);
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
        let lost_only = letter_types(&letters, "promotion.lost_only", &spec.lost_only, &mut p);
        let distinct_colour = letter_types(&letters, "promotion.distinct_colour", &spec.distinct_colour, &mut p);
        let castling = castling(&spec, &geo, &letters, &pieces, &whole, &mut p);
        let rules = rules(&spec, &geo, &letters, &mut p);
        let opening_mode = choice(
            &spec.rumi_opening,
            "rules.rumi_opening",
            &[("optional", OpeningMode::Optional), ("forced", OpeningMode::Forced)],
            &mut p,
        );
        if pieces.len() > MAX_TYPES {
            return Err(VariantError { problems: p.0 });
        }
        // Go on to the setup and the rules even after a problem, so that one pass reports all.
        let promoted: Vec<Option<PieceType>> = pieces.iter().map(|p| p.promotes).collect();
        let castling_files = spec.castling_960.as_ref().is_some_and(|c| c.value);
        let letters_of = Letters { letters: &letters, promoted: &promoted, castling_files };
        let start = setup(&spec, &geo, letters_of, rules.checks, &whole, &mut p);
        let promotion_zone = promotion_zone(&spec, &geo, &mut p);
        let promotion_limit = promotion_limit(&spec, &letters, &mut p);
        let insufficient = insufficient(&spec, &letters, &mut p);
        let opening_moves = opening_moves(&spec, &geo, &letters, &mut p);
        if let Some(blast) = &spec.blast {
            // Fairy-Stockfish refuses kings with a blast too: a blast removes pieces without a
            // capture, which check and mate do not foresee.
            if pieces.iter().any(|p| p.royal) {
                let why = "a blast may not remove a royal piece: make the king pseudo-royal and extinction \
                           end the game, as atomic does";
                p.add(&blast.at, "rules.blast", ProblemKind::Unsupported(why));
            }
            if rules.captures_to_hand || pieces.iter().any(|p| p.promotes.is_some()) {
                let why = "a blast with captures to the hand or shogi-style promotion is not in the kit";
                p.add(&blast.at, "rules.blast", ProblemKind::Unsupported(why));
            }
        }
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
        for (t, given) in PieceType::first(pieces.len()).zip(&initial_given) {
            if let Some(squares) = given {
                for c in Colour::BOTH {
                    initial[c][t] = squares[c];
                }
            }
        }
        for piece in &mut pieces {
            // A piece confined to a region is confined on the board's squares.
            for c in Colour::BOTH {
                piece.region[c] &= geo.all();
            }
        }
        let tables = Tables::build(&geo, &pieces, &initial);
        let types = |f: &dyn Fn(&PieceDef) -> bool| {
            PieceType::first(pieces.len()).zip(&pieces).filter(|(_, p)| f(p)).map(|(t, _)| t).collect::<TypeSet>()
        };
        let royal_types = types(&|p| p.royal);
        let optional = spec.promotion_optional.as_ref().is_some_and(|o| o.value);
        let mut unreachable = unreachable(&geo, &pieces, &start, &initial, &promotion_zone, optional);
        let can_enter = Colour::BOTH.map(|c| {
            std::array::from_fn(|i| {
                let sq = crate::types::Square::new(i);
                types(&|p| p.region[c].has(sq))
            })
        });
        // A hopper has a move where its line holds a screen and a square beyond it.
        let immobile = Colour::BOTH.map(|c| {
            std::array::from_fn(|t| match tables.moves[c].get(t) {
                Some(ms) => geo
                    .all()
                    .filter(|&sq| {
                        ms.targets(&tables.rays, sq, Bitboard::<u128>::EMPTY).0.is_empty()
                            && ms.hoppers.iter().all(|h| tables.rays.ray::<u128>(h.dir, sq).count() < 2)
                    })
                    .collect(),
                None => Bitboard::EMPTY,
            })
        });
        let drop_squares = drop_squares(&geo, &pieces, &promotion_zone, &rules, &immobile);
        if rules.drops {
            // A drop can put a piece where its moves never take it.
            for (never, drops) in unreachable.iter_mut().flatten().zip(drop_squares.iter().flatten()) {
                *never &= !*drops;
            }
        }
        Ok(Variant {
            marks_promoted: rules.captures_to_hand || pieces.iter().any(|p| p.promotes.is_some()),
            drop_squares,
            name,
            builtin: spec.builtin.clone(),
            description: spec.description.map(|d| d.value).unwrap_or_default(),
            uci_variant: spec.uci_variant.map(|v| v.value),
            xboard_variant: spec.xboard_variant.map(|v| v.value),
            dark_squares: geo.dark_squares(),
            neighbours: geo.all().map(|sq| geo.neighbours(sq)).collect(),
            geometry: geo,
            setup: spec.setup.map(|s| s.value).unwrap_or_default(),
            start,
            promotion_zone,
            lost_only,
            distinct_colour,
            castling,
            promotion_optional: spec.promotion_optional.is_some_and(|o| o.value),
            promotion_mandatory: spec.promotion_mandatory.is_some_and(|o| o.value),
            promotion_limit,
            rules,
            opening_mode,
            opening_moves,
            insufficient_max_pieces: insufficient
                .iter()
                .map(|p| p.iter().flatten().map(|&c| c as u32).sum())
                .max()
                .unwrap_or(0),
            insufficient,
            opening_plies: spec.opening_plies.map(|o| o.value),
            opening_margin: spec.opening_margin.map(|o| o.value),
            start_counts,
            initial,
            unreachable,
            lame_capture: Colour::BOTH
                .map(|c| tables.moves[c].iter().chain(&tables.initial_moves[c]).any(|m| m.has_lame_capture())),
            hoppers: Colour::BOTH.map(|c| !tables.attackers[c].hoppers.is_empty()),
            square_rides: Colour::BOTH
                .map(|c| tables.attackers[c].leapers.iter().any(|l| !l.captures.riders.is_empty())),
            plain_attacks: Colour::BOTH.map(|c| {
                let a = &tables.attackers[c];
                pieces.iter().all(|p| p.region == [geo.all(); 2])
                    && a.hoppers.is_empty()
                    && a.leapers.iter().all(|l| l.captures.hoppers.is_empty())
            }),
            confined: pieces.iter().any(|p| p.region != [geo.all(); 2]),
            can_enter,
            immobile,
            rays: tables.rays,
            moves: tables.moves,
            initial_moves: tables.initial_moves,
            region_moves: tables.region_moves,
            attackers: tables.attackers,
            royal_types,
            pawn_types: types(&|p| p.pawn),
            ep_types: types(&|p| p.moves.rules.iter().any(|r| r.en_passant)),
            royal_promoters: types(&|p| Colour::BOTH.iter().any(|&c| !(p.promotes_to[c] & royal_types).is_empty())),
            pieces,
            zobrist: Zobrist::new(),
        })
    }
}

/// A set of squares: `e4`, a rank `*3`, a file `c*`, the board `*`, separated by blanks; for
/// both colours (given for White, mirrored for Black) or for each.
fn squares(geo: &Geometry, v: &Located<PerColour<String>>, field: &str, p: &mut Problems) -> [Bitboard; 2] {
    let mut one = |text: &str| -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for item in text.split_whitespace() {
            let rank = |r: &str| r.parse::<usize>().ok().filter(|&r| (1..=geo.ranks).contains(&r));
            let file = |f: &str| {
                let mut cs = f.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) if c.is_ascii_lowercase() && ((c as u8 - b'a') as usize) < geo.files => {
                        Some((c as u8 - b'a') as usize)
                    }
                    _ => None,
                }
            };
            let set = match (item, item.strip_prefix('*'), item.strip_suffix('*')) {
                ("*", _, _) => Some(geo.all()),
                (_, Some(r), _) => rank(r).map(|r| geo.rank_bb(r - 1)),
                (_, _, Some(f)) => file(f).map(|f| geo.all().filter(|&sq| geo.file(sq) == f).collect()),
                _ => geo.parse(item).map(Bitboard::square),
            };
            match set {
                Some(b) => out |= b,
                None => p.add(&v.at, field, ProblemKind::Squares(item.to_string())),
            }
        }
        out
    };
    match &v.value {
        PerColour::Both(text) => {
            let white = one(text);
            [white, white.map(|sq| geo.mirror(sq)).collect()]
        }
        PerColour::Each { white, black } => [one(white), one(black)],
    }
}

/// A file's letter.
fn file_of(geo: &Geometry, v: &Located<String>, field: &str, p: &mut Problems) -> Option<usize> {
    let mut cs = v.value.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) if c.is_ascii_lowercase() && ((c as u8 - b'a') as usize) < geo.files => {
            Some((c as u8 - b'a') as usize)
        }
        _ => {
            p.add(&v.at, field, ProblemKind::File(v.value.clone()));
            None
        }
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

/// The pieces, and for each the squares of its `i` moves where the file gives them.
fn pieces(
    spec: &VariantSpec,
    geo: &Geometry,
    whole: &str,
    p: &mut Problems,
) -> (Vec<PieceDef>, Vec<Option<[Bitboard; 2]>>) {
    let mut pieces: Vec<PieceDef> = Vec::new();
    let mut accepted = Vec::new();
    let mut initial = Vec::new();
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
        let betza_of = |b: &Located<String>, field: &str, p: &mut Problems| {
            betza::parse(&b.value).unwrap_or_else(|error| {
                p.add(&b.at, field, ProblemKind::Betza { text: b.value.clone(), error });
                Betza::default()
            })
        };
        let moves = match &s.betza {
            None => {
                p.add(at, &field, ProblemKind::Missing);
                Betza::default()
            }
            Some(b) => betza_of(b, &field, p),
        };
        let flag = |v: &Option<Located<bool>>| v.as_ref().is_some_and(|v| v.value);
        let region =
            s.region.as_ref().map_or([geo.all(); 2], |r| squares(geo, r, &format!("pieces.{letter}.region"), p));
        let moves_from = s.moves_from.as_ref().map(|m| {
            let field = format!("pieces.{letter}.moves_from");
            let here = Located::new(m.value.squares.clone(), &m.at);
            let betza = betza_of(&Located::new(m.value.betza.clone(), &m.at), &field, p);
            (squares(geo, &here, &field, p), betza)
        });
        initial.push(s.initial.as_ref().map(|i| squares(geo, i, &format!("pieces.{letter}.initial"), p)));
        pieces.push(PieceDef {
            letter,
            name: s.name.as_ref().map(|n| n.value.clone()).unwrap_or_else(|| letter.to_string()),
            betza: s.betza.as_ref().map(|b| b.value.clone()).unwrap_or_default(),
            moves,
            value: s.value.as_ref().map(|v| v.value),
            royal: flag(&s.royal),
            pawn: flag(&s.pawn),
            promotes_to: [TypeSet::EMPTY; 2],
            promotes_to_nothing: false,
            promotes: None,
            no_same_capture: flag(&s.no_same_capture),
            turned: flag(&s.turned),
            region,
            moves_from,
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
        if let Some(to) = &s.promotes_to {
            let field = format!("pieces.{}.promotes_to", s.letter.value);
            // `-`: it must promote but has nothing to become, so it may not enter the zone.
            let mut set = |text: &String| match text.as_str() {
                "-" => {
                    piece.promotes_to_nothing = true;
                    TypeSet::EMPTY
                }
                t => letter_types(&letters, &field, &Some(Located::new(t.to_string(), &to.at)), p),
            };
            piece.promotes_to = match &to.value {
                PerColour::Both(t) => {
                    let types = set(t);
                    [types, types]
                }
                PerColour::Each { white, black } => [set(white), set(black)],
            };
        }
        if let Some(to) = &s.promotes {
            piece.promotes = letter_type(&letters, &to.value);
            if piece.promotes.is_none() {
                p.add(
                    &to.at,
                    format!("pieces.{}.promotes", s.letter.value),
                    ProblemKind::UnknownLetter(to.value.clone()),
                );
            }
        }
    }
    (pieces, initial)
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
    geo: &Geometry,
    letters: &[char],
    pieces: &[PieceDef],
    whole: &str,
    p: &mut Problems,
) -> Option<Castling> {
    let r = spec.castling_rook.as_ref()?;
    let rooks = letter_types(letters, "castling.rook", &Some(r.clone()), p);
    let kings: TypeSet = match &spec.castling_king {
        Some(k) => letter_types(letters, "castling.king", &Some(k.clone()), p),
        None => PieceType::first(pieces.len())
            .zip(pieces)
            .filter(|(_, p)| p.moves.castling.is_some())
            .map(|(t, _)| t)
            .collect(),
    };
    let file =
        |v: &Option<Located<String>>, field: &str, p: &mut Problems| v.as_ref().and_then(|v| file_of(geo, v, field, p));
    let king_files = [
        file(&spec.castling_king_side, "castling.king_side", p),
        file(&spec.castling_queen_side, "castling.queen_side", p),
    ];
    if kings.is_empty() || (king_files.contains(&None) && !kings.iter().all(|k| pieces[k].moves.castling.is_some())) {
        p.add(whole, "castling", ProblemKind::NoCastlingPiece);
    }
    let rank = spec.castling_rank.as_ref().map_or(1, |r| r.value);
    if rank == 0 || rank > geo.ranks {
        let at = &spec.castling_rank.as_ref().expect("the default is in range").at;
        p.add(at, "castling.rank", ProblemKind::OutOfRange { most: geo.ranks });
    }
    let rook_files = spec.castling_rook_files.as_ref().map_or([None, None], |f| {
        let one = |x: &Option<String>, side: &str, p: &mut Problems| {
            x.as_ref()
                .and_then(|x| file_of(geo, &Located::new(x.clone(), &f.at), &format!("castling.rook_files.{side}"), p))
        };
        [one(&f.value.king_side, "king_side", p), one(&f.value.queen_side, "queen_side", p)]
    });
    let flag = |v: &Option<Located<bool>>| v.as_ref().is_some_and(|v| v.value);
    Some(Castling {
        kings,
        rooks,
        king_files,
        rook_moves: spec.castling_rook_moves.as_ref().map(|m| m.value),
        rank: rank.clamp(1, geo.ranks) - 1,
        rook_files,
        chess960: flag(&spec.castling_960),
        opposite: flag(&spec.castling_opposite),
    })
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

const END_VALUES: [(&str, EndValue); 3] = [("draw", EndValue::Draw), ("loss", EndValue::Loss), ("win", EndValue::Win)];

/// An end value, `default` when left out.
fn end_value(v: &Option<Located<String>>, field: &str, default: EndValue, p: &mut Problems) -> EndValue {
    let mut options = END_VALUES;
    let at = options.iter().position(|o| o.1 == default).expect("one of them");
    options.swap(0, at);
    choice(v, field, &options, p)
}

fn rules(spec: &VariantSpec, geo: &Geometry, letters: &[char], p: &mut Problems) -> Rules {
    let flag = |v: &Option<Located<bool>>| v.as_ref().is_some_and(|v| v.value);
    // The letters of a field inside a rules table (`at`: the table's place).
    let types_at = |text: &str, at: &str, field: &str, p: &mut Problems| -> TypeSet {
        letter_types(letters, field, &Some(Located::new(text.to_string(), at)), p)
    };
    let types_of = |text: &str, at: &str, field: &str, p: &mut Problems| -> Option<TypeSet> {
        (text != "*").then(|| types_at(text, at, field, p))
    };
    let extinction = spec.extinction.as_ref().map(|e| {
        let x = &e.value;
        Extinction {
            types: types_of(&x.types, &e.at, "rules.extinction.types", p),
            count: x.count.unwrap_or(0),
            opponent_count: x.opponent_count.unwrap_or(0),
            value: end_value(
                &x.value.as_ref().map(|v| Located::new(v.clone(), &e.at)),
                "rules.extinction.value",
                EndValue::Loss,
                p,
            ),
            claim: x.claim.unwrap_or(false),
        }
    });
    let pseudo_royal = spec.pseudo_royal.as_ref().map(|r| PseudoRoyal {
        types: types_at(&r.value.types, &r.at, "rules.pseudo_royal.types", p),
        count: r.value.count.unwrap_or(0),
    });
    let flag_rule = spec.flag.as_ref().map(|f| {
        let x = &f.value;
        let piece = |text: &str, p: &mut Problems| types_of(text, &f.at, "rules.flag.piece", p);
        let pieces = match &x.piece {
            None => [None, None],
            Some(PerColour::Both(t)) => {
                let types = piece(t, p);
                [types, types]
            }
            Some(PerColour::Each { white, black }) => [piece(white, p), piece(black, p)],
        };
        Flag {
            pieces,
            region: squares(geo, &Located::new(x.region.clone(), &f.at), "rules.flag.region", p),
            count: x.count.unwrap_or(1),
            flag_move: x.flag_move.unwrap_or(false),
            safe: x.safe.unwrap_or(false),
            blocked: x.blocked.unwrap_or(false),
        }
    });
    let checks = spec.checks.as_ref().map_or(0, |c| c.value);
    if checks > 255 {
        p.add(&spec.checks.as_ref().expect("given").at, "rules.checks", ProblemKind::OutOfRange { most: 255 });
    }
    Rules {
        stalemate: end_value(&spec.stalemate, "rules.stalemate", EndValue::Draw, p),
        stalemate_count: flag(&spec.stalemate_count),
        checkmate: end_value(&spec.checkmate, "rules.checkmate", EndValue::Loss, p),
        bare_king: choice(
            &spec.bare_king,
            "rules.bare_king",
            &[("none", BareKing::None), ("immediate", BareKing::Immediate), ("reply", BareKing::Reply)],
            p,
        ),
        move_rule: spec.move_rule.as_ref().map_or(100, |m| m.value),
        repetitions: spec.repetitions.as_ref().map_or(3, |r| r.value),
        repetition_value: end_value(&spec.repetition_value, "rules.repetition_value", EndValue::Draw, p),
        repetition_absolute: flag(&spec.repetition_absolute),
        perpetual_check: flag(&spec.perpetual_check),
        must_capture: flag(&spec.must_capture),
        no_check: flag(&spec.no_check),
        checks: checks.min(255) as u8,
        flying_general: flag(&spec.flying_general),
        immobility_illegal: flag(&spec.immobility_illegal),
        pseudo_royal,
        extinction,
        flag: flag_rule,
        connect: spec.connect.as_ref().map(|c| {
            let x = &c.value;
            let on = |v: Option<bool>| v.unwrap_or(true);
            let mut directions = Vec::new();
            if on(x.horizontal) {
                directions.push((1, 0));
            }
            if on(x.vertical) {
                directions.push((0, 1));
            }
            if on(x.diagonal) {
                directions.extend([(1, 1), (1, -1)]);
            }
            if !(1..=16).contains(&x.count) {
                p.add(&c.at, "rules.connect.count", ProblemKind::OutOfRange { most: 16 });
            }
            let value = x.value.as_ref().map(|v| Located::new(v.clone(), &c.at));
            Connect {
                count: x.count,
                collinear: x.collinear.unwrap_or(false),
                pieces: x.pieces.as_deref().and_then(|t| types_of(t, &c.at, "rules.connect.pieces", p)),
                directions,
                value: end_value(&value, "rules.connect.value", EndValue::Win, p),
            }
        }),
        makpong: flag(&spec.makpong),
        castling_wins: spec.castling_wins.as_ref().map_or(0, |c| {
            c.value.chars().fold(0, |rights, l| match "KQkq".find(l) {
                Some(i) => rights | 1 << i,
                None => {
                    p.add(
                        &c.at,
                        "rules.castling_wins",
                        ProblemKind::NotOneOf { value: l.into(), options: "K, Q, k, q".into() },
                    );
                    rights
                }
            })
        }),
        counting: spec.counting.as_ref().map(|c| {
            let x = &c.value;
            let role = |text: &str, field: &str, p: &mut Problems| types_at(text, &c.at, field, p);
            let rule = Some(Located::new(x.rule.clone(), &c.at));
            Counting {
                asean: choice(&rule, "rules.counting.rule", &[("makruk", false), ("asean", true)], p),
                pawn: role(&x.pawn, "rules.counting.pawn", p),
                rook: role(&x.rook, "rules.counting.rook", p),
                khon: role(&x.khon, "rules.counting.khon", p),
                knight: role(&x.knight, "rules.counting.knight", p),
            }
        }),
        shatar_mate: spec.shatar_mate.as_ref().map(|s| {
            let not_alone = s.value.not_alone.as_deref().unwrap_or_default();
            ShatarMate {
                shak: types_at(&s.value.shak, &s.at, "rules.shatar_mate.shak", p),
                not_alone: types_at(not_alone, &s.at, "rules.shatar_mate.not_alone", p),
            }
        }),
        blast: spec.blast.as_ref().map(|b| {
            let text = |t: &Option<String>| t.clone().unwrap_or_default();
            Blast {
                spares: types_at(&text(&b.value.spares), &b.at, "rules.blast.spares", p),
                immune: types_at(&text(&b.value.immune), &b.at, "rules.blast.immune", p),
            }
        }),
        en_passant_region: spec
            .en_passant_region
            .as_ref()
            .map_or([geo.all(); 2], |r| squares(geo, r, "rules.en_passant_region", p)),
        walling: choice(
            &spec.walling,
            "rules.walling",
            &[
                ("none", None),
                ("arrow", Some(Walling::Arrow)),
                ("duck", Some(Walling::Duck)),
                ("past", Some(Walling::Past)),
                ("static", Some(Walling::Static)),
            ],
            p,
        ),
        pass_on_stalemate: flag(&spec.pass_on_stalemate),
        drops: flag(&spec.drops),
        captures_to_hand: flag(&spec.captures_to_hand),
        drop_loop: flag(&spec.drop_loop),
        must_drop: flag(&spec.must_drop),
        drop_fall: choice(
            &spec.drop_fall,
            "rules.drop_fall",
            &[("none", None), ("top", Some(DropFall::Top)), ("anyside", Some(DropFall::AnySide))],
            p,
        ),
        drop_region: spec.drop_region.as_ref().map_or([geo.all(); 2], |r| squares(geo, r, "rules.drop_region", p)),
        drop_no_doubled: spec
            .drop_no_doubled
            .as_ref()
            .map(|r| (types_at(&r.value.types, &r.at, "rules.drop_no_doubled.types", p), r.value.count.unwrap_or(1))),
        drop_mate: letter_types(letters, "rules.drop_mate", &spec.drop_mate, p),
        pawn_drops_in_zone: flag(&spec.pawn_drops_in_zone),
        pawn_drops_on_first_rank: flag(&spec.pawn_drops_on_first_rank),
        walling_region: spec
            .walling_region
            .as_ref()
            .map_or([geo.all(); 2], |r| squares(geo, r, "rules.walling_region", p)),
        material_counting: choice(
            &spec.material_counting,
            "rules.material_counting",
            &[
                ("none", MaterialCounting::None),
                ("black_draw_odds", MaterialCounting::BlackDrawOdds),
                ("white_draw_odds", MaterialCounting::WhiteDrawOdds),
                ("unweighted", MaterialCounting::Unweighted),
            ],
            p,
        ),
    }
}

fn setup(
    spec: &VariantSpec,
    geo: &Geometry,
    letters: Letters,
    checks: u8,
    whole: &str,
    p: &mut Problems,
) -> Option<Setup> {
    let Some(s) = &spec.setup else {
        p.add(whole, "setup", ProblemKind::Missing);
        return None;
    };
    Setup::parse(geo, letters, &s.value, checks)
        .map_err(|e| {
            let kind = match e.kind {
                crate::error::FenErrorKind::Placement(e) => ProblemKind::Placement(e),
                _ => ProblemKind::Fen(e),
            };
            p.add(&s.at, "setup", kind)
        })
        .ok()
}

/// `[promotion] limit`: per type, the most pieces of it a side may have for a promotion to it.
fn promotion_limit(spec: &VariantSpec, letters: &[char], p: &mut Problems) -> [u8; MAX_TYPES] {
    let mut out = [0u8; MAX_TYPES];
    for (letter, &n) in spec
        .promotion_limit
        .iter()
        .flat_map(|l| l.value.iter().map(move |e| (e, &l.at)))
        .map(|((l, n), at)| ((l, at), n))
    {
        let (l, at) = letter;
        match letter_type(letters, &l.to_ascii_lowercase()) {
            Some(t) => out[t] = n.min(255) as u8,
            None => p.add(at, "promotion.limit", ProblemKind::UnknownLetter(l.clone())),
        }
    }
    out
}

/// Where each side promotes: `promotion.region`, else its last `promotion.ranks` (1 by default).
fn promotion_zone(spec: &VariantSpec, geo: &Geometry, p: &mut Problems) -> [Bitboard; 2] {
    if let Some(r) = &spec.promotion_region {
        return squares(geo, r, "promotion.region", p);
    }
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

/// Where a piece from the hand may be dropped: in the drop region, where it may stand (its
/// region, and where it has a move on an empty board when immobility is illegal); a piece
/// that promotes pawn-style neither in its promotion zone nor on its first rank unless the
/// rules allow it (as in crazyhouse, and as Fairy-Stockfish has it for every such pawn).
fn drop_squares(
    geo: &Geometry,
    pieces: &[PieceDef],
    zone: &[Bitboard; 2],
    rules: &Rules,
    immobile: &PerType<Bitboard>,
) -> PerType<Bitboard> {
    Colour::BOTH.map(|c| {
        std::array::from_fn(|t| {
            let Some(piece) = pieces.get(t) else { return Bitboard::EMPTY };
            let mut squares = piece.region[c] & rules.drop_region[c] & geo.all();
            if piece.promotes_in_zone(c) {
                if !rules.pawn_drops_in_zone {
                    squares &= !zone[c];
                }
                if !rules.pawn_drops_on_first_rank {
                    squares &= !geo.rank_bb(if c == Colour::White { 0 } else { geo.ranks - 1 });
                }
            }
            if rules.immobility_illegal {
                squares &= !immobile[c][t];
            }
            squares
        })
    })
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
    optional: bool,
) -> PerType<Bitboard> {
    let mut out = [[Bitboard::EMPTY; MAX_TYPES]; 2];
    for (t, piece) in PieceType::first(pieces.len()).zip(pieces) {
        let rules = &piece.moves.rules;
        let forward_only = !rules.is_empty()
            && piece.moves.castling.is_none()
            && rules.iter().all(|r| r.steps.iter().all(|&(_, dy)| dy > 0));
        for c in Colour::BOTH {
            let promoted_to = pieces.iter().any(|q| q.promotes_to[c].contains(t) || q.promotes == Some(t));
            // Optional promotion leaves a piece free to stay unpromoted in the zone.
            let mut never = if piece.promotes_in_zone(c) && !optional { zone[c] } else { Bitboard::EMPTY };
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
    region_moves: [Vec<Option<(Bitboard, MoveSet)>>; 2],
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
        let all_rules =
            pieces.iter().flat_map(|p| p.moves.rules.iter().chain(p.moves_from.iter().flat_map(|m| &m.1.rules)));
        for r in all_rules.filter(|r| r.is_rider()) {
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
            region_moves: [Vec::new(), Vec::new()],
            attackers: [Attackers::default(), Attackers::default()],
            rays,
        };
        for c in Colour::BOTH {
            for (ty, p) in PieceType::first(pieces.len()).zip(pieces) {
                // A turned piece's Black moves: left and right exchanged, then mirrored.
                let sided = |rules: &[MoveRule]| -> Vec<MoveRule> {
                    let turn =
                        |r: &MoveRule| MoveRule { steps: r.steps.iter().map(|&(x, y)| (-x, y)).collect(), ..r.clone() };
                    match c == Colour::Black && p.turned {
                        true => rules.iter().map(turn).collect(),
                        false => rules.to_vec(),
                    }
                };
                let own = sided(&p.moves.rules);
                let normal: Vec<&MoveRule> = own.iter().filter(|r| !r.initial).collect();
                let init: Vec<&MoveRule> = own.iter().filter(|r| r.initial).collect();
                t.moves[c].push(MoveSet::compile(geo, &t.rays, &oriented(c, &normal, false), false));
                t.initial_moves[c].push(MoveSet::compile(geo, &t.rays, &oriented(c, &init, false), false));
                t.add_attackers(geo, c, ty, &normal, None);
                t.add_attackers(geo, c, ty, &init, Some(initial[c][ty]));
                let region = p.moves_from.as_ref().map(|(squares, betza)| {
                    let own = sided(&betza.rules);
                    let rules: Vec<&MoveRule> = own.iter().collect();
                    t.add_attackers(geo, c, ty, &rules, Some(squares[c]));
                    (squares[c], MoveSet::compile(geo, &t.rays, &oriented(c, &rules, false), false))
                });
                t.region_moves[c].push(region);
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
