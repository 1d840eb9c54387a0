//! `hoplite match`: engine A against engine B in colour-swapped pairs.

use super::progress::Display;
use super::run_args::{finish, parse_clock, BudgetArgs, RunArgs};
use super::CmdResult;
use clap::Args;
use hoplite_search::{Clock, EvalKind};
use hoplite_selfplay::request::matchup::{MatchRequest, SideRequest};
use hoplite_selfplay::stats::{Sprt, SprtState};
use hoplite_selfplay::EngineFiles;
use std::path::PathBuf;
use std::process::ExitCode;

/// The flags of one side of `hoplite match`, `--a-*` or `--b-*`: one definition for both.
macro_rules! side_args {
    ($name:ident, $side:literal, $who:literal) => {
        #[derive(Args)]
        pub struct $name {
            #[arg(id = $side, long = $side, help = concat!("Player ", $who, ": hoplite, random, or an engine of engines.toml [default: hoplite]"))]
            player: Option<String>,
            #[arg(id = concat!($side, "-nodes"), long = concat!($side, "-nodes"), help = concat!("Player ", $who, "'s nodes per move"))]
            nodes: Option<u64>,
            #[arg(id = concat!($side, "-depth"), long = concat!($side, "-depth"), help = concat!("Player ", $who, "'s depth per move"))]
            depth: Option<u32>,
            #[arg(id = concat!($side, "-movetime"), long = concat!($side, "-movetime"), help = concat!("Player ", $who, "'s milliseconds per move"))]
            movetime: Option<u64>,
            #[arg(id = concat!($side, "-tc"), long = concat!($side, "-tc"), value_parser = parse_clock, help = concat!("Player ", $who, "'s clock, BASE+INC seconds"))]
            tc: Option<Clock>,
            #[arg(id = concat!($side, "-weights"), long = concat!($side, "-weights"), help = concat!("Player ", $who, "'s weights file (hoplite's engine)"))]
            weights: Option<PathBuf>,
            #[arg(id = concat!($side, "-params"), long = concat!($side, "-params"), help = concat!("Player ", $who, "'s search parameters file (hoplite's engine)"))]
            params: Option<PathBuf>,
            #[arg(id = concat!($side, "-network"), long = concat!($side, "-network"), help = concat!("Player ", $who, "'s network file (hoplite's engine), instead of weights"))]
            network: Option<PathBuf>,
            #[arg(id = concat!($side, "-eval"), long = concat!($side, "-eval"), help = concat!("Player ", $who, "'s evaluation without a file (hoplite's engine): linear, or network (the variant's shipped one; the default where it has one)"))]
            eval: Option<EvalKind>,
            #[arg(id = concat!($side, "-random"), long = concat!($side, "-random"), help = concat!("Player ", $who, " plays uniformly random legal moves (the same as --", $side, " random)"))]
            random: bool,
            #[arg(id = concat!($side, "-name"), long = concat!($side, "-name"), help = concat!("Player ", $who, "'s name in games.csv (default: the player's; ", $who, " when both are the same)"))]
            name: Option<String>,
        }

        impl $name {
            fn side(self) -> SideRequest {
                SideRequest {
                    player: self.player,
                    random: self.random,
                    name: self.name,
                    nodes: self.nodes,
                    depth: self.depth,
                    movetime: self.movetime,
                    tc: self.tc,
                    files: EngineFiles { weights: self.weights, params: self.params, network: self.network, eval: self.eval },
                }
            }
        }
    };
}
side_args!(SideA, "a", "A");
side_args!(SideB, "b", "B");

#[derive(Args)]
pub struct MatchArgs {
    /// Built-in variant name or variant file (.toml) [default: spartan].
    #[arg(long)]
    variant: Option<String>,
    #[command(flatten)]
    a: SideA,
    #[command(flatten)]
    b: SideB,
    /// Both players' budget per move (a side's own flags win).
    #[command(flatten)]
    budget: BudgetArgs,
    /// Stop early by SPRT: elo0,elo1,alpha,beta in logistic Elo (e.g. 0,10,0.05,0.05), or
    /// nelo:elo0,elo1,alpha,beta in normalized Elo.
    #[arg(long, value_parser = |s: &str| Sprt::parse(s))]
    sprt: Option<Sprt>,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(a: MatchArgs) -> CmdResult {
    let request = MatchRequest {
        variant: a.variant,
        a: a.a.side(),
        b: a.b.side(),
        budget: a.budget.lists(),
        sprt: a.sprt,
        run: a.run.request(),
    };
    if let Some(n) = request.run.games.filter(|n| n % 2 == 1) {
        eprintln!("--games {n}: a match plays colour-swapped pairs, so {} games", n + 1);
    }
    let mut progress = Display::new("match");
    let done = request.run(|p| progress.update(p))?;
    let r = &done.report;
    let (elo, err) = r.wdl.elo();
    // A side that won every game has no finite Elo estimate.
    let elo_text = if r.wdl.wins == r.wdl.games() || r.wdl.losses == r.wdl.games() {
        "Elo unbounded (one side won every game)".to_string()
    } else {
        format!("Elo {elo:+.1} ± {err:.1}, nElo {:+.1} ± {:.1}", r.nelo.0, r.nelo.1)
    };
    outln!(
        "{} vs {}: {} games, +{} ={} -{}, score {:.3}, {elo_text}, LOS {:.1}%, draws {:.1}%",
        r.a,
        r.b,
        r.wdl.games(),
        r.wdl.wins,
        r.wdl.draws,
        r.wdl.losses,
        r.wdl.score(),
        100.0 * r.wdl.los(),
        100.0 * r.wdl.draw_rate()
    );
    outln!("pentanomial (pairs scoring 0, ½, 1, 1½, 2 for {}): {:?}", r.a, r.penta.0);
    if let (Some(llr), Some(state)) = (r.llr, r.sprt) {
        let verdict = match state {
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::Continue => "undecided",
        };
        outln!("SPRT: LLR {llr:.2}, {verdict}");
    }
    finish(&done.out, &r.run, &progress);
    Ok(ExitCode::SUCCESS)
}
