//! The core's errors: an enum per failure kind, each keeping the place it names (file, line,
//! field, character), so that callers can match on what went wrong and users still read one
//! clear sentence.

use thiserror::Error;

/// A board size the bitboards cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GeometryError {
    #[error("board {files}x{ranks} has no squares")]
    NoSquares { files: usize, ranks: usize },
    #[error("board {files}x{ranks}: each side must be at most {max}")]
    SideTooLong { files: usize, ranks: usize, max: usize },
    #[error("board {files}x{ranks} has {} squares; at most {max} fit a 128-bit bitboard", files * ranks)]
    TooManySquares { files: usize, ranks: usize, max: usize },
}

/// What is wrong with a FEN's placement field; ranks are numbered from 1 as on the board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlacementError {
    #[error("placement '{text}' has {found} ranks, expected {expected}")]
    Ranks { text: String, found: usize, expected: usize },
    #[error("rank {rank} ('{row}'): empty run of 0 squares")]
    EmptyRun { rank: usize, row: String },
    #[error("rank {rank} ('{row}'): '{letter}' is not a piece letter of this variant (letters: {letters})")]
    NotALetter { rank: usize, row: String, letter: char, letters: String },
    #[error("rank {rank} ('{row}') has {found} squares, expected {expected}")]
    Width { rank: usize, row: String, found: usize, expected: usize },
}

/// A position that reads well but cannot occur in a game of the variant.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("royal pieces: {side} has no royal piece ({letters}), which this variant needs")]
    NoRoyal { side: &'static str, letters: String },
    #[error("royal pieces: {side} has {count}, more than the {most} it can ever have")]
    TooManyRoyals { side: &'static str, count: u32, most: u32 },
    #[error("side to move: {side} is in check with {mover} to move")]
    OpponentInCheck { side: &'static str, mover: &'static str },
    #[error("holdings: '{letter}' in hand, a royal piece, which is never taken and so never held")]
    RoyalInHand { letter: char },
    #[error("placement: '{letter}' on {square}, a square that piece can never stand on")]
    Unreachable { letter: char, square: String },
}

/// Why a FEN could not be read, or its position not played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenErrorKind {
    #[error("placement: empty FEN")]
    Empty,
    #[error("fields: {0} fields, at most 6")]
    TooManyFields(usize),
    #[error("placement: {0}")]
    Placement(#[from] PlacementError),
    #[error("holdings: '{0}' opens '[' without closing it at the end of the placement")]
    Holdings(String),
    #[error("holdings: '{letter}' in '[{field}]' is not a piece letter of this variant")]
    HoldingsLetter { letter: char, field: String },
    #[error("holdings: this variant has no drops, so no pieces in hand")]
    HandWithoutDrops,
    #[error("counting limit: '{0}' where en passant goes, but this variant has no counting rule")]
    CountingWithoutRule(String),
    #[error("counting limit: '{0}' is not a number")]
    CountingLimit(String),
    #[error("side to move: '{0}' is neither 'w' nor 'b'")]
    SideToMove(String),
    #[error("castling: '{letter}' in '{field}' is not one of K Q k q")]
    Castling { letter: char, field: String },
    #[error("en passant: '{0}' is not '-' or a list of squares")]
    EnPassant(String),
    #[error("halfmove clock: '{0}' is not a number")]
    Halfmove(String),
    #[error("fullmove number: '{0}' is not a number")]
    Fullmove(String),
    #[error("{0}")]
    Unplayable(#[from] SetupError),
}

/// A FEN and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("FEN '{fen}': {kind}")]
pub struct FenError {
    pub fen: String,
    pub kind: FenErrorKind,
}

/// A move text that names no legal move here.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("'{text}' is not a legal move in {fen}")]
    Illegal { text: String, fen: String },
    #[error("'{text}' is ambiguous in {fen}")]
    Ambiguous { text: String, fen: String },
}

/// One problem of a variant file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProblemKind {
    /// The TOML itself: syntax, an unknown key, a wrong type (toml's message).
    #[error("{0}")]
    Toml(String),
    #[error("unknown variant '{name}' (built-in: {builtins}; or give a path to a .toml file)")]
    UnknownVariant { name: String, builtins: String },
    #[error("cannot read variant file '{path}': {message}")]
    Read { path: String, message: String },
    #[error("`extends` chain longer than 8 (a cycle?)")]
    ExtendsCycle,
    /// The variant this one extends has problems of its own.
    #[error("{0}")]
    Base(Box<VariantError>),
    #[error("missing")]
    Missing,
    #[error("board size missing")]
    NoBoard,
    #[error("{0}")]
    Board(#[from] GeometryError),
    #[error("'{0}' must be a single letter")]
    NotALetter(String),
    #[error("'{0}' defined twice")]
    Duplicate(char),
    #[error("'{text}' {error}")]
    Betza { text: String, error: BetzaError },
    #[error("no pieces defined")]
    NoPieces,
    #[error("{count} piece types; at most {most}")]
    TooManyTypes { count: usize, most: usize },
    #[error("'{0}' is not a piece letter")]
    UnknownLetter(String),
    #[error("no piece castles (Betza O<n>)")]
    NoCastlingPiece,
    #[error("'{value}' is not one of {options}")]
    NotOneOf { value: String, options: String },
    #[error("must be 1 to {most}")]
    OutOfRange { most: usize },
    #[error("'{0}' is not of the form \"KB v K\" with this variant's letters")]
    Pattern(String),
    #[error(
        "needs a piece letter, squares 'from' and 'to' on the board, and 'requires' as LETTER@SQUARE \
         (got piece '{piece}', from '{from}', to '{to}')"
    )]
    OpeningMove { piece: String, from: String, to: String },
    #[error("'{0}' is not a square (e4), rank (*3), file (c*) or the board (*)")]
    Squares(String),
    #[error("'{0}' is not a file of the board")]
    File(String),
    /// Rules the kit cannot play together.
    #[error("{0}")]
    Unsupported(&'static str),
    #[error("{0}")]
    Placement(PlacementError),
    #[error("{0}")]
    Fen(FenError),
}

/// A problem and where it is: `file:line` (empty when the file itself is not there) and the
/// field (empty for a TOML error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub at: String,
    pub field: String,
    pub kind: ProblemKind,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for part in [&self.at, &self.field].into_iter().filter(|s| !s.is_empty()) {
            write!(f, "{part}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

impl Problem {
    pub fn new(at: impl Into<String>, field: impl Into<String>, kind: ProblemKind) -> Problem {
        Problem { at: at.into(), field: field.into(), kind }
    }
}

/// Why a variant could not be loaded: every problem found.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", .problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct VariantError {
    pub problems: Vec<Problem>,
}

impl From<Problem> for VariantError {
    fn from(p: Problem) -> Self {
        VariantError { problems: vec![p] }
    }
}

impl VariantError {
    /// Whether any problem (a base's included) is of this kind.
    pub fn any(&self, f: &impl Fn(&ProblemKind) -> bool) -> bool {
        self.problems.iter().any(|p| match &p.kind {
            ProblemKind::Base(inner) => inner.any(f),
            k => f(k),
        })
    }
}

/// A Betza parse error: the character position (0-based) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    pub position: usize,
    pub message: String,
}

impl std::fmt::Display for BetzaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at character {}: {}", self.position + 1, self.message)
    }
}
