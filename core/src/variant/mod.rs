//! A variant: pieces, rules and the tables compiled from them. Built once, shared read-only
//! (`Arc<Variant>`) by every position, search and thread. Its room: the variant file read
//! (`spec`), the Betza notation (`betza`), compiled into attack tables (`tables`) and rules
//! (`compile`), the start placement (`setup`) and the Zobrist keys (`zobrist`), and the
//! registry of built-ins (`builtins`). Loading one by name or path, which checks its start
//! position, is the crate's `load`, beside this room and the position's.

pub mod betza;
pub(crate) mod builtins;
pub(crate) mod compile;
pub(crate) mod setup;
pub(crate) mod spec;
pub(crate) mod tables;
pub(crate) mod zobrist;

use crate::bitboard::Bitboard;
use crate::error::FenError;
use crate::geometry::Geometry;
use crate::geometry::MAX_SQUARES;
use crate::types::{Colour, PieceType, Square, TypeSet, MAX_TYPES};
use crate::variant::betza::Betza;
use crate::variant::setup::{Placed, Setup};
use crate::variant::tables::{MoveSet, PerSquare, Rays};
use crate::variant::zobrist::Zobrist;

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
    /// What it becomes on reaching its side's promotion zone, per colour (pawn style).
    pub promotes_to: [TypeSet; 2],
    /// It must promote in the zone but has nothing to become: it may not enter the zone.
    pub promotes_to_nothing: bool,
    /// What it may become on a move that starts or ends in the zone (shogi style, UCI `+`).
    pub promotes: Option<PieceType>,
    pub no_same_capture: bool,
    /// Black's moves are White's turned half round (its right is White's left), not
    /// mirrored: the same for pieces alike on both sides, not for chiral ones.
    pub turned: bool,
    /// Where it may go (and so attack), per colour: the whole board unless confined.
    pub region: [Bitboard; 2],
    /// Moves it has only while standing on these squares (per colour), and their Betza.
    pub moves_from: Option<([Bitboard; 2], Betza)>,
}

impl PieceDef {
    /// Whether reaching the promotion zone promotes (or stops) a piece of side `c`.
    pub fn promotes_in_zone(&self, c: Colour) -> bool {
        !self.promotes_to[c].is_empty() || self.promotes_to_nothing
    }

    /// Whether the piece never leaves the colour of its square (a bishop, an alfil, a ferz):
    /// such pieces are worth more in pairs.
    pub fn colour_bound(&self) -> bool {
        let rules = &self.moves.rules;
        !rules.is_empty() && rules.iter().flat_map(|r| &r.steps).all(|&(dx, dy)| (dx + dy) % 2 == 0)
    }
}

/// The result a rule gives the side it concerns (a stalemated side, a mated one, one whose
/// pieces are extinct, the side to move in a repetition).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndValue {
    Loss,
    Draw,
    Win,
}

impl EndValue {
    /// The game's result when this value is side `c`'s.
    pub fn result_for(self, c: Colour) -> crate::GameResult {
        match self {
            EndValue::Loss => crate::GameResult::win_for(!c),
            EndValue::Draw => crate::GameResult::Draw,
            EndValue::Win => crate::GameResult::win_for(c),
        }
    }
    /// The value for the other side.
    pub fn opposite(self) -> EndValue {
        match self {
            EndValue::Loss => EndValue::Win,
            EndValue::Draw => EndValue::Draw,
            EndValue::Win => EndValue::Loss,
        }
    }
}

/// The rules of a game's end and of legality beyond the pieces' moves (`[rules]`).
#[derive(Clone, Debug)]
pub struct Rules {
    pub stalemate: EndValue,
    /// A stalemate is judged by piece count: equal draws, else the side with fewer pieces gets
    /// `stalemate`'s value.
    pub stalemate_count: bool,
    pub checkmate: EndValue,
    pub bare_king: BareKing,
    /// Plies without a capture or pawn move that draw (0: never).
    pub move_rule: u32,
    /// Occurrences of a position that end the game (0: never), and what that is for the side to
    /// move; with `perpetual_check` the side that checked throughout loses instead.
    pub repetitions: u32,
    pub repetition_value: EndValue,
    /// `repetition_value` is White's result, whoever is to move (minishogi: the first player
    /// loses a repetition).
    pub repetition_absolute: bool,
    pub perpetual_check: bool,
    /// A non-capture is illegal while a legal capture exists.
    pub must_capture: bool,
    /// A move that leaves the opponent's royal piece attacked is illegal.
    pub no_check: bool,
    /// n-check: the checks a side gives to win (0: no such rule).
    pub checks: u8,
    /// The royal pieces may not see each other along an empty file or rank.
    pub flying_general: bool,
    /// A plain move that leaves its piece without a move on an empty board is illegal.
    pub immobility_illegal: bool,
    pub pseudo_royal: Option<PseudoRoyal>,
    pub extinction: Option<Extinction>,
    pub flag: Option<Flag>,
    pub blast: Option<Blast>,
    pub connect: Option<Connect>,
    pub shatar_mate: Option<ShatarMate>,
    pub counting: Option<Counting>,
    /// A royal piece in check may only move to take the one piece that checks it (makpong).
    pub makpong: bool,
    /// Castling rights (bit `2 * colour + side`, as `KQkq`) whose castling wins, and whose
    /// loss loses.
    pub castling_wins: u8,
    /// A wall placed by every move, and where it may go (per colour of the mover).
    pub walling: Option<Walling>,
    pub walling_region: [Bitboard; 2],
    /// A side without a legal move passes (a move from its first piece's square to itself),
    /// unless both sides have just passed, which ends the game drawn.
    pub pass_on_stalemate: bool,
    /// Where en-passant captures may land, per colour of the capturer.
    pub en_passant_region: [Bitboard; 2],
    pub material_counting: MaterialCounting,
    /// A side may put a piece of its hand on an empty square instead of moving (`P@e4`).
    pub drops: bool,
    /// A captured piece goes to the capturer's hand, a promoted one as the piece it was.
    pub captures_to_hand: bool,
    /// A captured piece goes to the hand as it stands, promoted or not (chessgi): promotions
    /// are not marked.
    pub drop_loop: bool,
    /// While a side has a piece in hand and a legal drop, it must drop (placement games).
    pub must_drop: bool,
    /// Where a drop comes to rest (connect four), if not anywhere.
    pub drop_fall: Option<DropFall>,
    /// Where pieces may be dropped, per colour of the dropper.
    pub drop_region: [Bitboard; 2],
    /// A piece of these types may not be dropped on a file holding this many of its own type
    /// (shogi's nifu: one pawn).
    pub drop_no_doubled: Option<(TypeSet, u32)>,
    /// A checkmate given by dropping a piece of these types (every checking piece one of
    /// them) loses for the side that dropped it (shogi's pawn-drop mate).
    pub drop_mate: TypeSet,
    /// Pawn-style promoting pieces may be dropped in their promotion zone, and on their first
    /// rank.
    pub pawn_drops_in_zone: bool,
    pub pawn_drops_on_first_rank: bool,
}

/// Pieces of `types` that a side with at most `count + 1` of a type may leave none attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PseudoRoyal {
    pub types: TypeSet,
    pub count: u32,
}

/// A side with at most `count` pieces of a type of `types` (each alone; all its pieces
/// together when `types` is `None`), while the other has at least `opponent_count` of it (one
/// more with `claim`, when the side is to move), gets `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extinction {
    pub types: Option<TypeSet>,
    pub count: u32,
    pub opponent_count: u32,
    pub value: EndValue,
    pub claim: bool,
}

/// Atomic chess's explosion: a capture removes the capturer and every piece next to the
/// square, but for the types `spares` there (pawns) and the types `immune` anywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blast {
    pub spares: TypeSet,
    pub immune: TypeSet,
}

/// The side that has just moved and has `count` of its pieces of `pieces` (`None`: any) in a
/// line along one of `directions` (file steps, rank steps) gets `value`: side by side, or
/// anywhere on one line when `collinear` (three musketeers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connect {
    pub count: u32,
    pub collinear: bool,
    pub pieces: Option<TypeSet>,
    pub directions: Vec<(i32, i32)>,
    pub value: EndValue,
}

/// Shatar's mate: it counts only if one check of the mating side's unbroken run of checks
/// was given by a piece of `shak` (else the game is drawn); given by `not_alone` pieces only,
/// it loses for the side that gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShatarMate {
    pub shak: TypeSet,
    pub not_alone: TypeSet,
}

/// Makruk's counting (or the ASEAN rules'): once no pawn is left, the side that counts must
/// be mated within a number of moves that depends on the pieces, or the game is drawn. The
/// types play FSF's roles: pawns, rooks, khons (silvers) and knights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counting {
    pub asean: bool,
    pub pawn: TypeSet,
    pub rook: TypeSet,
    pub khon: TypeSet,
    pub knight: TypeSet,
}

/// Drops that fall: `Top` lands on the first rank or on a piece (connect four's gravity);
/// `AnySide` enters from an edge and stops before the first piece, as Fairy-Stockfish finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropFall {
    Top,
    AnySide,
}

/// A side wins by bringing `count` of its flag pieces (`None`: any piece) into its region.
/// `flag_move`: the opponent gets one more move (to reach its own: a draw in racing kings);
/// `safe`: the pieces must not be attacked there; `blocked`: fewer also win when the rest of
/// the region is occupied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    pub pieces: [Option<TypeSet>; 2],
    pub region: [Bitboard; 2],
    pub count: u32,
    pub flag_move: bool,
    pub safe: bool,
    pub blocked: bool,
}

/// What a drawn game becomes by material (Fairy-Stockfish's materialCounting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialCounting {
    None,
    /// A draw is a win for Black (armageddon) or for White.
    BlackDrawOdds,
    WhiteDrawOdds,
    /// The side with more pieces wins.
    Unweighted,
}

/// Where the wall a move places may go (Fairy-Stockfish's walling rules); a move without a
/// square for its wall is no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walling {
    /// Where the moved piece could go next by a quiet move (amazons).
    Arrow,
    /// Any empty square but the old one: the single wall (the duck) moves.
    Duck,
    /// The square the piece left.
    Past,
    /// Any empty square of `walling_region`.
    Static,
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
    /// The pieces that castle as the king (`O<n>` in their Betza, or `[castling] king`).
    pub kings: TypeSet,
    /// The pieces it castles with.
    pub rooks: TypeSet,
    /// The king's destination file on each side (0 towards the last file, 1 towards file a);
    /// `None`: it moves `O<n>` squares.
    pub king_files: [Option<usize>; 2],
    /// How far the rook moves towards the king; `None`: it lands beside the king, inside.
    pub rook_moves: Option<u32>,
    /// The rank castling happens on, from each side's own back rank (0: the first).
    pub rank: usize,
    /// Where the search for each side's rook starts (towards the other side); `None`: the
    /// corner.
    pub rook_files: [Option<usize>; 2],
    /// King and rooks may start anywhere on the rank; rights may name rook files; the move is
    /// written king takes rook.
    pub chess960: bool,
    /// Castling on one side removes the opponent's right on that side.
    pub opposite: bool,
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
    pub kind: crate::variant::betza::Hop,
    /// The reach per square (the landing square's distance from the hopper), if limited.
    pub reach: Option<crate::variant::tables::PerSquare>,
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
    /// Optional pawn-style promotion (the plain move into the zone too), and compulsory
    /// shogi-style promotion.
    pub promotion_optional: bool,
    pub promotion_mandatory: bool,
    /// Promotion to a type only while the side has fewer than this many of it (0: no limit).
    pub promotion_limit: [u8; MAX_TYPES],
    pub rules: Rules,
    pub opening_mode: OpeningMode,
    pub opening_moves: Vec<OpeningMove>,
    /// Drawn material: per pattern, the piece counts of the two sides (either colour).
    pub insufficient: Vec<[[u8; MAX_TYPES]; 2]>,
    /// The most pieces any drawn pattern has (a quick rejection).
    pub insufficient_max_pieces: u32,
    /// Played openings (`[openings]`): plies, and the margin in centipawns below the best move.
    pub opening_plies: Option<u32>,
    pub opening_margin: Option<i32>,
    pub start_counts: [[u8; MAX_TYPES]; 2],
    /// Squares where the `i` (initial) moves of a type apply: its ranks in the setup.
    pub initial: [[Bitboard; MAX_TYPES]; 2],
    /// Whether a position marks the pieces that came by promotion: where a capture puts them
    /// in hand demoted, or a FEN writes them `+P` (shogi-style promotion).
    pub marks_promoted: bool,
    /// Where a piece from the hand may be dropped, per colour and type (`compile::drop_squares`).
    pub drop_squares: [[Bitboard; MAX_TYPES]; 2],
    /// Squares where a piece can never stand (see `compile::unreachable`).
    pub unreachable: [[Bitboard; MAX_TYPES]; 2],
    pub rays: Rays,
    pub moves: [Vec<MoveSet>; 2],
    pub initial_moves: [Vec<MoveSet>; 2],
    /// The moves of `PieceDef::moves_from`, per colour and type, with their squares.
    pub region_moves: [Vec<Option<(Bitboard, MoveSet)>>; 2],
    pub attackers: [Attackers; 2],
    /// Per colour and square, the types that may stand there (`PieceDef::region`).
    pub can_enter: [[TypeSet; MAX_SQUARES]; 2],
    /// Whether some piece is confined to a region (then `can_enter` is read).
    pub confined: bool,
    /// Per colour and type, the squares where a piece has no quiet move on an empty board.
    pub immobile: [[Bitboard; MAX_TYPES]; 2],
    /// Whether side `c` has hoppers (a screen can then pin, check and be moved away).
    pub hoppers: [bool; 2],
    /// Whether side `c`'s attack walk is the plain one: no confined piece, no hopper. The
    /// walk is compiled twice and picks once, so that chess does not pay for the xiangqi kit.
    pub plain_attacks: [bool; 2],
    pub royal_types: TypeSet,
    pub pawn_types: TypeSet,
    /// Types whose lame multi-steps leave en-passant targets (those that capture e.p.).
    pub ep_types: TypeSet,
    pub lame_capture: [bool; 2],
    /// Whether side `c` has captures that ride only from some squares (initial moves,
    /// `moves_from`): lines of attack that the shared rider lines, which the pins and the
    /// check evasions follow, do not hold.
    pub square_rides: [bool; 2],
    /// Types that may promote to a royal type (pins do not bind them).
    pub royal_promoters: TypeSet,
    pub zobrist: Zobrist,
    pub dark_squares: Bitboard,
    /// Per square, the squares next to it (a king's step away): where a blast reaches.
    pub neighbours: Vec<Bitboard>,
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Variant({})", self.name)
    }
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

    /// The type that `colour`'s piece of type `ty`, marked as promoted, was before: the first
    /// type that promotes to it (else `ty`).
    pub fn promoted_from(&self, colour: Colour, ty: PieceType) -> PieceType {
        self.typed_pieces().find(|(_, p)| p.promotes_to[colour].contains(ty)).map_or(ty, |(t, _)| t)
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
        // A drop: the piece's letter, upper case, `@` and the square (`P@e4`).
        let from = match m.dropped() {
            Some(t) => format!("{}@", self.piece(t).letter.to_ascii_uppercase()),
            None => geo.name(m.from()),
        };
        let mut s = from + &geo.name(m.to());
        match m.promoted() {
            Some(_) if m.is_plus() => s.push('+'),
            Some(t) => s.push(self.piece(t).letter),
            None => {}
        }
        // Fairy-Stockfish's gating notation: `,` the piece's square and the wall's.
        if let Some(wall) = m.wall() {
            s += &format!(",{}{}", geo.name(m.to()), geo.name(wall));
        }
        s
    }

    /// The piece letters, lower case, by type.
    pub fn letters(&self) -> Vec<char> {
        self.pieces.iter().map(|p| p.letter).collect()
    }

    /// Reads a FEN of this variant without checking that it can be played.
    pub fn parse_setup(&self, fen: &str) -> Result<crate::Setup, crate::FenError> {
        let promoted: Vec<Option<PieceType>> = self.pieces.iter().map(|p| p.promotes).collect();
        let castling_files = self.castling.as_ref().is_some_and(|c| c.chess960);
        let letters = crate::variant::setup::Letters { letters: &self.letters(), promoted: &promoted, castling_files };
        let setup = crate::Setup::parse(&self.geometry, letters, fen, self.rules.checks)?;
        if !self.rules.drops && setup.hand.iter().flatten().any(|&n| n > 0) {
            return Err(crate::FenError { fen: fen.to_string(), kind: crate::error::FenErrorKind::HandWithoutDrops });
        }
        if let Some(limit) = setup.counting_limit.filter(|_| self.rules.counting.is_none()) {
            let kind = crate::error::FenErrorKind::CountingWithoutRule(limit.to_string());
            return Err(crate::FenError { fen: fen.to_string(), kind });
        }
        Ok(setup)
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
                p.colour == side
                    && !piece.royal
                    && !piece.pawn
                    && self.castling.as_ref().is_none_or(|k| !k.rooks.contains(p.ty))
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
