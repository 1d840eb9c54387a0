//! `Move`: a packed 32-bit move.

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
    pub fn new(from: usize, to: usize, kind: MoveKind) -> Move {
        Move(from as u32 | (to as u32) << 7 | (kind as u32) << 19)
    }
    #[inline(always)]
    pub fn promotion(from: usize, to: usize, ty: usize) -> Move {
        Move(from as u32 | (to as u32) << 7 | (ty as u32 + 1) << 14)
    }
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 127) as usize
    }
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 >> 7 & 127) as usize
    }
    #[inline(always)]
    pub fn promoted(self) -> Option<usize> {
        let p = self.0 >> 14 & 31;
        (p != 0).then(|| p as usize - 1)
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
        write!(f, "Move({}->{} {:?} {:?})", self.from(), self.to(), self.promoted(), self.kind())
    }
}
