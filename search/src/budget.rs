//! What a search may spend on a move: nodes, depth, a fixed time or a clock (`Budget`), and
//! how a clock's time becomes a move's (`Clock::plan`). A run records its players' budgets in
//! this type too, so a budget is written, read and searched as one thing.

use crate::params::SearchParams;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::time::Duration;

/// A side's clock: the time left on it, what each move adds, and the moves to the next time
/// control (if there is one). A time control such as `10+0.1` is the clock as a game starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clock {
    pub left: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// Kept off the clock for what a move costs beyond its search (answering, the pipe).
const CLOCK_RESERVE: Duration = Duration::from_millis(30);

impl Clock {
    /// `10+0.1`: seconds, plus seconds per move (fastchess and cutechess write it so).
    pub fn parse(text: &str) -> Option<Clock> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
        let (base, inc) = (secs(base)?, secs(inc)?);
        (base > 0.0).then(|| Clock {
            left: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(inc),
            moves_to_go: None,
        })
    }

    /// The time a move should take and the most it may: a share of the time left (over
    /// `time_moves` moves, or the moves to the control when fewer) plus `time_increment`
    /// percent of the increment, never more than half of what is left; at most `time_most`
    /// percent of that when the search is unsettled, never more than a third of what is left.
    pub fn plan(&self, p: &SearchParams) -> (Duration, Duration) {
        let moves = self.moves_to_go.map_or(p.time_moves, |m| (m as i32).min(p.time_moves)).max(1) as u32;
        let reserve = self.left.saturating_sub(CLOCK_RESERVE);
        let share = self.left / moves + self.increment * p.time_increment as u32 / 100;
        let target = share.min(reserve / 2).max(Duration::from_millis(1));
        let most = (target * p.time_most as u32 / 100).min(reserve / 3).max(target);
        (target, most)
    }
}

/// Writes the time left and the increment as a time control (`10+0.1`).
impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = |d: Duration| {
            let s = format!("{:.3}", d.as_secs_f64());
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        write!(f, "{}+{}", secs(self.left), secs(self.increment))
    }
}

/// A move's budget; limits combine (a search stops at the first it reaches). Under a depth or
/// node limit alone the search is deterministic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Budget {
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// The most time a move may take.
    pub movetime: Option<Duration>,
    /// The side to move's clock: the search plans the move's time from it (`Clock::plan`). In
    /// a run's budget, the clock each game starts with.
    pub clock: Option<Clock>,
}

impl Budget {
    pub fn nodes(n: u64) -> Budget {
        Budget { nodes: Some(n), ..Default::default() }
    }
    pub fn depth(d: u32) -> Budget {
        Budget { depth: Some(d), ..Default::default() }
    }
    /// This budget with the clock as it stands (or none: a game without clocks).
    pub fn with_clock(self, clock: Option<Clock>) -> Budget {
        Budget { clock, ..self }
    }
    pub fn is_empty(&self) -> bool {
        *self == Budget::default()
    }
    /// Its numbers in range: a search of no nodes or no time plays no move of its own, and one
    /// deeper than the search's stack cannot be searched (nor ends in a lifetime); the message
    /// names the first out of range.
    pub fn check(&self) -> Result<(), String> {
        let max_depth = crate::search::MAX_PLY as u32 - 1;
        if self.nodes == Some(0) {
            return Err("nodes 0 is below 1".into());
        }
        if let Some(d) = self.depth.filter(|d| !(1..=max_depth).contains(d)) {
            return Err(format!("depth {d} is outside 1..={max_depth}"));
        }
        if self.movetime.is_some_and(|t| t.is_zero()) {
            return Err("movetime 0 ms is below 1".into());
        }
        Ok(())
    }
    /// Whether it can be spent the same way on any machine (no time in it).
    pub fn is_reproducible(&self) -> bool {
        self.movetime.is_none() && self.clock.is_none()
    }
    /// `self`, or `other` where `self` says nothing.
    pub fn or(self, other: Budget) -> Budget {
        if self.is_empty() {
            other
        } else {
            self
        }
    }
    /// Parses what `Display` writes: `nodes 1000`, `depth 6, nodes 5000`, `movetime 100`,
    /// `tc 10+0.1`.
    pub fn parse(text: &str) -> Option<Budget> {
        let mut b = Budget::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once(' ')?;
            let value = value.trim();
            match key {
                "nodes" => b.nodes = Some(value.parse().ok()?),
                "depth" => b.depth = Some(value.parse().ok()?),
                "movetime" => b.movetime = Some(Duration::from_millis(value.parse().ok()?)),
                "tc" => b.clock = Some(Clock::parse(value)?),
                _ => return None,
            }
        }
        (!b.is_empty()).then_some(b)
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime {}", t.as_millis()));
        }
        if let Some(c) = self.clock {
            parts.push(format!("tc {c}"));
        }
        write!(f, "{}", parts.join(", "))
    }
}

impl Serialize for Budget {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Budget {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Budget::parse(&text).ok_or_else(|| {
            de::Error::custom(format!("'{text}' is not a budget (nodes N, depth D, movetime MS or tc BASE+INC)"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_and_clocks_round_trip() {
        for text in ["nodes 1000", "depth 6, nodes 5000", "movetime 250", "tc 10+0.1", "tc 0.5+0"] {
            let b = Budget::parse(text).unwrap();
            assert_eq!(Budget::parse(&b.to_string()), Some(b), "{text}");
        }
        assert_eq!(Budget::parse("nodes 1000, depth 6").unwrap().to_string(), "nodes 1000, depth 6");
        let c = Clock::parse("5+0.05").unwrap();
        assert_eq!((c.left, c.increment), (Duration::from_secs(5), Duration::from_millis(50)));
        assert_eq!(c.to_string(), "5+0.05");
        assert_eq!(Clock::parse("60").unwrap().to_string(), "60+0");
        for bad in ["", "nodes", "nodes x", "tc 0+1", "tc -1+0", "tc 5+x", "speed 3"] {
            assert_eq!(Budget::parse(bad).filter(|_| !bad.is_empty()), None, "{bad}");
        }
    }

    #[test]
    fn a_clock_is_shared_by_the_time_parameters() {
        let ms = Duration::from_millis;
        let p = SearchParams::default();
        let clock = Clock { left: ms(1000), increment: ms(20), moves_to_go: None };
        // A 25th of the clock and four fifths of the increment; four times that at most.
        assert_eq!(clock.plan(&p), (ms(56), ms(224)));
        // Ten moves to the control share the clock over ten.
        assert_eq!(Clock { moves_to_go: Some(10), ..clock }.plan(&p).0, ms(116));
        let mut q = p.clone();
        for (name, value) in [("time_moves", 40), ("time_increment", 100), ("time_most", 200)] {
            q.set(name, value).unwrap();
        }
        assert_eq!(clock.plan(&q), (ms(25 + 20), ms(90)));
        // Short of time: half of what is left after the reserve, and no more at most.
        assert_eq!(Clock { left: ms(90), increment: ms(100), moves_to_go: None }.plan(&p), (ms(30), ms(30)));
    }
}
