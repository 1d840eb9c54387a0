//! One module per subcommand.

pub mod balance;
pub mod book;
pub mod datagen;
pub mod eval;
pub mod import;
pub mod label;
pub mod matchup;
pub mod moves;
pub mod perft;
pub mod progress;
pub mod run_args;
pub mod selfplay;
pub mod spsa;
pub mod train;
pub mod tune;
pub mod values;

use hoplite_core::{builtin_names, fsf_builtin_names, Variant};
use std::process::ExitCode;
use std::sync::Arc;

/// The variant of perft, moves and eval when none is given (the library's default, which
/// the run commands' requests resolve themselves).
pub const DEFAULT_VARIANT: &str = hoplite_selfplay::defaults::VARIANT;

/// What a command returns: an exit code, or the error to print on stderr.
pub type CmdResult = Result<ExitCode, Box<dyn std::error::Error>>;

pub fn load_variant(name: &str) -> Result<Arc<Variant>, hoplite_core::VariantError> {
    Variant::load(name)
}

/// The variant file reference (docs/variant-file.md), for `hoplite variants --keys`.
const KEYS: &str = include_str!("../../docs/variant-file.md");

pub fn variants(keys: bool) -> CmdResult {
    if keys {
        out!("{KEYS}");
        return Ok(ExitCode::SUCCESS);
    }
    for name in builtin_names() {
        let v = Variant::builtin(name);
        let g = v.geometry;
        outln!("{:<18} {:>2}x{:<2}  {}", name, g.files, g.ranks, v.description);
    }
    outln!("\nFairy-Stockfish's, by its names (configs/variants/fsf/, imported by `hoplite import --builtins`):");
    for name in fsf_builtin_names() {
        let g = Variant::builtin(name).geometry;
        outln!("{:<18} {:>2}x{:<2}", name, g.files, g.ranks);
    }
    Ok(ExitCode::SUCCESS)
}

pub fn bench(depth: u32) -> CmdResult {
    let (lines, elapsed) = hoplite_search::bench::run(depth);
    let total: u64 = lines.iter().map(|l| l.nodes).sum();
    for l in &lines {
        outln!("{:<18} {:>10} nodes  bestmove {:<7} {}", l.variant, l.nodes, l.best, l.fen);
    }
    let secs = elapsed.as_secs_f64();
    eprintln!("time {:.3} s", secs);
    outln!("Total nodes: {total}");
    outln!("Nodes/second: {:.0}", total as f64 / secs.max(1e-9));
    Ok(ExitCode::SUCCESS)
}

pub fn report(dir: &std::path::Path, out: Option<std::path::PathBuf>) -> CmdResult {
    let html = hoplite_report::render(dir)?;
    let out = out.unwrap_or_else(|| dir.join("report.html"));
    std::fs::write(&out, html).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    eprintln!("wrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}

pub fn params(toml: bool) -> CmdResult {
    use hoplite_search::{SearchParams, PARAMS};
    if toml {
        out!("{}", SearchParams::default().to_toml());
        return Ok(ExitCode::SUCCESS);
    }
    outln!("{:<20} {:>7} {:>7} {:>7} {:>5}  meaning", "name", "default", "min", "max", "step");
    for p in PARAMS {
        outln!("{:<20} {:>7} {:>7} {:>7} {:>5}  {}", p.name, p.default, p.min, p.max, p.step, p.help);
    }
    Ok(ExitCode::SUCCESS)
}
