//! Where games start: a book position or the variant's setup, then plies played by a searching
//! player among its near-best moves (made before the games, `played`) or random plies, either
//! drawn in the game from its own generator or shared by the games that must start alike (the
//! two games of a match pair, one index across a balance run's configurations).

pub mod book;
pub mod played;

use crate::error::RunError;
use crate::RunOptions;
use book::BookEntry;
use hoplite_core::{Move, Position, Variant};
use played::{Played, Task};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::Arc;

/// Salts the seed of an index's shuffle, apart from its random plies'.
const SHUFFLE: u64 = 0x5348_5546_464c_4531;

use hoplite_core::seed::game_seed;

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
    /// Otherwise the game's own.
    pub own: Own,
}

/// A game's own opening.
#[derive(Clone, Debug)]
pub enum Own {
    /// This many random plies, from the game's generator.
    Random(u32),
    /// A line made for it (where it is not legal, none).
    Line(Arc<Vec<String>>),
}

impl Opening {
    /// The opening line in the game's variant: the shared moves if they are legal there, else
    /// the game's own.
    pub fn line(&self, start: &Position, rng: &mut ChaCha8Rng) -> Vec<Move> {
        if let Some(line) = self.moves.as_deref().and_then(|m| replay(start, m)) {
            return line;
        }
        match &self.own {
            Own::Random(plies) => random_opening(start, *plies, rng),
            Own::Line(moves) => replay(start, moves).unwrap_or_default(),
        }
    }
}

/// The last shared opening drawn, reused while the same index is asked for.
pub type SharedCache = Option<(u64, (Arc<str>, Arc<Vec<String>>))>;

/// Start positions (a book in the run's order, or the setup, shuffled or not), and plies played
/// or drawn after them.
pub struct Openings {
    book: Option<(Vec<BookEntry>, Vec<usize>)>,
    random_plies: u32,
    /// The run seed, when each index's setup is shuffled.
    shuffle: Option<u64>,
    played: Option<Played>,
    /// The played openings by index, in the run's first variant (`prepare`).
    lines: Vec<Arc<Vec<String>>>,
    /// Those of another variant (by its place in `prepare`'s list) where the first's do not
    /// replay.
    own_lines: HashMap<(usize, u64), Arc<Vec<String>>>,
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
        Ok(Openings {
            book,
            random_plies: opts.random_plies,
            shuffle: opts.shuffle.then_some(opts.seed),
            played: opts.played.clone(),
            lines: Vec::new(),
            own_lines: HashMap::new(),
        })
    }

    /// Plays the openings before the games (nothing to do for random plies): of each index
    /// `i` of `variants[0]`'s starts, distinct; in each other variant, its own where those of
    /// the first are not legal. Each variant comes with its start position of every index.
    pub fn prepare(
        &mut self,
        variants: &[(Arc<Variant>, Vec<Arc<str>>)],
        seed: u64,
        threads: usize,
        progress: played::Progress,
    ) -> Result<(), RunError> {
        let Some(p) = &self.played else { return Ok(()) };
        let (first, starts) = &variants[0];
        self.lines =
            p.distinct(first, &|i| starts[i as usize].clone(), starts.len() as u64, seed, threads, progress)?;
        let (mut tasks, mut slots) = (Vec::new(), Vec::new());
        for (k, (v, starts)) in variants.iter().enumerate().skip(1) {
            for (i, fen) in starts.iter().enumerate() {
                let pos = Position::from_fen(v, fen).expect("start positions are checked");
                if replay(&pos, &self.lines[i]).is_none() {
                    tasks.push(Task { variant: v.clone(), start: fen.clone(), index: i as u64, attempt: 0 });
                    slots.push(k);
                }
            }
        }
        let made = p.make(&tasks, seed, threads, progress)?;
        for ((t, k), line) in tasks.iter().zip(slots).zip(made) {
            self.own_lines.insert((k, t.index), Arc::new(line.unwrap_or_default()));
        }
        Ok(())
    }

    /// The start positions of indices `0..count` in `variant` (`start`).
    pub fn starts(&self, variant: &Arc<Variant>, count: u64) -> Vec<Arc<str>> {
        (0..count).map(|i| self.start(variant, i)).collect()
    }

    /// The played opening of index `index` in `prepare`'s variant `k`, if openings are played.
    pub fn own_line(&self, k: usize, index: u64) -> Option<Own> {
        self.played.as_ref()?;
        let line = self.own_lines.get(&(k, index)).or(self.lines.get(index as usize))?;
        Some(Own::Line(line.clone()))
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

    /// A game's own opening: the start of `index`, then its played opening or random plies
    /// from the game's generator.
    pub fn own(&self, variant: &Arc<Variant>, index: u64) -> Opening {
        let own = self.own_line(0, index).unwrap_or(Own::Random(self.random_plies));
        Opening { start_fen: self.start(variant, index), moves: None, own }
    }

    /// An opening shared by all games of `index`: its played opening, or random plies drawn
    /// once in `variant` from `seed` (the same index asked again in a row reuses the draw in
    /// `cache`).
    pub fn shared(&self, variant: &Arc<Variant>, index: u64, seed: u64, cache: &mut SharedCache) -> Opening {
        if let Some(Own::Line(line)) = self.own_line(0, index) {
            return Opening { start_fen: self.start(variant, index), moves: Some(line.clone()), own: Own::Line(line) };
        }
        if cache.as_ref().is_none_or(|c| c.0 != index) {
            let start_fen = self.start(variant, index);
            let start = Position::from_fen(variant, &start_fen).expect("book and setup positions are checked");
            let line = random_opening(&start, self.random_plies, &mut ChaCha8Rng::seed_from_u64(seed));
            let moves = line.iter().map(|&m| variant.move_to_uci(m)).collect();
            *cache = Some((index, (start_fen, Arc::new(moves))));
        }
        let (start_fen, moves) = cache.as_ref().expect("set above").1.clone();
        Opening { start_fen, moves: Some(moves), own: Own::Random(self.random_plies) }
    }
}
