//! Piece values by play-testing (docs/values.md): a balance run whose configurations are
//! material imbalances, each played with the armies' colours swapped too, and pawn odds that
//! set the scale.

use crate::plans::balance::{Balance, BalanceFile, ConfigEntry, OneOrMore};
use crate::plans::imbalance::Imbalance;
use crate::stats::playtest::{fit_undecided, game_variance_at, is_decided, Fit, More, Observation};
use hoplite_core::{Colour, PieceType, Variant};
use hoplite_formats::{Decimal, SummaryRow, ValueRow};

/// The pieces a side's setup has (by type, in type order).
fn army(variant: &Variant, side: Colour) -> Vec<PieceType> {
    let mut t: Vec<PieceType> = variant.start.pieces.iter().filter(|p| p.colour == side).map(|p| p.ty).collect();
    t.sort_unstable();
    t.dedup();
    t
}

/// The pawn that sets the scale: White's first pawn type.
fn scale_pawn(variant: &Variant) -> Option<PieceType> {
    army(variant, Colour::White).into_iter().find(|&t| variant.piece(t).pawn)
}

/// Whether the two armies are made of different pieces (Spartan chess).
fn armies_differ(variant: &Variant) -> bool {
    army(variant, Colour::White) != army(variant, Colour::Black)
}

/// The imbalances played by default: one, two and three pawns' odds (the scale); each piece
/// (pieces of both armies, from White; a royal piece only where a side has two, and the other
/// army's pawn where it differs) in an exchange near equality for cheaper pieces of the other
/// army (by the variant's values, `near_equal`), its odds where there is none; a pair of
/// colour-bound pieces against two of the next cheaper piece (or given whole), which tells the
/// pair's worth from its pieces'. With two different armies, games without an imbalance
/// measure the armies' difference. Exchanges, not odds: a piece's odds decide a game between
/// strong players (`DECIDED`), and decided games do not measure a value.
pub fn default_imbalances(variant: &Variant) -> Result<Vec<String>, String> {
    let pawn = scale_pawn(variant).ok_or("White has no pawn to set the scale")?;
    let letter = |t: PieceType| variant.piece(t).letter.to_string();
    let value = |t: PieceType| variant.piece(t).value;
    let royals =
        |side: Colour| variant.start.pieces.iter().filter(|p| p.colour == side && variant.piece(p.ty).royal).count();
    let candidates = |side: Colour| -> Vec<PieceType> {
        let mut v: Vec<PieceType> = army(variant, side)
            .into_iter()
            .filter(|&t| {
                let p = variant.piece(t);
                (!p.pawn || (side == Colour::Black && t != pawn)) && (!p.royal || royals(side) > 1)
            })
            .collect();
        v.sort_by_key(|&t| value(t).unwrap_or(0));
        v
    };
    let sides: &[Colour] = if armies_differ(variant) { &Colour::BOTH } else { &[Colour::White] };
    let spec = |side: Colour, mine: &str, theirs: &str| match side {
        Colour::White => format!("{mine}:{theirs}"),
        Colour::Black => format!("{theirs}:{mine}"),
    };
    // A ladder of pawn odds, fitted together, sets the scale.
    let pawns = variant.start_counts[Colour::White][pawn].min(3) as usize;
    let mut out: Vec<String> = (1..=pawns).map(|k| format!("{}:", letter(pawn).repeat(k))).collect();
    if armies_differ(variant) {
        out.push(":".into());
    }
    let mut add = |s: String| {
        if !out.contains(&s) {
            out.push(s);
        }
    };
    // The worth in pawns of `t` and of the pieces cheaper than it, by the variant's values.
    let below = |t: PieceType| {
        move |u: PieceType| {
            let (vt, vu) = (value(t)? as f64, value(u)? as f64);
            (u == t || vu < vt).then_some(vu / 100.0)
        }
    };
    for &side in sides {
        for t in candidates(side) {
            let exchange = near_equal(variant, t, side, &below(t)).into_iter().next();
            add(exchange.unwrap_or_else(|| spec(side, &letter(t), "")));
        }
    }
    // A colour-bound pair (the bishops): both against two of the next cheaper piece, or given.
    let two = |side: Colour, t: PieceType| variant.start_counts[side][t] >= 2;
    for &side in sides {
        for t in candidates(side).into_iter().filter(|&t| variant.piece(t).colour_bound() && two(side, t)) {
            let cheaper = candidates(!side)
                .into_iter()
                .filter(|&u| !variant.piece(u).pawn && !variant.piece(u).royal && two(!side, u))
                .rfind(|&u| u != t && value(u).unwrap_or(0) < value(t).unwrap_or(0));
            let theirs = cheaper.map_or(String::new(), |u| letter(u).repeat(2));
            add(spec(side, &letter(t).repeat(2), &theirs));
        }
    }
    Ok(out)
}

/// A balance file for the imbalances: each as played and with the armies' colours swapped.
pub fn balance_file(variant: &str, imbalances: &[String], games: u64, nodes: &[u64], seed: u64) -> String {
    let configs = imbalances
        .iter()
        .flat_map(|i| {
            [("", false), (" swapped", true)].map(|(suffix, swap_armies)| ConfigEntry {
                name: format!("{i}{suffix}"),
                swap_armies,
                imbalance: Some(i.clone()),
                ..Default::default()
            })
        })
        .collect();
    let file = BalanceFile {
        variant: variant.into(),
        games: Some(games),
        nodes: Some(OneOrMore::More(nodes.to_vec())),
        seed: Some(seed),
        max_plies: Some(crate::defaults::VALUES_MAX_PLIES),
        configs,
        ..Default::default()
    };
    let text = toml::to_string(&file).expect("a balance file is TOML");
    format!(
        "# Piece values by play-testing (docs/values.md), as `hoplite values` wrote it; edit and\n\
         # run it again with `hoplite values THIS_FILE`.\n{text}"
    )
}

/// What the fit solves for: a piece's worth, the worth of a pair of a type beyond its two
/// pieces', or the armies' difference.
#[derive(Clone, Copy, PartialEq)]
enum Unknown {
    Piece(PieceType),
    Pair(PieceType),
    Army,
}

impl Unknown {
    /// Its coefficient in an imbalance's model (what White's army is ahead by).
    fn coef(self, variant: &Variant, i: &Imbalance) -> f64 {
        match self {
            Unknown::Piece(t) => i.balance_of(t),
            Unknown::Pair(t) => i.pair_of(variant, t),
            Unknown::Army => 1.0,
        }
    }
}

/// The unknowns the imbalances determine: every piece type some imbalance removes; the pair of
/// a colour-bound type (two cover both colours; other pairs count as twice the piece) where
/// the imbalances tell it from the pieces (one of a pair taken somewhere, both elsewhere: `b:`
/// and `bb:`); the armies' difference where they differ.
fn unknowns(variant: &Variant, imbalances: &[Imbalance]) -> Vec<Unknown> {
    let mut pieces: Vec<PieceType> = imbalances.iter().flat_map(|i| i.removed.concat()).collect();
    pieces.sort_unstable();
    pieces.dedup();
    let separable = |t: PieceType| {
        let cols: Vec<(f64, f64)> = imbalances.iter().map(|i| (i.balance_of(t), i.pair_of(variant, t))).collect();
        cols.iter().any(|a| cols.iter().any(|b| (a.0 * b.1 - a.1 * b.0).abs() > 1e-9))
    };
    let pairs: Vec<Unknown> = pieces
        .iter()
        .filter(|&&t| variant.piece(t).colour_bound() && separable(t))
        .map(|&t| Unknown::Pair(t))
        .collect();
    let mut out: Vec<Unknown> = pieces.into_iter().map(Unknown::Piece).collect();
    out.extend(pairs);
    if armies_differ(variant) {
        out.push(Unknown::Army);
    }
    out
}

/// One (player, budget)'s fit of a run's summary.
struct Fitted {
    unknowns: Vec<Unknown>,
    /// The scale pawn's place among the unknowns.
    pawn: usize,
    /// Per imbalance played (not swapped), its configuration and its games (both colours).
    observed: Vec<(usize, Observation)>,
    /// Per observed imbalance, whether the fit used it (`fit_undecided`).
    used: Vec<bool>,
    /// Games per unknown: those of the imbalances it has a coefficient in.
    games: Vec<u64>,
    fit: Fit,
}

/// The (player, budget) pairs of a run's rows, in order of first appearance.
fn keys(rows: &[SummaryRow]) -> Vec<(String, String)> {
    let mut keys: Vec<(String, String)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.player.clone(), r.budget.clone())) {
            keys.push((r.player.clone(), r.budget.clone()));
        }
    }
    keys
}

fn imbalance_of(c: &crate::plans::balance::Config) -> Imbalance {
    c.imbalance.clone().unwrap_or(Imbalance { removed: [vec![], vec![]] })
}

/// Fits the imbalances' results of one (player, budget).
fn fitted(b: &Balance, rows: &[SummaryRow], player: &str, budget: &str) -> Result<Fitted, String> {
    let variant = &b.base;
    let pawn = scale_pawn(variant).ok_or("White has no pawn to set the scale")?;
    let all: Vec<Imbalance> = b.configs.iter().map(imbalance_of).collect();
    let unknowns = unknowns(variant, &all);
    let Some(p) = unknowns.iter().position(|&u| u == Unknown::Piece(pawn)) else {
        return Err(format!(
            "no pawn odds: an imbalance must remove '{}' to set the scale",
            variant.piece(pawn).letter
        ));
    };
    let row = |name: &str| rows.iter().find(|r| r.base == name && r.player == player && r.budget == budget);
    let mut observed = Vec::new();
    let mut games = vec![0u64; unknowns.len()];
    for (k, c) in b.configs.iter().enumerate().filter(|(_, c)| !c.swapped) {
        let Some(r) = row(&c.name) else { continue };
        // The rules' White army's results: as White here, as Black in the swapped games.
        let (mut wins, mut draws, mut losses) = (r.white_wins, r.draws, r.black_wins);
        if let Some(&(_, s)) = b.swaps().iter().find(|(o, _)| *o == k) {
            if let Some(w) = row(&b.configs[s].name) {
                (wins, draws, losses) = (wins + w.black_wins, draws + w.draws, losses + w.white_wins);
            }
        }
        let coef: Vec<f64> = unknowns.iter().map(|u| u.coef(variant, &all[k])).collect();
        for (g, &x) in games.iter_mut().zip(&coef) {
            if x != 0.0 {
                *g += wins + draws + losses;
            }
        }
        observed.push((k, Observation { coef, wins, draws, losses }));
    }
    let obs: Vec<Observation> = observed.iter().map(|(_, o)| o.clone()).collect();
    let (fit, used) = fit_undecided(&obs, unknowns.len())?;
    Ok(Fitted { unknowns, pawn: p, observed, used, games, fit })
}

/// The values each (player, budget) of a run's summary gives, with `texel` values (by letter)
/// beside them.
pub fn values(b: &Balance, rows: &[SummaryRow], texel: &[(char, f64)]) -> Result<Vec<ValueRow>, String> {
    let variant = &b.base;
    let mut out = Vec::new();
    for (player, budget) in keys(rows) {
        let f = fitted(b, rows, &player, &budget)?;
        for (j, &u) in f.unknowns.iter().enumerate() {
            let (letter, name, texel) = match u {
                Unknown::Piece(t) => {
                    let piece = variant.piece(t);
                    let texel = texel.iter().find(|(l, _)| *l == piece.letter).map(|&(_, x)| Decimal::rounded(x));
                    (piece.letter.to_string(), piece.name.clone(), texel)
                }
                Unknown::Pair(t) => {
                    let piece = variant.piece(t);
                    (format!("{0}{0}", piece.letter), format!("{} pair", piece.name), None)
                }
                Unknown::Army => continue,
            };
            let v = f.fit.in_pawns(j, f.pawn);
            out.push(ValueRow {
                player: player.clone(),
                budget: budget.clone(),
                letter,
                name,
                pawns: Decimal::rounded(v.pawns),
                ci95_low: Decimal::rounded(v.low),
                ci95_high: Decimal::rounded(v.high),
                games: f.games[j],
                texel,
            });
        }
    }
    Ok(out)
}

/// How one (player, budget)'s fit went: how far the model misses the scores beyond their noise
/// (`Fit::chi2_per_dof`), the imbalances whose games were decided, and whether the fit left
/// them out (it keeps them where the rest do not determine every value).
pub struct FitNote {
    pub player: String,
    pub budget: String,
    pub chi2_per_dof: f64,
    pub decided: Vec<String>,
    pub left_out: bool,
}

/// The fit notes of every (player, budget) of a run's summary.
pub fn fit_notes(b: &Balance, rows: &[SummaryRow]) -> Result<Vec<FitNote>, String> {
    keys(rows)
        .into_iter()
        .map(|(player, budget)| {
            let f = fitted(b, rows, &player, &budget)?;
            let decided = f
                .observed
                .iter()
                .filter(|(_, o)| o.decided())
                .map(|(k, _)| b.file.configs[*k].imbalance.clone().unwrap_or_default())
                .collect();
            let left_out = f.used.iter().any(|&u| !u);
            Ok(FitNote { player, budget, chi2_per_dof: f.fit.chi2_per_dof, decided, left_out })
        })
        .collect()
}

/// A value wanted to a precision: a piece's letter and the half-width its 95% interval may
/// have, in pawns.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub letter: char,
    pub half: f64,
}

/// Reads targets, `n:0.5,b:0.5,r:1` (letters of the variant's pieces).
pub fn parse_targets(variant: &Variant, spec: &str) -> Result<Vec<Target>, String> {
    spec.split(',')
        .map(|t| {
            let bad = || format!("--until '{t}': expected LETTER:PAWNS, as n:0.5");
            let (l, h) = t.trim().split_once(':').ok_or_else(bad)?;
            let letter = l.chars().next().filter(|_| l.chars().count() == 1).ok_or_else(bad)?.to_ascii_lowercase();
            variant
                .piece_type(letter)
                .ok_or_else(|| format!("--until '{t}': '{letter}' is not a piece of {}", variant.name))?;
            let half: f64 = h.parse().ok().filter(|h: &f64| *h > 0.0).ok_or_else(bad)?;
            Ok(Target { letter, half })
        })
        .collect()
}

/// Where the targets stand: each target's value (letter, value) and whether every one is met.
pub fn targets_met(b: &Balance, rows: &[SummaryRow], targets: &[Target]) -> Result<bool, String> {
    let (player, budget) = keys(rows).into_iter().next().ok_or("no games yet")?;
    let f = fitted(b, rows, &player, &budget)?;
    let idx = target_indices(&b.base, &f, targets)?;
    Ok(idx.iter().zip(targets).all(|(&j, t)| {
        let v = f.fit.in_pawns(j, f.pawn);
        (v.high - v.low) / 2.0 <= t.half
    }))
}

fn target_indices(variant: &Variant, f: &Fitted, targets: &[Target]) -> Result<Vec<usize>, String> {
    targets
        .iter()
        .map(|t| {
            let ty = variant.piece_type(t.letter).expect("checked by parse_targets");
            f.unknowns
                .iter()
                .position(|&u| u == Unknown::Piece(ty))
                .ok_or_else(|| format!("'{}' has no games: add an imbalance that removes it", t.letter))
        })
        .collect()
}

/// Exchanges near equality for the piece of type `t` of side `side`: a few other pieces of the
/// other army (pawns included) worth about as much by the present values (`worth`, pawns), as
/// imbalance specs. Near equality the score is most sensitive to material, and the value in
/// pawns hardly depends on the scale's own error.
fn near_equal(variant: &Variant, t: PieceType, side: Colour, worth: &dyn Fn(PieceType) -> Option<f64>) -> Vec<String> {
    let Some(target) = worth(t) else { return Vec::new() };
    let other = !side;
    let items: Vec<(PieceType, f64, u8)> = army(variant, other)
        .into_iter()
        .filter(|&u| !variant.piece(u).royal && u != t)
        .filter_map(|u| worth(u).map(|w| (u, w, variant.start_counts[other][u])))
        .collect();
    // Multisets of at most four pieces, by how far from the target and then how few.
    let mut found: Vec<(f64, usize, Vec<PieceType>)> = Vec::new();
    let mut pick = vec![0u8; items.len()];
    fn walk(
        i: usize,
        left: usize,
        items: &[(PieceType, f64, u8)],
        pick: &mut Vec<u8>,
        target: f64,
        found: &mut Vec<(f64, usize, Vec<PieceType>)>,
    ) {
        if i == items.len() {
            let n: usize = pick.iter().map(|&k| k as usize).sum();
            let total: f64 = pick.iter().zip(items).map(|(&k, it)| k as f64 * it.1).sum();
            if n > 0 && (total - target).abs() <= 0.75 {
                let list = pick.iter().zip(items).flat_map(|(&k, it)| std::iter::repeat_n(it.0, k as usize)).collect();
                found.push(((total - target).abs(), n, list));
            }
            return;
        }
        for k in 0..=(items[i].2 as usize).min(left) {
            pick[i] = k as u8;
            walk(i + 1, left - k, items, pick, target, found);
        }
        pick[i] = 0;
    }
    walk(0, 4, &items, &mut pick, target, &mut found);
    found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let letters = |l: &[PieceType]| l.iter().map(|&u| variant.piece(u).letter).collect::<String>();
    let mine = variant.piece(t).letter.to_string();
    found
        .into_iter()
        .take(2)
        .map(|(_, _, l)| match side {
            Colour::White => format!("{mine}:{}", letters(&l)),
            Colour::Black => format!("{}:{mine}", letters(&l)),
        })
        .collect()
}

/// The imbalances the next round of games plays, one per batch of `batch` games (both
/// colours): each pick is the imbalance, played or new and not picked yet, whose games would
/// most narrow the interval farthest from its target (relative to the target), the picks
/// before it counted.
/// New candidates are near-equal exchanges for each target piece (`near_equal`).
pub fn next_round(
    b: &Balance,
    rows: &[SummaryRow],
    targets: &[Target],
    batch: u64,
    picks: usize,
) -> Result<Vec<String>, String> {
    let variant = &b.base;
    let (player, budget) = keys(rows).into_iter().next().ok_or("no games yet")?;
    let f = fitted(b, rows, &player, &budget)?;
    let idx = target_indices(variant, &f, targets)?;
    let draws = {
        let (d, n) = f.observed.iter().fold((0, 0), |(d, n), (_, o)| (d + o.draws, n + o.wins + o.draws + o.losses));
        d as f64 / n.max(1) as f64
    };
    // The candidates: (spec, coefficients, one game's logit variance).
    let mut candidates: Vec<(String, Vec<f64>, f64)> = Vec::new();
    // A decided imbalance stays decided: more of its games would not count.
    for (k, o) in f.observed.iter().filter(|(_, o)| !o.decided()) {
        if let Some(v) = o.game_variance() {
            candidates.push((b.file.configs[*k].imbalance.clone().unwrap_or_default(), o.coef.clone(), v));
        }
    }
    let worth = |t: PieceType| -> Option<f64> {
        let j = f.unknowns.iter().position(|&u| u == Unknown::Piece(t))?;
        Some(f.fit.in_pawns(j, f.pawn).pawns)
    };
    for (t, side) in targets.iter().map(|t| variant.piece_type(t.letter).expect("checked")).flat_map(|t| {
        let sides = Colour::BOTH.into_iter().filter(move |&s| variant.start_counts[s][t] > 0);
        sides.take(1).map(move |s| (t, s))
    }) {
        for spec in near_equal(variant, t, side, &worth) {
            if candidates.iter().any(|c| c.0 == spec) {
                continue;
            }
            let Ok(i) = Imbalance::parse(variant, &spec) else { continue };
            let coef: Vec<f64> = f.unknowns.iter().map(|u| u.coef(variant, &i)).collect();
            // Only pieces already valued: a new unknown would need games of its own.
            let covered =
                variant.piece_types().all(|ty| i.balance_of(ty) == 0.0 || f.unknowns.contains(&Unknown::Piece(ty)));
            let score = f.fit.score_of(&coef);
            if covered && !is_decided(score) {
                let v = game_variance_at(score, draws);
                candidates.push((spec, coef, v));
            }
        }
    }
    let worst = |more: &[More]| -> f64 {
        f.fit.with_more(more, &idx, f.pawn).map_or(f64::INFINITY, |values| {
            values.iter().zip(targets).map(|(v, t)| (v.high - v.low) / 2.0 / t.half).fold(0.0, f64::max)
        })
    };
    let mut more: Vec<More> = Vec::new();
    let mut chosen = Vec::new();
    for _ in 0..picks {
        // A round plays an imbalance once: the next pick is another.
        let best = candidates
            .iter()
            .enumerate()
            .map(|(k, (_, coef, v))| {
                let mut with = more.clone();
                with.push(More { coef: coef.clone(), weight: batch as f64 / v });
                (worst(&with), k)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        let Some((_, k)) = best else { break };
        let (spec, coef, v) = candidates.remove(k);
        more.push(More { coef, weight: batch as f64 / v });
        chosen.push(spec);
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(name: &str, text: &str) -> Balance {
        let path = std::env::temp_dir().join(format!("hoplite-values-{name}-{}.toml", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let b = crate::plans::balance::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_file(&path);
        b
    }

    #[test]
    fn the_default_imbalances_of_chess_and_spartan() {
        // By the classical values: N 3.2 for three pawns, B 3.3 for N 3.2, R 5 for N and two
        // pawns, Q 9 for R, N and a pawn; the bishops against the knights.
        let chess = Variant::builtin("chess");
        assert_eq!(
            default_imbalances(&chess).unwrap(),
            ["p:", "pp:", "ppp:", "n:ppp", "b:n", "r:ppn", "q:pnr", "bb:nn"]
        );
        // The scale, the armies' difference, each army's pieces for the other's cheaper ones;
        // a Spartan king (there are two) and the hoplite have none cheaper: their odds.
        let spartan = Variant::builtin("spartan");
        assert_eq!(
            default_imbalances(&spartan).unwrap(),
            [
                "p:", "pp:", "ppp:", ":", "n:c", "b:c", "r:hhc", "q:hw", ":k", ":h", "ppp:l", "ppp:c", "nb:g",
                "pppr:w", "bb:cc"
            ]
        );
    }

    /// The generated file plays each imbalance and its colour mirror: the swapped game of
    /// White's missing knight is Black's missing knight, with White to move.
    #[test]
    fn a_swapped_imbalance_is_the_colour_mirror() {
        let b = load("mirror", &balance_file("chess", &["n:".into()], 2, &[100], 1));
        assert_eq!(b.configs.len(), 2);
        assert_eq!(b.configs[0].variant.setup, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
        assert_eq!(b.configs[1].variant.setup, "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(b.swaps(), [(0, 1)]);
    }

    fn row(base: &str, w: u64, d: u64, l: u64) -> SummaryRow {
        SummaryRow {
            config: base.into(),
            base: base.into(),
            player: "hoplite".into(),
            budget: "nodes 1".into(),
            white_wins: w,
            draws: d,
            black_wins: l,
            games: w + d + l,
            ..Default::default()
        }
    }

    /// Every built-in's default imbalances determine every unknown (some results for each),
    /// and a variant with a colour-bound pair gets the pair's row.
    #[test]
    fn the_defaults_of_every_built_in_determine_the_values() {
        for name in hoplite_core::builtin_names() {
            let specs = default_imbalances(&Variant::builtin(name)).unwrap();
            let b = load(name, &balance_file(name, &specs, 2, &[100], 1));
            let rows: Vec<SummaryRow> =
                b.configs.iter().enumerate().map(|(k, c)| row(&c.name, 10 + k as u64 % 7, 5, 10)).collect();
            let v = values(&b, &rows, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(v.iter().all(|r| r.pawns.0.is_finite()), "{name}");
            let pairs: Vec<&str> = v.iter().filter(|r| r.name.ends_with(" pair")).map(|r| r.letter.as_str()).collect();
            match name {
                "chess" => assert_eq!(pairs, ["bb"]),
                "shatranj" => assert_eq!(pairs, ["bb"], "the alfils"),
                _ => {}
            }
        }
    }

    /// Knight and bishop both worth 3 pawns (logit 3 ln 2) and the bishop pair 1 pawn: White
    /// without a bishop is down B + pair = 4 pawns, without both 2 B + pair = 7, and `bb:nn`
    /// is down 1 (the pair). The fit finds the pair apart from the bishop.
    #[test]
    fn the_bishop_pair_apart_from_the_bishop() {
        // The first configuration gives both bishops: the pair is counted from the setup.
        let specs: Vec<String> = ["bb:", "p:", "n:", "b:", "bb:nn"].map(String::from).into();
        let b = load("pair", &balance_file("chess", &specs, 2, &[100], 1));
        // k pawns down: logit −k ln 2, the odds (w + 1) / (l + 1) = 2^−k after the half point
        // each side, with 7 wins, a draw and l = 8·2^k − 1 losses, split between the colours.
        let rows = |spec: &str, k: u32| {
            let l = 8 * (1u64 << k) - 1;
            [row(spec, 4, 1, l / 2), row(&format!("{spec} swapped"), l - l / 2, 0, 3)]
        };
        let all: Vec<SummaryRow> = [("p:", 1), ("n:", 3), ("b:", 4), ("bb:", 7), ("bb:nn", 1)]
            .into_iter()
            .flat_map(|(s, k)| rows(s, k))
            .collect();
        let v = values(&b, &all, &[]).unwrap();
        let get = |l: &str| v.iter().find(|r| r.letter == l).unwrap().pawns.0;
        assert_eq!((get("p"), get("n"), get("b"), get("bb")), (1.0, 3.0, 3.0, 1.0), "{v:?}");
        assert_eq!(v.iter().find(|r| r.letter == "bb").unwrap().name, "Bishop pair");
    }

    /// One and two pawns' odds of the playtest worked example, each split between the
    /// colours: White's army without a pawn has 99 wins, 1 draw and 199 losses over both.
    fn pawn_ladder() -> [SummaryRow; 4] {
        [row("p:", 50, 1, 99), row("p: swapped", 100, 0, 49), row("pp:", 30, 1, 119), row("pp: swapped", 120, 0, 29)]
    }

    /// A knight's odds worth 3 pawns on `pawn_ladder`'s scale.
    fn knight_odds() -> [SummaryRow; 2] {
        [row("n:", 20, 1, 159), row("n: swapped", 160, 0, 19)]
    }

    /// The playtest worked example through the run's rows: each imbalance's games split
    /// between the two colours; the knight comes out at 3 pawns.
    #[test]
    fn values_from_the_rows_of_a_run() {
        let b = load("rows", &balance_file("chess", &["p:".into(), "pp:".into(), "n:".into()], 2, &[100], 1));
        let rows = [pawn_ladder().as_slice(), &knight_odds()].concat();
        let v = values(&b, &rows, &[('n', 2.83)]).unwrap();
        let n = v.iter().find(|r| r.letter == "n").unwrap();
        assert_eq!((n.pawns.0, n.games, n.texel.map(|t| t.0)), (3.0, 359, Some(2.83)));
        assert!(n.ci95_low.0 < 3.0 && n.ci95_high.0 > 3.0);
        let p = v.iter().find(|r| r.letter == "p").unwrap();
        assert_eq!((p.pawns.0, p.games), (1.0, 598));
    }

    /// The same knight measured by an exchange for three pawns (level: 3 pawns) and by its
    /// odds, decided (6 points of 300): the odds are named and left out, and the knight is the
    /// exchange's 3 pawns; with the odds alone the fit keeps them and says so.
    #[test]
    fn decided_imbalances_are_named_and_left_out() {
        let specs = ["p:", "pp:", "n:", "n:ppp"].map(String::from);
        let b = load("decided", &balance_file("chess", &specs, 2, &[100], 1));
        let ladder = [pawn_ladder().as_slice(), &[row("n:", 2, 2, 146), row("n: swapped", 146, 2, 2)]].concat();
        let level = [row("n:ppp", 70, 10, 70), row("n:ppp swapped", 70, 10, 70)];
        let rows: Vec<SummaryRow> = ladder.iter().chain(&level).cloned().collect();
        let n = values(&b, &rows, &[]).unwrap().into_iter().find(|r| r.letter == "n").unwrap();
        assert_eq!(n.pawns.0, 3.0);
        let notes = fit_notes(&b, &rows).unwrap();
        assert_eq!((notes[0].decided.as_slice(), notes[0].left_out), (["n:".to_string()].as_slice(), true));
        let notes = fit_notes(&b, &ladder).unwrap();
        assert_eq!((notes[0].decided.as_slice(), notes[0].left_out), (["n:".to_string()].as_slice(), false));
        let odds_only = values(&b, &ladder, &[]).unwrap().into_iter().find(|r| r.letter == "n").unwrap();
        assert!(odds_only.pawns.0 > 5.0, "{odds_only:?}");
    }

    /// With a knight valued at 3 pawns from its odds games, the next games that narrow its
    /// interval most are the knight against three pawns: near equality, and nearly free of the
    /// scale's error.
    #[test]
    fn the_next_round_plays_the_knight_against_three_pawns() {
        let b = load("design", &balance_file("chess", &["p:".into(), "pp:".into(), "n:".into()], 2, &[100], 1));
        let rows = [pawn_ladder().as_slice(), &knight_odds()].concat();
        let targets = parse_targets(&b.base, "n:0.5").unwrap();
        assert!(!targets_met(&b, &rows, &targets).unwrap());
        assert!(targets_met(&b, &rows, &parse_targets(&b.base, "n:5").unwrap()).unwrap());
        let picks = next_round(&b, &rows, &targets, 100, 2).unwrap();
        assert_eq!(picks[0], "n:ppp", "{picks:?}");
        assert!(parse_targets(&b.base, "x:1").is_err() && parse_targets(&b.base, "n:-1").is_err());
    }
}
