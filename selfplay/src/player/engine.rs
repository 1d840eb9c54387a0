//! hoplite's own engine as a player: one search per player, its tables cleared between games.

use super::{Clocks, EngineFiles, Player, Reply, Turn};
use crate::error::PlayerError;
use hoplite_core::{Colour, Variant};
use hoplite_search::{Budget, Clock, Evaluator, Search, SearchParams, Weights};
use std::sync::Arc;

pub struct EnginePlayer {
    budget: Budget,
    files: EngineFiles,
    /// Weights and parameters given as values (SPSA's perturbed copies), instead of files.
    given: Option<(Weights, SearchParams)>,
    hash_mb: usize,
    /// The search and the variant its weights were made for.
    search: Option<(Arc<Variant>, Search)>,
}

impl EnginePlayer {
    pub fn new(budget: Budget, files: EngineFiles, hash_mb: usize) -> EnginePlayer {
        EnginePlayer { budget, files, given: None, hash_mb, search: None }
    }

    /// An engine with these weights (made for the variant it will play) and parameters.
    pub fn with(budget: Budget, weights: Weights, params: SearchParams, hash_mb: usize) -> EnginePlayer {
        EnginePlayer { budget, files: EngineFiles::default(), given: Some((weights, params)), hash_mb, search: None }
    }
}

/// The budget of `side`'s move: the player's, and on a clock the time the clock allows as it
/// stands (the search keeps its own reserve; the harness's grace, `CLOCK_MARGIN`, is for a
/// pipe's delay, which an engine in the process has not).
fn turn_budget(budget: &Budget, clock: Option<&Clocks>, side: Colour) -> Budget {
    budget.with_clock(clock.map(|c| Clock { left: c.remaining[side], increment: c.increment[side], moves_to_go: None }))
}

impl Player for EnginePlayer {
    fn new_game(&mut self, variant: &Arc<Variant>) -> Result<(), PlayerError> {
        match &mut self.search {
            Some((v, search)) if Arc::ptr_eq(v, variant) => search.clear(),
            _ => {
                let setup = |e: &dyn std::fmt::Display| PlayerError::Setup(e.to_string());
                if let Some((weights, params)) = &self.given {
                    let mut search = Search::new(weights.clone(), self.hash_mb);
                    search.set_params(params.clone());
                    self.search = Some((variant.clone(), search));
                    return Ok(());
                }
                let evaluator = match (&self.files.network, &self.files.weights) {
                    (Some(n), _) => Evaluator::load_network(variant, n).map_err(|e| setup(&e))?,
                    (None, Some(p)) => Weights::load(variant, p).map_err(|e| setup(&e))?.into(),
                    (None, None) => Evaluator::of_kind(variant, self.files.eval).map_err(|e| setup(&e))?,
                };
                let mut search = Search::new(evaluator, self.hash_mb);
                if let Some(p) = &self.files.params {
                    search.set_params(SearchParams::load(p).map_err(|e| setup(&e))?);
                }
                self.search = Some((variant.clone(), search));
            }
        }
        Ok(())
    }

    fn play(&mut self, turn: Turn) -> Result<Reply, PlayerError> {
        let (_, search) = self.search.as_mut().expect("new_game comes first");
        let mut pos = turn.position.clone();
        let budget = turn_budget(&self.budget, turn.clock.as_ref(), pos.side_to_move());
        let r = search.search(&mut pos, budget);
        Ok(Reply { mv: r.best.ok_or(PlayerError::NoMove)?, score: Some(r.score), nodes: r.nodes })
    }

    fn scored_moves(&mut self, turn: Turn, lines: usize) -> Result<Vec<(hoplite_core::Move, i32)>, PlayerError> {
        let (_, search) = self.search.as_mut().expect("new_game comes first");
        let mut pos = turn.position.clone();
        let r = search.search_lines(&mut pos, self.budget.with_clock(None), lines);
        Ok(r.lines.iter().map(|l| (l.mv, l.score)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_move_on_a_clock_plans_with_the_whole_clock() {
        let ms = Duration::from_millis;
        let clock = Clocks { remaining: [ms(1000), ms(500)], increment: [ms(20), ms(20)] };
        let params = hoplite_search::SearchParams::default();
        let plan = |side| turn_budget(&Budget::default(), Some(&clock), side).clock.map(|c| c.plan(&params).0);
        // A 25th of the clock and four fifths of the increment, nothing taken off first.
        assert_eq!(plan(Colour::White), Some(ms(40) + ms(16)));
        assert_eq!(plan(Colour::Black), Some(ms(20) + ms(16)));
        assert_eq!(turn_budget(&Budget::default(), None, Colour::White).clock, None);
    }
}
