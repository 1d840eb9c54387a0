//! What a player may spend on a move: nodes, depth, a fixed time, or a clock.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::time::Duration;

/// A chess clock: base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    pub base: Duration,
    pub increment: Duration,
}

impl Clock {
    /// `10+0.1`: seconds, plus seconds per move (fastchess and cutechess write it so).
    pub fn parse(text: &str) -> Option<Clock> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
        let (base, inc) = (secs(base)?, secs(inc)?);
        (base > 0.0).then(|| Clock { base: Duration::from_secs_f64(base), increment: Duration::from_secs_f64(inc) })
    }
}

impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = |d: Duration| {
            let s = format!("{:.3}", d.as_secs_f64());
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        write!(f, "{}+{}", secs(self.base), secs(self.increment))
    }
}

/// A per-move budget; limits combine (a search stops at the first it reaches).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Budget {
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
}

impl Budget {
    pub fn nodes(n: u64) -> Budget {
        Budget { nodes: Some(n), ..Default::default() }
    }
    pub fn depth(d: u32) -> Budget {
        Budget { depth: Some(d), ..Default::default() }
    }
    pub fn is_empty(&self) -> bool {
        *self == Budget::default()
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
        assert_eq!((c.base, c.increment), (Duration::from_secs(5), Duration::from_millis(50)));
        assert_eq!(c.to_string(), "5+0.05");
        assert_eq!(Clock::parse("60").unwrap().to_string(), "60+0");
        for bad in ["", "nodes", "nodes x", "tc 0+1", "tc -1+0", "tc 5+x", "speed 3"] {
            assert_eq!(Budget::parse(bad).filter(|_| !bad.is_empty()), None, "{bad}");
        }
    }
}
