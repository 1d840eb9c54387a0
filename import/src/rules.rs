//! A section's rules as Fairy-Stockfish resolves them: its parent's resolved rules (an earlier
//! section or a built-in) or FSF's defaults, with the section's keys applied in FSF's order.
//! Every value remembers where it came from, so that a refusal can name the file and line or
//! the built-in it was inherited from.

use super::ini::{Entry, Section};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

/// FSF's largest board (the largeboards build): bitboards cover 12 files x 10 ranks.
pub const MAX_FILES: u8 = 12;
pub const MAX_RANKS: u8 = 10;

/// A square set, squares as (file, rank) from 0.
pub type Squares = BTreeSet<(u8, u8)>;

/// Where a resolved value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// FSF's default for a section without parent.
    Default,
    /// A section of FSF's built-in variants (data/fsf/builtins.ini).
    Builtin(String),
    /// A line of the file being imported, in the section that set it.
    File { file: Arc<str>, section: String, line: usize },
}

/// A resolved value, the text it was read from and its origin.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub val: Val,
    pub key: String,
    pub raw: String,
    pub origin: Origin,
}

/// A value, typed as FSF reads it. Piece types are kept by FSF type name (`knight`,
/// `customPiece3`, `*` for all pieces), since a child section may give a type another letter.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Bool(bool),
    Int(i64),
    Text(String),
    Squares(Squares),
    Types(Vec<String>),
}

impl Val {
    pub fn bool(&self) -> bool {
        matches!(self, Val::Bool(true))
    }
    pub fn int(&self) -> i64 {
        match self {
            Val::Int(n) => *n,
            _ => 0,
        }
    }
    pub fn text(&self) -> &str {
        match self {
            Val::Text(t) => t,
            _ => "",
        }
    }
    pub fn squares(&self) -> Squares {
        match self {
            Val::Squares(s) => s.clone(),
            _ => Squares::new(),
        }
    }
    pub fn types(&self) -> Vec<String> {
        match self {
            Val::Types(t) => t.clone(),
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bool,
    Int,
    /// A rank or a file: a number from 1, files also as a letter.
    Coord,
    /// win / loss / draw / none.
    Value,
    Enum(&'static [&'static str]),
    Text,
    Squares,
    PieceType,
    PieceSet,
    /// FEN-style castling rights (`KQkq`).
    Rights,
}

const COUNTING: &[&str] = &["makruk", "cambodian", "asean"];
const MATERIAL: &[&str] = &["janggi", "unweighted", "whitedrawodds", "blackdrawodds"];
const CHASING: &[&str] = &["axf"];
const ENCLOSING: &[&str] = &["reversi", "ataxx", "quadwrangle", "snort", "anyside", "top"];
const WALLING: &[&str] = &["arrow", "duck", "edge", "past", "static"];

use Kind::*;

/// The rule keys in the order FSF's parser reads them (after the pieces, the piece values, the
/// deprecated keys and `pawnTypes`), with the fields each one sets: a general key such as
/// `promotionPieceTypes` sets both colours, and its per-colour form read later overrides it.
const KEYS: &[(&str, Kind, &[&str])] = &[
    ("variantTemplate", Text, &[]),
    ("pieceToCharTable", Text, &[]),
    ("pocketSize", Int, &[]),
    ("chess960", Bool, &[]),
    ("twoBoards", Bool, &[]),
    ("startFen", Text, &[]),
    ("promotionRegionWhite", Squares, &[]),
    ("promotionRegionBlack", Squares, &[]),
    ("promotionPawnTypes", PieceSet, &["promotionPawnTypesWhite", "promotionPawnTypesBlack"]),
    ("promotionPawnTypesWhite", PieceSet, &[]),
    ("promotionPawnTypesBlack", PieceSet, &[]),
    ("promotionPieceTypes", PieceSet, &["promotionPieceTypesWhite", "promotionPieceTypesBlack"]),
    ("promotionPieceTypesWhite", PieceSet, &[]),
    ("promotionPieceTypesBlack", PieceSet, &[]),
    ("sittuyinPromotion", Bool, &[]),
    ("piecePromotionOnCapture", Bool, &[]),
    ("mandatoryPawnPromotion", Bool, &[]),
    ("mandatoryPiecePromotion", Bool, &[]),
    ("pieceDemotion", Bool, &[]),
    ("blastOnCapture", Bool, &[]),
    ("blastImmuneTypes", PieceSet, &[]),
    ("mutuallyImmuneTypes", PieceSet, &[]),
    ("petrifyOnCaptureTypes", PieceSet, &[]),
    ("petrifyBlastPieces", Bool, &[]),
    ("doubleStep", Bool, &[]),
    ("doubleStepRegionWhite", Squares, &[]),
    ("doubleStepRegionBlack", Squares, &[]),
    ("tripleStepRegionWhite", Squares, &[]),
    ("tripleStepRegionBlack", Squares, &[]),
    ("enPassantRegion", Squares, &["enPassantRegionWhite", "enPassantRegionBlack"]),
    ("enPassantRegionWhite", Squares, &[]),
    ("enPassantRegionBlack", Squares, &[]),
    ("enPassantTypes", PieceSet, &["enPassantTypesWhite", "enPassantTypesBlack"]),
    ("enPassantTypesWhite", PieceSet, &[]),
    ("enPassantTypesBlack", PieceSet, &[]),
    ("castling", Bool, &[]),
    ("castlingDroppedPiece", Bool, &[]),
    ("castlingKingsideFile", Coord, &[]),
    ("castlingQueensideFile", Coord, &[]),
    ("castlingRank", Coord, &[]),
    ("castlingKingFile", Coord, &[]),
    ("castlingKingPiece", PieceType, &["castlingKingPieceWhite", "castlingKingPieceBlack"]),
    ("castlingKingPieceWhite", PieceType, &[]),
    ("castlingKingPieceBlack", PieceType, &[]),
    ("castlingRookKingsideFile", Coord, &[]),
    ("castlingRookQueensideFile", Coord, &[]),
    ("castlingRookPieces", PieceSet, &["castlingRookPiecesWhite", "castlingRookPiecesBlack"]),
    ("castlingRookPiecesWhite", PieceSet, &[]),
    ("castlingRookPiecesBlack", PieceSet, &[]),
    ("oppositeCastling", Bool, &[]),
    ("checking", Bool, &[]),
    ("dropChecks", Bool, &[]),
    ("mustCapture", Bool, &[]),
    ("mustDrop", Bool, &[]),
    ("mustDropType", PieceType, &[]),
    ("pieceDrops", Bool, &[]),
    ("dropLoop", Bool, &[]),
    ("capturesToHand", Bool, &[]),
    ("firstRankPawnDrops", Bool, &[]),
    ("promotionZonePawnDrops", Bool, &[]),
    ("enclosingDrop", Enum(ENCLOSING), &[]),
    ("enclosingDropStart", Squares, &[]),
    ("dropRegionWhite", Squares, &[]),
    ("dropRegionBlack", Squares, &[]),
    ("sittuyinRookDrop", Bool, &[]),
    ("dropOppositeColoredBishop", Bool, &[]),
    ("dropPromoted", Bool, &[]),
    ("dropNoDoubled", PieceType, &[]),
    ("dropNoDoubledCount", Int, &[]),
    ("immobilityIllegal", Bool, &[]),
    ("gating", Bool, &[]),
    ("wallingRule", Enum(WALLING), &[]),
    ("wallingRegionWhite", Squares, &[]),
    ("wallingRegionBlack", Squares, &[]),
    ("wallingRegion", Squares, &["wallingRegionWhite", "wallingRegionBlack"]),
    ("wallOrMove", Bool, &[]),
    ("seirawanGating", Bool, &[]),
    ("cambodianMoves", Bool, &[]),
    ("diagonalLines", Squares, &[]),
    ("pass", Bool, &["passWhite", "passBlack"]),
    ("passWhite", Bool, &[]),
    ("passBlack", Bool, &[]),
    ("passOnStalemate", Bool, &["passOnStalemateWhite", "passOnStalemateBlack"]),
    ("passOnStalemateWhite", Bool, &[]),
    ("passOnStalemateBlack", Bool, &[]),
    ("makpongRule", Bool, &[]),
    ("flyingGeneral", Bool, &[]),
    ("soldierPromotionRank", Coord, &[]),
    ("flipEnclosedPieces", Enum(ENCLOSING), &[]),
    // Not an ini key: FSF sets it in a built-in (ataxx) only; builtins.ini carries it.
    ("freeDrops", Bool, &[]),
    ("nMoveRuleTypes", PieceSet, &["nMoveRuleTypesWhite", "nMoveRuleTypesBlack"]),
    ("nMoveRuleTypesWhite", PieceSet, &[]),
    ("nMoveRuleTypesBlack", PieceSet, &[]),
    ("nMoveRule", Int, &[]),
    ("nFoldRule", Int, &[]),
    ("nFoldValue", Value, &[]),
    ("nFoldValueAbsolute", Bool, &[]),
    ("perpetualCheckIllegal", Bool, &[]),
    ("moveRepetitionIllegal", Bool, &[]),
    ("chasingRule", Enum(CHASING), &[]),
    ("stalemateValue", Value, &[]),
    ("stalematePieceCount", Bool, &[]),
    ("checkmateValue", Value, &[]),
    ("shogiPawnDropMateIllegal", Bool, &[]),
    ("shatarMateRule", Bool, &[]),
    ("bikjangRule", Bool, &[]),
    ("extinctionValue", Value, &[]),
    ("extinctionClaim", Bool, &[]),
    ("extinctionPseudoRoyal", Bool, &[]),
    ("dupleCheck", Bool, &[]),
    ("extinctionPieceTypes", PieceSet, &[]),
    ("extinctionPieceCount", Int, &[]),
    ("extinctionOpponentPieceCount", Int, &[]),
    ("flagPiece", PieceType, &["flagPieceWhite", "flagPieceBlack"]),
    ("flagPieceWhite", PieceType, &[]),
    ("flagPieceBlack", PieceType, &[]),
    ("flagRegion", Squares, &["flagRegionWhite", "flagRegionBlack"]),
    ("flagRegionWhite", Squares, &[]),
    ("flagRegionBlack", Squares, &[]),
    ("flagPieceCount", Int, &[]),
    ("flagPieceBlockedWin", Bool, &[]),
    ("flagMove", Bool, &[]),
    ("flagPieceSafe", Bool, &[]),
    ("checkCounting", Bool, &[]),
    ("connectN", Int, &[]),
    ("connectPieceTypes", PieceSet, &[]),
    ("connectHorizontal", Bool, &[]),
    ("connectVertical", Bool, &[]),
    ("connectDiagonal", Bool, &[]),
    ("connectRegion1White", Squares, &[]),
    ("connectRegion2White", Squares, &[]),
    ("connectRegion1Black", Squares, &[]),
    ("connectRegion2Black", Squares, &[]),
    ("connectNxN", Int, &[]),
    ("collinearN", Int, &[]),
    ("connectValue", Value, &[]),
    ("materialCounting", Enum(MATERIAL), &[]),
    ("adjudicateFullBoard", Bool, &[]),
    ("countingRule", Enum(COUNTING), &[]),
    ("castlingWins", Rights, &[]),
];

/// Keys that carry no rule: GUI hints and evaluation values (read separately).
pub const NOT_RULES: &[&str] =
    &["variantTemplate", "pieceToCharTable", "pocketSize", "pieceValueEg", "nnueAlias", "endgameEval"];

/// FSF's built-in piece types in FSF's type order; then customPiece1..25 and the king.
pub const BUILTIN_TYPES: &[&str] = &[
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "fers",
    "alfil",
    "fersAlfil",
    "silver",
    "aiwok",
    "bers",
    "archbishop",
    "chancellor",
    "amazon",
    "knibis",
    "biskni",
    "kniroo",
    "rookni",
    "shogiPawn",
    "lance",
    "shogiKnight",
    "gold",
    "dragonHorse",
    "clobber",
    "breakthrough",
    "immobile",
    "cannon",
    "janggiCannon",
    "soldier",
    "horse",
    "elephant",
    "janggiElephant",
    "banner",
    "wazir",
    "commoner",
    "centaur",
];
pub const CUSTOM_PIECES: usize = 25;

/// Every piece type name in FSF's order.
pub fn type_names() -> Vec<String> {
    let mut v: Vec<String> = BUILTIN_TYPES.iter().map(|s| s.to_string()).collect();
    v.extend((1..=CUSTOM_PIECES).map(|n| format!("customPiece{n}")));
    v.push("king".into());
    v
}

/// What a section says about one piece type. FSF keeps the per-type arrays (regions, limits,
/// promoted type) even while the type has no letter, so a later letter brings them back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeInfo {
    /// The letter (lower case) while the type is in the game.
    pub letter: Option<char>,
    /// The setting that gave the letter (or removed it).
    pub letter_set: Option<Setting>,
    /// A custom piece's Betza, or a custom royal's (`king = k:BETZA`).
    pub betza: Option<String>,
    pub mobility: [Option<Setting>; 2],
    pub limit: Option<Setting>,
    pub promoted: Option<Setting>,
    pub value: Option<Setting>,
}

/// A section's resolved rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    pub name: String,
    pub files: Setting,
    pub ranks: Setting,
    pub keys: BTreeMap<String, Setting>,
    pub types: BTreeMap<String, TypeInfo>,
    /// Keys FSF does not know (it ignores them).
    pub unknown: Vec<Setting>,
}

impl Rules {
    pub fn get(&self, key: &str) -> &Setting {
        self.keys.get(key).unwrap_or_else(|| panic!("no FSF key {key}"))
    }
    pub fn val(&self, key: &str) -> &Val {
        &self.get(key).val
    }
    pub fn files(&self) -> u8 {
        self.files.val.int() as u8
    }
    pub fn ranks(&self) -> u8 {
        self.ranks.val.int() as u8
    }
    /// The type that has this letter, if any.
    pub fn type_of(&self, letter: char) -> Option<&str> {
        let l = letter.to_ascii_lowercase();
        self.types.iter().find(|(_, t)| t.letter == Some(l)).map(|(n, _)| n.as_str())
    }
    pub fn letter(&self, ty: &str) -> Option<char> {
        self.types.get(ty).and_then(|t| t.letter)
    }
    /// The types in the game, in FSF's type order.
    pub fn present(&self) -> Vec<String> {
        type_names().into_iter().filter(|n| self.letter(n).is_some()).collect()
    }

    /// FSF's defaults for a section without parent: chess rules and no pieces at all (FSF
    /// empties the promotion types with the pieces).
    pub fn defaults(name: &str) -> Rules {
        let mut keys = BTreeMap::new();
        let rank = |r: u8| (0..MAX_FILES).map(|f| (f, r)).collect::<Squares>();
        let all: Squares = (0..MAX_FILES).flat_map(|f| (0..MAX_RANKS).map(move |r| (f, r))).collect();
        let types = |names: &[&str]| Val::Types(names.iter().map(|s| s.to_string()).collect());
        for &(key, kind, targets) in KEYS {
            if !targets.is_empty() {
                continue;
            }
            let val = match key {
                "startFen" => Val::Text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into()),
                "promotionRegionWhite" => Val::Squares(rank(7)),
                "promotionRegionBlack" => Val::Squares(rank(0)),
                "doubleStepRegionWhite" => Val::Squares(rank(1)),
                "doubleStepRegionBlack" => Val::Squares(rank(6)),
                "enPassantRegionWhite"
                | "enPassantRegionBlack"
                | "dropRegionWhite"
                | "dropRegionBlack"
                | "wallingRegionWhite"
                | "wallingRegionBlack" => Val::Squares(all.clone()),
                "promotionPawnTypesWhite"
                | "promotionPawnTypesBlack"
                | "enPassantTypesWhite"
                | "enPassantTypesBlack"
                | "nMoveRuleTypesWhite"
                | "nMoveRuleTypesBlack" => types(&["pawn"]),
                "castlingRookPiecesWhite" | "castlingRookPiecesBlack" => types(&["rook"]),
                "castlingKingPieceWhite" | "castlingKingPieceBlack" => types(&["king"]),
                "mustDropType" | "dropNoDoubled" | "flagPieceWhite" | "flagPieceBlack" => types(&["*"]),
                "connectPieceTypes" => types(&["*all*"]),
                "doubleStep"
                | "castling"
                | "checking"
                | "dropChecks"
                | "mandatoryPawnPromotion"
                | "connectHorizontal"
                | "connectVertical"
                | "connectDiagonal" => Val::Bool(true),
                "castlingKingsideFile" => Val::Int(7),
                "castlingQueensideFile" => Val::Int(3),
                "castlingKingFile" => Val::Int(5),
                "castlingRookKingsideFile" => Val::Int(MAX_FILES as i64),
                "castlingRank"
                | "castlingRookQueensideFile"
                | "soldierPromotionRank"
                | "dropNoDoubledCount"
                | "flagPieceCount" => Val::Int(1),
                "nMoveRule" => Val::Int(50),
                "nFoldRule" => Val::Int(3),
                "nFoldValue" | "stalemateValue" => Val::Text("draw".into()),
                "checkmateValue" => Val::Text("loss".into()),
                "connectValue" => Val::Text("win".into()),
                "extinctionValue" => Val::Text("none".into()),
                "castlingWins" => Val::Text("-".into()),
                _ => match kind {
                    Bool => Val::Bool(false),
                    Int | Coord => Val::Int(0),
                    Value | Enum(_) => Val::Text("none".into()),
                    Text => Val::Text(String::new()),
                    Squares => Val::Squares(Squares::new()),
                    PieceType | PieceSet => Val::Types(Vec::new()),
                    Rights => Val::Text("-".into()),
                },
            };
            keys.insert(key.to_string(), Setting { val, key: key.into(), raw: String::new(), origin: Origin::Default });
        }
        let dim = |n: i64, key: &str| Setting {
            val: Val::Int(n),
            key: key.into(),
            raw: n.to_string(),
            origin: Origin::Default,
        };
        let mut types = BTreeMap::new();
        for n in type_names() {
            types.insert(n, TypeInfo::default());
        }
        Rules {
            name: name.into(),
            files: dim(8, "maxFile"),
            ranks: dim(8, "maxRank"),
            keys,
            types,
            unknown: Vec::new(),
        }
    }

    /// Applies a section's keys to a copy of its base, as FSF's parser does.
    pub fn apply(base: &Rules, section: &Section, origin: &dyn Fn(usize) -> Origin) -> Rules {
        let mut r = base.clone();
        r.name = section.name.clone();
        let mut rd = Reading { section, origin, used: BTreeSet::new() };
        for key in ["maxRank", "maxFile"] {
            if let Some(e) = rd.entry(key) {
                let s = rd.setting(key, Val::Int(coord(&e.value)));
                if key == "maxRank" {
                    r.ranks = s;
                } else {
                    r.files = s;
                }
            }
        }
        r.apply_pieces(&mut rd);
        r.apply_type_lists(&mut rd);
        r.apply_deprecated(&mut rd);
        r.apply_keys(&mut rd);
        let used = rd.used;
        for (key, e) in &section.keys {
            if !used.contains(key) && !NOT_RULES.contains(&key.as_str()) {
                r.unknown.push(Setting {
                    val: Val::Text(e.value.clone()),
                    key: key.clone(),
                    raw: e.value.clone(),
                    origin: origin(e.line),
                });
            }
        }
        r.conclude();
        r
    }

    /// Pieces, in FSF's type order: a letter adds the type (removing the type that had that
    /// letter), anything else removes it; then the type's mobility regions.
    fn apply_pieces(&mut self, rd: &mut Reading) {
        for name in type_names() {
            if let Some(e) = rd.entry(&name) {
                let value = e.value.as_str();
                let first = value.chars().next();
                if let Some(c) = first {
                    let set = rd.setting(&name, Val::Text(value.into()));
                    if c.is_ascii_alphabetic() {
                        let l = c.to_ascii_lowercase();
                        if let Some(other) = self.type_of(l).map(str::to_string) {
                            self.remove_type(&other, &set);
                        }
                        let t = self.types.get_mut(&name).expect("type");
                        t.letter = Some(l);
                        t.letter_set = Some(set.clone());
                    } else {
                        self.remove_type(&name, &set);
                    }
                    let custom = name.starts_with("customPiece");
                    if custom || name == "king" {
                        // FSF takes the Betza from the third character on (`x:BETZA`).
                        let betza = value.get(2..).filter(|_| value.len() > 1).map(str::to_string);
                        if custom && betza.as_deref().is_some_and(|b| b.contains('e')) {
                            // A custom piece with `e` anywhere captures en passant.
                            for key in ["enPassantTypesWhite", "enPassantTypesBlack"] {
                                let mut s = self.keys[key].clone();
                                if let Val::Types(t) = &mut s.val {
                                    if !t.contains(&name) {
                                        t.push(name.clone());
                                    }
                                }
                                s.origin = set.origin.clone();
                                s.raw = format!("{} (an 'e' in {name}'s Betza)", s.raw);
                                self.keys.insert(key.into(), s);
                            }
                        }
                        if custom {
                            self.types.get_mut(&name).expect("type").betza = Some(betza.unwrap_or_default());
                        } else {
                            self.types.get_mut(&name).expect("type").betza = betza;
                        }
                    }
                }
            }
            let mut cap = name.clone();
            cap[..1].make_ascii_uppercase();
            for (i, colour) in ["White", "Black"].iter().enumerate() {
                let key = format!("mobilityRegion{colour}{cap}");
                if let Some(e) = rd.entry(&key) {
                    let s = rd.setting(&key, Val::Squares(squares(&e.value)));
                    self.types.get_mut(&name).expect("type").mobility[i] = Some(s);
                }
            }
        }
    }

    /// Per-type lists: `p:150 n:800`, `q:1 r:2`, `p:g s:-`.
    fn apply_type_lists(&mut self, rd: &mut Reading) {
        for key in ["pieceValueMg", "pieceValueEg", "promotionLimit", "promotedPieceType"] {
            let Some(e) = rd.entry(key) else { continue };
            let items: Vec<(String, String)> = pairs(&e.value)
                .into_iter()
                .map_while(|(l, rest)| self.type_of(l).map(|t| (t.to_string(), rest)))
                .collect();
            for (ty, rest) in items {
                let t = self.types.get_mut(&ty).expect("type");
                match key {
                    "pieceValueMg" => t.value = Some(rd.setting(key, Val::Int(int(&rest)))),
                    "promotionLimit" => t.limit = Some(rd.setting(key, Val::Int(int(&rest)))),
                    "promotedPieceType" => {
                        let target = rest.chars().next().unwrap_or('-');
                        let to = if target == '-' { None } else { base_type_of(self, target) };
                        if target != '-' && to.is_none() {
                            break;
                        }
                        let t = self.types.get_mut(&ty).expect("type");
                        t.promoted = Some(rd.setting(key, Val::Types(to.into_iter().collect())));
                    }
                    _ => {}
                }
            }
        }
    }

    /// Deprecated keys, relative to the board, written as the keys that replace them.
    fn apply_deprecated(&mut self, rd: &mut Reading) {
        let ranks = self.ranks() as i64;
        if let Some(e) = rd.entry("promotionRank") {
            let rank = coord(&e.value);
            for (key, black) in [("promotionRegionWhite", false), ("promotionRegionBlack", true)] {
                let zone = zone(ranks, black, |rr| rr >= rank);
                self.keys
                    .insert(key.into(), Setting { key: key.into(), ..rd.setting("promotionRank", Val::Squares(zone)) });
            }
        }
        let (dsr, dsmin) = (rd.entry("doubleStepRank"), rd.entry("doubleStepRankMin"));
        if dsr.is_some() || dsmin.is_some() {
            let max = dsr.map_or(2, |e| coord(&e.value));
            let min = dsmin.map_or(2, |e| coord(&e.value));
            let from = if dsr.is_some() { "doubleStepRank" } else { "doubleStepRankMin" };
            for (key, black) in [("doubleStepRegionWhite", false), ("doubleStepRegionBlack", true)] {
                let zone = zone(ranks, black, |rr| rr >= min && rr <= max);
                self.keys.insert(key.into(), Setting { key: key.into(), ..rd.setting(from, Val::Squares(zone)) });
            }
        }
        for (old, new) in [
            ("whiteFlag", "flagRegionWhite"),
            ("blackFlag", "flagRegionBlack"),
            ("whiteDropRegion", "dropRegionWhite"),
            ("blackDropRegion", "dropRegionBlack"),
        ] {
            if let Some(e) = rd.entry(old) {
                self.keys.insert(
                    new.into(),
                    Setting { key: new.into(), ..rd.setting(old, Val::Squares(squares(&e.value))) },
                );
            }
        }
        if let Some(e) = rd.entry("castlingRookPiece") {
            let v = piece_set(self, &e.value);
            for new in ["castlingRookPiecesWhite", "castlingRookPiecesBlack"] {
                self.keys.insert(new.into(), Setting { key: new.into(), ..rd.setting("castlingRookPiece", v.clone()) });
            }
        }
        if let Some(e) = rd.entry("dropOnTop") {
            if e.value == "true" {
                let s = rd.setting("dropOnTop", Val::Text("top".into()));
                self.keys.insert("enclosingDrop".into(), Setting { key: "enclosingDrop".into(), ..s });
            }
        }
        if let Some(e) = rd.entry("pawnTypes") {
            let v = piece_set(self, &e.value);
            for new in [
                "promotionPawnTypesWhite",
                "promotionPawnTypesBlack",
                "enPassantTypesWhite",
                "enPassantTypesBlack",
                "nMoveRuleTypesWhite",
                "nMoveRuleTypesBlack",
            ] {
                self.keys.insert(new.into(), Setting { key: new.into(), ..rd.setting("pawnTypes", v.clone()) });
            }
        }
    }

    /// The keys of the table `KEYS`, each read as its kind of value.
    fn apply_keys(&mut self, rd: &mut Reading) {
        for &(key, kind, targets) in KEYS {
            let Some(e) = rd.entry(key) else { continue };
            let val = match kind {
                Bool => Val::Bool(e.value == "true"),
                Int | Coord => Val::Int(if kind == Coord { coord(&e.value) } else { int(&e.value) }),
                Value => Val::Text(
                    (if ["win", "loss", "draw"].contains(&e.value.as_str()) { e.value.as_str() } else { "none" })
                        .into(),
                ),
                Enum(names) => {
                    Val::Text((if names.contains(&e.value.as_str()) { e.value.as_str() } else { "none" }).into())
                }
                Text => Val::Text(e.value.clone()),
                Rights => Val::Text(e.value.chars().filter(|c| "KQkq".contains(*c)).collect()),
                Squares => Val::Squares(squares(&e.value)),
                PieceType => {
                    let t = piece_set(self, &e.value).types();
                    Val::Types(vec![t.last().cloned().unwrap_or_else(|| "*".into())])
                }
                PieceSet => piece_set(self, &e.value),
            };
            let s = rd.setting(key, val);
            if targets.is_empty() {
                self.keys.insert(key.into(), s);
            } else {
                for t in targets {
                    self.keys.insert(t.to_string(), Setting { key: key.into(), ..s.clone() });
                }
            }
        }
    }

    /// FSF's `remove_piece`: the type loses its letter and leaves the promotion types.
    fn remove_type(&mut self, ty: &str, by: &Setting) {
        let t = self.types.get_mut(ty).expect("type");
        t.letter = None;
        t.letter_set = Some(by.clone());
        for key in ["promotionPieceTypesWhite", "promotionPieceTypesBlack"] {
            let s = self.keys.get_mut(key).expect("key");
            if let Val::Types(v) = &mut s.val {
                v.retain(|n| n != ty);
            }
        }
    }

    /// FSF's `conclude`: no double step leaves no double-step squares, and the reverse.
    fn conclude(&mut self) {
        let ds = self.get("doubleStep").clone();
        if !ds.val.bool() {
            for key in ["doubleStepRegionWhite", "doubleStepRegionBlack"] {
                let s = Setting { val: Val::Squares(Squares::new()), key: key.into(), ..ds.clone() };
                self.keys.insert(key.into(), s);
            }
        }
        let empty = |k: &str| self.val(k).squares().is_empty();
        if empty("doubleStepRegionWhite") && empty("doubleStepRegionBlack") && ds.val.bool() {
            let s = self.get("doubleStepRegionWhite").clone();
            self.keys.insert("doubleStep".into(), Setting { val: Val::Bool(false), key: "doubleStep".into(), ..s });
        }
    }
}

/// A section being applied: its keys, where they come from, and the keys read so far.
struct Reading<'a> {
    section: &'a Section,
    origin: &'a dyn Fn(usize) -> Origin,
    used: BTreeSet<String>,
}

impl<'a> Reading<'a> {
    /// The section's entry for a key, if it has one; the key then counts as read.
    fn entry(&mut self, key: &str) -> Option<&'a Entry> {
        let e = self.section.keys.get(key)?;
        self.used.insert(key.into());
        Some(e)
    }
    /// A key's value as a setting, from the key's line of the section.
    fn setting(&self, key: &str, val: Val) -> Setting {
        let e = &self.section.keys[key];
        Setting { val, key: key.into(), raw: e.value.clone(), origin: (self.origin)(e.line) }
    }
}

/// The type a letter names (for `promotedPieceType` targets).
fn base_type_of(r: &Rules, letter: char) -> Option<String> {
    r.type_of(letter).map(str::to_string)
}

/// `x:rest` items separated by blanks, as FSF reads `promotionLimit` and friends.
fn pairs(text: &str) -> Vec<(char, String)> {
    text.split_whitespace()
        .filter_map(|item| {
            let (l, rest) = item.split_once(':')?;
            let mut cs = l.chars();
            let c = cs.next()?;
            Some((c, rest.to_string()))
        })
        .collect()
}

/// A relative zone: ranks (from 1) selected by `pick` for White, mirrored for Black.
fn zone(ranks: i64, black: bool, pick: impl Fn(i64) -> bool) -> Squares {
    let mut s = Squares::new();
    for r in 1..=ranks {
        if pick(r) {
            let abs = if black { ranks + 1 - r } else { r };
            for f in 0..MAX_FILES {
                s.insert((f, (abs - 1) as u8));
            }
        }
    }
    s
}

/// An integer as C++ streams read it: leading blanks, a sign, digits; 0 when there are none.
pub fn int(text: &str) -> i64 {
    let t = text.trim_start();
    let (sign, digits) = match t.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    let d: String = digits.chars().take_while(|c| c.is_ascii_digit()).collect();
    d.parse::<i64>().map_or(0, |n| sign * n)
}

/// A rank or file: a number from 1, or a file letter.
pub fn coord(text: &str) -> i64 {
    let t = text.trim();
    match t.chars().next() {
        Some(c) if c.is_ascii_alphabetic() && t.len() == 1 => (c.to_ascii_lowercase() as u8 - b'a') as i64 + 1,
        _ => int(t),
    }
}

/// A square list as FSF reads it: `e4`, `*3` (a rank), `c*` (a file), `-` (none); reading stops
/// at the first item FSF rejects.
pub fn squares(text: &str) -> Squares {
    let mut s = Squares::new();
    for item in text.split_whitespace() {
        if item == "-" {
            break;
        }
        let cs: Vec<char> = item.chars().collect();
        if item.ends_with('*') {
            if cs.len() == 2 && cs[0].is_ascii_alphabetic() {
                let f = cs[0].to_ascii_lowercase() as u8 - b'a';
                if f >= MAX_FILES {
                    break;
                }
                s.extend((0..MAX_RANKS).map(|r| (f, r)));
                continue;
            }
            break;
        } else if let Some(rest) = item.strip_prefix('*') {
            let r = int(rest);
            if !(1..=MAX_RANKS as i64).contains(&r) {
                break;
            }
            s.extend((0..MAX_FILES).map(|f| (f, (r - 1) as u8)));
        } else if cs.len() > 1 && cs[0].is_ascii_alphabetic() {
            let f = cs[0].to_ascii_lowercase() as u8 - b'a';
            let r = int(&item[1..]);
            if f >= MAX_FILES || !(1..=MAX_RANKS as i64).contains(&r) {
                break;
            }
            s.insert((f, (r - 1) as u8));
        } else {
            break;
        }
    }
    s
}

/// A piece set: letters (blanks allowed), `*` for all pieces, `-` for none; reading stops at
/// the first letter that names no piece.
fn piece_set(r: &Rules, text: &str) -> Val {
    let mut out: Vec<String> = Vec::new();
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        let ty = if c == '*' { Some("*".to_string()) } else { r.type_of(c).map(str::to_string) };
        match ty {
            Some(t) => {
                if !out.contains(&t) {
                    out.push(t)
                }
            }
            None => break,
        }
    }
    Val::Types(out)
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => write!(f, "FSF's default"),
            Origin::Builtin(b) => write!(f, "FSF's built-in '{b}'"),
            Origin::File { file, section, line } => write!(f, "{file}:{line} [{section}]"),
        }
    }
}
