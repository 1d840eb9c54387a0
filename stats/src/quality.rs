//! Measures of a game beyond its result, from its record (docs/quality.md gives the sources:
//! Browne's criteria for evaluating games and Ludii's metrics).

/// How far ahead a side must be (centipawns) to count as leading.
pub const LEAD: i32 = 50;

/// How often the lead passes from one side to the other in a game whose evaluations (White's
/// view, a ply each) are `evals`. A side leads once it is `LEAD` ahead and keeps the lead until
/// the other side is `LEAD` ahead: small swings around level do not count.
pub fn lead_changes(evals: &[i32]) -> u32 {
    let mut leader = 0;
    let mut changes = 0;
    for &e in evals {
        let now = if e > LEAD {
            1
        } else if e < -LEAD {
            -1
        } else {
            leader
        };
        if leader != 0 && now != leader {
            changes += 1;
        }
        leader = now;
    }
    changes
}

/// The share of a decided game played before its winner stayed ahead for good: the first ply
/// from which every evaluation favours the winner, over the number of plies. 1 when the winner
/// was not ahead at the end.
pub fn decided_at(evals: &[i32], white_won: bool) -> f64 {
    if evals.is_empty() {
        return 1.0;
    }
    let ahead = |e: i32| if white_won { e > 0 } else { e < 0 };
    let from = evals.iter().rposition(|&e| !ahead(e)).map_or(0, |i| i + 1);
    from as f64 / evals.len() as f64
}

/// Evaluations as games.csv writes them: space-separated centipawns.
pub fn evals_text(evals: &[i32]) -> String {
    evals.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(" ")
}

/// Reads games.csv's evaluations back; `None` if a word is not a number.
pub fn parse_evals(text: &str) -> Option<Vec<i32>> {
    text.split_whitespace().map(|w| w.parse().ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leads_change_only_past_the_threshold() {
        // White ahead, a swing to level and back (no change), Black ahead (one), White again (two).
        assert_eq!(lead_changes(&[0, 80, 120, 30, -40, 90, 200, -60, -300, 100]), 2);
        assert_eq!(lead_changes(&[0, 10, -20, 40, -49]), 0, "never past ±50");
        assert_eq!(lead_changes(&[]), 0);
    }

    #[test]
    fn a_game_is_decided_when_its_winner_stays_ahead() {
        // Ten plies; from the seventh (index 6) on White stays ahead: decided at 6/10.
        let evals = [0, 30, -20, 50, 10, -5, 40, 90, 300, 900];
        assert_eq!(decided_at(&evals, true), 0.6);
        // Black won the same game in a swindle: never ahead at the end, decided at the end.
        assert_eq!(decided_at(&evals, false), 1.0);
        // Ahead all the way: decided from the start.
        assert_eq!(decided_at(&[-10, -50, -90], false), 0.0);
        assert_eq!(parse_evals(&evals_text(&evals)).unwrap(), evals);
        assert_eq!(parse_evals("1 x 3"), None);
    }
}
