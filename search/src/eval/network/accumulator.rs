//! The accumulators of a search: both perspectives' hidden layers before their activation,
//! one pair per ply, each made from its parent's by the move's changes (a few columns added
//! and taken away) instead of from the whole board.

use super::Network;
use hoplite_core::{Bits, Changes, Colour, Position};

/// A stack of accumulator pairs (White's view, Black's view), one per ply searched.
#[derive(Clone, Debug)]
pub struct Accumulators {
    hidden: usize,
    /// Ply `p`'s pair: `stack[2·p·hidden ..]`, White's view first.
    stack: Vec<i16>,
    top: usize,
}

impl Accumulators {
    pub fn new(net: &Network) -> Accumulators {
        Accumulators { hidden: net.hidden, stack: vec![0; 2 * net.hidden], top: 0 }
    }

    /// The pair of `pos` from the board, as the only one on the stack.
    pub fn refresh<B: Bits>(&mut self, net: &Network, pos: &Position<B>) {
        self.top = 0;
        for side in Colour::BOTH {
            let acc = net.refresh(&net.layout.active(pos, side));
            self.view_mut(0, side).copy_from_slice(&acc);
        }
    }

    /// A new pair on top: the top one changed by a move's `changes`.
    #[inline]
    pub fn push(&mut self, net: &Network, changes: &Changes) {
        let h = self.hidden;
        let from = 2 * h * self.top;
        self.top += 1;
        if self.stack.len() < from + 4 * h {
            self.stack.resize(from + 4 * h, 0);
        }
        self.stack.copy_within(from..from + 2 * h, from + 2 * h);
        let layout = &net.layout;
        for side in Colour::BOTH {
            let acc = self.view_mut(self.top, side);
            for &(colour, ty, sq) in changes.removed.as_slice() {
                net.sub(acc, layout.index(side, colour, ty, sq));
            }
            for &(colour, ty, sq) in changes.added.as_slice() {
                net.add(acc, layout.index(side, colour, ty, sq));
            }
            if let Some(h) = changes.hand {
                match (layout.hand_index(side, h.colour, h.ty, h.nth), h.added) {
                    (Some(i), true) => net.add(acc, i),
                    (Some(i), false) => net.sub(acc, i),
                    (None, _) => {}
                }
            }
        }
    }

    /// Back to the parent's pair.
    #[inline]
    pub fn pop(&mut self) {
        self.top -= 1;
    }

    /// The evaluation of the top pair with `side` to move.
    #[inline]
    pub fn evaluate(&self, net: &Network, side: Colour) -> i32 {
        net.output(self.view(self.top, side), self.view(self.top, !side))
    }

    /// The top pair's accumulator of `side`'s view.
    pub fn top(&self, side: Colour) -> &[i16] {
        self.view(self.top, side)
    }

    fn view(&self, ply: usize, side: Colour) -> &[i16] {
        let at = (2 * ply + side.index()) * self.hidden;
        &self.stack[at..at + self.hidden]
    }

    fn view_mut(&mut self, ply: usize, side: Colour) -> &mut [i16] {
        let at = (2 * ply + side.index()) * self.hidden;
        &mut self.stack[at..at + self.hidden]
    }
}
