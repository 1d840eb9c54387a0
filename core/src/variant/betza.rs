//! Betza notation → a list of move rules (atoms, directions, modes).
//!
//! Supported: atoms W F D N A H C Z G, shorthands K Q R B; riders by a doubled atom (`WW`,
//! `NN`) or a range (`W4`); modifiers f b l r v s (directions, also in pairs such as `fl`, `ff`,
//! `fs`), m c e (move, capture, en passant), i (initial), n (lame: blocked by a piece on the
//! way), p and g (hoppers: a cannon, a grasshopper); castling `O<n>` (the king moves n squares).
//! An empty string is a piece without moves.

pub use crate::error::BetzaError;

/// One kind of move of a piece, in White's view (forward = towards higher ranks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    /// The step vectors `(files, ranks)` this rule allows.
    pub steps: Vec<(i32, i32)>,
    /// 1 for a leaper, n for a rider of at most n steps, 0 for an unlimited rider.
    pub range: u32,
    pub quiet: bool,
    pub capture: bool,
    pub en_passant: bool,
    pub initial: bool,
    pub lame: bool,
    /// A hopper: it moves along the line only by jumping one piece (or wall) on it.
    pub hop: Option<Hop>,
}

/// How a hopper lands beyond the piece it jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    /// `p`: on any square beyond it, up to and capturing the next piece (the xiangqi cannon).
    Cannon,
    /// `g`: only on the square right behind it (the grasshopper).
    Grasshopper,
}

impl MoveRule {
    pub fn is_rider(&self) -> bool {
        self.range != 1
    }
}

/// A parsed piece: its move rules and, for a castling king, how far it moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Betza {
    pub rules: Vec<MoveRule>,
    pub castling: Option<u32>,
}

fn atom(c: char) -> Option<(i32, i32)> {
    Some(match c {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// The atoms a letter stands for, and whether they ride without limit.
fn expand(c: char) -> Option<(Vec<(i32, i32)>, bool)> {
    Some(match c {
        'K' => (vec![(1, 0), (1, 1)], false),
        'Q' => (vec![(1, 0), (1, 1)], true),
        'R' => (vec![(1, 0)], true),
        'B' => (vec![(1, 1)], true),
        _ => (vec![atom(c)?], false),
    })
}

/// All 4 or 8 vectors of an atom `(a, b)`.
fn vectors((a, b): (i32, i32)) -> Vec<(i32, i32)> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let s = (x * sx, y * sy);
                if !v.contains(&s) {
                    v.push(s);
                }
            }
        }
    }
    v
}

/// Whether a vector is in one direction spec (one letter or a pair).
fn in_direction(spec: &str, (dx, dy): (i32, i32)) -> bool {
    let vertical = dy != 0 && dy.abs() >= dx.abs();
    let sideways = dx != 0 && dx.abs() >= dy.abs();
    let one = |c: char| match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        'v' => vertical,
        's' => sideways,
        _ => false,
    };
    let mut cs = spec.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => one(c),
        // A doubled letter is the narrow (f, b) or wide (l, r) half of that direction.
        (Some(a), Some(b)) if a == b => one(a) && if matches!(a, 'f' | 'b') { vertical } else { sideways },
        (Some(a), Some(b)) => one(a) && one(b),
        _ => false,
    }
}

/// Splits a run of direction letters into specs: `fl` and `lf` pair up, as do `ff`, `fs`.
fn direction_specs(run: &str) -> Vec<String> {
    let cs: Vec<char> = run.chars().collect();
    let mut specs = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let (a, b) = (cs[i], cs.get(i + 1).copied());
        let fb = |c: char| matches!(c, 'f' | 'b');
        let lr = |c: char| matches!(c, 'l' | 'r');
        let pairs = match b {
            Some(b) => (fb(a) && (lr(b) || b == a || b == 's')) || (lr(a) && (fb(b) || b == a || b == 'v')),
            None => false,
        };
        if pairs {
            specs.push(format!("{a}{}", b.unwrap()));
            i += 2;
        } else {
            specs.push(a.to_string());
            i += 1;
        }
    }
    specs
}

/// Parses Betza notation.
pub fn parse(text: &str) -> Result<Betza, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    let err = |position: usize, message: String| Err(BetzaError { position, message });
    let mut out = Betza::default();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let mut dirs = String::new();
        let (mut m, mut c, mut e, mut init, mut lame) = (false, false, false, false, false);
        let mut hop = None;
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => dirs.push(chars[i]),
                'm' => m = true,
                'c' => c = true,
                'e' => e = true,
                'i' => init = true,
                'n' => lame = true,
                'p' => hop = Some(Hop::Cannon),
                'g' => hop = Some(Hop::Grasshopper),
                other => return err(i, format!("unknown modifier '{other}'")),
            }
            i += 1;
        }
        let Some(&letter) = chars.get(i) else {
            return err(start, format!("modifiers '{}' are not followed by an atom", &text[start..]));
        };
        if letter == 'O' {
            if i != start {
                return err(start, "castling 'O' takes no modifiers".into());
            }
            i += 1;
            let digits: String = chars[i..].iter().take_while(|c| c.is_ascii_digit()).collect();
            let n: u32 = match digits.parse() {
                Ok(n) if n >= 1 => n,
                _ => return err(i - 1, "castling 'O' needs the king's distance, as in O2".into()),
            };
            i += digits.len();
            out.castling = Some(n);
            continue;
        }
        let Some((atoms, rider)) = expand(letter) else {
            return err(i, format!("'{letter}' is not a Betza atom (W F D N A H C Z G K Q R B O)"));
        };
        i += 1;
        let mut range = if rider { 0 } else { 1 };
        if !rider && chars.get(i) == Some(&letter) && letter != 'K' {
            range = 0;
            i += 1;
        }
        if let Some(d) = chars.get(i).filter(|d| d.is_ascii_digit()) {
            let digits: String = chars[i..].iter().take_while(|c| c.is_ascii_digit()).collect();
            let n: u32 = digits.parse().map_err(|_| BetzaError { position: i, message: "range too large".into() })?;
            if *d == '0' && n == 0 {
                range = 0;
            } else {
                range = n;
            }
            i += digits.len();
        }
        let specs = direction_specs(&dirs);
        let steps: Vec<(i32, i32)> = atoms
            .iter()
            .flat_map(|&a| vectors(a))
            .filter(|&v| specs.is_empty() || specs.iter().any(|s| in_direction(s, v)))
            .collect();
        if steps.is_empty() {
            return err(start, format!("directions '{dirs}' leave no move for '{letter}'"));
        }
        if lame && range == 1 {
            for &(dx, dy) in &steps {
                if lame_path((dx, dy)).is_none() {
                    return err(start, format!("'n' is not supported on '{letter}'"));
                }
            }
        }
        if hop.is_some() && (range == 1 || lame || e) {
            return err(start, format!("a hopper ('p', 'g') rides: '{letter}' needs a line, without 'n' or 'e'"));
        }
        let any_mode = m || c || e;
        out.rules.push(MoveRule {
            steps,
            range,
            quiet: !any_mode || m,
            capture: !any_mode || c,
            en_passant: e,
            initial: init,
            lame,
            hop,
        });
    }
    Ok(out)
}

/// The squares a lame leap passes over, as offsets from its origin: every square on a straight
/// line; the orthogonal first step of a knight's move (the xiangqi horse); for the zebra's
/// (3,2), one orthogonal step along the long side and then one diagonal step (the janggi
/// elephant).
pub fn lame_path((dx, dy): (i32, i32)) -> Option<Vec<(i32, i32)>> {
    let (ax, ay) = (dx.abs(), dy.abs());
    let (sx, sy) = (dx.signum(), dy.signum());
    if ax == 0 || ay == 0 || ax == ay {
        let n = ax.max(ay);
        Some((1..n).map(|k| (sx * k, sy * k)).collect())
    } else if ax.max(ay) == 2 && ax.min(ay) == 1 {
        Some(vec![if ax > ay { (sx, 0) } else { (0, sy) }])
    } else if ax.max(ay) == 3 && ax.min(ay) == 2 {
        Some(if ax > ay { vec![(sx, 0), (2 * sx, sy)] } else { vec![(0, sy), (sx, 2 * sy)] })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(s: &str) -> Vec<(i32, i32)> {
        let mut v: Vec<_> = parse(s).unwrap().rules.iter().flat_map(|r| r.steps.clone()).collect();
        v.sort();
        v
    }

    #[test]
    fn atoms_and_shorthands() {
        assert_eq!(steps("N").len(), 8);
        assert_eq!(steps("W").len(), 4);
        assert_eq!(steps("K").len(), 8);
        let q = parse("Q").unwrap();
        assert_eq!(q.rules[0].range, 0);
        assert_eq!(parse("W4").unwrap().rules[0].range, 4);
        assert_eq!(parse("NN").unwrap().rules[0].range, 0);
        assert_eq!(parse("KO4").unwrap().castling, Some(4));
    }

    #[test]
    fn directions() {
        assert_eq!(steps("fW"), vec![(0, 1)]);
        assert_eq!(steps("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(steps("sW"), vec![(-1, 0), (1, 0)]);
        assert_eq!(steps("vW"), vec![(0, -1), (0, 1)]);
        assert_eq!(steps("frF"), vec![(1, 1)]);
        assert_eq!(steps("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(steps("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(steps("fN").len(), 4);
        assert_eq!(steps("fbW"), vec![(0, -1), (0, 1)]);
    }

    #[test]
    fn modes() {
        let p = parse("fmWfceFifmnD").unwrap();
        assert!(p.rules[0].quiet && !p.rules[0].capture);
        assert!(!p.rules[1].quiet && p.rules[1].capture && p.rules[1].en_passant);
        assert!(p.rules[2].initial && p.rules[2].lame && p.rules[2].quiet);
        let l = parse("FAmsW").unwrap();
        assert!(l.rules[2].quiet && !l.rules[2].capture);
    }

    #[test]
    fn errors_name_the_position() {
        assert_eq!(parse("RX").unwrap_err().position, 1);
        assert_eq!(parse("Rfx").unwrap_err().position, 2);
        assert_eq!(parse("fm").unwrap_err().position, 0);
        assert_eq!(parse(""), Ok(Betza::default()), "a piece without moves");
        assert!(parse("pN").is_err() && parse("gnR").is_err(), "hoppers ride");
        assert!(parse("O").is_err());
        assert!(parse("nC").is_err());
        assert!(parse("lfW").is_err(), "no left-forward step for W");
    }
}
