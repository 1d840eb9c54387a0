//! Fairy-Stockfish's Betza dialect read into a set of moves, and that set written in hoplite's
//! Betza. The two dialects differ (FSF `fN` is hoplite `ffN`, FSF `fhN` is hoplite `fN`, FSF
//! ignores `NN2`'s digit, `DD` and `nC` give nothing in FSF ...), so the translation goes
//! through the exact move set, never letter by letter.

use std::collections::{BTreeMap, BTreeSet};

/// How a move travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Travel {
    Leap,
    /// A leap blocked by a piece on the way (`n`).
    Lame,
    /// A rider of at most n steps; 0 = unlimited.
    Ride(u8),
    /// A cannon-style hopper landing at most n steps from the origin; 0 = unlimited.
    Hop(u8),
    /// A grasshopper: lands right behind the screen.
    Grass,
}

/// One move of a piece, in White's view: `(files, ranks)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    pub initial: bool,
    pub capture: bool,
    pub travel: Travel,
    pub vector: (i8, i8),
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Map {
    Steps,
    Slider,
    Hopper,
}

/// The leap of an FSF atom letter as (ranks, files), FSF's own order, and whether it rides.
fn atoms(c: char) -> Option<(Vec<(i8, i8)>, bool)> {
    Some(match c {
        'W' => (vec![(1, 0)], false),
        'F' => (vec![(1, 1)], false),
        'D' => (vec![(2, 0)], false),
        'N' => (vec![(2, 1)], false),
        'A' => (vec![(2, 2)], false),
        'H' => (vec![(3, 0)], false),
        'L' | 'C' => (vec![(3, 1)], false),
        'J' | 'Z' => (vec![(3, 2)], false),
        'G' => (vec![(3, 3)], false),
        'K' => (vec![(1, 0), (1, 1)], false),
        'R' => (vec![(1, 0)], true),
        'B' => (vec![(1, 1)], true),
        'Q' => (vec![(1, 0), (1, 1)], true),
        _ => return None,
    })
}

/// The eight orientations of an atom (ranks `a`, files `b`) and the FSF direction pairs that
/// select each one, as (files, ranks) vectors.
fn orientations(a: i8, b: i8) -> [((i8, i8), &'static [&'static str]); 8] {
    [
        ((b, a), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-b, -a), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((a, -b), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((-a, b), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((a, b), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-a, -b), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((b, -a), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((-b, a), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ]
}

/// A vector, (files, ranks).
type Vector = (i8, i8);
/// FSF's per-piece move tables: (initial, capture, table) -> direction -> distance.
type Tables = BTreeMap<(bool, bool, Map), BTreeMap<Vector, i32>>;
/// Whether each vector moves quietly and captures.
type Modes = BTreeMap<Vector, (bool, bool)>;
/// Vectors by atom class, for one (initial, travel, mode) group.
type ByClass = BTreeMap<Vector, BTreeSet<Vector>>;

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// Reads FSF's Betza into its moves. An error names what FSF's behaviour is not known for.
pub fn parse_fsf(betza: &str) -> Result<BTreeSet<Move>, String> {
    // (initial, capture, map) -> direction -> distance; a later atom overwrites a direction.
    let mut maps: Tables = BTreeMap::new();
    let cs: Vec<char> = betza.chars().collect();
    let (mut modes, mut dirs): (Vec<bool>, Vec<String>) = (Vec::new(), Vec::new());
    let (mut hopper, mut lame, mut initial, mut distance) = (false, false, false, 0i32);
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c == 'm' || c == 'c' {
            modes.push(c == 'c');
        } else if c == 'p' || c == 'g' {
            hopper = true;
            if c == 'g' {
                distance = 1;
            }
        } else if c == 'n' {
            lame = true;
        } else if c == 'i' {
            initial = true;
        } else if VERTICALS.contains(c) || HORIZONTALS.contains(c) {
            let pair = cs.get(i + 1).copied().filter(|&c2| {
                c2 == c
                    || (VERTICALS.contains(c) && HORIZONTALS.contains(c2))
                    || (HORIZONTALS.contains(c) && VERTICALS.contains(c2))
            });
            match pair {
                Some(c2) => {
                    dirs.push(format!("{c}{c2}"));
                    i += 1;
                }
                None => dirs.push(format!("{c}{c}")),
            }
        } else if let Some((leaps, rides)) = atoms(c) {
            let mut rider = rides;
            if let Some(&next) = cs.get(i + 1) {
                if next.is_ascii_digit() || next == c {
                    rider = true;
                    if let Some(d) = next.to_digit(10) {
                        distance = d as i32;
                    }
                    i += 1;
                }
            }
            if !rider && lame {
                distance = -1;
            }
            if hopper && !rider {
                return Err(format!("'{betza}': a hopper on the leaper '{c}' (FSF's moves for it are not known)"));
            }
            if modes.is_empty() {
                modes = vec![false, true];
            }
            let map = if hopper {
                Map::Hopper
            } else if rider {
                Map::Slider
            } else {
                Map::Steps
            };
            for &(a, b) in &leaps {
                // Orthogonal atoms read a mixed pair (`fs`) as its two letters (`ff`, `ss`).
                let mut ds: Vec<String> = Vec::new();
                for s in &dirs {
                    let s2: Vec<char> = s.chars().collect();
                    if leaps.len() == 1 && b == 0 && s2[0] != s2[1] {
                        ds.push(format!("{0}{0}", s2[0]));
                        ds.push(format!("{0}{0}", s2[1]));
                    } else {
                        ds.push(s.clone());
                    }
                }
                for &capture in &modes {
                    let m = maps.entry((initial, capture, map)).or_default();
                    for (v, sel) in orientations(a, b) {
                        if ds.is_empty() || sel.iter().any(|s| ds.iter().any(|d| d == s)) {
                            m.insert(v, distance);
                        }
                    }
                }
            }
            modes.clear();
            dirs.clear();
            hopper = false;
            lame = false;
            initial = false;
            distance = 0;
        }
        // Anything else (`e`, XBetza letters, blanks, stray digits) FSF skips.
        i += 1;
    }
    let mut out = BTreeSet::new();
    for ((initial, capture, map), dirs) in maps {
        // FSF makes no initial captures.
        if initial && capture {
            continue;
        }
        for (v, d) in dirs {
            let class = class(v);
            let travel = match map {
                Map::Steps if d == 0 => Travel::Leap,
                // Only these leaps have FSF's lame paths; any other lame leap gives no move.
                Map::Steps if matches!(class, (2, 0) | (2, 1) | (2, 2) | (3, 2)) => Travel::Lame,
                Map::Steps => continue,
                // Only W, F and N directions ride (`DD`, `AA` give nothing).
                Map::Slider if matches!(class, (1, 0) | (1, 1) | (2, 1)) => Travel::Ride(d as u8),
                Map::Slider => continue,
                Map::Hopper if d == 1 => Travel::Grass,
                Map::Hopper => Travel::Hop(d as u8),
            };
            out.insert(Move { initial, capture, travel, vector: v });
        }
    }
    Ok(out)
}

/// The atom class of a vector: (larger, smaller) absolute component.
pub fn class((x, y): (i8, i8)) -> (i8, i8) {
    let (a, b) = (x.abs(), y.abs());
    (a.max(b), a.min(b))
}

/// All vectors of an atom class.
fn all_vectors((a, b): (i8, i8)) -> BTreeSet<(i8, i8)> {
    let mut s = BTreeSet::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                s.insert((x * sx, y * sy));
            }
        }
    }
    s
}

fn leaper_letter(class: (i8, i8)) -> char {
    match class {
        (1, 0) => 'W',
        (1, 1) => 'F',
        (2, 0) => 'D',
        (2, 1) => 'N',
        (2, 2) => 'A',
        (3, 0) => 'H',
        (3, 1) => 'C',
        (3, 2) => 'Z',
        _ => 'G',
    }
}

/// The vectors hoplite gives `{dirs}{atom}`, or None where hoplite rejects it.
fn hoplite_vectors(dirs: &str, atom: char) -> Option<BTreeSet<(i8, i8)>> {
    let b = hoplite_core::betza::parse(&format!("{dirs}{atom}")).ok()?;
    Some(b.rules.iter().flat_map(|r| r.steps.iter()).map(|&(x, y)| (x as i8, y as i8)).collect())
}

/// Hoplite direction modifiers whose union is exactly `target` (a subset of the atom's
/// vectors): one run of letters where hoplite reads it so, else one run per atom repetition.
fn directions(class: (i8, i8), target: &BTreeSet<(i8, i8)>) -> Option<Vec<String>> {
    if *target == all_vectors(class) {
        return Some(vec![String::new()]);
    }
    let atom = leaper_letter(class);
    let specs = ["f", "b", "l", "r", "v", "s", "fl", "fr", "bl", "br", "ff", "bb", "ll", "rr", "fs", "bs", "lv", "rv"];
    let cands: Vec<(&str, BTreeSet<(i8, i8)>)> = specs
        .iter()
        .filter_map(|s| hoplite_vectors(s, atom).map(|v| (*s, v)))
        .filter(|(_, v)| !v.is_empty() && v.is_subset(target))
        .collect();
    // The smallest cover: at most four specs are ever needed for eight vectors.
    for size in 1..=4usize.min(cands.len()) {
        let mut idx: Vec<usize> = (0..size).collect();
        loop {
            if idx.iter().all(|&i| i < cands.len()) {
                let union: BTreeSet<(i8, i8)> = idx.iter().flat_map(|&i| cands[i].1.iter().copied()).collect();
                if union == *target {
                    let parts: Vec<String> = idx.iter().map(|&i| cands[i].0.to_string()).collect();
                    let joined = parts.concat();
                    if hoplite_vectors(&joined, atom).as_ref() == Some(target) {
                        return Some(vec![joined]);
                    }
                    return Some(parts);
                }
            }
            // Next combination of `size` indices out of cands.len().
            let n = cands.len();
            let mut k = size;
            while k > 0 && idx[k - 1] == n - size + k - 1 {
                k -= 1;
            }
            if k == 0 {
                break;
            }
            idx[k - 1] += 1;
            for j in k..size {
                idx[j] = idx[j - 1] + 1;
            }
        }
    }
    None
}

/// Writes a move set in hoplite's Betza. `en_passant` marks the capture-only moves as able to
/// take en passant (FSF lets an en-passant piece do so with any move that only captures).
pub fn to_hoplite(moves: &BTreeSet<Move>, en_passant: bool) -> Result<String, String> {
    // (initial, travel, class, quiet, capture) -> vectors
    let mut modes: BTreeMap<(bool, Travel, Vector), Modes> = BTreeMap::new();
    for m in moves {
        let e = modes.entry((m.initial, m.travel, class(m.vector))).or_default().entry(m.vector).or_default();
        if m.capture {
            e.1 = true;
        } else {
            e.0 = true;
        }
    }
    // Grouped by (initial, travel, mode: 0 both, 1 quiet, 2 capture), then atom class.
    let mut groups: BTreeMap<(bool, Travel, u8), ByClass> = BTreeMap::new();
    for ((initial, travel, cls), vs) in &modes {
        for (v, (q, c)) in vs {
            let mode = if *q && *c {
                0
            } else if *q {
                1
            } else {
                2
            };
            groups.entry((*initial, *travel, mode)).or_default().entry(*cls).or_default().insert(*v);
        }
    }
    let mut out = String::new();
    for ((initial, travel, mode), classes) in &groups {
        let mode = match mode {
            0 => "",
            1 => "m",
            _ if en_passant => "ce",
            _ => "c",
        };
        let mut classes = classes.clone();
        // Whole W and F sets together are K or Q.
        let full = |c: (i8, i8)| classes.get(&c) == Some(&all_vectors(c));
        let mut pieces: Vec<(String, char, bool)> = Vec::new();
        if full((1, 0)) && full((1, 1)) && !matches!(travel, Travel::Lame) {
            classes.remove(&(1, 0));
            classes.remove(&(1, 1));
            pieces.push((String::new(), if matches!(travel, Travel::Leap) { 'K' } else { 'Q' }, true));
        }
        for (cls, target) in &classes {
            let letter = match travel {
                Travel::Leap | Travel::Lame => leaper_letter(*cls),
                _ => match cls {
                    (1, 0) => 'R',
                    (1, 1) => 'B',
                    (2, 1) => 'N',
                    _ => return Err(format!("no hoplite rider for the leap {cls:?}")),
                },
            };
            let Some(dirs) = directions(*cls, target) else {
                let list: Vec<String> = target.iter().map(|(x, y)| format!("({x},{y})")).collect();
                return Err(format!(
                    "hoplite's direction modifiers cannot select exactly the {} moves {}",
                    leaper_letter(*cls),
                    list.join(" ")
                ));
            };
            for d in dirs {
                pieces.push((d, letter, false));
            }
        }
        for (dirs, letter, _) in pieces {
            let (hop, suffix) = match (travel, letter) {
                (Travel::Leap | Travel::Lame, _) => ("", String::new()),
                (Travel::Ride(0), 'N') => ("", "N".to_string()),
                (Travel::Ride(0), _) => ("", String::new()),
                (Travel::Ride(n), _) => ("", n.to_string()),
                (Travel::Hop(0), _) => ("p", String::new()),
                (Travel::Hop(n), _) => ("p", n.to_string()),
                (Travel::Grass, _) => ("g", String::new()),
            };
            let letter = match (travel, letter) {
                (Travel::Leap | Travel::Lame, 'K') => 'K',
                (Travel::Leap | Travel::Lame, l) => l,
                (_, 'K') => 'Q',
                (_, l) => l,
            };
            let lame = if *travel == Travel::Lame { "n" } else { "" };
            let init = if *initial { "i" } else { "" };
            out.push_str(&format!("{init}{dirs}{mode}{lame}{hop}{letter}{suffix}"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(s: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = parse_fsf(s).unwrap().iter().map(|m| m.vector).collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn dialect_quirks() {
        assert_eq!(moves("fN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(moves("fhN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(moves("rfN"), vec![(1, 2)]);
        assert_eq!(moves("frN"), vec![(2, 1)]);
        assert_eq!(moves("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert!(parse_fsf("DD").unwrap().is_empty());
        assert!(parse_fsf("nC").unwrap().is_empty());
        let nn2 = parse_fsf("NN2").unwrap();
        assert!(nn2.iter().all(|m| m.travel == Travel::Ride(0)));
        assert!(parse_fsf("iN").unwrap().iter().all(|m| m.initial && !m.capture));
    }
}
