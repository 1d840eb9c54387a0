//! Attack tables compiled from the pieces' Betza rules, owned by one variant value.

use crate::betza::{lame_path, MoveRule};
use crate::bitboard::Bitboard;
use crate::geometry::Geometry;

/// A bitboard per square, indexed without a bounds check (a square is below 128).
#[derive(Clone, Debug)]
pub struct PerSquare(Box<[Bitboard; 128]>);

impl PerSquare {
    pub fn new() -> PerSquare {
        PerSquare(Box::new([Bitboard::EMPTY; 128]))
    }
    pub fn iter(&self) -> impl Iterator<Item = &Bitboard> {
        self.0.iter()
    }
}

impl Default for PerSquare {
    fn default() -> Self {
        PerSquare::new()
    }
}

impl std::ops::Index<usize> for PerSquare {
    type Output = Bitboard;
    #[inline(always)]
    fn index(&self, sq: usize) -> &Bitboard {
        &self.0[sq & 127]
    }
}

impl std::ops::IndexMut<usize> for PerSquare {
    #[inline(always)]
    fn index_mut(&mut self, sq: usize) -> &mut Bitboard {
        &mut self.0[sq & 127]
    }
}

impl FromIterator<Bitboard> for PerSquare {
    fn from_iter<I: IntoIterator<Item = Bitboard>>(it: I) -> Self {
        let mut p = PerSquare::new();
        for (sq, b) in it.into_iter().enumerate().take(128) {
            p[sq] = b;
        }
        p
    }
}

/// One direction's rays: the squares from each square along it, and whether square indices
/// grow along it (then the nearest blocker is the lowest bit).
#[derive(Clone, Debug)]
struct Ray {
    squares: PerSquare,
    ascending: bool,
}

/// Empty-board rays, one per step vector that some rider uses (or its reverse).
#[derive(Clone, Debug)]
pub struct Rays {
    pub steps: Vec<(i32, i32)>,
    rays: Vec<Ray>,
}

impl Rays {
    pub fn new(geo: &Geometry, steps: Vec<(i32, i32)>) -> Rays {
        let rays = steps
            .iter()
            .map(|&(dx, dy)| {
                let mut squares = PerSquare::new();
                for sq in 0..geo.squares() {
                    let mut s = sq;
                    while let Some(t) = geo.offset(s, dx, dy) {
                        squares[sq].set(t);
                        s = t;
                    }
                }
                Ray { squares, ascending: dy > 0 || (dy == 0 && dx > 0) }
            })
            .collect();
        Rays { steps, rays }
    }

    pub fn index(&self, step: (i32, i32)) -> usize {
        self.steps.iter().position(|&s| s == step).expect("ray for every rider step")
    }

    #[inline(always)]
    pub fn ray(&self, dir: usize, sq: usize) -> Bitboard {
        self.rays[dir].squares[sq]
    }

    /// The squares a rider reaches from `sq` along `dir`, up to and including the first blocker.
    #[inline(always)]
    pub fn attacks(&self, dir: usize, sq: usize, occ: Bitboard) -> Bitboard {
        let r = &self.rays[dir];
        let ray = r.squares[sq];
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let first = if r.ascending { blockers.lsb() } else { blockers.msb() };
        ray ^ r.squares[first]
    }

    /// The first occupied square from `sq` along `dir`.
    #[inline(always)]
    pub fn first_blocker(&self, dir: usize, sq: usize, occ: Bitboard) -> Option<usize> {
        let r = &self.rays[dir];
        let blockers = r.squares[sq] & occ;
        if blockers.is_empty() {
            None
        } else if r.ascending {
            Some(blockers.lsb())
        } else {
            Some(blockers.msb())
        }
    }
}

/// A rider rule: direction, optional reach limit, modes.
#[derive(Clone, Debug)]
pub struct Rider {
    pub dir: usize,
    /// Empty-board reach per square when the range is limited.
    pub reach: Option<PerSquare>,
    pub quiet: bool,
    pub capture: bool,
}

/// A leap that the piece on its path blocks.
#[derive(Clone, Copy, Debug)]
pub struct LameLeap {
    pub to: u8,
    pub path: Bitboard,
    pub quiet: bool,
    pub capture: bool,
}

/// The moves of one piece type for one side, from every square.
#[derive(Clone, Debug, Default)]
pub struct MoveSet {
    pub quiet: PerSquare,
    pub capture: PerSquare,
    pub en_passant: PerSquare,
    /// Lame leaps per square (`any_lame`: whether there are any).
    pub lame: Vec<Vec<LameLeap>>,
    pub any_lame: bool,
    pub riders: Vec<Rider>,
}

impl MoveSet {
    /// Compiles rules whose steps are already in this side's orientation.
    pub fn compile(geo: &Geometry, rays: &Rays, rules: &[(MoveRule, Vec<(i32, i32)>)]) -> MoveSet {
        let n = 128;
        let mut ms = MoveSet { lame: vec![Vec::new(); n], ..Default::default() };
        for (rule, steps) in rules {
            for &(dx, dy) in steps {
                if rule.is_rider() {
                    let dir = rays.index((dx, dy));
                    let reach = (rule.range > 1)
                        .then(|| (0..n).map(|sq| reach(geo, sq, (dx, dy), rule.range)).collect::<PerSquare>());
                    ms.riders.push(Rider { dir, reach, quiet: rule.quiet, capture: rule.capture });
                    continue;
                }
                for sq in 0..geo.squares() {
                    let Some(to) = geo.offset(sq, dx, dy) else {
                        continue;
                    };
                    if rule.lame {
                        let path = lame_path((dx, dy))
                            .expect("checked by the parser")
                            .iter()
                            .map(|&(px, py)| geo.offset(sq, px, py).expect("inside the leap"))
                            .fold(Bitboard::EMPTY, |b, s| b | Bitboard::square(s));
                        if rule.quiet || rule.capture {
                            ms.lame[sq].push(LameLeap { to: to as u8, path, quiet: rule.quiet, capture: rule.capture });
                            ms.any_lame = true;
                        }
                        continue;
                    }
                    if rule.quiet {
                        ms.quiet[sq].set(to);
                    }
                    if rule.capture {
                        ms.capture[sq].set(to);
                    }
                    if rule.en_passant {
                        ms.en_passant[sq].set(to);
                    }
                }
            }
        }
        ms
    }

    pub fn is_empty(&self) -> bool {
        self.riders.is_empty()
            && self.quiet.iter().all(|b| b.is_empty())
            && self.capture.iter().all(|b| b.is_empty())
            && self.en_passant.iter().all(|b| b.is_empty())
            && self.lame.iter().all(|l| l.is_empty())
    }

    /// Pseudo-legal targets from `sq`: (quiet targets, capture targets), before masking by
    /// occupancy and colour.
    #[inline(always)]
    pub fn targets(&self, rays: &Rays, sq: usize, occ: Bitboard) -> (Bitboard, Bitboard) {
        let mut quiet = self.quiet[sq];
        let mut capture = self.capture[sq];
        for r in &self.riders {
            let mut a = rays.attacks(r.dir, sq, occ);
            if let Some(reach) = &r.reach {
                a &= reach[sq];
            }
            if r.quiet {
                quiet |= a;
            }
            if r.capture {
                capture |= a;
            }
        }
        for l in self.lame_leaps(sq) {
            if (l.path & occ).is_empty() {
                if l.quiet {
                    quiet.set(l.to as usize);
                }
                if l.capture {
                    capture.set(l.to as usize);
                }
            }
        }
        (quiet, capture)
    }

    /// The lame leaps from `sq` (none without a look at the table when the piece has none).
    #[inline(always)]
    pub fn lame_leaps(&self, sq: usize) -> &[LameLeap] {
        if self.any_lame {
            &self.lame[sq]
        } else {
            &[]
        }
    }

    pub fn has_lame_capture(&self) -> bool {
        self.lame.iter().flatten().any(|l| l.capture)
    }
}

/// Empty-board reach of a rider limited to `range` steps.
pub fn reach(geo: &Geometry, sq: usize, (dx, dy): (i32, i32), range: u32) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let mut s = sq;
    for _ in 0..range {
        match geo.offset(s, dx, dy) {
            Some(t) => {
                b.set(t);
                s = t;
            }
            None => break,
        }
    }
    b
}
