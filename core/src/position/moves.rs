//! `Move`: a packed 32-bit move.

use crate::types::{PieceType, Square};

/// from (bits 0-6), to (7-13), promotion type + 1 (14-18, 0 = none), kind (19-20), a
/// shogi-style promotion (21), a castling's side (22: towards file a), a wall placed with the
/// move (23-29, with bit 30 set), a drop from the hand (31: the type is in bits 0-6, `from`'s
/// place, and `to` its square).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal = 0,
    Castle = 1,
    EnPassant = 2,
}

impl Move {
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.index() as u32 | (to.index() as u32) << 7 | (kind as u32) << 19)
    }
    #[inline(always)]
    pub fn promotion(from: Square, to: Square, ty: PieceType) -> Move {
        Move(from.index() as u32 | (to.index() as u32) << 7 | (ty.index() as u32 + 1) << 14)
    }
    /// A shogi-style promotion to `ty`: the piece turns into its promoted form on a move into,
    /// within or out of the zone (written with `+` in UCI).
    #[inline(always)]
    pub fn promotion_plus(from: Square, to: Square, ty: PieceType) -> Move {
        Move(Move::promotion(from, to, ty).0 | 1 << 21)
    }
    /// Castling: the king from `king` to `king_to` (which may be `king`, in Chess960), with the
    /// rook of the king side or (`queen_side`) the other.
    #[inline(always)]
    pub fn castle(king: Square, king_to: Square, queen_side: bool) -> Move {
        Move(Move::new(king, king_to, MoveKind::Castle).0 | u32::from(queen_side) << 22)
    }
    /// A drop of a piece of type `ty` from the hand onto `to`.
    #[inline(always)]
    pub fn drop(ty: PieceType, to: Square) -> Move {
        Move(ty.index() as u32 | (to.index() as u32) << 7 | 1 << 31)
    }
    /// The type a drop puts on the board, if the move is one.
    #[inline(always)]
    pub fn dropped(self) -> Option<PieceType> {
        (self.0 >> 31 != 0).then(|| PieceType::new((self.0 & 127) as usize))
    }
    #[inline(always)]
    pub fn is_drop(self) -> bool {
        self.0 >> 31 != 0
    }
    /// The move with a wall placed on `sq` after it (`[rules] walling`).
    #[inline(always)]
    pub fn with_wall(self, sq: Square) -> Move {
        Move(self.0 | (sq.index() as u32) << 23 | 1 << 30)
    }
    /// The wall the move places, if any.
    #[inline(always)]
    pub fn wall(self) -> Option<Square> {
        (self.0 >> 30 & 1 != 0).then(|| Square::new((self.0 >> 23 & 127) as usize))
    }
    /// A pass: the side's first piece "moves" to its own square.
    #[inline(always)]
    pub fn is_pass(self) -> bool {
        self.from() == self.to() && self.kind() == MoveKind::Normal && !self.is_drop()
    }
    /// For castling: whether it is on the queen side (towards file a).
    #[inline(always)]
    pub fn queen_side(self) -> bool {
        self.0 >> 22 & 1 != 0
    }
    /// Whether the move is a shogi-style promotion.
    #[inline(always)]
    pub fn is_plus(self) -> bool {
        self.0 >> 21 & 1 != 0
    }
    /// The square the piece leaves (for a drop, meaningless: see `dropped`).
    #[inline(always)]
    pub fn from(self) -> Square {
        Square::new((self.0 & 127) as usize)
    }
    #[inline(always)]
    pub fn to(self) -> Square {
        Square::new((self.0 >> 7 & 127) as usize)
    }
    #[inline(always)]
    pub fn promoted(self) -> Option<PieceType> {
        let p = self.0 >> 14 & 31;
        (p != 0).then(|| PieceType::new(p as usize - 1))
    }
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        match self.0 >> 19 & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::Castle,
            _ => MoveKind::EnPassant,
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(t) = self.dropped() {
            return write!(f, "Move(drop {}->{})", t.index(), self.to().index());
        }
        let promoted = self.promoted().map(PieceType::index);
        write!(f, "Move({}->{} {:?} {:?})", self.from().index(), self.to().index(), promoted, self.kind())
    }
}
