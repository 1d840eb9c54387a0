//! Where games start: a book position or the variant's setup, then random plies, either drawn
//! in the game from its own generator or shared by the games that must start alike (the two
//! games of a match pair, one index across a balance run's configurations).

use crate::book::{self, BookEntry};
use crate::error::RunError;
use crate::RunOptions;
use hoplite_core::zobrist::{mix64, GOLDEN};
use hoplite_core::{Move, Position, Variant};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Salts the seed of an index's shuffle, apart from its random plies'.
const SHUFFLE: u64 = 0x5348_5546_464c_4531;

/// The seed of one game (or pair, or index): the run seed and the id mixed.
pub fn game_seed(run_seed: u64, id: u64) -> u64 {
    mix64(run_seed ^ id.wrapping_mul(GOLDEN))
}

/// Plays `plies` random legal moves; an opening that ends the game is drawn again (the same
/// generator continues, so this stays deterministic). Returns the moves.
pub fn random_opening(start: &Position, plies: u32, rng: &mut ChaCha8Rng) -> Vec<Move> {
    let mut moves = Vec::new();
    for _attempt in 0..1000 {
        let mut pos = start.clone();
        let mut line = Vec::new();
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves(&mut moves);
            let m = moves[rng.gen_range(0..moves.len())];
            pos.make(m);
            line.push(m);
        }
        if pos.outcome().is_none() {
            return line;
        }
    }
    Vec::new()
}

/// Replays UCI moves; `None` if one is illegal here or the line ends the game.
pub fn replay(start: &Position, uci: &[String]) -> Option<Vec<Move>> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    for u in uci {
        let m = pos.parse_uci(u).ok()?;
        pos.make(m);
        line.push(m);
    }
    pos.outcome().is_none().then_some(line)
}

/// How one game opens.
#[derive(Clone, Debug)]
pub struct Opening {
    pub start_fen: Arc<str>,
    /// Moves shared with other games, used where they are legal in this game's variant.
    pub moves: Option<Arc<Vec<String>>>,
    /// Otherwise this many random plies, from the game's generator.
    pub random_plies: u32,
}

impl Opening {
    /// The opening line in the game's variant: the shared moves if they are legal there, else
    /// random plies drawn from `rng`.
    pub fn line(&self, start: &Position, rng: &mut ChaCha8Rng) -> Vec<Move> {
        match self.moves.as_deref().and_then(|m| replay(start, m)) {
            Some(line) => line,
            None => random_opening(start, self.random_plies, rng),
        }
    }
}

/// The last shared opening drawn, reused while the same index is asked for.
pub type SharedCache = Option<(u64, (Arc<str>, Arc<Vec<String>>))>;

/// Start positions (a book in the run's order, or the setup, shuffled or not) and random plies.
pub struct Openings {
    book: Option<(Vec<BookEntry>, Vec<usize>)>,
    random_plies: u32,
    /// The run seed, when each index's setup is shuffled.
    shuffle: Option<u64>,
}

impl Openings {
    pub fn new(variant: &Arc<Variant>, opts: &RunOptions) -> Result<Openings, RunError> {
        let book = match &opts.book {
            Some(p) => {
                let entries = book::read_book(variant, p)?;
                let order = book::book_order(entries.len(), opts.seed, opts.book_order);
                Some((entries, order))
            }
            None => None,
        };
        if opts.shuffle && book.is_some() {
            return Err(RunError::Usage("--shuffle shuffles the setup; it cannot be used with a --book".into()));
        }
        Ok(Openings { book, random_plies: opts.random_plies, shuffle: opts.shuffle.then_some(opts.seed) })
    }

    /// The book's positions, with their lines (to check them against other rules).
    pub fn book(&self) -> &[BookEntry] {
        self.book.as_ref().map_or(&[], |b| &b.0)
    }

    /// The book position (in file order) of opening `index`.
    pub fn book_index(&self, index: u64) -> usize {
        self.book.as_ref().map_or(0, |(entries, order)| order[(index % entries.len() as u64) as usize])
    }

    /// The start position of opening `index`: a book position, or the setup, shuffled by the
    /// index alone (every configuration of a balance run, and both games of a pair, alike).
    pub fn start(&self, variant: &Arc<Variant>, index: u64) -> Arc<str> {
        match (&self.book, self.shuffle) {
            (Some((entries, _)), _) => entries[self.book_index(index)].fen.as_str().into(),
            (None, Some(seed)) => {
                // A shuffle that leaves a side in check (a leaper facing a king) is drawn again.
                let mut rng = ChaCha8Rng::seed_from_u64(game_seed(seed ^ SHUFFLE, index));
                let playable = (0..100).find_map(|_| {
                    let fen = variant.shuffle_back_ranks(&variant.setup, &mut |files| files.shuffle(&mut rng)).ok()?;
                    Position::from_fen(variant, &fen).is_ok().then_some(fen)
                });
                playable.unwrap_or_else(|| variant.setup.clone()).into()
            }
            (None, None) => variant.setup.as_str().into(),
        }
    }

    /// A game's own opening: the start of `index`, random plies from the game's generator.
    pub fn own(&self, variant: &Arc<Variant>, index: u64) -> Opening {
        Opening { start_fen: self.start(variant, index), moves: None, random_plies: self.random_plies }
    }

    /// An opening shared by all games of `index`: drawn once in `variant` from `seed` (the
    /// same index asked again in a row reuses the draw in `cache`).
    pub fn shared(&self, variant: &Arc<Variant>, index: u64, seed: u64, cache: &mut SharedCache) -> Opening {
        if cache.as_ref().is_none_or(|c| c.0 != index) {
            let start_fen = self.start(variant, index);
            let start = Position::from_fen(variant, &start_fen).expect("book and setup positions are checked");
            let line = random_opening(&start, self.random_plies, &mut ChaCha8Rng::seed_from_u64(seed));
            let moves = line.iter().map(|&m| variant.move_to_uci(m)).collect();
            *cache = Some((index, (start_fen, Arc::new(moves))));
        }
        let (start_fen, moves) = cache.as_ref().expect("set above").1.clone();
        Opening { start_fen, moves: Some(moves), random_plies: self.random_plies }
    }
}
