//! The UCI protocol, with `UCI_Variant` as Fairy-Stockfish offers it.

use crate::budget::{Budget, Clock};
use crate::error::UciError;
use crate::eval::linear::Weights;
use crate::eval::Evaluator;
use crate::params::{SearchParams, PARAMS};
use crate::score::{MATE, MATE_BOUND};
use crate::search::{Info, Search, SearchResult};
use hoplite_core::builtin_names;
use hoplite_core::{Colour, Move, Position, Variant};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

/// The `info` line of one line (numbered from 1) of a search result.
fn info_line(variant: &Variant, line: usize, i: &Info) -> String {
    let ms = i.elapsed.as_millis().max(1) as u64;
    let pv: Vec<String> = i.pv.iter().map(|&m| variant.move_to_uci(m)).collect();
    let (depth, nodes) = (i.depth, i.nodes);
    format!(
        "info depth {depth} multipv {line} score {} nodes {nodes} nps {} time {ms} pv {}",
        score_text(i.score),
        nodes * 1000 / ms,
        pv.join(" ")
    )
}

/// `score cp N` or `score mate M` (moves, negative when being mated).
pub fn score_text(score: i32) -> String {
    if score.abs() > MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// A search to run, returning its tables for the next.
type Job = Box<dyn FnOnce() -> Search + Send>;

/// The thread the searches run on, one for the session: starting a thread for each `go`
/// costs a few percent of a 1,000-node search, which matters when engines play fast games.
struct Runner {
    jobs: Sender<Job>,
    done: Receiver<Search>,
}

impl Runner {
    fn new() -> Runner {
        let (jobs, todo) = channel::<Job>();
        let (finished, done) = channel();
        std::thread::spawn(move || {
            for job in todo {
                if finished.send(job()).is_err() {
                    break;
                }
            }
        });
        Runner { jobs, done }
    }
}

/// The spin options' (min, max, default): a value outside is refused, never clamped or tried.
const HASH_MB: (i32, i32, i32) = (1, 4096, 16);
const MULTI_PV: (i32, i32, i32) = (1, 256, 1);

/// A spin option's value, within its declared range.
fn spin(name: &str, value: &str, (min, max, _): (i32, i32, i32)) -> Result<i32, UciError> {
    let syntax = |message: String| UciError::Syntax { command: "setoption", message };
    let v: i64 = value.parse().map_err(|_| syntax(format!("{name}: '{value}' is not a number")))?;
    if !(i64::from(min)..=i64::from(max)).contains(&v) {
        return Err(syntax(format!("{name}: {v} is outside {min}..={max}")));
    }
    Ok(v as i32)
}

struct Engine {
    variant: Arc<Variant>,
    position: Position,
    /// The last `position` command's start and moves: a GUI sends the same game again with
    /// a move or two more, and only those are played.
    game: (String, Vec<String>),
    weights_file: Option<String>,
    /// A network file (`EvalFile`): the evaluation instead of the weights when given.
    eval_file: Option<String>,
    /// `UseNetwork`: without a file, the variant's shipped network where it has one (true,
    /// the default) or its linear weights.
    use_network: bool,
    params: SearchParams,
    hash_mb: usize,
    /// Root moves scored per search (`MultiPV`).
    lines: usize,
    search: Option<Search>,
    /// The stop flag of the search under way.
    running: Option<Arc<std::sync::atomic::AtomicBool>>,
    runner: Runner,
    out: Out,
}

impl Engine {
    fn new_search(&self) -> Result<Search, UciError> {
        let evaluator = match (&self.eval_file, &self.weights_file) {
            (Some(net), _) => Evaluator::load_network(&self.variant, Path::new(net))?,
            (None, Some(f)) => Weights::load(&self.variant, Path::new(f))?.into(),
            (None, None) if self.use_network => Evaluator::for_variant(&self.variant),
            (None, None) => Weights::for_variant(&self.variant).into(),
        };
        let mut search = Search::new(evaluator, self.hash_mb);
        search.set_params(self.params.clone());
        Ok(search)
    }

    /// Plays `v` from now on; if no search can be made for it (a weights or network file of
    /// another variant), nothing changes.
    fn set_variant(&mut self, v: Arc<Variant>) -> Result<(), UciError> {
        let previous = std::mem::replace(&mut self.variant, v);
        match self.new_search() {
            Ok(search) => {
                self.position = Position::startpos(&self.variant);
                self.game = (String::new(), Vec::new());
                self.search = Some(search);
                Ok(())
            }
            Err(e) => {
                self.variant = previous;
                Err(e)
            }
        }
    }

    /// Changes a setting that the search is made from (`change` returns the setting's old
    /// value): kept only if a search can be made with it, so that a bad file leaves the engine
    /// as it was and every later `go` still answers.
    fn remake<T>(
        &mut self,
        change: impl FnOnce(&mut Engine) -> T,
        undo: impl FnOnce(&mut Engine, T),
    ) -> Result<(), UciError> {
        let old = change(self);
        match self.new_search() {
            Ok(search) => {
                self.search = Some(search);
                Ok(())
            }
            Err(e) => {
                undo(self, old);
                Err(e)
            }
        }
    }

    fn wait(&mut self) {
        if self.running.take().is_some() {
            self.search = self.runner.done.recv().ok();
        }
    }

    fn stop(&mut self) {
        if let Some(flag) = &self.running {
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        self.wait();
    }

    fn setoption(&mut self, args: &str) -> Result<(), UciError> {
        let syntax = |message: String| UciError::Syntax { command: "setoption", message };
        let rest = args.strip_prefix("name ").ok_or_else(|| syntax("expected 'name'".into()))?;
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => self.set_variant(Variant::load(value)?),
            "variantfile" => {
                if value.is_empty() || value == "<empty>" {
                    Ok(())
                } else {
                    self.set_variant(Variant::load(value)?)
                }
            }
            "weightsfile" => {
                let file = Some(value.to_string()).filter(|v| !v.is_empty() && v != "<empty>");
                self.remake(|e| std::mem::replace(&mut e.weights_file, file), |e, old| e.weights_file = old)
            }
            "evalfile" => {
                let file = Some(value.to_string()).filter(|v| !v.is_empty() && v != "<empty>");
                self.remake(|e| std::mem::replace(&mut e.eval_file, file), |e, old| e.eval_file = old)
            }
            "usenetwork" => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(syntax(format!("UseNetwork is true or false, not '{value}'"))),
                };
                self.remake(|e| std::mem::replace(&mut e.use_network, on), |e, old| e.use_network = old)
            }
            "hash" => {
                let mb = spin("Hash", value, HASH_MB)? as usize;
                self.remake(|e| std::mem::replace(&mut e.hash_mb, mb), |e, old| e.hash_mb = old)
            }
            "multipv" => {
                self.lines = spin("MultiPV", value, MULTI_PV)? as usize;
                Ok(())
            }
            "paramsfile" => {
                self.params = match value {
                    "" | "<empty>" => SearchParams::default(),
                    file => SearchParams::load(Path::new(file))?,
                };
                self.apply_params();
                Ok(())
            }
            lower => {
                let spec =
                    PARAMS.iter().find(|p| p.name == lower).ok_or_else(|| UciError::UnknownOption(name.into()))?;
                let v = spin(spec.name, value, (spec.min, spec.max, spec.default))?;
                self.params.set(spec.name, v).map_err(syntax)?;
                self.apply_params();
                Ok(())
            }
        }
    }

    fn apply_params(&mut self) {
        if let Some(s) = self.search.as_mut() {
            s.set_params(self.params.clone());
        }
    }

    fn position(&mut self, args: &str) -> Result<(), UciError> {
        let (head, moves) = match args.split_once(" moves") {
            Some((h, m)) => (h.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None => (args.trim(), Vec::new()),
        };
        let (start, played) = &self.game;
        if start == head && played.len() <= moves.len() && played.iter().zip(&moves).all(|(a, b)| a == b) {
            let mut pos = self.position.clone();
            for m in &moves[played.len()..] {
                pos.make(pos.parse_uci(m)?);
            }
            self.position = pos;
            self.game.1 = moves.iter().map(|m| m.to_string()).collect();
            return Ok(());
        }
        let mut pos = if head == "startpos" {
            Position::startpos(&self.variant)
        } else if let Some(fen) = head.strip_prefix("fen ") {
            Position::from_fen(&self.variant, fen)?
        } else {
            let message = format!("expected 'startpos' or 'fen', got '{head}'");
            return Err(UciError::Syntax { command: "position", message });
        };
        for m in &moves {
            pos.make(pos.parse_uci(m)?);
        }
        self.position = pos;
        self.game = (head.to_string(), moves.iter().map(|m| m.to_string()).collect());
        Ok(())
    }

    fn go(&mut self, args: &str) -> Result<(), UciError> {
        self.stop();
        let budget = go_budget(args, self.position.side_to_move())?;
        let mut search = match self.search.take() {
            Some(s) => s,
            None => self.new_search()?,
        };
        let out = self.out.clone();
        let variant = self.variant.clone();
        // The first move and node count of the last line reported: a search stopped in the
        // middle of an iteration reports once more, so that `bestmove` never contradicts the
        // last line and the nodes are all counted.
        let reported: Arc<Mutex<(Option<Move>, u64)>> = Arc::default();
        let last = reported.clone();
        search.set_info(move |line, i: &Info| {
            if line == 1 {
                *last.lock().unwrap_or_else(|e| e.into_inner()) = (i.pv.first().copied(), i.nodes);
            }
            say(&out, &info_line(&variant, line, i));
        });
        let flag = search.stop_flag();
        flag.store(false, std::sync::atomic::Ordering::Relaxed);
        let mut pos = self.position.clone();
        let out = self.out.clone();
        let variant = self.variant.clone();
        let started = std::time::Instant::now();
        let lines = self.lines;
        let job = Box::new(move || {
            let r: SearchResult = search.search_lines(&mut pos, budget, lines);
            let shown = *reported.lock().unwrap_or_else(|e| e.into_inner());
            if r.best.is_some() && (r.best, r.nodes) != shown {
                let i = Info {
                    depth: r.depth.max(1),
                    score: r.score,
                    nodes: r.nodes,
                    elapsed: started.elapsed(),
                    pv: r.pv,
                };
                say(&out, &info_line(&variant, 1, &i));
            }
            let best = r.best.map_or("0000".to_string(), |m| pos.move_to_uci(m));
            say(&out, &format!("bestmove {best}"));
            search
        });
        // `go` without limits runs until `stop`.
        let _ = self.runner.jobs.send(job);
        self.running = Some(flag);
        Ok(())
    }
}

/// The most a `go` argument may be: depth in plies, milliseconds (about 24 days) and nodes.
const GO_DEPTH_MAX: u64 = 1_000;
const GO_MS_MAX: u64 = 1 << 31;

/// The budget a `go` command's arguments give for `side` to move; an argument that is not a
/// number within its range is an error naming it (never an endless search).
fn go_budget(args: &str, side: Colour) -> Result<Budget, UciError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let num = |key: &str, max: u64| -> Result<Option<u64>, UciError> {
        let Some(i) = words.iter().position(|w| *w == key) else { return Ok(None) };
        let bad = |v: &str| UciError::Syntax {
            command: "go",
            message: format!("{key}: '{v}' is not a whole number from 0 to {max}"),
        };
        let v = words.get(i + 1).copied().unwrap_or("");
        let n: u64 = v.parse().map_err(|_| bad(v))?;
        if n > max {
            return Err(bad(v));
        }
        Ok(Some(n))
    };
    let mut budget = Budget {
        depth: num("depth", GO_DEPTH_MAX)?.map(|d| d as u32),
        nodes: num("nodes", u64::MAX)?,
        movetime: num("movetime", GO_MS_MAX)?.map(Duration::from_millis),
        clock: None,
    };
    let [wtime, btime, winc, binc] = ["wtime", "btime", "winc", "binc"].map(|k| num(k, GO_MS_MAX));
    let (time, inc) = match side {
        Colour::White => (wtime?, winc?),
        Colour::Black => (btime?, binc?),
    };
    let moves_to_go = num("movestogo", u64::from(u32::MAX))?.map(|m| m as u32);
    if let Some(t) = time {
        let increment = Duration::from_millis(inc.unwrap_or(0));
        budget = budget.with_clock(Some(Clock { left: Duration::from_millis(t), increment, moves_to_go }));
    }
    Ok(budget)
}

/// Runs the protocol until `quit` or end of input.
pub fn run(input: impl BufRead, output: Box<dyn Write + Send>) {
    let out: Out = Arc::new(Mutex::new(output));
    let variant = Variant::builtin("chess");
    let mut engine = Engine {
        position: Position::startpos(&variant),
        game: (String::new(), Vec::new()),
        variant,
        weights_file: None,
        eval_file: None,
        use_network: true,
        params: SearchParams::default(),
        hash_mb: HASH_MB.2 as usize,
        lines: 1,
        search: None,
        running: None,
        runner: Runner::new(),
        out: out.clone(),
    };
    let mut input = input;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // A line that is not UTF-8 (a file name in Latin-1) is answered, not the session's end.
        let Ok(line) = std::str::from_utf8(&bytes) else {
            say(&out, "info string error: a line that is not UTF-8 text, ignored");
            continue;
        };
        let line = line.trim();
        let (cmd, args) = line.split_once(' ').unwrap_or((line, ""));
        let result = match cmd {
            "uci" => {
                say(&out, &format!("id name hoplite {}", env!("CARGO_PKG_VERSION")));
                say(&out, "id author the hoplite developers");
                let vars: Vec<String> = builtin_names().iter().map(|n| format!("var {n}")).collect();
                say(&out, &format!("option name UCI_Variant type combo default chess {}", vars.join(" ")));
                say(&out, "option name VariantFile type string default <empty>");
                say(&out, "option name WeightsFile type string default <empty>");
                say(&out, "option name EvalFile type string default <empty>");
                say(&out, "option name UseNetwork type check default true");
                say(&out, "option name ParamsFile type string default <empty>");
                let spins = [("Hash", HASH_MB), ("MultiPV", MULTI_PV)].into_iter();
                let params = PARAMS.iter().map(|p| (p.name, (p.min, p.max, p.default)));
                for (name, (min, max, default)) in spins.chain(params) {
                    say(&out, &format!("option name {name} type spin default {default} min {min} max {max}"));
                }
                say(&out, "uciok");
                Ok(())
            }
            "isready" => {
                say(&out, "readyok");
                Ok(())
            }
            "ucinewgame" => {
                engine.stop();
                engine.position = Position::startpos(&engine.variant);
                engine.game = (String::new(), Vec::new());
                if let Some(s) = engine.search.as_mut() {
                    s.clear();
                }
                Ok(())
            }
            "setoption" => {
                engine.stop();
                engine.setoption(args)
            }
            "position" => {
                engine.stop();
                engine.position(args)
            }
            // A `go` always ends in a `bestmove`: `0000` when it cannot search.
            "go" => {
                if let Err(e) = engine.go(args) {
                    say(&out, &format!("info string error: {e}"));
                    say(&out, "bestmove 0000");
                }
                Ok(())
            }
            "stop" => {
                engine.stop();
                Ok(())
            }
            "quit" => break,
            "" => Ok(()),
            _ => Err(UciError::UnknownCommand(cmd.to_string())),
        };
        if let Err(e) = result {
            say(&out, &format!("info string error: {e}"));
        }
    }
    engine.stop();
}
