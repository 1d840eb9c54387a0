//! Training a network (NNUE) on the CPU from packed positions: a `FloatNetwork` for a
//! variant's `Layout`, saved quantised (`network.nnue`) with its loss curve (`loss.csv`) and,
//! after every epoch, a checkpoint to resume from (`checkpoint.bin`).
//!
//! Each position is seen from the side to move (the network's "us"); its target is
//! `λ·σ(score/400) + (1 − λ)·result`, turned to the side to move's view, and the loss the mean
//! squared error of σ(output) against it (output in units of `SCALE` = 400 cp, so σ reads
//! both alike). The first layer is sparse (`gradient`): a position reads and updates only its
//! ~32 active inputs' columns. AdamW with a cosine schedule (`adam`) steps on mini-batches.
//!
//! Deterministic: a batch is cut into chunks of `CHUNK` positions whatever the threads, each
//! chunk's gradient summed in position order and the chunks' in chunk order; each epoch's
//! shuffle is drawn from the seed and the epoch. The same positions, settings and seed give
//! the same bytes on any number of threads, and a resumed training the bytes of one never
//! stopped.

pub mod adam;
mod checkpoint;
pub mod gradient;
pub mod rounds;
pub mod samples;

use crate::error::TuneError;
use adam::AdamW;
use checkpoint::Checkpoint;
use gradient::Scratch;
use hoplite_core::seed::game_seed;
use hoplite_formats::packed::PackedPosition;
use hoplite_search::eval::network::{FloatNetwork, Layout, Network};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The trained network's file in the output directory.
pub const NETWORK: &str = "network.nnue";
/// The loss curve's file.
pub use hoplite_formats::CURVE;
/// The checkpoint's file.
pub const CHECKPOINT: &str = "checkpoint.bin";
/// Positions per parallel chunk of a batch: fixed, so that sums do not depend on the threads;
/// 16 chunks to a default batch keep two to eight threads busy.
const CHUNK: usize = 1024;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Hidden units per perspective. 128 by default: training costs in proportion to the
    /// width, and at 128 two cores pass over a few million positions in seconds (see
    /// docs/networks.md); the engine's accumulator updates halve too.
    pub hidden: usize,
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// The starting learning rate (the schedule ends at a hundredth of it).
    pub lr: f32,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// The weight of the search's score in the target, the game's result having `1 − λ`.
    /// 1 by default: on 2 million chess positions (23,000 games) a network learned from 0.75
    /// lost by 312 Elo to the linear evaluation and one from 1.0 by 64 (docs/networks.md): a
    /// game's one result, shared by its ~90 positions, is learned by heart and the network
    /// fits noise.
    pub lambda: f32,
    /// The fraction of positions held out to measure the validation loss (0 for none).
    pub validation: f64,
    pub seed: u64,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 128,
            epochs: 20,
            batch: 4096,
            lr: 0.001,
            weight_decay: 0.01,
            lambda: 1.0,
            validation: 0.05,
            seed: 1,
            threads: 0,
        }
    }
}

impl TrainConfig {
    /// The settings in their ranges: at least one of each count, and no more hidden units
    /// than a network file and memory hold comfortably (4,096: 2,904 × 4,096 first-layer
    /// weights for The Sultan's Game, with AdamW's two moments each), no batch beyond 2²⁰.
    pub(crate) fn check(&self) -> Result<(), TuneError> {
        let bad = |what: String| Err(TuneError::TrainSetting(what));
        if !(1..=4096).contains(&self.hidden) || self.epochs == 0 || !(1..=1 << 20).contains(&self.batch) {
            return bad(format!(
                "hidden units ({}) must be in 1..=4096, epochs ({}) at least 1 and the batch ({}) in 1..=1048576",
                self.hidden, self.epochs, self.batch
            ));
        }
        let finite = self.lr.is_finite() && self.weight_decay.is_finite();
        if !(finite && self.lr > 0.0 && self.weight_decay >= 0.0) {
            return bad(format!(
                "the learning rate ({}) must be > 0 and the weight decay ({}) ≥ 0",
                self.lr, self.weight_decay
            ));
        }
        if !(0.0..=1.0).contains(&self.lambda) || !(0.0..1.0).contains(&self.validation) {
            return bad(format!(
                "λ ({}) must be in [0, 1] and the validation fraction ({}) in [0, 1)",
                self.lambda, self.validation
            ));
        }
        Ok(())
    }

    /// What a checkpoint must have been made with to be resumed: the variant's layout, the
    /// positions and every setting but the threads (which change no byte).
    fn settings(&self, layout: &Layout, positions: &[PackedPosition]) -> String {
        format!(
            "layout={:016x} positions={} data={:016x} hidden={} epochs={} batch={} lr={} weight_decay={} lambda={} \
             validation={} seed={}",
            layout.fingerprint,
            positions.len(),
            samples::hash(positions),
            self.hidden,
            self.epochs,
            self.batch,
            self.lr,
            self.weight_decay,
            self.lambda,
            self.validation,
            self.seed
        )
    }
}

pub use hoplite_formats::tune::EpochRow;

/// What a training reports as it goes. The callback returns `ControlFlow::Break` to stop
/// (the last checkpoint stays, to resume from).
#[derive(Clone, Debug, PartialEq)]
pub enum Progress<'a> {
    /// Training begins at epoch `resumed_from` (0 when fresh) of `epochs`.
    Start { resumed_from: usize, epochs: usize, batches: usize, train: usize, validation: usize },
    /// A batch of epoch `epoch` (from 1) is done.
    Batch { epoch: usize, batch: usize, batches: usize, loss: f64 },
    /// An epoch is done and its checkpoint written.
    Epoch(&'a EpochRow),
}

/// What a training did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// The loss curve, from the first epoch (a resumed training's earlier ones too).
    pub curve: Vec<EpochRow>,
    pub resumed_from: usize,
    /// The network file, written when every epoch is done (`None` when stopped).
    pub network: Option<PathBuf>,
    pub curve_file: PathBuf,
    pub train: usize,
    pub validation: usize,
    /// Training positions a second over the epochs this call ran (0 if none).
    pub positions_per_second: f64,
}

/// Trains a network for `layout` on `positions`, writing to `out_dir` (created if need be).
/// A checkpoint there made with the same positions and settings is resumed from; one made
/// otherwise is an error (remove it to start afresh).
pub fn train(
    layout: &Layout,
    positions: &[PackedPosition],
    config: &TrainConfig,
    out_dir: &Path,
    mut progress: impl FnMut(Progress) -> ControlFlow<()>,
) -> Result<TrainReport, TuneError> {
    config.check()?;
    if positions.is_empty() {
        return Err(TuneError::NoRows);
    }
    std::fs::create_dir_all(out_dir)
        .map_err(|e| TuneError::Format(hoplite_formats::FormatError::io(out_dir, "create", e)))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| TuneError::TrainSetting(format!("cannot start {} threads: {e}", config.threads)))?;
    let data = Data { layout, positions, lambda: config.lambda, pool };
    run(&data, config, out_dir, &mut progress)
}

/// The state to start from: the checkpoint in `out_dir` if it was made with `settings`, else
/// a fresh network.
fn start(path: &Path, settings: String, zero: &FloatNetwork, seed: u64) -> Result<Checkpoint, TuneError> {
    match Checkpoint::load(path, zero)? {
        Some(c) if c.settings == settings => Ok(c),
        Some(c) => {
            let differs = c.settings.split(' ').zip(settings.split(' ')).find(|(a, b)| a != b);
            let (was, now) = differs.unwrap_or(("?", "?"));
            Err(TuneError::Checkpoint {
                path: path.display().to_string(),
                message: format!(
                    "made with {was}, not {now}: train with its arguments and positions to resume, or remove it to start afresh"
                ),
            })
        }
        None => {
            let inputs = zero.ft_weights.len() / zero.hidden;
            let net = adam::initial(inputs, zero.hidden, game_seed(seed, u64::MAX));
            Ok(Checkpoint { settings, epoch: 0, net, adam: AdamW::new(zero.clone()), curve: Vec::new() })
        }
    }
}

/// The data a training reads, borrowed, and the threads to read it on (the callback stays on
/// the caller's thread).
struct Data<'a> {
    layout: &'a Layout,
    positions: &'a [PackedPosition],
    lambda: f32,
    pool: rayon::ThreadPool,
}

fn run(
    data: &Data,
    config: &TrainConfig,
    out_dir: &Path,
    progress: &mut impl FnMut(Progress) -> ControlFlow<()>,
) -> Result<TrainReport, TuneError> {
    let (layout, positions) = (data.layout, data.positions);
    let zero = gradient::zeros(layout.inputs(), config.hidden);
    let (train, valid) = samples::split(positions.len(), config.validation);
    if train.is_empty() {
        return Err(TuneError::TrainSetting(format!(
            "all {} positions were held out for validation: none is left to train on",
            positions.len()
        )));
    }
    let checkpoint = out_dir.join(CHECKPOINT);
    let settings = data.pool.install(|| config.settings(layout, positions));
    let mut state = start(&checkpoint, settings, &zero, config.seed)?;
    let batches = train.len().div_ceil(config.batch);
    let mut report = TrainReport {
        curve: state.curve.clone(),
        resumed_from: state.epoch,
        network: None,
        curve_file: out_dir.join(CURVE),
        train: train.len(),
        validation: valid.len(),
        positions_per_second: 0.0,
    };
    let begin = Progress::Start {
        resumed_from: state.epoch,
        epochs: config.epochs,
        batches,
        train: train.len(),
        validation: valid.len(),
    };
    if progress(begin).is_break() {
        return Ok(report);
    }
    let mut buffers = vec![zero; config.batch.div_ceil(CHUNK)];
    let (mut trained, mut seconds) = (0usize, 0.0f64);
    while state.epoch < config.epochs {
        let t0 = Instant::now();
        let ControlFlow::Continue(train_loss) = epoch(data, &train, config, &mut state, &mut buffers, progress) else {
            break;
        };
        let secs = t0.elapsed().as_secs_f64();
        (trained, seconds) = (trained + train.len(), seconds + secs);
        let validation_loss = (!valid.is_empty()).then(|| data.pool.install(|| mean_loss(data, &state.net, &valid)));
        state.epoch += 1;
        let row = EpochRow { epoch: state.epoch, train_loss, validation_loss, seconds: t0.elapsed().as_secs_f64() };
        state.curve.push(row.clone());
        state.save(&checkpoint)?;
        hoplite_formats::csvfile::write(&report.curve_file, &state.curve)?;
        report.curve = state.curve.clone();
        if progress(Progress::Epoch(&row)).is_break() {
            break;
        }
    }
    report.positions_per_second = if seconds > 0.0 { trained as f64 / seconds } else { 0.0 };
    if state.epoch == config.epochs {
        let path = out_dir.join(NETWORK);
        Network::quantise(layout.clone(), &state.net).save(&path)?;
        hoplite_formats::csvfile::write(&report.curve_file, &state.curve)?;
        report.network = Some(path);
    }
    Ok(report)
}

/// One epoch over the training positions in the epoch's shuffled order: its mean loss, or
/// `Break` if the callback stopped it.
fn epoch(
    data: &Data,
    train: &[u32],
    config: &TrainConfig,
    state: &mut Checkpoint,
    buffers: &mut [FloatNetwork],
    progress: &mut impl FnMut(Progress) -> ControlFlow<()>,
) -> ControlFlow<(), f64> {
    let mut order = train.to_vec();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(game_seed(config.seed, state.epoch as u64)));
    let batches = train.len().div_ceil(config.batch);
    let total_steps = (batches * config.epochs) as u64;
    let mut sum = 0.0;
    for (b, ids) in order.chunks(config.batch).enumerate() {
        let lr = adam::rate(config.lr, state.adam.steps, total_steps);
        let loss = data.pool.install(|| {
            let net = &state.net;
            let losses: Vec<f64> = ids
                .par_chunks(CHUNK)
                .zip(buffers.par_iter_mut())
                .map(|(c, g)| chunk_gradient(data, net, c, g))
                .collect();
            let used = ids.len().div_ceil(CHUNK);
            state.adam.step(&mut state.net, &buffers[..used], 1.0 / ids.len() as f32, lr, config.weight_decay);
            losses.iter().sum::<f64>()
        });
        sum += loss;
        let done = Progress::Batch { epoch: state.epoch + 1, batch: b + 1, batches, loss: loss / ids.len() as f64 };
        progress(done)?;
    }
    ControlFlow::Continue(sum / train.len() as f64)
}

/// The summed gradient (into `grad`, cleared first) and summed loss of positions `ids`.
fn chunk_gradient(data: &Data, net: &FloatNetwork, ids: &[u32], grad: &mut FloatNetwork) -> f64 {
    grad.ft_weights.fill(0.0);
    grad.ft_bias.fill(0.0);
    grad.out_weights.fill(0.0);
    grad.out_bias = 0.0;
    let mut s = Scratch::new(net.hidden);
    let (mut us, mut them) = (Vec::with_capacity(64), Vec::with_capacity(64));
    let mut loss = 0.0f64;
    for &i in ids {
        let p = &data.positions[i as usize];
        samples::inputs(data.layout, p, &mut us, &mut them);
        loss += f64::from(gradient::backward(net, &us, &them, samples::target(p, data.lambda), 1.0, grad, &mut s));
    }
    loss
}

/// The mean loss of positions `ids`, summed by chunks in order.
fn mean_loss(data: &Data, net: &FloatNetwork, ids: &[u32]) -> f64 {
    let parts: Vec<f64> = ids
        .par_chunks(CHUNK)
        .map(|c| {
            let mut s = Scratch::new(net.hidden);
            let (mut us, mut them) = (Vec::with_capacity(64), Vec::with_capacity(64));
            c.iter()
                .map(|&i| {
                    let p = &data.positions[i as usize];
                    samples::inputs(data.layout, p, &mut us, &mut them);
                    f64::from(gradient::loss(net, &us, &them, samples::target(p, data.lambda), &mut s))
                })
                .sum::<f64>()
        })
        .collect();
    parts.iter().sum::<f64>() / ids.len() as f64
}
