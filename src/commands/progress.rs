//! Progress of a run on stderr: a bar on a terminal, a plain line every few seconds otherwise.

use hoplite_selfplay::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

pub struct Display {
    label: String,
    bar: Option<ProgressBar>,
    start: Instant,
    last_line: Instant,
}

impl Display {
    pub fn new(label: &str) -> Display {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new(0);
            b.set_style(
                ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games, ETA {eta} {msg}")
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            b.set_prefix(label.to_string());
            b
        });
        Display { label: label.to_string(), bar, start: Instant::now(), last_line: Instant::now() }
    }

    /// Shows where the run stands; `wdl` from the reported side's view (White, or player A).
    pub fn update(&mut self, p: &Progress) {
        // Openings played, of as many as the games: an opening that ends where another does
        // is played again, so `made` may pass `wanted`.
        if let Some((made, wanted)) = p.openings {
            if let Some(b) = &self.bar {
                b.set_length(wanted.max(made) as u64);
                b.set_position(made as u64);
                b.set_message(format!("openings played for {wanted} games"));
            } else if self.last_line.elapsed() >= Duration::from_secs(5) {
                self.last_line = Instant::now();
                eprintln!("{}: {made} openings played for {wanted} games", self.label);
            }
            // The games' rate counts from their start.
            self.start = Instant::now();
            return;
        }
        let rate = (p.done - p.already) as f64 / self.start.elapsed().as_secs_f64().max(1e-9);
        let (lo, hi) = p.wdl.score_interval();
        let w = &p.wdl;
        let msg = format!(
            "{rate:.1} games/s, W/D/L {}/{}/{}  score {:.3} ± {:.3}",
            w.wins,
            w.draws,
            w.losses,
            w.score(),
            (hi - lo) / 2.0
        );
        if let Some(b) = &self.bar {
            b.set_length(p.total);
            b.set_position(p.done);
            b.set_message(msg);
        } else if self.last_line.elapsed() >= Duration::from_secs(5) || p.done == p.total {
            self.last_line = Instant::now();
            eprintln!("{}: {}/{} games, {msg}", self.label, p.done, p.total);
        }
    }

    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish();
        }
    }
}
