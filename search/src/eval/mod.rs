//! The evaluation's front door: the search asks `Evaluator` for a position's score and for
//! the pieces' exchange values, whatever evaluation it holds, and tells it of every move it
//! makes and takes back (`push`, `pop`), so that an evaluation kept move by move stays in step.
//! Behind it, the linear evaluation (`linear`: terms, weights and their files, the walk), which
//! the tuner fits, and the network (`network`: NNUE, its accumulators and files).

mod cache;
pub mod linear;
pub mod network;

pub(crate) use cache::EvalCache;

use hoplite_core::{Bits, Move, PieceType, Position, Variant};
use linear::{Term, Weights};
use network::{Accumulators, Network, NetworkError};
use std::path::Path;
use std::sync::Arc;

/// Which evaluation to play with, when no file is given: `Network` is the variant's shipped
/// network (data/networks/), `Linear` its weights. Without a choice, the network where one is
/// shipped for the variant's pieces (`Evaluator::for_variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalKind {
    Linear,
    Network,
}

impl std::str::FromStr for EvalKind {
    type Err = String;
    fn from_str(s: &str) -> Result<EvalKind, String> {
        match s {
            "linear" => Ok(EvalKind::Linear),
            "network" => Ok(EvalKind::Network),
            _ => Err(format!("unknown evaluation '{s}': linear or network")),
        }
    }
}

impl std::fmt::Display for EvalKind {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            EvalKind::Linear => "linear",
            EvalKind::Network => "network",
        })
    }
}

/// The network shipped for the built-in `v` is or extends, if it was made for `v`'s board and
/// pieces (a variant that changes a piece has none): its name, as data/networks/ has it
/// (`NAME.nnue`), its bytes and their hash (`network::bytes_hash`, as run.toml records it).
pub fn shipped_network(v: &Variant) -> Option<(&'static str, Network, u64)> {
    let name = hoplite_core::builtin(v.builtin.as_deref()?)?.name;
    let bytes = hoplite_core::shipped_network(name)?;
    let label = format!("data/networks/{name}.nnue");
    let net = Network::from_bytes(bytes, &label, &network::Layout::of(v), &v.name).ok()?;
    Some((name, net, network::bytes_hash(bytes)))
}

/// What a search evaluates positions with.
#[derive(Clone, Debug, PartialEq)]
pub enum Evaluator {
    /// A weighted sum of features (`linear::Weights`).
    Linear(Weights),
    /// A network, and the pieces' exchange values, which come from the variant.
    Network(Arc<Network>, Vec<i32>),
}

/// What an evaluation keeps during a search, move by move: a network's accumulators.
#[derive(Clone, Debug)]
pub struct EvalState(Option<Accumulators>);

impl Evaluator {
    /// The network of file `path` for variant `v`, its exchange values the variant's piece
    /// values (the file's, or those derived from the pieces' moves).
    pub fn load_network(v: &Variant, path: &Path) -> Result<Evaluator, NetworkError> {
        let net = Network::load(path, &network::Layout::of(v), &v.name)?;
        Ok(Evaluator::with_network(v, net))
    }

    /// The evaluation `v` is played with unless told otherwise: its shipped network where one
    /// is made for its pieces (`shipped_network`), else its weights (`Weights::for_variant`).
    pub fn for_variant(v: &Variant) -> Evaluator {
        match shipped_network(v) {
            Some((_, net, _)) => Evaluator::with_network(v, net),
            None => Weights::for_variant(v).into(),
        }
    }

    /// The evaluation of `kind` for `v` (`None`: `for_variant`'s choice); `Network` is refused
    /// for a variant no network is shipped for.
    pub fn of_kind(v: &Variant, kind: Option<EvalKind>) -> Result<Evaluator, NetworkError> {
        match kind {
            None => Ok(Evaluator::for_variant(v)),
            Some(EvalKind::Linear) => Ok(Weights::for_variant(v).into()),
            Some(EvalKind::Network) => match shipped_network(v) {
                Some((_, net, _)) => Ok(Evaluator::with_network(v, net)),
                None => Err(NetworkError::NoneShipped { variant: v.name.clone() }),
            },
        }
    }

    /// `net` as the evaluator of `v`.
    pub fn with_network(v: &Variant, net: Network) -> Evaluator {
        Evaluator::Network(Arc::new(net), material(&Weights::defaults(v)))
    }

    /// `pos`'s static evaluation in centipawns from the side to move's view, kept below the
    /// mate scores, with `state` made for `pos` (by `start`, `push` and `pop`).
    #[inline]
    pub fn evaluate<B: Bits>(&self, state: &EvalState, pos: &Position<B>) -> i32 {
        match (self, &state.0) {
            (Evaluator::Linear(w), _) => linear::evaluate(pos, w),
            (Evaluator::Network(net, _), Some(acc)) => acc.evaluate(net, pos.side_to_move()),
            (Evaluator::Network(net, _), None) => net.evaluate(pos),
        }
    }

    /// A state for searches with this evaluator.
    pub fn state(&self) -> EvalState {
        EvalState(match self {
            Evaluator::Linear(_) => None,
            Evaluator::Network(net, _) => Some(Accumulators::new(net)),
        })
    }

    /// `state` made for `pos`, a search's root.
    pub fn start<B: Bits>(&self, state: &mut EvalState, pos: &Position<B>) {
        if let (Evaluator::Network(net, _), Some(acc)) = (self, &mut state.0) {
            acc.refresh(net, pos);
        }
    }

    /// `state` follows `m`, about to be made in `pos`.
    #[inline]
    pub fn push<B: Bits>(&self, state: &mut EvalState, pos: &Position<B>, m: Move) {
        if let (Evaluator::Network(net, _), Some(acc)) = (self, &mut state.0) {
            acc.push(net, &pos.changes(m));
        }
    }

    /// `state` takes back the last move `push` followed.
    #[inline]
    pub fn pop(&self, state: &mut EvalState) {
        if let Some(acc) = &mut state.0 {
            acc.pop();
        }
    }

    /// Each piece type's value in exchanges (static exchange evaluation, delta pruning), at
    /// least 1 centipawn.
    pub fn exchange_values(&self) -> Vec<i32> {
        match self {
            Evaluator::Linear(w) => material(w),
            Evaluator::Network(_, values) => values.clone(),
        }
    }

    /// The linear evaluation's weights, when it is the linear one.
    pub fn weights(&self) -> Option<&Weights> {
        match self {
            Evaluator::Linear(w) => Some(w),
            Evaluator::Network(..) => None,
        }
    }
}

/// Each piece type's material weight, at least 1 centipawn: its value in exchanges.
fn material(w: &Weights) -> Vec<i32> {
    PieceType::first(w.types).map(|t| w.get(Term::Material, t).max(1)).collect()
}

impl From<Weights> for Evaluator {
    fn from(w: Weights) -> Evaluator {
        Evaluator::Linear(w)
    }
}
