//! Attack tables compiled from the pieces' Betza rules, owned by one variant value.

use crate::bitboard::{Bitboard, Bits};
use crate::geometry::Geometry;
use crate::geometry::MAX_SQUARES;
use crate::types::Square;
use crate::variant::betza::{lame_path, Hop, MoveRule};

/// A bitboard per square, indexed without a bounds check (a square is below 128).
#[derive(Clone, Debug)]
pub struct PerSquare(Box<[Bitboard; MAX_SQUARES]>);

impl PerSquare {
    pub fn new() -> PerSquare {
        PerSquare(Box::new([Bitboard::EMPTY; MAX_SQUARES]))
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

impl std::ops::Index<Square> for PerSquare {
    type Output = Bitboard;
    #[inline(always)]
    fn index(&self, sq: Square) -> &Bitboard {
        &self.0[sq]
    }
}

impl std::ops::IndexMut<Square> for PerSquare {
    #[inline(always)]
    fn index_mut(&mut self, sq: Square) -> &mut Bitboard {
        &mut self.0[sq]
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
            .map(|&(dx, dy)| Ray { squares: reach(geo, (dx, dy), u32::MAX), ascending: dy > 0 || (dy == 0 && dx > 0) })
            .collect();
        Rays { steps, rays }
    }

    pub fn index(&self, step: (i32, i32)) -> usize {
        self.steps.iter().position(|&s| s == step).expect("ray for every rider step")
    }

    #[inline(always)]
    pub fn ray<B: Bits>(&self, dir: usize, sq: Square) -> Bitboard<B> {
        self.rays[dir].squares[sq].to()
    }

    /// The squares a rider reaches from `sq` along `dir`, up to and including the first blocker.
    #[inline(always)]
    pub fn attacks<B: Bits>(&self, dir: usize, sq: Square, occ: Bitboard<B>) -> Bitboard<B> {
        let r = &self.rays[dir];
        let ray = r.squares[sq].to();
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let first = if r.ascending { blockers.lsb() } else { blockers.msb() };
        ray ^ r.squares[first].to()
    }

    /// The square next to `sq` along `dir`, if the board has one.
    #[inline(always)]
    pub fn next(&self, dir: usize, sq: Square) -> Option<Square> {
        let r = &self.rays[dir];
        let ray = r.squares[sq];
        match (ray.is_empty(), r.ascending) {
            (true, _) => None,
            (false, true) => Some(ray.lsb()),
            (false, false) => Some(ray.msb()),
        }
    }

    /// Where a hopper from `sq` along `dir` may land (what it captures is the last of them, if
    /// occupied): none without a piece to jump, all squares beyond it up to and including the
    /// next piece for a cannon, the square right behind it for a grasshopper.
    #[inline(always)]
    pub fn hops<B: Bits>(&self, dir: usize, kind: Hop, sq: Square, occ: Bitboard<B>) -> Bitboard<B> {
        let Some(screen) = self.first_blocker(dir, sq, occ) else { return Bitboard::EMPTY };
        match kind {
            Hop::Cannon => self.attacks(dir, screen, occ),
            Hop::Grasshopper => self.next(dir, screen).map_or(Bitboard::EMPTY, Bitboard::square),
        }
    }

    /// The first occupied square from `sq` along `dir`.
    #[inline(always)]
    pub fn first_blocker<B: Bits>(&self, dir: usize, sq: Square, occ: Bitboard<B>) -> Option<Square> {
        let r = &self.rays[dir];
        let blockers = r.squares[sq].to() & occ;
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

/// A hopping rule: direction, kind, optional reach limit (counted from the hopper), modes.
#[derive(Clone, Debug)]
pub struct Hopper {
    pub dir: usize,
    pub kind: Hop,
    pub reach: Option<PerSquare>,
    pub quiet: bool,
    pub capture: bool,
}

/// A leap that the piece on its path blocks.
#[derive(Clone, Copy, Debug)]
pub struct LameLeap {
    pub to: Square,
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
    pub hoppers: Vec<Hopper>,
}

impl MoveSet {
    /// Compiles rules whose steps are already in this side's orientation; `reversed`: the steps
    /// are the rules' own negated, from a target back to where a piece would stand (a lame
    /// leap's path is then the mover's, measured from the far end).
    pub fn compile(geo: &Geometry, rays: &Rays, rules: &[(MoveRule, Vec<(i32, i32)>)], reversed: bool) -> MoveSet {
        let mut ms = MoveSet { lame: vec![Vec::new(); MAX_SQUARES], ..Default::default() };
        for (rule, steps) in rules {
            for &(dx, dy) in steps {
                if rule.is_rider() {
                    let dir = rays.index((dx, dy));
                    let reach = (rule.range > 1).then(|| reach(geo, (dx, dy), rule.range));
                    let (quiet, capture) = (rule.quiet, rule.capture);
                    match rule.hop {
                        Some(kind) => ms.hoppers.push(Hopper { dir, kind, reach, quiet, capture }),
                        None => ms.riders.push(Rider { dir, reach, quiet, capture }),
                    }
                    continue;
                }
                for sq in geo.all() {
                    let Some(to) = geo.offset(sq, dx, dy) else {
                        continue;
                    };
                    if rule.lame {
                        let (from, step) = if reversed { ((dx, dy), (-dx, -dy)) } else { ((0, 0), (dx, dy)) };
                        let path = lame_path(step)
                            .expect("checked by the parser")
                            .iter()
                            .map(|&(px, py)| geo.offset(sq, from.0 + px, from.1 + py).expect("inside the leap"))
                            .collect();
                        if rule.quiet || rule.capture {
                            ms.lame[sq].push(LameLeap { to, path, quiet: rule.quiet, capture: rule.capture });
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
            && self.hoppers.is_empty()
            && self.quiet.iter().all(|b| b.is_empty())
            && self.capture.iter().all(|b| b.is_empty())
            && self.en_passant.iter().all(|b| b.is_empty())
            && self.lame.iter().all(|l| l.is_empty())
    }

    /// Pseudo-legal targets from `sq`: (quiet targets, capture targets), before masking by
    /// occupancy and colour.
    #[inline(always)]
    pub fn targets<B: Bits>(&self, rays: &Rays, sq: Square, occ: Bitboard<B>) -> (Bitboard<B>, Bitboard<B>) {
        let mut quiet = self.quiet[sq].to();
        let mut capture = self.capture[sq].to();
        for r in &self.riders {
            let mut a = rays.attacks(r.dir, sq, occ);
            if let Some(reach) = &r.reach {
                a &= reach[sq].to();
            }
            if r.quiet {
                quiet |= a;
            }
            if r.capture {
                capture |= a;
            }
        }
        for l in self.lame_leaps(sq) {
            if (l.path.to() & occ).is_empty() {
                if l.quiet {
                    quiet.set(l.to);
                }
                if l.capture {
                    capture.set(l.to);
                }
            }
        }
        for h in &self.hoppers {
            let mut land = rays.hops(h.dir, h.kind, sq, occ);
            if let Some(reach) = &h.reach {
                land &= reach[sq].to();
            }
            if h.quiet {
                quiet |= land;
            }
            if h.capture {
                capture |= land;
            }
        }
        (quiet, capture)
    }

    /// The lame leaps from `sq` (none without a look at the table when the piece has none).
    #[inline(always)]
    pub fn lame_leaps(&self, sq: Square) -> &[LameLeap] {
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

/// Empty-board reach of a rider limited to `range` steps, from each square (a whole ray for
/// `u32::MAX`).
pub fn reach(geo: &Geometry, (dx, dy): (i32, i32), range: u32) -> PerSquare {
    let mut out = PerSquare::new();
    for sq in geo.all() {
        let mut s = sq;
        for _ in 0..range {
            let Some(t) = geo.offset(s, dx, dy) else { break };
            out[sq].set(t);
            s = t;
        }
    }
    out
}
