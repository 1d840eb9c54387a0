//! hoplite-stats: the statistics of games, one place for every formula: match statistics
//! (below), game quality (`quality`), the play-testing fit of piece values (`playtest`), the
//! matrix inverse the fits share (`linalg`) and the balance control's verdict (`control`).
//!
//! Match statistics. Sources: fishtest's `stat_util.py` and
//! `LLRcalc.py` and fastchess's `elo` and `sprt` modules (score interval from the per-game
//! variance, Elo from the logistic curve, LOS from the normal approximation, the generalized
//! SPRT of M. Van den Bergh with the normal approximation of the log-likelihood ratio).
//!
//! Normalized Elo (M. Van den Bergh, "Normalized Elo", fishtest): the score's distance from ½
//! in standard deviations of one game (`t`), times 800 / ln 10, so that it measures how easily
//! the two players are told apart rather than the score, and does not shrink as draws grow.
//! With colour-swapped pairs, a pair's mean score has variance `v` and one game's standard
//! deviation is √(2v). Its 95% error is 1.96 · 800 / ln 10 / √games (the t-value's standard
//! error is 1/√games in both models).
#![forbid(unsafe_code)]

pub mod control;
pub mod linalg;
pub mod playtest;
pub mod quality;

pub use linalg::invert;

/// 800 / ln 10: normalized Elo per unit of t-value (fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

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
        let s = self.score();
        if self.variance() == 0.0 {
            // Every game alike, where the normal interval has no width. All won or all lost:
            // Wilson's binomial interval. All drawn: the decisive games' share is at most
            // Wilson's bound for none in n, z²/(n + z²), and the score within half of it.
            let z2 = Z95 * Z95;
            if self.draws > 0 {
                let half = z2 / (n + z2) / 2.0;
                return (s - half, s + half);
            }
            let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
            let half = Z95 / (1.0 + z2 / n) * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
            return ((centre - half).max(0.0), (centre + half).min(1.0));
        }
        let half = Z95 * (self.variance() / n).sqrt();
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

    /// Normalized Elo from the games (trinomial) and its 95% error.
    pub fn nelo(&self) -> (f64, f64) {
        let p = Pentanomial([self.losses, 0, self.draws, 0, self.wins]);
        let (s, v) = p.moments();
        nelo_of(s, v, self.games())
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
    /// Normalized Elo from the pairs (pentanomial) and its 95% error.
    pub fn nelo(&self) -> (f64, f64) {
        let (s, v) = self.moments();
        nelo_of(s, 2.0 * v, 2 * self.pairs())
    }

    /// Mean and variance of a pair's score per game (pair score / 2). Empty cells count 1e-3 (fishtest's
    /// regularisation), so that a one-sided result still has a variance and the test decides.
    fn moments(&self) -> (f64, f64) {
        let counts: Vec<f64> = self.0.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).collect();
        let n: f64 = counts.iter().sum();
        let s: f64 = counts.iter().enumerate().map(|(i, &c)| c * i as f64 / 4.0).sum::<f64>() / n;
        let v: f64 = counts.iter().enumerate().map(|(i, &c)| c * (i as f64 / 4.0 - s).powi(2)).sum::<f64>() / n;
        (s, v)
    }
}

/// nElo and its 95% error from a mean score, one game's variance and the games.
fn nelo_of(score: f64, game_variance: f64, games: u64) -> (f64, f64) {
    if games == 0 || game_variance <= 0.0 {
        return (0.0, 0.0);
    }
    ((score - 0.5) / game_variance.sqrt() * NELO_PER_T, Z95 * NELO_PER_T / (games as f64).sqrt())
}

/// The Elo scale of an SPRT's bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo: the bounds are scores on the logistic curve.
    Logistic,
    /// Normalized Elo: the bounds are t-values, turned into scores with the observed
    /// variance (as fastchess's `neloToScoreWDL` and `neloToScorePenta`).
    Normalized,
}

/// A sequential probability ratio test between Elo `elo0` (H0) and `elo1` (H1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SprtState {
    #[default]
    Continue,
    AcceptH0,
    AcceptH1,
}

/// What `parse` reads (logistic bounds without a prefix, as hoplite 0.1 wrote them).
impl std::fmt::Display for Sprt {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if self.model == EloModel::Normalized {
            f.write_str("nelo:")?;
        }
        write!(f, "{},{},{},{}", self.elo0, self.elo1, self.alpha, self.beta)
    }
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta` (logistic Elo) or `nelo:elo0,elo1,alpha,beta`.
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let (model, numbers) = match s.split_once(':') {
            None => (EloModel::Logistic, s),
            Some(("elo", rest)) => (EloModel::Logistic, rest),
            Some(("nelo", rest)) => (EloModel::Normalized, rest),
            Some((m, _)) => return Err(format!("--sprt '{s}': the model is elo or nelo, not '{m}'")),
        };
        let v: Vec<f64> = numbers
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--sprt '{s}': expected four numbers elo0,elo1,alpha,beta"))?;
        match v.as_slice() {
            &[elo0, elo1, alpha, beta] if elo0 < elo1 && alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 => {
                Ok(Sprt { elo0, elo1, alpha, beta, model })
            }
            _ => Err(format!("--sprt '{s}': need elo0 < elo1 and 0 < alpha, beta < 1")),
        }
    }

    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Log-likelihood ratio from the mean and variance per unit (game or pair) and the count;
    /// `games_per_unit` turns a unit's variance into one game's. fishtest's approximations
    /// of the generalized LLR that stay sound for a handful of units (`LLR_alt` and
    /// `LLR_normalized_alt` of its LLRcalc.py): logistic, n/2 · ln(r0 / r1) with r the mean
    /// squared distance of a unit's score from s0 or s1; normalized, games/2 ·
    /// ln((1 + (t − t0)²) / (1 + (t − t1)²)) with t the observed (s − ½) / σ of a game. The
    /// form (s1 − s0)(2s − s0 − s1) / 2v, which they approach for many units, divides by a
    /// variance that one pair, or a few alike, leaves near 0 (the regularised 1e-3 counts)
    /// and so decided a match on its first pair.
    fn llr_from(&self, n: f64, mean: f64, var: f64, games_per_unit: f64) -> f64 {
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        match self.model {
            EloModel::Logistic => {
                let r = |elo: f64| var + (mean - score_of_elo(elo)).powi(2);
                n / 2.0 * (r(self.elo0) / r(self.elo1)).ln()
            }
            EloModel::Normalized => {
                let t = (mean - 0.5) / (games_per_unit * var).sqrt();
                let d = |nelo: f64| 1.0 + (t - nelo / NELO_PER_T).powi(2);
                n * games_per_unit / 2.0 * (d(self.elo0) / d(self.elo1)).ln()
            }
        }
    }

    /// LLR from game results (trinomial).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let p = Pentanomial([wdl.losses, 0, wdl.draws, 0, wdl.wins]);
        // The same regularised moments, with each game as a "pair" scoring 0, 1 or 2 halves.
        let (s, v) = p.moments();
        self.llr_from(wdl.games() as f64, s, v, 1.0)
    }

    /// LLR from colour-swapped pairs (pentanomial), as fishtest uses.
    pub fn llr_pairs(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        // fishtest's LLR_logistic: units are pairs, each scored as the mean of its two games.
        let (s, v) = p.moments();
        self.llr_from(p.pairs() as f64, s, v, 2.0)
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

    /// Ten games alike leave the score uncertain: 0 of 10 is at most 0.278 (Wilson), not 0;
    /// ten draws are 0.5 ± 0.139.
    #[test]
    fn games_all_alike_have_an_interval() {
        let (lo, hi) = Wdl { wins: 0, draws: 0, losses: 10 }.score_interval();
        assert_eq!(lo, 0.0);
        assert!((hi - Z95 * Z95 / (10.0 + Z95 * Z95)).abs() < 1e-12, "{hi}");
        let (lo, hi) = Wdl { wins: 10, draws: 0, losses: 0 }.score_interval();
        assert!((lo - 10.0 / (10.0 + Z95 * Z95)).abs() < 1e-12 && (hi - 1.0).abs() < 1e-12, "{lo} {hi}");
        let (e, err) = Wdl { wins: 0, draws: 0, losses: 10 }.elo();
        assert!(e == -2000.0 && err > 900.0, "{e} {err}");
        let (lo, hi) = Wdl { wins: 0, draws: 10, losses: 0 }.score_interval();
        let half = Z95 * Z95 / (10.0 + Z95 * Z95) / 2.0;
        assert!((lo - (0.5 - half)).abs() < 1e-12 && (hi - (0.5 + half)).abs() < 1e-12, "{lo} {hi}");
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

    /// A worked example from the formulas of fishtest's LLRcalc.py and fastchess's sprt.cpp,
    /// by hand: pairs [LL, LD, LW+DD, DW, WW] = [10, 40, 100, 60, 30] (240 pairs).
    /// Pair means 0, ¼, ½, ¾, 1: mean = (40·¼ + 100·½ + 60·¾ + 30) / 240 = 135 / 240 = 0.5625;
    /// E[x²] = (40/16 + 100/4 + 60·9/16 + 30) / 240 = 91.25 / 240 = 0.380208…, so
    /// v = 0.380208 − 0.31640625 = 0.063802…; t = 0.0625 / √(2v) = 0.0625 / 0.357218 = 0.174963;
    /// nElo = t · 347.4356 = 60.788; error = 1.96 · 347.4356 / √480 = 31.082.
    #[test]
    fn nelo_worked_example() {
        let p = Pentanomial([10, 40, 100, 60, 30]);
        let (nelo, err) = p.nelo();
        assert!((nelo - 60.788).abs() < 0.01, "{nelo}");
        assert!((err - 31.082).abs() < 0.01, "{err}");
        // Trinomial: 60 wins, 20 draws, 20 losses: s = 0.7, σ = 0.4, t = 0.5, nElo 173.72.
        let (n3, e3) = Wdl { wins: 60, draws: 20, losses: 20 }.nelo();
        assert!((n3 - 173.718).abs() < 0.01 && (e3 - 68.10).abs() < 0.01, "{n3} {e3}");
        // The SPRT in nElo: H1 (nElo 5) against H0 (0) on these pairs, t = 0.174963 observed,
        // t1 = 5 / 347.4356 = 0.014391: LLR = 480 / 2 · ln((1 + t²) / (1 + (t − t1)²)) =
        // 240 · ln(1.030612 / 1.025783) = 1.1271.
        let t = Sprt::parse("nelo:0,5,0.05,0.05").unwrap();
        assert_eq!(t.model, EloModel::Normalized);
        assert!((t.llr_pairs(&p) - 1.1271).abs() < 1e-3, "{}", t.llr_pairs(&p));
        // In logistic Elo 0 against 10: s0 = ½, s1 = 0.514387; a pair's mean squared distance
        // from them r0 = v + 0.0625² = 0.067708, r1 = v + (0.5625 − 0.514387)² = 0.066117;
        // LLR = 240 / 2 · ln(r0 / r1) = 2.8541.
        let t = Sprt::parse("0,10,0.05,0.05").unwrap();
        assert!((t.llr_pairs(&p) - 2.8541).abs() < 1e-3, "{}", t.llr_pairs(&p));
        assert!(Sprt::parse("bayes:0,5,0.05,0.05").is_err());
    }

    #[test]
    fn pentanomial_pairs() {
        let mut p = Pentanomial::default();
        p.add(1.0, 0.5);
        p.add(0.0, 0.0);
        p.add(0.5, 0.5);
        assert_eq!(p.0, [1, 0, 1, 1, 0]);
        let t = Sprt::parse("0,10,0.05,0.05").unwrap();
        // One pair decides nothing, however one-sided (its spread is the regularisation's
        // alone): the test once stopped a match there.
        for one in [Pentanomial([1, 0, 0, 0, 0]), Pentanomial([0, 0, 0, 0, 1])] {
            assert!(t.llr_pairs(&one).abs() < 0.1, "{one:?}: {}", t.llr_pairs(&one));
        }
        assert!(t.llr(&Wdl { wins: 0, draws: 0, losses: 1 }).abs() < 0.1);
        // A clean sweep has no spread, yet it decides, as soon as it tells the bounds apart:
        // five pairs between 0 and 200 Elo (r0 / r1 = 0.25 / 0.0577 a pair), not between 0
        // and 10, where a side that sweeps or is swept at even odds explains it almost as well.
        let wide = Sprt::parse("0,200,0.05,0.05").unwrap();
        assert_eq!(wide.state(wide.llr_pairs(&Pentanomial([0, 0, 0, 0, 5]))), SprtState::AcceptH1);
        assert_eq!(wide.state(wide.llr(&Wdl { wins: 10, draws: 0, losses: 0 })), SprtState::AcceptH1);
        assert_eq!(t.state(t.llr_pairs(&Pentanomial([0, 0, 0, 0, 40]))), SprtState::Continue);
        let mut strong = Pentanomial([10, 20, 100, 200, 100]);
        assert_eq!(t.state(t.llr_pairs(&strong)), SprtState::AcceptH1);
        strong.0.reverse();
        assert_eq!(t.state(t.llr_pairs(&strong)), SprtState::AcceptH0);
    }
}
