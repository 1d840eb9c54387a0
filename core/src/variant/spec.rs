//! The variant file format (TOML), read with serde: every field optional so that a file may
//! `extends` another and override only what changes. Values keep the file and line they came
//! from, so that errors found later can name them.

use crate::error::{Problem, ProblemKind, VariantError};
use crate::toml_text::{toml_at, Lines};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// A value with the place (`file:line`) it was read from.
#[derive(Clone, Debug)]
pub struct Located<T> {
    pub value: T,
    pub at: Arc<str>,
}

impl<T> Located<T> {
    pub fn new(value: T, at: &str) -> Self {
        Located { value, at: at.into() }
    }
}

/// A value for both colours (squares given in White's view, mirrored for Black), or one for
/// each (`{ white = ..., black = ... }`, each as it is).
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum PerColour<T> {
    Both(T),
    Each { white: T, black: T },
}

/// Moves a piece has only while it stands on some squares (the xiangqi soldier across the
/// river).
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MovesFromSpec {
    pub squares: PerColour<String>,
    pub betza: String,
}

/// `[rules] extinction`: a side that runs out of some pieces.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ExtinctionSpec {
    pub types: String,
    pub count: Option<u32>,
    pub opponent_count: Option<u32>,
    pub value: Option<String>,
    pub claim: Option<bool>,
}

/// `[rules] connect`: a line of `count` pieces wins (connect four, tic-tac-toe).
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ConnectSpec {
    pub count: u32,
    pub pieces: Option<String>,
    pub horizontal: Option<bool>,
    pub vertical: Option<bool>,
    pub diagonal: Option<bool>,
    pub value: Option<String>,
    pub collinear: Option<bool>,
}

/// `[rules] shatar_mate`: which checks make a mate count (Mongolian shatar).
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ShatarMateSpec {
    pub shak: String,
    pub not_alone: Option<String>,
}

/// `[rules] counting`: Makruk's or the ASEAN rules' counted endings, with the roles of the
/// pieces they count.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CountingSpec {
    pub rule: String,
    pub pawn: String,
    pub rook: String,
    pub khon: String,
    pub knight: String,
}

/// `[rules] flag`: pieces that win by reaching a region.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FlagSpec {
    pub piece: Option<PerColour<String>>,
    pub region: PerColour<String>,
    pub count: Option<u32>,
    #[serde(rename = "move")]
    pub flag_move: Option<bool>,
    pub safe: Option<bool>,
    pub blocked: Option<bool>,
}

/// `[rules] pseudo_royal`: pieces a side may not leave attacked while it has few of them.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
/// Piece letters and a count: `[rules] pseudo_royal` and `drop_no_doubled`.
pub struct PseudoRoyalSpec {
    pub types: String,
    pub count: Option<u32>,
}

/// `[rules] blast`: a capture removes the capturer and the pieces around the square, but for
/// the types it spares around it and those immune to it anywhere.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BlastSpec {
    pub spares: Option<String>,
    pub immune: Option<String>,
}

/// `[castling] rook_files`: where the search for each side's rook starts.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RookFilesSpec {
    pub king_side: Option<String>,
    pub queen_side: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawFile {
    extends: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    description: Option<Spanned<String>>,
    files: Option<Spanned<usize>>,
    ranks: Option<Spanned<usize>>,
    setup: Option<Spanned<String>>,
    /// What engines call the variant: UCI's `UCI_Variant`, xboard's `variant`.
    uci_variant: Option<Spanned<String>>,
    xboard_variant: Option<Spanned<String>>,
    #[serde(default)]
    pieces: Vec<RawPiece>,
    promotion: Option<RawPromotion>,
    castling: Option<RawCastling>,
    rules: Option<RawRules>,
    opening_moves: Option<Vec<RawOpening>>,
    openings: Option<RawOpenings>,
}

/// How a harness opens games of the variant: plies played among near-best moves.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawOpenings {
    plies: Option<Spanned<u32>>,
    margin: Option<Spanned<i32>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    letter: Spanned<String>,
    name: Option<Spanned<String>>,
    betza: Option<Spanned<String>>,
    value: Option<Spanned<i32>>,
    royal: Option<Spanned<bool>>,
    pawn: Option<Spanned<bool>>,
    promotes_to: Option<Spanned<PerColour<String>>>,
    promotes: Option<Spanned<String>>,
    no_same_capture: Option<Spanned<bool>>,
    turned: Option<Spanned<bool>>,
    region: Option<Spanned<PerColour<String>>>,
    initial: Option<Spanned<PerColour<String>>>,
    moves_from: Option<Spanned<MovesFromSpec>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawPromotion {
    ranks: Option<Spanned<usize>>,
    region: Option<Spanned<PerColour<String>>>,
    lost_only: Option<Spanned<String>>,
    distinct_colour: Option<Spanned<String>>,
    optional: Option<Spanned<bool>>,
    mandatory: Option<Spanned<bool>>,
    limit: Option<Spanned<BTreeMap<String, u32>>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawCastling {
    rook: Option<Spanned<String>>,
    rook_moves: Option<Spanned<u32>>,
    king: Option<Spanned<String>>,
    king_side: Option<Spanned<String>>,
    queen_side: Option<Spanned<String>>,
    rank: Option<Spanned<usize>>,
    rook_files: Option<Spanned<RookFilesSpec>>,
    chess960: Option<Spanned<bool>>,
    opposite: Option<Spanned<bool>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawRules {
    stalemate: Option<Spanned<String>>,
    stalemate_count: Option<Spanned<bool>>,
    checkmate: Option<Spanned<String>>,
    bare_king: Option<Spanned<String>>,
    rumi_opening: Option<Spanned<String>>,
    insufficient_material: Option<Spanned<Vec<String>>>,
    move_rule: Option<Spanned<u32>>,
    repetitions: Option<Spanned<u32>>,
    repetition_value: Option<Spanned<String>>,
    repetition_absolute: Option<Spanned<bool>>,
    perpetual_check: Option<Spanned<bool>>,
    must_capture: Option<Spanned<bool>>,
    no_check: Option<Spanned<bool>>,
    checks: Option<Spanned<u32>>,
    flying_general: Option<Spanned<bool>>,
    immobility_illegal: Option<Spanned<bool>>,
    pseudo_royal: Option<Spanned<PseudoRoyalSpec>>,
    extinction: Option<Spanned<ExtinctionSpec>>,
    flag: Option<Spanned<FlagSpec>>,
    blast: Option<Spanned<BlastSpec>>,
    connect: Option<Spanned<ConnectSpec>>,
    shatar_mate: Option<Spanned<ShatarMateSpec>>,
    counting: Option<Spanned<CountingSpec>>,
    makpong: Option<Spanned<bool>>,
    castling_wins: Option<Spanned<String>>,
    material_counting: Option<Spanned<String>>,
    en_passant_region: Option<Spanned<PerColour<String>>>,
    walling: Option<Spanned<String>>,
    walling_region: Option<Spanned<PerColour<String>>>,
    pass_on_stalemate: Option<Spanned<bool>>,
    drops: Option<Spanned<bool>>,
    captures_to_hand: Option<Spanned<bool>>,
    drop_loop: Option<Spanned<bool>>,
    must_drop: Option<Spanned<bool>>,
    drop_fall: Option<Spanned<String>>,
    drop_region: Option<Spanned<PerColour<String>>>,
    drop_no_doubled: Option<Spanned<PseudoRoyalSpec>>,
    drop_mate: Option<Spanned<String>>,
    pawn_drops_in_zone: Option<Spanned<bool>>,
    pawn_drops_on_first_rank: Option<Spanned<bool>>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawOpening {
    player_move: Spanned<u32>,
    piece: Spanned<String>,
    from: Spanned<String>,
    to: Spanned<String>,
    requires: Option<Spanned<String>>,
}

type L<T> = Option<Located<T>>;

/// One piece as the files describe it, overrides applied.
#[derive(Clone, Debug, Default)]
pub struct PieceSpec {
    pub letter: Located<String>,
    pub name: L<String>,
    pub betza: L<String>,
    pub value: L<i32>,
    pub royal: L<bool>,
    pub pawn: L<bool>,
    pub promotes_to: L<PerColour<String>>,
    pub promotes: L<String>,
    pub no_same_capture: L<bool>,
    pub turned: L<bool>,
    pub region: L<PerColour<String>>,
    pub initial: L<PerColour<String>>,
    pub moves_from: L<MovesFromSpec>,
}

impl Default for Located<String> {
    fn default() -> Self {
        Located::new(String::new(), "")
    }
}

/// One opening move (Rumi Shatranj's Counselor leap and soldier follow-up), in White's view.
#[derive(Clone, Debug)]
pub struct OpeningSpec {
    pub player_move: u32,
    pub piece: String,
    pub from: String,
    pub to: String,
    /// `LETTER@SQUARE`: a piece that must stand there (own colour), as in `q@d3`.
    pub requires: Option<String>,
    pub at: Arc<str>,
}

/// A whole variant description, the `extends` chain merged.
#[derive(Clone, Debug, Default)]
pub struct VariantSpec {
    /// The built-in variant at the root of the `extends` chain, if it is one.
    pub builtin: Option<String>,
    pub name: L<String>,
    pub description: L<String>,
    pub files: L<usize>,
    pub ranks: L<usize>,
    pub setup: L<String>,
    pub uci_variant: L<String>,
    pub xboard_variant: L<String>,
    pub pieces: Vec<PieceSpec>,
    pub promotion_ranks: L<usize>,
    pub promotion_region: L<PerColour<String>>,
    pub lost_only: L<String>,
    pub distinct_colour: L<String>,
    pub promotion_optional: L<bool>,
    pub promotion_mandatory: L<bool>,
    pub promotion_limit: L<BTreeMap<String, u32>>,
    pub castling_rook: L<String>,
    pub castling_rook_moves: L<u32>,
    pub castling_king: L<String>,
    pub castling_king_side: L<String>,
    pub castling_queen_side: L<String>,
    pub castling_rank: L<usize>,
    pub castling_rook_files: L<RookFilesSpec>,
    pub castling_960: L<bool>,
    pub castling_opposite: L<bool>,
    pub stalemate: L<String>,
    pub stalemate_count: L<bool>,
    pub checkmate: L<String>,
    pub bare_king: L<String>,
    pub rumi_opening: L<String>,
    pub insufficient_material: L<Vec<String>>,
    pub move_rule: L<u32>,
    pub repetitions: L<u32>,
    pub repetition_value: L<String>,
    pub repetition_absolute: L<bool>,
    pub perpetual_check: L<bool>,
    pub must_capture: L<bool>,
    pub no_check: L<bool>,
    pub checks: L<u32>,
    pub flying_general: L<bool>,
    pub immobility_illegal: L<bool>,
    pub pseudo_royal: L<PseudoRoyalSpec>,
    pub extinction: L<ExtinctionSpec>,
    pub flag: L<FlagSpec>,
    pub blast: L<BlastSpec>,
    pub connect: L<ConnectSpec>,
    pub shatar_mate: L<ShatarMateSpec>,
    pub counting: L<CountingSpec>,
    pub makpong: L<bool>,
    pub castling_wins: L<String>,
    pub material_counting: L<String>,
    pub en_passant_region: L<PerColour<String>>,
    pub walling: L<String>,
    pub walling_region: L<PerColour<String>>,
    pub pass_on_stalemate: L<bool>,
    pub drops: L<bool>,
    pub captures_to_hand: L<bool>,
    pub drop_loop: L<bool>,
    pub must_drop: L<bool>,
    pub drop_fall: L<String>,
    pub drop_region: L<PerColour<String>>,
    pub drop_no_doubled: L<PseudoRoyalSpec>,
    pub drop_mate: L<String>,
    pub pawn_drops_in_zone: L<bool>,
    pub pawn_drops_on_first_rank: L<bool>,
    pub opening_moves: Option<Vec<OpeningSpec>>,
    pub opening_plies: L<u32>,
    pub opening_margin: L<i32>,
}

struct Reader<'a> {
    file: &'a str,
    lines: Lines,
}

impl Reader<'_> {
    fn at(&self, span: std::ops::Range<usize>) -> String {
        format!("{}:{}", self.file, self.lines.line_of(span.start))
    }
    fn loc<T>(&self, v: Option<Spanned<T>>) -> L<T> {
        v.map(|s| {
            let at = self.at(s.span());
            Located::new(s.into_inner(), &at)
        })
    }
}

fn over<T>(base: &mut Option<T>, child: Option<T>) {
    if child.is_some() {
        *base = child;
    }
}

/// Parses one file (not following `extends`); returns the spec and the name it extends.
pub fn parse_file(file: &str, src: &str) -> Result<(VariantSpec, Option<Located<String>>), VariantError> {
    let raw: RawFile = toml::from_str(src)
        .map_err(|e| Problem::new(toml_at(file, src, &e), "", ProblemKind::Toml(e.message().to_string())))?;
    let r = Reader { file, lines: Lines::new(src) };
    let mut spec = VariantSpec {
        name: r.loc(raw.name),
        description: r.loc(raw.description),
        files: r.loc(raw.files),
        ranks: r.loc(raw.ranks),
        setup: r.loc(raw.setup),
        uci_variant: r.loc(raw.uci_variant),
        xboard_variant: r.loc(raw.xboard_variant),
        ..Default::default()
    };
    for p in raw.pieces {
        let at = r.at(p.letter.span());
        spec.pieces.push(PieceSpec {
            letter: Located::new(p.letter.into_inner(), &at),
            name: r.loc(p.name),
            betza: r.loc(p.betza),
            value: r.loc(p.value),
            royal: r.loc(p.royal),
            pawn: r.loc(p.pawn),
            promotes_to: r.loc(p.promotes_to),
            promotes: r.loc(p.promotes),
            no_same_capture: r.loc(p.no_same_capture),
            turned: r.loc(p.turned),
            region: r.loc(p.region),
            initial: r.loc(p.initial),
            moves_from: r.loc(p.moves_from),
        });
    }
    if let Some(p) = raw.promotion {
        spec.promotion_ranks = r.loc(p.ranks);
        spec.promotion_region = r.loc(p.region);
        spec.lost_only = r.loc(p.lost_only);
        spec.distinct_colour = r.loc(p.distinct_colour);
        spec.promotion_optional = r.loc(p.optional);
        spec.promotion_mandatory = r.loc(p.mandatory);
        spec.promotion_limit = r.loc(p.limit);
    }
    if let Some(c) = raw.castling {
        spec.castling_rook = r.loc(c.rook);
        spec.castling_rook_moves = r.loc(c.rook_moves);
        spec.castling_king = r.loc(c.king);
        spec.castling_king_side = r.loc(c.king_side);
        spec.castling_queen_side = r.loc(c.queen_side);
        spec.castling_rank = r.loc(c.rank);
        spec.castling_rook_files = r.loc(c.rook_files);
        spec.castling_960 = r.loc(c.chess960);
        spec.castling_opposite = r.loc(c.opposite);
    }
    if let Some(x) = raw.rules {
        spec.stalemate = r.loc(x.stalemate);
        spec.stalemate_count = r.loc(x.stalemate_count);
        spec.checkmate = r.loc(x.checkmate);
        spec.bare_king = r.loc(x.bare_king);
        spec.rumi_opening = r.loc(x.rumi_opening);
        spec.insufficient_material = r.loc(x.insufficient_material);
        spec.move_rule = r.loc(x.move_rule);
        spec.repetitions = r.loc(x.repetitions);
        spec.repetition_value = r.loc(x.repetition_value);
        spec.repetition_absolute = r.loc(x.repetition_absolute);
        spec.perpetual_check = r.loc(x.perpetual_check);
        spec.must_capture = r.loc(x.must_capture);
        spec.no_check = r.loc(x.no_check);
        spec.checks = r.loc(x.checks);
        spec.flying_general = r.loc(x.flying_general);
        spec.immobility_illegal = r.loc(x.immobility_illegal);
        spec.pseudo_royal = r.loc(x.pseudo_royal);
        spec.extinction = r.loc(x.extinction);
        spec.flag = r.loc(x.flag);
        spec.blast = r.loc(x.blast);
        spec.connect = r.loc(x.connect);
        spec.shatar_mate = r.loc(x.shatar_mate);
        spec.counting = r.loc(x.counting);
        spec.makpong = r.loc(x.makpong);
        spec.castling_wins = r.loc(x.castling_wins);
        spec.material_counting = r.loc(x.material_counting);
        spec.en_passant_region = r.loc(x.en_passant_region);
        spec.walling = r.loc(x.walling);
        spec.walling_region = r.loc(x.walling_region);
        spec.pass_on_stalemate = r.loc(x.pass_on_stalemate);
        spec.drops = r.loc(x.drops);
        spec.captures_to_hand = r.loc(x.captures_to_hand);
        spec.drop_loop = r.loc(x.drop_loop);
        spec.must_drop = r.loc(x.must_drop);
        spec.drop_fall = r.loc(x.drop_fall);
        spec.drop_region = r.loc(x.drop_region);
        spec.drop_no_doubled = r.loc(x.drop_no_doubled);
        spec.drop_mate = r.loc(x.drop_mate);
        spec.pawn_drops_in_zone = r.loc(x.pawn_drops_in_zone);
        spec.pawn_drops_on_first_rank = r.loc(x.pawn_drops_on_first_rank);
    }
    if let Some(o) = raw.openings {
        spec.opening_plies = r.loc(o.plies);
        spec.opening_margin = r.loc(o.margin);
    }
    spec.opening_moves = raw.opening_moves.map(|v| {
        v.into_iter()
            .map(|o| OpeningSpec {
                at: r.at(o.player_move.span()).into(),
                player_move: o.player_move.into_inner(),
                piece: o.piece.into_inner(),
                from: o.from.into_inner(),
                to: o.to.into_inner(),
                requires: o.requires.map(|s| s.into_inner()),
            })
            .collect()
    });
    Ok((spec, r.loc(raw.extends)))
}

impl VariantSpec {
    /// Lays `child` over `self`: set fields replace, pieces merge by letter.
    pub fn overlay(mut self, child: VariantSpec) -> VariantSpec {
        // The chain's root stays: a file that extends a built-in is of that built-in.
        over(&mut self.name, child.name);
        over(&mut self.description, child.description);
        over(&mut self.files, child.files);
        over(&mut self.ranks, child.ranks);
        over(&mut self.setup, child.setup);
        over(&mut self.uci_variant, child.uci_variant);
        over(&mut self.xboard_variant, child.xboard_variant);
        over(&mut self.promotion_ranks, child.promotion_ranks);
        over(&mut self.promotion_region, child.promotion_region);
        over(&mut self.lost_only, child.lost_only);
        over(&mut self.distinct_colour, child.distinct_colour);
        over(&mut self.promotion_optional, child.promotion_optional);
        over(&mut self.promotion_mandatory, child.promotion_mandatory);
        over(&mut self.promotion_limit, child.promotion_limit);
        over(&mut self.castling_rook, child.castling_rook);
        over(&mut self.castling_rook_moves, child.castling_rook_moves);
        over(&mut self.castling_king, child.castling_king);
        over(&mut self.castling_king_side, child.castling_king_side);
        over(&mut self.castling_queen_side, child.castling_queen_side);
        over(&mut self.castling_rank, child.castling_rank);
        over(&mut self.castling_rook_files, child.castling_rook_files);
        over(&mut self.castling_960, child.castling_960);
        over(&mut self.castling_opposite, child.castling_opposite);
        over(&mut self.stalemate, child.stalemate);
        over(&mut self.stalemate_count, child.stalemate_count);
        over(&mut self.checkmate, child.checkmate);
        over(&mut self.bare_king, child.bare_king);
        over(&mut self.rumi_opening, child.rumi_opening);
        over(&mut self.insufficient_material, child.insufficient_material);
        over(&mut self.move_rule, child.move_rule);
        over(&mut self.repetitions, child.repetitions);
        over(&mut self.repetition_value, child.repetition_value);
        over(&mut self.repetition_absolute, child.repetition_absolute);
        over(&mut self.perpetual_check, child.perpetual_check);
        over(&mut self.must_capture, child.must_capture);
        over(&mut self.no_check, child.no_check);
        over(&mut self.checks, child.checks);
        over(&mut self.flying_general, child.flying_general);
        over(&mut self.immobility_illegal, child.immobility_illegal);
        over(&mut self.pseudo_royal, child.pseudo_royal);
        over(&mut self.extinction, child.extinction);
        over(&mut self.flag, child.flag);
        over(&mut self.blast, child.blast);
        over(&mut self.connect, child.connect);
        over(&mut self.shatar_mate, child.shatar_mate);
        over(&mut self.counting, child.counting);
        over(&mut self.makpong, child.makpong);
        over(&mut self.castling_wins, child.castling_wins);
        over(&mut self.material_counting, child.material_counting);
        over(&mut self.en_passant_region, child.en_passant_region);
        over(&mut self.walling, child.walling);
        over(&mut self.walling_region, child.walling_region);
        over(&mut self.pass_on_stalemate, child.pass_on_stalemate);
        over(&mut self.drops, child.drops);
        over(&mut self.captures_to_hand, child.captures_to_hand);
        over(&mut self.drop_loop, child.drop_loop);
        over(&mut self.must_drop, child.must_drop);
        over(&mut self.drop_fall, child.drop_fall);
        over(&mut self.drop_region, child.drop_region);
        over(&mut self.drop_no_doubled, child.drop_no_doubled);
        over(&mut self.drop_mate, child.drop_mate);
        over(&mut self.pawn_drops_in_zone, child.pawn_drops_in_zone);
        over(&mut self.pawn_drops_on_first_rank, child.pawn_drops_on_first_rank);
        over(&mut self.opening_moves, child.opening_moves);
        over(&mut self.opening_plies, child.opening_plies);
        over(&mut self.opening_margin, child.opening_margin);
        let mut by_letter: BTreeMap<String, usize> = BTreeMap::new();
        for (i, p) in self.pieces.iter().enumerate() {
            by_letter.insert(p.letter.value.to_ascii_lowercase(), i);
        }
        for p in child.pieces {
            match by_letter.get(&p.letter.value.to_ascii_lowercase()) {
                Some(&i) => {
                    let b = &mut self.pieces[i];
                    over(&mut b.name, p.name);
                    over(&mut b.betza, p.betza);
                    over(&mut b.value, p.value);
                    over(&mut b.royal, p.royal);
                    over(&mut b.pawn, p.pawn);
                    over(&mut b.promotes_to, p.promotes_to);
                    over(&mut b.promotes, p.promotes);
                    over(&mut b.no_same_capture, p.no_same_capture);
                    over(&mut b.turned, p.turned);
                    over(&mut b.region, p.region);
                    over(&mut b.initial, p.initial);
                    over(&mut b.moves_from, p.moves_from);
                }
                None => self.pieces.push(p),
            }
        }
        self
    }
}
