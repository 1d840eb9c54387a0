//! Match statistics, one place for every formula. Sources: fishtest's `stat_util.py` and
//! fastchess's `elo` module (score interval from the per-game variance, Elo from the logistic
//! curve, LOS from the normal approximation, the generalized SPRT of M. Van den Bergh with the
//! normal approximation of the log-likelihood ratio).

/// 1.96: the two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Win/draw/loss counts from one side's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    /// Counts one game by its score for this side: 1 a win, 0 a loss, else a draw.
    pub fn add(&mut self, score: f64) {
        if score == 1.0 {
            self.wins += 1;
        } else if score == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (1 win, ½ draw).
    pub fn score(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Variance of one game's score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2) + self.draws as f64 * (0.5 - s).powi(2) + self.losses as f64 * s.powi(2))
            / n
    }

    /// The score's 95% confidence interval (normal approximation), clamped to [0, 1].
    pub fn score_interval(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let half = Z95 * (self.variance() / n).sqrt();
        let s = self.score();
        ((s - half).max(0.0), (s + half).min(1.0))
    }

    pub fn draw_rate(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }

    /// Elo difference and its 95% error (half the width of the interval mapped through
    /// the logistic curve).
    pub fn elo(&self) -> (f64, f64) {
        let (lo, hi) = self.score_interval();
        let e = elo_of_score(self.score());
        let err = (elo_of_score(hi) - elo_of_score(lo)) / 2.0;
        (e, err)
    }

    /// Likelihood of superiority: P(true score > ½) from wins and losses.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Elo difference for a score, capped at ±2000 for scores of 0 or 1.
pub fn elo_of_score(s: f64) -> f64 {
    let s = s.clamp(1e-9, 1.0 - 1e-9);
    // + 0.0 turns -0.0 (an even score) into 0.0.
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-2000.0, 2000.0) + 0.0
}

/// Expected score for an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// Colour-swapped pairs: counts of pair scores 0, ½, 1, 1½, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair from the first engine's two game scores (each 0, 0.5 or 1).
    pub fn add(&mut self, a: f64, b: f64) {
        self.0[((a + b) * 2.0).round() as usize] += 1;
    }
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
    /// Mean and variance of a pair's score per game (pair score / 2).
    /// Mean and variance of a pair's score. Empty cells count 1e-3 (fishtest's
    /// regularisation), so that a one-sided result still has a variance and the test decides.
    fn moments(&self) -> (f64, f64) {
        let counts: Vec<f64> = self.0.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).collect();
        let n: f64 = counts.iter().sum();
        let s: f64 = counts.iter().enumerate().map(|(i, &c)| c * i as f64 / 4.0).sum::<f64>() / n;
        let v: f64 = counts.iter().enumerate().map(|(i, &c)| c * (i as f64 / 4.0 - s).powi(2)).sum::<f64>() / n;
        (s, v)
    }
}

/// A sequential probability ratio test between Elo `elo0` (H0) and `elo1` (H1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SprtState {
    #[default]
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let v: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--sprt '{s}': expected four numbers elo0,elo1,alpha,beta"))?;
        match v.as_slice() {
            &[elo0, elo1, alpha, beta] if elo0 < elo1 && alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 => {
                Ok(Sprt { elo0, elo1, alpha, beta })
            }
            _ => Err(format!("--sprt '{s}': need elo0 < elo1 and 0 < alpha, beta < 1")),
        }
    }

    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Log-likelihood ratio from the mean and variance per unit (game or pair) and the count.
    fn llr_from(&self, n: f64, mean: f64, var: f64) -> f64 {
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// LLR from game results (trinomial).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let p = Pentanomial([wdl.losses, 0, wdl.draws, 0, wdl.wins]);
        // The same regularised moments, with each game as a "pair" scoring 0, 1 or 2 halves.
        let (s, v) = p.moments();
        self.llr_from(wdl.games() as f64, s, v)
    }

    /// LLR from colour-swapped pairs (pentanomial), as fishtest uses.
    pub fn llr_pairs(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        // fishtest's LLR_logistic: units are pairs, each scored as the mean of its two games.
        let (s, v) = p.moments();
        self.llr_from(p.pairs() as f64, s, v)
    }

    pub fn state(&self, llr: f64) -> SprtState {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::AcceptH1
        } else if llr <= lo {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_interval_and_elo() {
        let w = Wdl { wins: 60, draws: 20, losses: 20 };
        assert!((w.score() - 0.7).abs() < 1e-12);
        // variance = (60·0.09 + 20·0.04 + 20·0.49) / 100 = 0.16
        assert!((w.variance() - 0.16).abs() < 1e-12);
        let (lo, hi) = w.score_interval();
        assert!((hi - lo - 2.0 * Z95 * 0.04).abs() < 1e-9);
        let (e, _) = w.elo();
        assert!((e - 147.19).abs() < 0.01, "{e}");
        assert!((score_of_elo(e) - 0.7).abs() < 1e-9);
    }

    #[test]
    fn los_and_erf() {
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 2e-7);
        let even = Wdl { wins: 5, draws: 3, losses: 5 };
        assert!((even.los() - 0.5).abs() < 1e-6);
        // 60 wins, 40 losses: Φ(20 / √100) = Φ(2) ≈ 0.97725
        let los = Wdl { wins: 60, draws: 0, losses: 40 }.los();
        assert!((los - 0.97725).abs() < 1e-4, "{los}");
    }

    #[test]
    fn sprt_accepts_and_rejects() {
        let t = Sprt::parse("0,10,0.05,0.05").unwrap();
        let (lo, hi) = t.bounds();
        assert!((hi - 2.944).abs() < 1e-3 && (lo + 2.944).abs() < 1e-3);
        let strong = Wdl { wins: 700, draws: 200, losses: 400 };
        assert_eq!(t.state(t.llr(&strong)), SprtState::AcceptH1);
        let weak = Wdl { wins: 400, draws: 200, losses: 700 };
        assert_eq!(t.state(t.llr(&weak)), SprtState::AcceptH0);
        assert!(Sprt::parse("5,0,0.05,0.05").is_err());
        assert!(Sprt::parse("a,b").is_err());
    }

    #[test]
    fn pentanomial_pairs() {
        let mut p = Pentanomial::default();
        p.add(1.0, 0.5);
        p.add(0.0, 0.0);
        p.add(0.5, 0.5);
        assert_eq!(p.0, [1, 0, 1, 1, 0]);
        let t = Sprt::parse("0,10,0.05,0.05").unwrap();
        // A clean sweep has no spread, yet it decides.
        assert_eq!(t.state(t.llr_pairs(&Pentanomial([0, 0, 0, 0, 40]))), SprtState::AcceptH1);
        assert_eq!(t.state(t.llr(&Wdl { wins: 80, draws: 0, losses: 0 })), SprtState::AcceptH1);
        let mut strong = Pentanomial([10, 20, 100, 200, 100]);
        assert_eq!(t.state(t.llr_pairs(&strong)), SprtState::AcceptH1);
        strong.0.reverse();
        assert_eq!(t.state(t.llr_pairs(&strong)), SprtState::AcceptH0);
    }
}
