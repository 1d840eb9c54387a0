//! The sections that say how far a balance verdict can be trusted: the score against the
//! budget (a strength ladder) with its trend, the players' verdicts side by side, the armies'
//! colours swapped, and the game-quality measures (docs/quality.md).

use crate::{chart, charts, esc, figure, table_row, Result};
use hoplite_formats::{Manifest, SummaryRow};
use hoplite_stats::control::{control_holds, CONTROL_BAND, CONTROL_SCORE};
use hoplite_stats::Z95;
use std::fmt::Write as _;

/// One score with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub s: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Score {
    fn of(r: &SummaryRow) -> Score {
        Score { s: r.white_score.0, lo: r.ci95_low.0, hi: r.ci95_high.0 }
    }
    /// The standard error behind the interval.
    fn se(&self) -> f64 {
        (self.hi - self.lo) / (2.0 * Z95)
    }
    /// Whether two scores differ at 95%.
    fn differs(&self, o: &Score) -> bool {
        (self.s - o.s).abs() > Z95 * (self.se().powi(2) + o.se().powi(2)).sqrt()
    }
}

/// What a ladder says as strength grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trend {
    /// Every rung agrees with the strongest within its error.
    Stable,
    /// The strongest rung differs from a weaker one: the verdict still moves with strength.
    Moving,
    /// One rung favours White and another Black, each beyond its error.
    Crossing,
}

impl Trend {
    /// The trend of scores ordered from the weakest budget to the strongest.
    pub fn of(rungs: &[Score]) -> Trend {
        let white = rungs.iter().any(|r| r.lo > 0.5);
        let black = rungs.iter().any(|r| r.hi < 0.5);
        match rungs.last() {
            _ if white && black => Trend::Crossing,
            Some(last) if rungs.iter().any(|r| r.differs(last)) => Trend::Moving,
            _ => Trend::Stable,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Trend::Stable => "stable: every budget agrees with the strongest within the error",
            Trend::Moving => "still moving: the strongest budget differs from a weaker one",
            Trend::Crossing => "crossing 0.5: one budget favours White and another Black",
        }
    }
}

/// Items in order of first appearance.
fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in items {
        if !out.iter().any(|o| o == i) {
            out.push(i.to_string());
        }
    }
    out
}

fn cell(x: &Score) -> String {
    format!("<td>{:.3} [{:.3}, {:.3}]</td>", x.s, x.lo, x.hi)
}

/// The ladder: a plot of each configuration's (and player's) score against the budget, and
/// its trend.
pub fn ladder_section(rows: &[SummaryRow], body: &mut String) -> Result<()> {
    let budgets = distinct(rows.iter().map(|r| r.budget.as_str()));
    if budgets.len() < 2 {
        return Ok(());
    }
    let players = distinct(rows.iter().map(|r| r.player.as_str()));
    let mut series = Vec::new();
    let _ = writeln!(body, "<h2>Strength ladder</h2><table><tr><th>configuration</th>");
    for b in &budgets {
        let _ = write!(body, "<th>{}</th>", esc(b));
    }
    let _ = writeln!(body, "<th>trend</th></tr>");
    for base in distinct(rows.iter().map(|r| r.base.as_str())) {
        for player in &players {
            let scores: Vec<Score> =
                rows.iter().filter(|r| r.base == base && &r.player == player).map(Score::of).collect();
            let name = if players.len() > 1 { format!("{base} / {player}") } else { base.clone() };
            let _ = write!(body, "<tr><td>{}</td>", esc(&name));
            scores.iter().for_each(|x| body.push_str(&cell(x)));
            let _ = writeln!(body, "<td>{}</td></tr>", Trend::of(&scores).text());
            series.push((name, scores.iter().map(|x| (x.s, x.lo, x.hi)).collect()));
        }
    }
    let _ = writeln!(body, "</table>");
    figure(body, &chart(charts::ladder(&budgets, &series))?);
    Ok(())
}

/// The (player, budget) pairs at which a control of the run reads outside the known first-move
/// advantage: the verdicts made there are suspect.
pub fn control_failures(m: &Manifest, rows: &[SummaryRow]) -> Vec<(String, String)> {
    rows.iter()
        .filter(|r| m.controls.contains(&r.base) && !control_holds(r.white_score.0, r.ci95_low.0, r.ci95_high.0))
        .map(|r| (r.player.clone(), r.budget.clone()))
        .collect()
}

/// The control's reading at each budget, against White's known score in chess.
pub fn control_section(m: &Manifest, rows: &[SummaryRow], body: &mut String) {
    let controls: Vec<&SummaryRow> = rows.iter().filter(|r| m.controls.contains(&r.base)).collect();
    if controls.is_empty() {
        return;
    }
    let _ = writeln!(
        body,
        "<h2>Control</h2><p>Orthodox chess, played with the run's openings and budgets: at engine level \
         White scores about {CONTROL_SCORE} (Bayeselo's first-move advantage). A budget whose control \
         reads outside [{:.2}, {:.2}], or whose interval excludes {CONTROL_SCORE}, opens its games with a \
         bias of its own: its verdicts (marked ⚠) are suspect.</p>\
         <table><tr><th>control</th><th>White score [95% CI]</th><th>reading</th></tr>",
        CONTROL_BAND.0, CONTROL_BAND.1
    );
    for r in controls {
        let holds = control_holds(r.white_score.0, r.ci95_low.0, r.ci95_high.0);
        let _ = write!(body, "<tr><td>{}</td>", esc(&r.config));
        body.push_str(&cell(&Score::of(r)));
        let _ = writeln!(body, "<td>{}</td></tr>", if holds { "holds" } else { "outside ⚠" });
    }
    let _ = writeln!(body, "</table>");
}

/// The players' verdicts side by side, when several played.
pub fn players_section(rows: &[SummaryRow], body: &mut String) {
    let players = distinct(rows.iter().map(|r| r.player.as_str()));
    if players.len() < 2 {
        return;
    }
    let _ =
        writeln!(body, "<h2>Verdicts by player</h2><p>White's score [95% CI]:</p><table><tr><th>configuration</th>");
    for p in &players {
        let _ = write!(body, "<th>{}</th>", esc(p));
    }
    let _ = writeln!(body, "</tr>");
    for base in distinct(rows.iter().map(|r| r.base.as_str())) {
        for budget in distinct(rows.iter().filter(|r| r.base == base).map(|r| r.budget.as_str())) {
            let _ = write!(body, "<tr><td>{}</td>", esc(&format!("{base} @ {budget}")));
            for p in &players {
                match rows.iter().find(|r| r.base == base && r.budget == budget && &r.player == p) {
                    Some(r) => body.push_str(&cell(&Score::of(r))),
                    None => body.push_str("<td></td>"),
                }
            }
            let _ = writeln!(body, "</tr>");
        }
    }
    let _ = writeln!(body, "</table>");
}

/// From White's score with the armies as in the rules (`orig`) and swapped (`swapped`): the
/// first-move advantage ((orig + swapped) / 2 − ½) and the advantage of the army that moves
/// first in the rules ((orig − swapped) / 2), each with its 95% interval.
pub fn split(orig: &Score, swapped: &Score) -> (Score, Score) {
    let half = Z95 * (orig.se().powi(2) + swapped.se().powi(2)).sqrt() / 2.0;
    let at = |s: f64| Score { s, lo: s - half, hi: s + half };
    (at((orig.s + swapped.s) / 2.0 - 0.5), at((orig.s - swapped.s) / 2.0))
}

/// The first-move advantage and the army's, from each configuration played with its armies'
/// colours swapped.
pub fn army_section(m: &Manifest, rows: &[SummaryRow], body: &mut String) {
    if m.army_swaps.is_empty() {
        return;
    }
    let _ = writeln!(
        body,
        "<h2>First move and army</h2><p>Each pair plays the same rules with the armies' colours swapped. \
         The first-move advantage is the mean of White's two scores minus ½; the army's advantage is \
         half their difference: what the army that moves first in the rules scores above ½ over both \
         colours. Intervals are 95%.</p>\
         <table><tr><th>rules</th><th>budget</th><th>White as in the rules</th><th>White swapped</th>\
         <th>first-move advantage</th><th>army advantage</th><th>army − first move</th></tr>"
    );
    for (orig, swapped) in &m.army_swaps {
        for r in rows.iter().filter(|r| &r.base == orig) {
            let Some(w) = rows.iter().find(|w| &w.base == swapped && w.player == r.player && w.budget == r.budget)
            else {
                continue;
            };
            let (o, s) = (Score::of(r), Score::of(w));
            let (first, army) = split(&o, &s);
            let gap = army.s - first.s;
            let diff = Score { s: gap, lo: gap - (army.hi - army.s), hi: gap + (army.hi - army.s) };
            let budget = if r.player.is_empty() { r.budget.clone() } else { format!("{} @ {}", r.player, r.budget) };
            let _ = write!(body, "<tr><td>{}</td><td>{}</td>", esc(orig), esc(&budget));
            for x in [o, s] {
                body.push_str(&cell(&x));
            }
            for x in [first, army, diff] {
                let _ = write!(body, "<td>{:+.3} [{:+.3}, {:+.3}]</td>", x.s, x.lo, x.hi);
            }
            let _ = writeln!(body, "</tr>");
        }
    }
    let _ = writeln!(body, "</table>");
}

/// The game-quality measures of each row (docs/quality.md).
pub fn quality_section(rows: &[SummaryRow], body: &mut String) {
    let _ = writeln!(
        body,
        "<h2>Game quality</h2><p>Defined in docs/quality.md (after Browne 2008 and Ludii's metrics): \
         balance 1 − 2·|White's score − ½|; drawishness the share of draws; completion the share of \
         games a rule ended; lead changes and decisiveness (the share of a decided game played before \
         its winner stayed ahead) need the evaluations kept with <code>--evals</code>.</p>\
         <table><tr><th>configuration</th><th>mean plies</th><th>± sd</th><th>branching</th><th>balance</th>\
         <th>drawishness</th><th>completion</th><th>lead changes</th><th>decisiveness</th></tr>"
    );
    for r in rows {
        let opt = |x: Option<String>| x.unwrap_or_else(|| "–".into());
        let cells = [
            esc(&r.config),
            r.mean_plies.to_string(),
            r.length_sd.to_string(),
            r.branching.to_string(),
            r.balance.to_string(),
            r.drawishness.to_string(),
            r.completion.to_string(),
            opt(r.lead_changes.map(|x| x.to_string())),
            opt(r.decisiveness.map(|x| x.to_string())),
        ];
        table_row(body, &cells);
    }
    let _ = writeln!(body, "</table>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sc(s: f64, half: f64) -> Score {
        Score { s, lo: s - half, hi: s + half }
    }

    #[test]
    fn a_ladder_trend_is_stable_moving_or_crossing() {
        assert_eq!(Trend::of(&[sc(0.60, 0.05), sc(0.62, 0.05), sc(0.61, 0.05)]), Trend::Stable);
        // 0.62 then 0.72, each ± 0.05: the difference 0.10 exceeds 1.96·√2·0.0255 ≈ 0.071.
        assert_eq!(Trend::of(&[sc(0.62, 0.05), sc(0.72, 0.05)]), Trend::Moving);
        assert_eq!(Trend::of(&[sc(0.56, 0.05), sc(0.50, 0.05), sc(0.43, 0.05)]), Trend::Crossing);
        // On both sides of ½ but within the error: not a crossing.
        assert_eq!(Trend::of(&[sc(0.52, 0.05), sc(0.48, 0.05)]), Trend::Stable);
    }

    #[test]
    fn swapped_armies_split_into_first_move_and_army() {
        // White scores 0.62 with the Persians, 0.46 with the Spartans: moving first is worth
        // +0.04, the Persians' army +0.08; each ± 1.96·√(2·0.025²)/2 ≈ 0.0346.
        let (first, army) = split(&sc(0.62, 0.049), &sc(0.46, 0.049));
        assert!((first.s - 0.04).abs() < 1e-12 && (army.s - 0.08).abs() < 1e-12);
        assert!((first.hi - first.s - 0.049 / 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(army.hi - army.s, first.hi - first.s);
    }
}
