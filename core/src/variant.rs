//! A variant: pieces, rules and the tables compiled from them. Built once, shared read-only
//! (`Arc<Variant>`) by every position, search and thread.

use crate::betza::Betza;
use crate::bitboard::Bitboard;
use crate::error::FenError;
use crate::geometry::Geometry;
use crate::setup::{Placed, Setup};
use crate::tables::{MoveSet, PerSquare, Rays};
use crate::types::{Colour, PieceType, Square, TypeSet, MAX_TYPES};
use crate::zobrist::Zobrist;

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

/// A piece type's definition, as the variant file gives it (`Variant::piece`).
#[derive(Clone, Debug)]
pub struct PieceDef {
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub moves: Betza,
    pub value: Option<i32>,
    pub royal: bool,
    /// Pawn-type: its moves reset the move-rule counter.
    pub pawn: bool,
    pub promotes_to: TypeSet,
    pub no_same_capture: bool,
}

impl PieceDef {
    /// Whether the piece never leaves the colour of its square (a bishop, an alfil, a ferz):
    /// such pieces are worth more in pairs.
    pub fn colour_bound(&self) -> bool {
        let rules = &self.moves.rules;
        !rules.is_empty() && rules.iter().flat_map(|r| &r.steps).all(|&(dx, dy)| (dx + dy) % 2 == 0)
    }
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
    pub piece: PieceType,
    pub from: [Square; 2],
    pub to: [Square; 2],
    pub requires: Option<(PieceType, [Square; 2])>,
}

#[derive(Clone, Debug)]
pub struct Castling {
    pub rook: PieceType,
    /// How far the rook moves towards the king; `None`: it lands beside the king, inside.
    pub rook_moves: Option<u32>,
}

/// Reversed capture tables of one side, for "is this square attacked by that side".
#[derive(Clone, Debug, Default)]
pub struct Attackers {
    pub leapers: Vec<LeaperAttack>,
    pub riders: Vec<RiderAttack>,
    pub hoppers: Vec<HopperAttack>,
}

/// A capturing hop, reversed: from a square along `dir`, past the piece a hopper of type `ty`
/// would jump, to where it would stand.
#[derive(Clone, Debug)]
pub struct HopperAttack {
    pub dir: usize,
    pub kind: crate::betza::Hop,
    /// The reach per square (the landing square's distance from the hopper), if limited.
    pub reach: Option<crate::tables::PerSquare>,
    pub ty: PieceType,
}

/// A piece type's captures that are not plain rides, reversed: from a square, where such a
/// piece would attack it from.
#[derive(Clone, Debug)]
pub struct LeaperAttack {
    pub ty: PieceType,
    pub captures: MoveSet,
    /// The squares the piece must stand on for these captures (its initial moves), if any.
    pub only_from: Option<Bitboard>,
}

/// A capturing ride, reversed: the line from a square along which riders of `types` attack
/// it, shared by the types with the same direction and no reach limit.
#[derive(Clone, Debug)]
pub struct RiderAttack {
    pub dir: usize,
    /// The reach per square, for a ride of limited range.
    pub reach: Option<PerSquare>,
    pub types: TypeSet,
}

pub struct Variant {
    pub name: String,
    /// The built-in this variant is or extends (through any chain of files), whatever its name.
    pub builtin: Option<String>,
    pub description: String,
    /// What outside engines call the variant, where not `name`: UCI_Variant, xboard's `variant`.
    pub uci_variant: Option<String>,
    pub xboard_variant: Option<String>,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    /// The start position's FEN, as the variant file gives it, and as read.
    pub setup: String,
    pub start: Setup,
    pub promotion_zone: [Bitboard; 2],
    pub lost_only: TypeSet,
    pub distinct_colour: TypeSet,
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
    /// Played openings (`[openings]`): plies, and the margin in centipawns below the best move.
    pub opening_plies: Option<u32>,
    pub opening_margin: Option<i32>,
    pub start_counts: [[u8; MAX_TYPES]; 2],
    /// Squares where the `i` (initial) moves of a type apply: its ranks in the setup.
    pub initial: [[Bitboard; MAX_TYPES]; 2],
    /// Squares where a piece can never stand (see `compile::unreachable`).
    pub unreachable: [[Bitboard; MAX_TYPES]; 2],
    pub rays: Rays,
    pub moves: [Vec<MoveSet>; 2],
    pub initial_moves: [Vec<MoveSet>; 2],
    pub attackers: [Attackers; 2],
    pub royal_types: TypeSet,
    pub pawn_types: TypeSet,
    /// Types whose lame multi-steps leave en-passant targets (those that capture e.p.).
    pub ep_types: TypeSet,
    pub lame_capture: [bool; 2],
    /// Types that may promote to a royal type (pins do not bind them).
    pub royal_promoters: TypeSet,
    pub zobrist: Zobrist,
    pub dark_squares: Bitboard,
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Variant({})", self.name)
    }
}

pub fn builtin_names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(n, _)| *n).collect()
}

impl Variant {
    /// The definition of piece type `t`.
    #[inline(always)]
    pub fn piece(&self, t: PieceType) -> &PieceDef {
        &self.pieces[t]
    }

    /// The variant's piece types, in order.
    pub fn piece_types(&self) -> impl ExactSizeIterator<Item = PieceType> + DoubleEndedIterator + Clone {
        PieceType::first(self.pieces.len())
    }

    /// Each piece type with its definition, in order.
    pub fn typed_pieces(&self) -> impl Iterator<Item = (PieceType, &PieceDef)> + Clone {
        self.piece_types().zip(&self.pieces)
    }

    /// The piece type of a letter (either case).
    pub fn piece_type(&self, letter: char) -> Option<PieceType> {
        let l = letter.to_ascii_lowercase();
        self.pieces.iter().position(|p| p.letter == l).map(PieceType::new)
    }

    /// A move in UCI notation: from, to, promotion letter (lower case); castling is the king's
    /// move.
    pub fn move_to_uci(&self, m: crate::Move) -> String {
        let geo = self.geometry;
        let mut s = geo.name(m.from()) + &geo.name(m.to());
        if let Some(t) = m.promoted() {
            s.push(self.piece(t).letter);
        }
        s
    }

    /// The piece letters, lower case, by type.
    pub fn letters(&self) -> Vec<char> {
        self.pieces.iter().map(|p| p.letter).collect()
    }

    /// Reads a FEN of this variant without checking that it can be played.
    pub fn parse_setup(&self, fen: &str) -> Result<crate::Setup, crate::FenError> {
        crate::Setup::parse(&self.geometry, &self.letters(), fen)
    }

    /// `fen` with the armies exchanged (`Setup::swap_armies`); not checked, as it is a
    /// position of another variant (one whose setup is swapped too).
    pub fn swap_armies(&self, fen: &str) -> Result<String, crate::FenError> {
        Ok(self.parse_setup(fen)?.swap_armies(&self.geometry).to_fen(&self.geometry, &self.letters()))
    }

    /// `fen` with its back-rank pieces shuffled the same way for both sides: a file takes part
    /// if neither side's piece on it is royal, a pawn or a castling rook (an empty square,
    /// such as one an imbalance emptied, goes along); files are permuted among those of the same
    /// parity, so every piece keeps its square colour (a bishop pair stays on both colours).
    /// `permute` shuffles each class: first the even files, then the odd.
    pub fn shuffle_back_ranks(&self, fen: &str, permute: &mut dyn FnMut(&mut [usize])) -> Result<String, FenError> {
        let geo = &self.geometry;
        let mut setup = self.parse_setup(fen)?;
        let back = [0, geo.ranks - 1];
        let on = |side: Colour, file: usize| {
            let sq = geo.square(file, back[side]);
            setup.pieces.iter().find(|p| p.square == sq).copied()
        };
        let movable = |p: Option<Placed>, side: Colour| match p {
            None => true,
            Some(p) => {
                let piece = self.piece(p.ty);
                p.colour == side && !piece.royal && !piece.pawn && self.castling.as_ref().is_none_or(|k| k.rook != p.ty)
            }
        };
        let mut target: Vec<usize> = (0..geo.files).collect();
        for parity in 0..2 {
            let files: Vec<usize> = (parity..geo.files)
                .step_by(2)
                .filter(|&f| Colour::BOTH.into_iter().all(|c| movable(on(c, f), c)))
                .collect();
            let mut shuffled = files.clone();
            permute(&mut shuffled);
            for (&from, &to) in files.iter().zip(&shuffled) {
                target[from] = to;
            }
        }
        for p in &mut setup.pieces {
            let rank = geo.rank(p.square);
            if back.contains(&rank) {
                p.square = geo.square(target[geo.file(p.square)], rank);
            }
        }
        Ok(setup.to_fen(geo, &self.letters()))
    }

    /// The FEN letter of a piece: upper case for White.
    pub fn letter(&self, colour: Colour, ty: PieceType) -> char {
        let l = self.piece(ty).letter;
        if colour == Colour::White {
            l.to_ascii_uppercase()
        } else {
            l
        }
    }
}
