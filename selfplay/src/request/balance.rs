//! `hoplite balance`'s request: a balance file's configurations, the command line over the
//! file over the defaults.

use super::{ladder, BudgetLists, Event, RunDefaults, RunRequest};
use crate::defaults;
use crate::error::RunError;
use crate::openings::played::{Method, OpeningSettings};
use crate::plans::balance::{self, Balance, BalanceFile};
use crate::player::EngineFiles;
use crate::stats::control::control_holds;
use crate::RunReport;
use hoplite_search::EvalKind;
use std::path::PathBuf;

#[derive(Clone, Debug, Default)]
pub struct BalanceRequest {
    /// The balance file.
    pub config: PathBuf,
    /// Who plays both sides (each plays every configuration); none: the file's, else hoplite.
    pub players: Vec<String>,
    /// The budget per move, or a ladder (over the file's nodes and depth).
    pub budget: BudgetLists,
    /// Also play the chess control at every budget.
    pub control: bool,
    /// hoplite's files (its weights, parameters or network), for every configuration.
    pub files: EngineFiles,
    pub run: RunRequest,
}

/// A control that reads otherwise than its known score: its label, White's score and 95%
/// interval.
pub struct SuspectControl {
    pub label: String,
    pub score: f64,
    pub low: f64,
    pub high: f64,
}

/// A finished balance run: the file, the report, the directory and the controls that do not
/// hold.
pub struct BalanceOutcome {
    pub balance: Balance,
    pub report: RunReport,
    pub out: PathBuf,
    pub suspect: Vec<SuspectControl>,
}

impl BalanceRequest {
    pub fn run(&self, events: impl FnMut(Event)) -> Result<BalanceOutcome, RunError> {
        let b = balance::load_with(&self.config, self.control)?;
        let stem = self.config.file_stem().map_or("run".into(), |s| s.to_string_lossy().to_string());
        let players = Players { names: &self.players, files: &self.files };
        play(b, players, &self.budget, &self.run, &format!("runs/balance-{stem}"), events)
    }
}

/// The defaults of a balance file's run: the file's, then the command's.
fn file_defaults(f: &BalanceFile) -> RunDefaults {
    let base = RunDefaults::of(Method::Played);
    let from_file = f.opening.clone().unwrap_or_default();
    RunDefaults {
        games: f.games.unwrap_or(base.games),
        seed: f.seed.unwrap_or(base.seed),
        random_plies: f.random_plies,
        max_plies: f.max_plies.unwrap_or(base.max_plies),
        // A file's random plies or book imply its method, as the command line's do.
        opening: match (&from_file.method, f.random_plies.is_some() || f.book.is_some()) {
            (None, true) => OpeningSettings { method: Some(Method::Random), ..from_file },
            _ => from_file.or(&base.opening),
        },
    }
}

/// Who plays a balance file's configurations: the names given (none: the file's, else
/// hoplite), and hoplite's files.
pub(crate) struct Players<'a> {
    pub names: &'a [String],
    pub files: &'a EngineFiles,
}

/// Plays a balance file's configurations with the request's players, budget and run
/// settings over the file's (the output in `default_out` unless the request names one).
pub(crate) fn play(
    b: Balance,
    players: Players,
    budget: &BudgetLists,
    run: &RunRequest,
    default_out: &str,
    mut events: impl FnMut(Event),
) -> Result<BalanceOutcome, RunError> {
    let f = &b.file;
    let defaults = file_defaults(f);
    let (mut opts, registry) = run.prepare(&defaults, default_out, &b.base, b.book())?;
    opts.shuffle |= f.shuffle.unwrap_or(false);
    let given = budget.budgets()?;
    let from_file = || {
        let nodes = f.nodes.as_ref().map_or(vec![], |n| n.to_vec());
        BudgetLists { nodes, depth: f.depth.as_ref().map_or(vec![], |d| d.to_vec()), ..Default::default() }.budgets()
    };
    let budget = ladder(if given[0].is_empty() { from_file()? } else { given }, &mut opts);
    // The configurations are compared with one kind of evaluation: the shipped network only
    // where every one has it (a changed piece has none), else the linear one for all.
    let mut files = players.files.clone();
    let all = b.configs.iter().all(|c| hoplite_search::eval::shipped_network(&c.variant).is_some());
    if !all && (files.weights.is_none() && files.network.is_none()) {
        files.eval = files.eval.or(Some(EvalKind::Linear));
    }
    opts.openings_eval(&files);
    let names = match (players.names, &f.players) {
        (cli, _) if !cli.is_empty() => cli.to_vec(),
        (_, Some(file)) if !file.is_empty() => file.clone(),
        _ => vec![defaults::PLAYER.to_string()],
    };
    let players = names
        .iter()
        .map(|n| {
            // Only hoplite's engine takes files: other players of the run play without them.
            let files = if n == defaults::PLAYER { files.clone() } else { EngineFiles::default() };
            registry.player(n, n, budget, files, opts.tt_megabytes)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let report = balance::run(&b, &players, &opts, |p| events(Event::Progress(p)))?;
    events(Event::Finished(&report, &opts.out));
    let controls: Vec<&str> = b.configs.iter().filter(|c| c.control).map(|c| c.name.as_str()).collect();
    let suspect = report
        .tallies
        .list()
        .into_iter()
        .filter(|(i, _)| controls.contains(&i.base.as_str()))
        .filter_map(|(info, t)| {
            let (low, high) = t.wdl.score_interval();
            let score = t.wdl.score();
            (!control_holds(score, low, high)).then(|| SuspectControl { label: info.label.clone(), score, low, high })
        })
        .collect();
    Ok(BalanceOutcome { balance: b, report, out: opts.out, suspect })
}
