//! Piece values by play-testing (docs/values.md): a balance run whose configurations are
//! material imbalances, each played with the armies' colours swapped too, and pawn odds that
//! set the scale.

use crate::balance::Balance;
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
/// measured near equality. With two different armies, games without an imbalance measure the
/// armies' difference.
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
    for &side in &sides {
        let others: Vec<usize> =
            candidates(1 - side).into_iter().filter(|&u| !variant.pieces[u].pawn && !variant.pieces[u].royal).collect();
        for t in candidates(side).into_iter().filter(|&t| !variant.pieces[t].pawn) {
            if let Some(&u) = others.iter().rfind(|&&u| value(u) < value(t) && u != t) {
                let s = spec(side, &letter(t), &letter(u));
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    Ok(out)
}

/// A balance file for the imbalances: each as played and with the armies' colours swapped.
pub fn balance_file(variant: &str, imbalances: &[String], games: u64, nodes: &[u64], seed: u64) -> String {
    let list: Vec<String> = nodes.iter().map(|n| n.to_string()).collect();
    let mut s = format!(
        "# Piece values by play-testing (docs/values.md), as `hoplite values` wrote it; edit and\n\
         # run it again with `hoplite values THIS_FILE`.\nvariant = {variant:?}\ngames = {games}\n\
         nodes = [{}]\nrandom_plies = 8\nseed = {seed}\nmax_plies = 300\n",
        list.join(", ")
    );
    for i in imbalances {
        for (suffix, swap) in [("", false), (" swapped", true)] {
            s += &format!("\n[[configs]]\nname = \"{i}{suffix}\"\nimbalance = {i:?}\n");
            if swap {
                s += "swap_armies = true\n";
            }
        }
    }
    s
}

/// The values each (player, budget) of a run's summary gives, with `texel` values (by letter)
/// beside them.
pub fn values(b: &Balance, rows: &[SummaryRow], texel: &[(char, f64)]) -> Result<Vec<ValueRow>, String> {
    let variant = &b.configs[0].variant;
    let base = |c: &crate::balance::Config| c.imbalance.clone().unwrap_or(Imbalance { removed: [vec![], vec![]] });
    let pawn = scale_pawn(variant).ok_or("White has no pawn to set the scale")?;
    // The unknowns: every piece type some imbalance removes, then the armies' difference.
    let mut pieces: Vec<usize> = b.configs.iter().flat_map(|c| base(c).removed.concat()).collect();
    pieces.sort_unstable();
    pieces.dedup();
    if !pieces.contains(&pawn) {
        return Err(format!(
            "no pawn odds: an imbalance must remove '{}' to set the scale",
            variant.pieces[pawn].letter
        ));
    }
    let army_term = armies_differ(variant);
    let unknowns = pieces.len() + army_term as usize;
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
        let mut games = vec![0u64; pieces.len()];
        for (k, c) in b.configs.iter().enumerate().filter(|(_, c)| !c.swapped) {
            let Some(r) = row(&c.name) else { continue };
            // The rules' White army's results: as White here, as Black in the swapped games.
            let (mut wins, mut draws, mut losses) = (r.white_wins, r.draws, r.black_wins);
            if let Some(&(_, s)) = b.swaps().iter().find(|(o, _)| *o == k) {
                if let Some(w) = row(&b.configs[s].name) {
                    (wins, draws, losses) = (wins + w.black_wins, draws + w.draws, losses + w.white_wins);
                }
            }
            let i = base(c);
            let mut coef: Vec<f64> = pieces.iter().map(|&t| i.balance_of(t)).collect();
            if army_term {
                coef.push(1.0);
            }
            for (g, &x) in games.iter_mut().zip(&coef) {
                if x != 0.0 {
                    *g += wins + draws + losses;
                }
            }
            obs.push(Observation { coef, wins, draws, losses });
        }
        let f = fit(&obs, unknowns)?;
        let p = pieces.iter().position(|&t| t == pawn).expect("checked");
        for (j, &t) in pieces.iter().enumerate() {
            let v = f.in_pawns(j, p);
            let piece = &variant.pieces[t];
            out.push(ValueRow {
                player: player.clone(),
                budget: budget.clone(),
                letter: piece.letter.to_string(),
                name: piece.name.clone(),
                pawns: Decimal::rounded(v.pawns),
                ci95_low: Decimal::rounded(v.low),
                ci95_high: Decimal::rounded(v.high),
                games: games[j],
                texel: texel.iter().find(|(l, _)| *l == piece.letter).map(|&(_, x)| Decimal::rounded(x)),
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
        assert_eq!(default_imbalances(&chess).unwrap(), ["p:", "pp:", "n:", "b:", "r:", "q:", "b:n", "r:b", "q:r"]);
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
