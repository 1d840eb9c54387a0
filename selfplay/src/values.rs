//! Piece values by play-testing (docs/values.md): a balance run whose configurations are
//! material imbalances, each played with the armies' colours swapped too, and pawn odds that
//! set the scale.

use crate::balance::{Balance, BalanceFile, ConfigEntry, OneOrMore};
use crate::imbalance::Imbalance;
use hoplite_core::{Variant, BLACK, WHITE};
use hoplite_formats::{Decimal, SummaryRow, ValueRow};
use hoplite_tuner::playtest::{fit, Observation};

/// The pieces a side's setup has (by type, in type order).
fn army(variant: &Variant, side: usize) -> Vec<usize> {
    let mut t: Vec<usize> = variant.start.pieces.iter().filter(|p| p.1 == side).map(|p| p.2).collect();
    t.sort_unstable();
    t.dedup();
    t
}

/// The pawn that sets the scale: White's first pawn type.
fn scale_pawn(variant: &Variant) -> Option<usize> {
    army(variant, WHITE).into_iter().find(|&t| variant.pieces[t].pawn)
}

/// Whether the two armies are made of different pieces (Spartan chess).
fn armies_differ(variant: &Variant) -> bool {
    army(variant, WHITE) != army(variant, BLACK)
}

/// The imbalances played by default: one and two pawns' odds (the scale); each piece's
/// odds given by its army (pieces of both armies once, from White; a royal piece only where a
/// side has two, and the other army's pawn where it differs); and each piece against the other
/// army's next cheaper piece (by the variant's values), so that a strong piece is also
/// measured near equality; a pair of colour-bound pieces given whole, alone and against two of
/// that cheaper piece, which tells the pair's worth from its pieces'. With two different
/// armies, games without an imbalance measure the armies' difference.
pub fn default_imbalances(variant: &Variant) -> Result<Vec<String>, String> {
    let pawn = scale_pawn(variant).ok_or("White has no pawn to set the scale")?;
    let letter = |t: usize| variant.pieces[t].letter.to_string();
    let value = |t: usize| variant.pieces[t].value.unwrap_or(0);
    let royals = |side: usize| variant.start.pieces.iter().filter(|p| p.1 == side && variant.pieces[p.2].royal).count();
    let candidates = |side: usize| -> Vec<usize> {
        let mut v: Vec<usize> = army(variant, side)
            .into_iter()
            .filter(|&t| {
                let p = &variant.pieces[t];
                (!p.pawn || (side == BLACK && t != pawn)) && (!p.royal || royals(side) > 1)
            })
            .collect();
        v.sort_by_key(|&t| value(t));
        v
    };
    let sides: Vec<usize> = if armies_differ(variant) { vec![WHITE, BLACK] } else { vec![WHITE] };
    let spec = |side: usize, mine: &str, theirs: &str| match side {
        WHITE => format!("{mine}:{theirs}"),
        _ => format!("{theirs}:{mine}"),
    };
    let mut out = vec![format!("{}:", letter(pawn)), format!("{}{}:", letter(pawn), letter(pawn))];
    if armies_differ(variant) {
        out.push(":".into());
    }
    for &side in &sides {
        for t in candidates(side) {
            out.push(spec(side, &letter(t), ""));
        }
    }
    let pieces = |side: usize| -> Vec<usize> {
        candidates(side).into_iter().filter(|&t| !variant.pieces[t].pawn && !variant.pieces[t].royal).collect()
    };
    let cheaper = |side: usize, t: usize| pieces(1 - side).into_iter().rfind(|&u| value(u) < value(t) && u != t);
    let mut add = |s: String| {
        if !out.contains(&s) {
            out.push(s);
        }
    };
    for &side in &sides {
        for t in candidates(side).into_iter().filter(|&t| !variant.pieces[t].pawn) {
            if let Some(u) = cheaper(side, t) {
                add(spec(side, &letter(t), &letter(u)));
            }
        }
    }
    // A colour-bound pair (the bishops): both given, and both against two of the cheaper piece.
    let two = |side: usize, t: usize| variant.start_counts[side][t] >= 2;
    for &side in &sides {
        for t in pieces(side).into_iter().filter(|&t| variant.pieces[t].colour_bound() && two(side, t)) {
            add(spec(side, &letter(t).repeat(2), ""));
            if let Some(u) = cheaper(side, t).filter(|&u| two(1 - side, u)) {
                add(spec(side, &letter(t).repeat(2), &letter(u).repeat(2)));
            }
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
        random_plies: Some(8),
        seed: Some(seed),
        max_plies: Some(300),
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
    Piece(usize),
    Pair(usize),
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
    let mut pieces: Vec<usize> = imbalances.iter().flat_map(|i| i.removed.concat()).collect();
    pieces.sort_unstable();
    pieces.dedup();
    let separable = |t: usize| {
        let cols: Vec<(f64, f64)> = imbalances.iter().map(|i| (i.balance_of(t), i.pair_of(variant, t))).collect();
        cols.iter().any(|a| cols.iter().any(|b| (a.0 * b.1 - a.1 * b.0).abs() > 1e-9))
    };
    let pairs: Vec<Unknown> = pieces
        .iter()
        .filter(|&&t| variant.pieces[t].colour_bound() && separable(t))
        .map(|&t| Unknown::Pair(t))
        .collect();
    let mut out: Vec<Unknown> = pieces.into_iter().map(Unknown::Piece).collect();
    out.extend(pairs);
    if armies_differ(variant) {
        out.push(Unknown::Army);
    }
    out
}

/// The values each (player, budget) of a run's summary gives, with `texel` values (by letter)
/// beside them.
pub fn values(b: &Balance, rows: &[SummaryRow], texel: &[(char, f64)]) -> Result<Vec<ValueRow>, String> {
    let variant = &b.base;
    let base = |c: &crate::balance::Config| c.imbalance.clone().unwrap_or(Imbalance { removed: [vec![], vec![]] });
    let pawn = scale_pawn(variant).ok_or("White has no pawn to set the scale")?;
    let all: Vec<Imbalance> = b.configs.iter().map(base).collect();
    let unknowns = unknowns(variant, &all);
    let Some(p) = unknowns.iter().position(|&u| u == Unknown::Piece(pawn)) else {
        return Err(format!(
            "no pawn odds: an imbalance must remove '{}' to set the scale",
            variant.pieces[pawn].letter
        ));
    };
    let mut keys: Vec<(String, String)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.player.clone(), r.budget.clone())) {
            keys.push((r.player.clone(), r.budget.clone()));
        }
    }
    let mut out = Vec::new();
    for (player, budget) in keys {
        let row = |name: &str| rows.iter().find(|r| r.base == name && r.player == player && r.budget == budget);
        let mut obs = Vec::new();
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
            obs.push(Observation { coef, wins, draws, losses });
        }
        let f = fit(&obs, unknowns.len())?;
        for (j, &u) in unknowns.iter().enumerate() {
            let (letter, name, texel) = match u {
                Unknown::Piece(t) => {
                    let piece = &variant.pieces[t];
                    let texel = texel.iter().find(|(l, _)| *l == piece.letter).map(|&(_, x)| Decimal::rounded(x));
                    (piece.letter.to_string(), piece.name.clone(), texel)
                }
                Unknown::Pair(t) => {
                    let piece = &variant.pieces[t];
                    (format!("{0}{0}", piece.letter), format!("{} pair", piece.name), None)
                }
                Unknown::Army => continue,
            };
            let v = f.in_pawns(j, p);
            out.push(ValueRow {
                player: player.clone(),
                budget: budget.clone(),
                letter,
                name,
                pawns: Decimal::rounded(v.pawns),
                ci95_low: Decimal::rounded(v.low),
                ci95_high: Decimal::rounded(v.high),
                games: games[j],
                texel,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(name: &str, text: &str) -> Balance {
        let path = std::env::temp_dir().join(format!("hoplite-values-{name}-{}.toml", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let b = crate::balance::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_file(&path);
        b
    }

    #[test]
    fn the_default_imbalances_of_chess_and_spartan() {
        let chess = Variant::builtin("chess");
        assert_eq!(
            default_imbalances(&chess).unwrap(),
            ["p:", "pp:", "n:", "b:", "r:", "q:", "b:n", "r:b", "q:r", "bb:", "bb:nn"]
        );
        let spartan = Variant::builtin("spartan");
        let s = default_imbalances(&spartan).unwrap();
        // The scale, the armies' difference, each army's pieces (a Spartan king: there are two).
        assert_eq!(s[..3], ["p:", "pp:", ":"]);
        for p in [":h", ":k", ":g", ":w", "q:"] {
            assert!(s.contains(&p.to_string()), "{p} in {s:?}");
        }
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
        for name in hoplite_core::variant::builtin_names() {
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

    /// The playtest worked example through the run's rows: each imbalance's games split
    /// between the two colours; the knight comes out at 3 pawns.
    #[test]
    fn values_from_the_rows_of_a_run() {
        let b = load("rows", &balance_file("chess", &["p:".into(), "pp:".into(), "n:".into()], 2, &[100], 1));
        // White's army without a pawn: 99 wins, 1 draw, 199 losses over both colours.
        let rows = [
            row("p:", 50, 1, 99),
            row("p: swapped", 100, 0, 49),
            row("pp:", 30, 1, 119),
            row("pp: swapped", 120, 0, 29),
            row("n:", 20, 1, 159),
            row("n: swapped", 160, 0, 19),
        ];
        let v = values(&b, &rows, &[('n', 2.83)]).unwrap();
        let n = v.iter().find(|r| r.letter == "n").unwrap();
        assert_eq!((n.pawns.0, n.games, n.texel.map(|t| t.0)), (3.0, 359, Some(2.83)));
        assert!(n.ci95_low.0 < 3.0 && n.ci95_high.0 > 3.0);
        let p = v.iter().find(|r| r.letter == "p").unwrap();
        assert_eq!((p.pawns.0, p.games), (1.0, 598));
    }
}
