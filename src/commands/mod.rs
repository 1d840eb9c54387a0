//! One module per subcommand.

pub mod perft;

use hoplite_core::variant::{builtin_names, Variant};
use std::process::ExitCode;
use std::sync::Arc;

/// What a command returns: an exit code, or an error message for stderr.
pub type CmdResult = Result<ExitCode, String>;

pub fn load_variant(name: &str) -> Result<Arc<Variant>, String> {
    Variant::load(name).map_err(|e| e.to_string())
}

pub fn variants() -> CmdResult {
    for name in builtin_names() {
        let v = Variant::builtin(name);
        let g = v.geometry;
        println!(
            "{:<18} {:>2}x{:<2}  {}",
            name, g.files, g.ranks, v.description
        );
    }
    Ok(ExitCode::SUCCESS)
}
