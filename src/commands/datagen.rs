//! `hoplite datagen`: training positions for a network from hoplite's self-play.

use super::progress::Display;
use super::run_args::{finish, EngineArgs, RunArgs};
use super::CmdResult;
use clap::Args;
use hoplite_selfplay::request::datagen::DatagenRequest;
use std::process::ExitCode;

#[derive(Args)]
pub struct DatagenArgs {
    /// Built-in variant name or variant file (.toml) [default: spartan].
    #[arg(long)]
    variant: Option<String>,
    /// hoplite's nodes per move [default: 1000].
    #[arg(long)]
    nodes: Option<u64>,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(a: DatagenArgs) -> CmdResult {
    let request = DatagenRequest { variant: a.variant, nodes: a.nodes, files: a.engine.files(), run: a.run.request() };
    let mut display = Display::new(request.variant());
    let done = request.run(|p| display.update(p))?;
    let r = &done.report;
    outln!(
        "{} positions written from {} games, {:.0} positions/s",
        r.positions,
        r.played,
        r.positions as f64 / r.seconds.max(1e-9)
    );
    outln!(
        "{}: {} positions, {} bytes ({:.1} a position)",
        done.out.join(hoplite_formats::PACKED).display(),
        done.positions,
        done.bytes,
        done.bytes.saturating_sub(hoplite_formats::packed::HEADER_LEN as u64) as f64 / done.positions.max(1) as f64
    );
    finish(&done.out, r, &display);
    Ok(ExitCode::SUCCESS)
}
