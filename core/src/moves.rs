//! `Move`: a packed 32-bit move.

use crate::types::{PieceType, Square};

/// from (bits 0-6), to (7-13), promotion type + 1 (14-18, 0 = none), kind (19-20).
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
        let promoted = self.promoted().map(PieceType::index);
        write!(f, "Move({}->{} {:?} {:?})", self.from().index(), self.to().index(), promoted, self.kind())
    }
}
