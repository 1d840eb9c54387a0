//! `hoplite import`: Fairy-Stockfish's variants.ini (or its built-in variants) as hoplite
//! variant files, one per section the rule kit can express; the others are listed with every
//! reason they are refused.

use super::CmdResult;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ImportArgs {
    /// Fairy-Stockfish variants.ini file.
    #[arg(required_unless_present = "builtins", conflicts_with = "builtins")]
    file: Option<PathBuf>,
    /// Convert FSF's built-in variants instead of a file.
    #[arg(long)]
    builtins: bool,
    /// Directory for the NAME.toml files (created if missing).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(a: ImportArgs) -> CmdResult {
    let import = match &a.file {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
            let label =
                path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
            hoplite_import::import(&label, &text)?
        }
        None => hoplite_import::import_builtins(),
    };
    std::fs::create_dir_all(&a.out).map_err(|e| format!("{}: cannot create: {e}", a.out.display()))?;
    for s in &import.sections {
        match &s.outcome {
            Ok(toml) => {
                let path = a.out.join(format!("{}.toml", s.name));
                std::fs::write(&path, toml).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
            }
            Err(reasons) => {
                let text: Vec<&str> = reasons.iter().map(|r| r.message.as_str()).collect();
                outln!("refused [{}]: {}", s.name, text.join("; "));
            }
        }
    }
    outln!("{}", import.summary());
    Ok(ExitCode::SUCCESS)
}
