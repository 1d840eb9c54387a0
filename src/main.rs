//! The `hoplite` command line: argument parsing only; the work is in `commands`.
#![forbid(unsafe_code)]

/// `println!` for the command's output. A reader that stops early (`hoplite ... | head`) closes
/// the pipe; that ends the command quietly, as it ends `ls` or `grep`, instead of a panic.
macro_rules! outln {
    ($($arg:tt)*) => { $crate::write_out(format_args!("{}\n", format_args!($($arg)*))) };
}
/// `print!` for the command's output, with `outln!`'s handling of a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => { $crate::write_out(format_args!($($arg)*)) };
}

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "hoplite", version, about = "Self-play and tuning harness for chess variants")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the built-in variants.
    Variants {
        /// Print the reference of every key a variant file may hold instead.
        #[arg(long)]
        keys: bool,
    },
    /// Count legal move sequences (perft), or check a perft suite.
    Perft(commands::perft::PerftArgs),
    /// The legal moves of positions (FEN lines on standard input), for scripts.
    Moves(commands::moves::MovesArgs),
    /// The static evaluation of positions (FEN lines on standard input) and its features, as CSV.
    Eval(commands::eval::EvalArgs),
    /// Self-play games of one variant in parallel: games.csv, positions.csv, summary.csv.
    Selfplay(commands::selfplay::SelfplayArgs),
    /// Training positions for a network from hoplite's self-play: positions.bin.
    Datagen(commands::datagen::DatagenArgs),
    /// Engine A against engine B in colour-swapped pairs: Elo, LOS, SPRT.
    Match(Box<commands::matchup::MatchArgs>),
    /// Rule configurations of one variant with the same seeds: each side's score and 95% CI.
    Balance(commands::balance::BalanceArgs),
    /// An opening book (EPD, PGN) of distinct random openings that a search scores as level.
    Book(commands::book::BookArgs),
    /// Piece values by play-testing: games from material imbalances, scaled by pawn odds.
    Values(commands::values::ValuesArgs),
    /// Combine the shard directories of one run.
    Merge(commands::selfplay::MergeArgs),
    /// A network (NNUE) for a variant from its own games: rounds of data, training, gauntlet.
    Train(Box<commands::train::TrainArgs>),
    /// Texel tuning: fit piece values (and other weights) to self-play positions.
    Tune(commands::tune::TuneArgs),
    /// Relabel positions.csv rows with a player's evaluation as White's expected score (for tune).
    Label(commands::label::LabelArgs),
    /// One self-contained HTML page of a selfplay, match, balance or tune output directory.
    Report {
        /// The run's output directory.
        dir: std::path::PathBuf,
        /// Where the page goes (default DIR/report.html).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Fixed search over fixed positions of every built-in variant: node signature and speed.
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = 7)]
        depth: u32,
    },
    /// Fairy-Stockfish's variants.ini (or its built-ins) as hoplite variant files.
    Import(commands::import::ImportArgs),
    /// SPSA: tune search parameters and evaluation weights by games between perturbed copies.
    Spsa(commands::spsa::SpsaArgs),
    /// The search's parameters: name, default, range and tuning step of each, or (--toml) a
    /// parameters file of the defaults to edit.
    Params {
        /// Print a parameters file (`--params`, UCI `ParamsFile`) instead of the table.
        #[arg(long)]
        toml: bool,
    },
    /// Speak the UCI protocol on stdin/stdout (`setoption name UCI_Variant value spartan`).
    Uci,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Variants { keys } => commands::variants(keys),
        Command::Perft(args) => commands::perft::run(args),
        Command::Moves(args) => commands::moves::run(args),
        Command::Eval(args) => commands::eval::run(args),
        Command::Selfplay(a) => commands::selfplay::run_selfplay(a),
        Command::Datagen(a) => commands::datagen::run(a),
        Command::Match(a) => commands::matchup::run(*a),
        Command::Balance(a) => commands::balance::run(a),
        Command::Book(a) => commands::book::run(a),
        Command::Values(a) => commands::values::run(a),
        Command::Merge(a) => commands::selfplay::run_merge(a),
        Command::Train(a) => commands::train::run(*a),
        Command::Tune(a) => commands::tune::run(a),
        Command::Label(a) => commands::label::run(a),
        Command::Report { dir, out } => commands::report(&dir, out),
        Command::Bench { depth } => commands::bench(depth),
        Command::Import(a) => commands::import::run(a),
        Command::Params { toml } => commands::params(toml),
        Command::Spsa(a) => commands::spsa::run(a),
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

/// Writes to stdout; a closed pipe ends the process with success, any other failure with an error.
fn write_out(args: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}
