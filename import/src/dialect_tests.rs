//! The Betza translation checked on every Betza string of FSF's variants (built-ins and
//! variants.ini, as dumped from FSF c19b5f6): an independent reading of FSF's dialect, written
//! from the description of its Betza dialect in the header of data/fsf/variants.ini (rules by
//! direction and geometry, not FSF's table), against hoplite's own parser reading the translation.

use super::betza::{parse_fsf, to_hoplite, Move, Travel};
use std::collections::BTreeSet;

/// Every distinct Betza string of the pieces in FSF's 264 variants.
const FSF_BETZA: &[&str] = &[
    "",
    "A",
    "AD",
    "AF",
    "AW",
    "B",
    "BK",
    "BN",
    "BNW",
    "BW",
    "BmW",
    "BnN",
    "C",
    "CF",
    "D",
    "DAW",
    "DF",
    "DW",
    "DWF",
    "F",
    "FA",
    "FAsmW",
    "FDH",
    "FWGH",
    "FfW",
    "FsfW",
    "FvW",
    "GH",
    "K",
    "KAD",
    "KN",
    "KbRfBbF2",
    "KifmnD",
    "N",
    "NA",
    "NAD",
    "NC",
    "NK",
    "NN",
    "NNQ",
    "NW",
    "NmK",
    "Q",
    "QN",
    "QNAD",
    "R",
    "RF",
    "RK",
    "RN",
    "RNF",
    "RcpRnN",
    "RmF",
    "W",
    "WD",
    "WF",
    "WcF",
    "WfF",
    "WfFbR",
    "Z",
    "ZAD",
    "ZC",
    "bFfD",
    "cB",
    "cK",
    "cN",
    "cQ",
    "cR",
    "cW",
    "fAbD",
    "fB",
    "fBfR",
    "fFfR",
    "fFfW",
    "fKbR",
    "fKifmnD",
    "fN",
    "fNsW",
    "fR",
    "fRffN",
    "fRlbBrbF",
    "fRrbBlbF",
    "fW",
    "fbmWfceFifmnD",
    "ffNfsN",
    "fmFfcWimA",
    "fmWfF",
    "fmWfcF",
    "fmWfceF",
    "fmWfceFifmnD",
    "frlR",
    "fsW",
    "fsmWfceF",
    "fsmWfceFifmnD",
    "gBgR",
    "gQ",
    "hlN",
    "hrN",
    "lfrbB",
    "lrR",
    "mB3",
    "mBcN",
    "mBcpB",
    "mBcpB ",
    "mBpBmWpR2",
    "mDmNmA",
    "mF",
    "mK",
    "mKmNmAmD",
    "mKmgQ",
    "mN",
    "mNcB",
    "mNcK",
    "mNcR",
    "mQ",
    "mQ2cQ2",
    "mQ2cW",
    "mQ3",
    "mQcB",
    "mQcK",
    "mQcN",
    "mQcR",
    "mQmgQ",
    "mR",
    "mR3",
    "mRcD",
    "mRcN",
    "mRcW",
    "mRcpR",
    "mRmgQ",
    "mRpRmFpB2",
    "mW",
    "mWcF",
    "mWfceFifmnD",
    "mafsmafW",
    "mfF",
    "mfFcfeWimfnA",
    "mfFmfW",
    "mfR",
    "mfW",
    "mfWcfF",
    "mfWcfFfhmnN",
    "mfhNcfW",
    "mflFcflW",
    "mfrWmrfF",
    "mfsW",
    "mvR",
    "nA",
    "nC",
    "nN",
    "pB",
    "pQ",
    "pR",
    "rflbB",
    "vR",
    "vW",
];

/// Strings whose move sets hoplite's Betza cannot write (chiral knights).
const INEXPRESSIBLE: &[&str] = &["hlN", "hrN"];

/// Whether the direction spec (one or two letters, FSF pairing) selects a vector of an atom.
fn selects(spec: &str, (x, y): (i8, i8), orthogonal_atom: bool) -> bool {
    let cs: Vec<char> = spec.chars().collect();
    let (a, b) = (cs[0], cs[1]);
    let side = |c: char| match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        'v' => y != 0,
        's' => x != 0,
        _ => false,
    };
    let diagonal = x.abs() == y.abs();
    if orthogonal_atom {
        // A mixed pair on W, D, H, R means both directions.
        return if a == b { side(a) } else { side(a) || side(b) };
    }
    if diagonal {
        // Diagonals: one letter = the two on that side, a pair = the one in that quadrant.
        if a == b {
            return matches!(a, 'v' | 's') || side(a);
        }
        return side(a) && side(b) && !matches!(a, 'v' | 's' | 'h') && !matches!(b, 'v' | 's' | 'h');
    }
    // Oblique leaps: the second letter is the major direction (the longer leg).
    let vertical_major = y.abs() > x.abs();
    let major = |c: char| match c {
        'f' | 'b' | 'v' => vertical_major && side(c),
        'l' | 'r' | 's' => !vertical_major && side(c),
        _ => false,
    };
    let minor = |c: char| match c {
        'f' | 'b' => !vertical_major && side(c),
        'l' | 'r' => vertical_major && side(c),
        _ => false,
    };
    let rot = |(x, y): (i8, i8)| (-y, x);
    let chiral = |seed: (i8, i8)| {
        let mut v = seed;
        (0..4).any(|_| {
            v = rot(v);
            v == (x, y)
        })
    };
    match (a, b) {
        _ if a == b => major(a),
        ('h', 'r') => chiral((1, 2)),
        ('h', 'l') => chiral((2, 1)),
        (c, 'h') | ('h', c) if "fblr".contains(c) => side(c),
        // `fs`, `bs`: the wide pair on that side; `lv`, `rv`: the narrow pair.
        (c, 's') if "fb".contains(c) => !vertical_major && side(c),
        (c, 'v') if "lr".contains(c) => vertical_major && side(c),
        _ => major(b) && minor(a),
    }
}

/// FSF's dialect as the header of data/fsf/variants.ini describes it.
fn expand_fsf(betza: &str) -> BTreeSet<Move> {
    let mut out = BTreeSet::new();
    let cs: Vec<char> = betza.chars().collect();
    let (mut modes, mut specs) = (String::new(), Vec::<String>::new());
    let (mut hop, mut grass, mut lame, mut initial) = (false, false, false, false);
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        i += 1;
        let vertical = |c: char| "fbvh".contains(c);
        let horizontal = |c: char| "lrsh".contains(c);
        match c {
            'm' | 'c' => modes.push(c),
            'p' => hop = true,
            'g' => grass = true,
            'n' => lame = true,
            'i' => initial = true,
            'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => match cs.get(i) {
                Some(&d) if d == c || (vertical(c) && horizontal(d)) || (horizontal(c) && vertical(d)) => {
                    specs.push(format!("{c}{d}"));
                    i += 1;
                }
                _ => specs.push(format!("{c}{c}")),
            },
            'A'..='Z' => {
                let leaps: Vec<(i8, i8)> = match c {
                    'W' | 'R' => vec![(1, 0)],
                    'F' | 'B' => vec![(1, 1)],
                    'K' | 'Q' => vec![(1, 0), (1, 1)],
                    'D' => vec![(2, 0)],
                    'N' => vec![(2, 1)],
                    'A' => vec![(2, 2)],
                    'H' => vec![(3, 0)],
                    'C' | 'L' => vec![(3, 1)],
                    'Z' | 'J' => vec![(3, 2)],
                    'G' => vec![(3, 3)],
                    _ => vec![],
                };
                if leaps.is_empty() {
                    continue;
                }
                let mut rider = matches!(c, 'R' | 'B' | 'Q');
                let mut range = 0u8;
                if let Some(&d) = cs.get(i) {
                    if d == c || d.is_ascii_digit() {
                        rider = true;
                        range = d.to_digit(10).unwrap_or(0) as u8;
                        i += 1;
                    }
                }
                let both = modes.is_empty() || (modes.contains('m') && modes.contains('c'));
                let quiet = both || modes.contains('m');
                let capture = (both || modes.contains('c')) && !initial;
                for &(a, b) in &leaps {
                    let orthogonal = leaps.len() == 1 && b == 0;
                    let mut vs = BTreeSet::new();
                    for (x, y) in [(a, b), (b, a)] {
                        for sx in [1, -1] {
                            for sy in [1, -1] {
                                vs.insert((x * sx, y * sy));
                            }
                        }
                    }
                    for v in vs {
                        if !specs.is_empty() && !specs.iter().any(|s| selects(s, v, orthogonal)) {
                            continue;
                        }
                        let long = v.0.abs().max(v.1.abs());
                        let short = v.0.abs().min(v.1.abs());
                        let travel = if hop || grass {
                            if !rider {
                                continue;
                            }
                            if grass && range == 0 {
                                Travel::Grass
                            } else {
                                Travel::Hop(range)
                            }
                        } else if rider {
                            // Only W, F and N directions ride.
                            if !matches!((long, short), (1, 0) | (1, 1) | (2, 1)) {
                                continue;
                            }
                            Travel::Ride(range)
                        } else if lame {
                            if !matches!((long, short), (2, 0) | (2, 1) | (2, 2) | (3, 2)) {
                                continue;
                            }
                            Travel::Lame
                        } else {
                            Travel::Leap
                        };
                        for (on, cap) in [(quiet, false), (capture, true)] {
                            if on {
                                out.insert(Move { initial, capture: cap, travel, vector: v });
                            }
                        }
                    }
                }
                modes.clear();
                specs.clear();
                (hop, grass, lame, initial) = (false, false, false, false);
            }
            _ => {}
        }
    }
    out
}

/// Hoplite's parser reading a translation; hoppers (`p`, `g`) and the lame zebra, which the
/// core reads only once the kit is in, are read atom by atom with those letters taken off.
fn read_hoplite(text: &str) -> BTreeSet<Move> {
    let cs: Vec<char> = text.chars().collect();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < cs.len() {
        let start = i;
        while cs[i].is_ascii_lowercase() {
            i += 1;
        }
        let letter = cs[i];
        i += 1;
        while i < cs.len() && (cs[i].is_ascii_digit() || (cs[i] == letter && cs[i - 1] == letter)) {
            i += 1;
        }
        let token: String = cs[start..i].iter().collect();
        let hop = token.contains('p');
        let grass = token.contains('g');
        let zebra_lame = letter == 'Z' && token.contains('n');
        let plain: String = token.chars().filter(|&c| c != 'p' && c != 'g' && !(zebra_lame && c == 'n')).collect();
        let b = hoplite_core::betza::parse(&plain).unwrap_or_else(|e| panic!("'{text}': '{plain}': {e}"));
        for rule in &b.rules {
            let travel = if grass {
                Travel::Grass
            } else if hop {
                Travel::Hop(rule.range as u8)
            } else if rule.range != 1 {
                Travel::Ride(rule.range as u8)
            } else if rule.lame || zebra_lame {
                Travel::Lame
            } else {
                Travel::Leap
            };
            for &(x, y) in &rule.steps {
                for (on, capture) in [(rule.quiet, false), (rule.capture, true)] {
                    if on {
                        out.insert(Move { initial: rule.initial, capture, travel, vector: (x as i8, y as i8) });
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_fsf_betza_translates_to_the_same_moves() {
    for &s in FSF_BETZA {
        let expected = expand_fsf(s);
        assert_eq!(parse_fsf(s).unwrap(), expected, "FSF's '{s}': the importer's reading differs from the description");
        match to_hoplite(&expected, false) {
            Ok(h) if h.is_empty() => assert!(expected.is_empty(), "'{s}'"),
            Ok(h) => assert_eq!(read_hoplite(&h), expected, "FSF '{s}' written as hoplite '{h}'"),
            Err(e) => assert!(INEXPRESSIBLE.contains(&s), "FSF '{s}' refused: {e}"),
        }
    }
}

#[test]
fn known_translations() {
    let w = |s: &str| to_hoplite(&parse_fsf(s).unwrap(), false).unwrap();
    // FSF's single direction on an oblique atom is the narrow pair; `fh` is the half plane.
    assert_eq!(w("fN"), "ffN");
    assert_eq!(w("fhN"), "fN");
    assert_eq!(w("ffNfsN"), "fN");
    assert_eq!(w("NN2"), "NN");
    assert_eq!(w("mRcpR"), "mRcpR");
    assert_eq!(w("gBgR"), "gQ");
    assert_eq!(w("mBpBmWpR2"), "mWmBpBpR2");
    assert_eq!(w("fsW"), "fWsW");
    assert_eq!(w("fmWfcFifmnD"), "fmWfcFifmnD");
    assert_eq!(w("mQ2cW"), "cWmQ2");
    assert_eq!(w("nC"), "");
    assert_eq!(w("DD"), "");
}
