//! Attack tables compiled from the pieces' Betza rules, owned by one variant value.

use crate::betza::{lame_path, MoveRule};
use crate::bitboard::Bitboard;
use crate::geometry::Geometry;

/// Empty-board rays, one per step vector that some rider uses (or its reverse).
#[derive(Clone, Debug)]
pub struct Rays {
    pub steps: Vec<(i32, i32)>,
    /// `rays[dir * 128 + sq]`: the squares from `sq` along `steps[dir]`, `sq` excluded.
    rays: Vec<Bitboard>,
    /// Whether square indices grow along the ray (then the nearest blocker is the lowest bit).
    ascending: Vec<bool>,
}

impl Rays {
    pub fn new(geo: &Geometry, steps: Vec<(i32, i32)>) -> Rays {
        let mut rays = vec![Bitboard::EMPTY; steps.len() * 128];
        for (d, &(dx, dy)) in steps.iter().enumerate() {
            for sq in 0..geo.squares() {
                let mut s = sq;
                while let Some(t) = geo.offset(s, dx, dy) {
                    rays[d * 128 + sq].set(t);
                    s = t;
                }
            }
        }
        let ascending = steps.iter().map(|&(dx, dy)| dy > 0 || (dy == 0 && dx > 0)).collect();
        Rays { steps, rays, ascending }
    }

    pub fn index(&self, step: (i32, i32)) -> usize {
        self.steps.iter().position(|&s| s == step).expect("ray for every rider step")
    }

    #[inline(always)]
    pub fn ray(&self, dir: usize, sq: usize) -> Bitboard {
        self.rays[dir * 128 + sq]
    }

    /// The squares a rider reaches from `sq` along `dir`, up to and including the first blocker.
    #[inline(always)]
    pub fn attacks(&self, dir: usize, sq: usize, occ: Bitboard) -> Bitboard {
        let ray = self.rays[dir * 128 + sq];
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let first = if self.ascending[dir] { blockers.lsb() } else { blockers.msb() };
        ray ^ self.rays[dir * 128 + first]
    }

    /// The first occupied square from `sq` along `dir`.
    #[inline(always)]
    pub fn first_blocker(&self, dir: usize, sq: usize, occ: Bitboard) -> Option<usize> {
        let blockers = self.rays[dir * 128 + sq] & occ;
        if blockers.is_empty() {
            None
        } else if self.ascending[dir] {
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
    pub reach: Option<Vec<Bitboard>>,
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
    pub quiet: Vec<Bitboard>,
    pub capture: Vec<Bitboard>,
    pub en_passant: Vec<Bitboard>,
    /// Lame leaps per square.
    pub lame: Vec<Vec<LameLeap>>,
    pub riders: Vec<Rider>,
}

impl MoveSet {
    /// Compiles rules whose steps are already in this side's orientation.
    pub fn compile(geo: &Geometry, rays: &Rays, rules: &[(MoveRule, Vec<(i32, i32)>)]) -> MoveSet {
        let n = 128;
        let mut ms = MoveSet {
            quiet: vec![Bitboard::EMPTY; n],
            capture: vec![Bitboard::EMPTY; n],
            en_passant: vec![Bitboard::EMPTY; n],
            lame: vec![Vec::new(); n],
            riders: Vec::new(),
        };
        for (rule, steps) in rules {
            for &(dx, dy) in steps {
                if rule.is_rider() {
                    let dir = rays.index((dx, dy));
                    let reach = (rule.range > 1)
                        .then(|| (0..n).map(|sq| reach(geo, sq, (dx, dy), rule.range)).collect::<Vec<_>>());
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
        for l in &self.lame[sq] {
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
