//! When a search stops: the budget's nodes and time, and on a clock the plan of the move's time.

use super::Search;
use std::sync::atomic::Ordering;

impl Search {
    /// Whether to start no new iteration: half the time per move is gone, or, on a clock,
    /// the target (a settled best move stops sooner, an unsettled one goes on longer).
    pub(super) fn enough_time_spent(&self, stable: u32) -> bool {
        let elapsed = self.start.elapsed();
        if let Some(target) = self.target {
            let percent = match stable {
                0 => self.params.time_unsettled,
                1..=2 => 100,
                _ => self.params.time_settled,
            };
            let scale = f64::from(percent) / 100.0;
            return elapsed.as_secs_f64() > target.as_secs_f64() * scale;
        }
        self.deadline.is_some_and(|t| elapsed * 2 > t)
    }

    /// The move's target and deadline from its budget and the clock.
    pub(super) fn plan_time(&mut self) {
        let plan = self.budget.clock.map(|c| c.plan(&self.params));
        self.target = plan.map(|p| p.0);
        self.deadline = [self.budget.movetime, plan.map(|p| p.1)].into_iter().flatten().min();
    }

    #[inline]
    pub(super) fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let out_of_nodes = self.nodes_bind && self.budget.nodes.is_some_and(|n| self.nodes >= n);
        let out_of_time = self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|t| self.start.elapsed() >= t));
        self.aborted = out_of_nodes || out_of_time;
        self.aborted
    }
}
