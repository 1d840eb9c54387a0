//! What every command uses where neither its command line nor its file says: the one place the
//! library's defaults are written. A request resolves the command line, then the file, then
//! these.

/// The variant of every command that takes one, when none is given: the game whose balance
/// the project began with.
pub const VARIANT: &str = "spartan";
/// Who plays when no one is named: hoplite's engine.
pub const PLAYER: &str = "hoplite";
/// A player's nodes per move when no budget is given (the same on any machine).
pub const NODES: u64 = 1000;
/// The transposition table of hoplite's engine in a run's games, MiB.
pub const TT_MB: usize = 1;
/// The transposition table of a player that scores positions (books, labels), MiB.
pub const SCORING_HASH_MB: usize = 16;

/// Games of a selfplay or match run (per configuration in a balance run).
pub const GAMES: u64 = 100;
/// A run's seed.
pub const SEED: u64 = 1;
/// Moves after the opening before a game is drawn.
pub const MAX_PLIES: u32 = 400;
/// Random plies after each start position, with no book (random openings).
pub const RANDOM_PLIES: u32 = 8;
/// Random plies after a book position (random openings).
pub const RANDOM_PLIES_AFTER_BOOK: u32 = 0;

/// Played openings: plies, margin (cp below the best), the player's nodes a ply and the moves
/// it ranks, where neither the settings nor the variant file's `[openings]` say.
pub const OPENING_PLIES: u32 = 8;
pub const OPENING_MARGIN: i32 = 40;
pub const OPENING_NODES: u64 = 4000;
pub const OPENING_LINES: usize = 8;

/// Piece values: games an imbalance is played in the first round (both colours), the moves
/// before a game is drawn, and for `--until` the games an imbalance is given in a later
/// round, the imbalances a round plays and the games in all before the rounds stop.
pub const VALUES_GAMES: u64 = 200;
pub const VALUES_MAX_PLIES: u32 = 300;
pub const VALUES_BATCH: u64 = 100;
pub const VALUES_PICKS: usize = 4;
pub const VALUES_MAX_GAMES: u64 = 20_000;

/// Books: distinct positions wanted, a filtered book's plies and level (± cp), and the
/// candidate openings it may try per position wanted.
pub const BOOK_POSITIONS: usize = 500;
pub const BOOK_FILTERED_PLIES: u32 = 8;
pub const BOOK_WITHIN: i32 = 60;
pub const BOOK_TRIES_PER_POSITION: u64 = 100;

/// Training data for a network: a hoplite's nodes per move (a small search, as first nets
/// are made from).
pub const DATAGEN_NODES: u64 = 1000;
/// A datagen run's played openings: plies and nodes a ply (docs/networks.md).
pub const DATAGEN_OPENING_PLIES: u32 = 12;
pub const DATAGEN_OPENING_NODES: u64 = 1000;

/// Labels: the share of a label that is the player's win probability.
pub const LABEL_BLEND: f64 = 1.0;

/// SPSA: games in all, pairs played from one point, the learning rate at the end (fishtest's
/// R_end) and the random plies that open each pair.
pub const SPSA_GAMES: u64 = 2000;
pub const SPSA_BATCH: u64 = 16;
pub const SPSA_R_END: f64 = 0.002;
pub const SPSA_OPENING_PLIES: u32 = 8;

/// Worker threads when none are given: all cores.
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The name of a variant argument for default output directories: `configs/x.toml` is `x`.
pub fn stem(variant: &str) -> &str {
    variant.trim_end_matches(".toml").rsplit('/').next().unwrap_or("run")
}

/// `hoplite train`: rounds of data and training, self-play games a round, and the gauntlet of
/// each round's network against the linear evaluation (games, nodes a move).
pub const TRAIN_ROUNDS: usize = 1;
pub const TRAIN_GAMES: u64 = 20_000;
pub const GAUNTLET_GAMES: u64 = 200;
pub const GAUNTLET_NODES: u64 = 1000;

/// The ranges of a run's numbers, by name (`within`): games
/// (each game's opening is prepared in memory before play: ten million of them fit in a few
/// GB), threads, a search's table in MiB (one a thread), random and played opening plies (an
/// opening as long as the longest game could never be finished).
pub const LIMITS: [(&str, u64, u64); 5] = [
    ("games", 1, 10_000_000),
    ("threads", 1, 1024),
    ("tt_mb", 1, 4096),
    ("random_plies", 0, 200),
    ("opening_plies", 0, 200),
];

/// This machine's memory in MiB, where the system says (Linux's /proc/meminfo).
pub fn memory_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 =
        text.lines().find_map(|l| l.strip_prefix("MemTotal:"))?.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib / 1024)
}

/// `flag`'s `value` within the range `LIMITS` declares for `name`, or the message saying not.
pub fn within(flag: &str, name: &str, value: u64) -> Result<(), String> {
    let &(_, min, max) = LIMITS.iter().find(|l| l.0 == name).expect("a declared limit");
    match (min..=max).contains(&value) {
        true => Ok(()),
        false => Err(format!("{flag} {value} is outside {min}..={max}")),
    }
}
