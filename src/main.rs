//! The `hoplite` command line: argument parsing only; the work is in `commands`.

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "hoplite",
    version,
    about = "Self-play and tuning harness for chess variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the built-in variants.
    Variants,
    /// Count legal move sequences (perft), or check a perft suite.
    Perft(commands::perft::PerftArgs),
    /// Fixed search over fixed positions of every built-in variant: node signature and speed.
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = 7)]
        depth: u32,
    },
    /// Speak the UCI protocol on stdin/stdout (`setoption name UCI_Variant value spartan`).
    Uci,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Variants => commands::variants(),
        Command::Perft(args) => commands::perft::run(args),
        Command::Bench { depth } => commands::bench(depth),
        Command::Uci => {
            hoplite_search::uci::run(std::io::stdin().lock(), Box::new(std::io::stdout()));
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
