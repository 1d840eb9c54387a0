//! hoplite-report: one self-contained HTML page (inline SVG, no network) for a run directory
//! of `hoplite selfplay`, `match`, `balance`, `tune`, `spsa` or `train`. Every file is read through its type in
//! hoplite-formats.
#![forbid(unsafe_code)]

mod charts;
mod verdicts;

use hoplite_core::GameResult;
use hoplite_formats::csvfile::{self, Rows};
use hoplite_formats::spsa;
use hoplite_formats::tune::{read_values, EpochRow, LossRow, RoundRow};
use hoplite_formats::{
    Decimal, FormatError, GameRow, Manifest, MatchRow, PackedIndexRow, SprtRow, SummaryRow, ValueRow, CURVE, GAMES,
    MANIFEST, MATCH, PACKED_INDEX, ROUNDS, SPRT, SUMMARY, VALUES,
};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ReportError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("{0}: not a directory")]
    NotADirectory(String),
    #[error("{0}: neither a run (run.toml), a tune output (*-values.csv) nor an SPSA run (spsa.csv)")]
    NotARun(String),
    #[error("{path}: {message}")]
    Empty { path: String, message: &'static str },
    #[error("a plot could not be drawn: {0}")]
    Chart(String),
}

type Result<T> = std::result::Result<T, ReportError>;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The files of a tune run in `dir`: (weights, loss, values).
fn tune_files(dir: &Path) -> Option<(PathBuf, PathBuf, PathBuf)> {
    let entries = std::fs::read_dir(dir).ok()?;
    let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    names.sort();
    let values = names.iter().find(|p| p.to_string_lossy().ends_with("-values.csv"))?.clone();
    let weights = PathBuf::from(format!("{}.toml", values.to_string_lossy().trim_end_matches("-values.csv")));
    let (loss, _) = hoplite_formats::tune::companions(&weights);
    loss.exists().then_some((weights, loss, values))
}

const STYLE: &str = "body{font-family:sans-serif;max-width:800px;margin:2em auto;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}\
.figure{margin:1em 0}code{background:#f4f4f4;padding:1px 4px}";

/// Renders the report of the run in `dir`.
pub fn render(dir: &Path) -> Result<String> {
    if !dir.is_dir() {
        return Err(ReportError::NotADirectory(dir.display().to_string()));
    }
    let mut body = String::new();
    let manifest = match dir.join(MANIFEST) {
        p if p.exists() => Some(Manifest::read(&p)?),
        _ => None,
    };
    let title = match &manifest {
        Some(m) => match &m.variant {
            Some(v) => format!("hoplite {}: {v}", m.command.as_str()),
            None => format!("hoplite {}", m.command.as_str()),
        },
        None if tune_files(dir).is_some() => "hoplite tune".to_string(),
        None if dir.join(spsa::PATH_FILE).exists() => "hoplite spsa".to_string(),
        None if dir.join(ROUNDS).exists() => match train_variant(dir) {
            Some(v) => format!("hoplite train: {v}"),
            None => "hoplite train".to_string(),
        },
        None => return Err(ReportError::NotARun(dir.display().to_string())),
    };
    let _ = writeln!(body, "<h1>{}</h1>", esc(&title));
    let _ = writeln!(body, "<p>Directory <code>{}</code></p>", esc(&dir.display().to_string()));
    if let Some(m) = &manifest {
        settings_section(m, dir, &mut body);
    }
    if dir.join(SUMMARY).exists() {
        games_sections(dir, manifest.as_ref(), &mut body)?;
    }
    if dir.join(MATCH).exists() {
        match_section(dir, &mut body)?;
    }
    if dir.join(VALUES).exists() {
        values_section(dir, &mut body)?;
    }
    if let Some((weights, loss, values)) = tune_files(dir) {
        tune_section(&weights, &loss, &values, &mut body)?;
    }
    if dir.join(spsa::PATH_FILE).exists() {
        spsa_section(dir, &mut body)?;
    }
    if dir.join(ROUNDS).exists() {
        train_section(dir, &mut body)?;
    }
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        esc(&title)
    ))
}

/// The run's settings, its players, and the command that repeats it.
fn settings_section(m: &Manifest, dir: &Path, body: &mut String) {
    let _ = writeln!(body, "<h2>Run</h2><table><tr><th>setting</th><th>value</th></tr>");
    let mut row = |k: &str, v: String| {
        let _ = writeln!(body, "<tr><td>{}</td><td>{}</td></tr>", esc(k), esc(&v));
    };
    if let Some(v) = &m.variant {
        row("variant", v.clone());
    }
    row("games", m.games.to_string());
    row("seed", m.seed.to_string());
    if let Some(b) = &m.book {
        row("book", b.clone());
    }
    row("opening", opening_text(m));
    row("max plies", m.max_plies.to_string());
    if let Some((cp, n)) = m.resign {
        row("resign", format!("{cp} cp for {n} moves"));
    }
    if let Some((cp, n, ply)) = m.draw {
        row("draw", format!("within {cp} cp for {n} moves from ply {ply}"));
    }
    if let Some(s) = &m.sprt {
        row("SPRT (elo0, elo1, alpha, beta)", s.clone());
    }
    if let Some(s) = &m.shard {
        row("shard", s.clone());
    }
    for p in &m.players {
        let mut what = format!("{:?}", p.kind).to_lowercase();
        if let Some(b) = &p.budget {
            what += &format!(", {b}");
        }
        if let Some(w) = &p.weights {
            what += &format!(", weights {w}");
        }
        row(&format!("player {}", p.name), what);
    }
    let _ = writeln!(body, "</table>");
    if let Some(config) = &m.config {
        let _ = writeln!(body, "<p>Configuration file:</p><pre>{}</pre>", esc(config));
    }
    let _ = writeln!(body, "<p>Repeat it: <code>{}</code></p>", esc(&m.command_line(dir)));
}

/// How the run's games open after their start positions.
fn opening_text(m: &Manifest) -> String {
    match &m.played {
        Some(p) => {
            let budget = p.player.budget.map_or(String::new(), |b| format!(" at {b}"));
            format!(
                "played: {} plies, each among the moves {}{budget} scores within {} cp of its best ({} ranked)",
                p.plies, p.player.name, p.margin, p.lines
            )
        }
        None => format!("random: {} plies", m.random_plies),
    }
}

fn games_sections(dir: &Path, manifest: Option<&Manifest>, body: &mut String) -> Result<()> {
    let rows: Vec<SummaryRow> = csvfile::read(&dir.join(SUMMARY))?;
    let suspect = manifest.map_or(Vec::new(), |m| verdicts::control_failures(m, &rows));
    let _ = writeln!(
        body,
        "<h2>Results</h2><table><tr><th>configuration</th><th>games</th><th>White wins</th><th>draws</th><th>Black wins</th><th>White score [95% CI]</th><th>Black score [95% CI]</th><th>mean plies</th></tr>"
    );
    let mut configs = Vec::new();
    for r in &rows {
        let (s, lo, hi) = (r.white_score.0, r.ci95_low.0, r.ci95_high.0);
        let marked = match suspect.iter().any(|(p, b)| *p == r.player && *b == r.budget) {
            true => format!("{} ⚠", esc(&r.config)),
            false => esc(&r.config),
        };
        table_row(
            body,
            &[
                marked,
                r.games.to_string(),
                r.white_wins.to_string(),
                r.draws.to_string(),
                r.black_wins.to_string(),
                format!("{s:.3} [{lo:.3}, {hi:.3}]"),
                format!("{:.3} [{:.3}, {:.3}]", 1.0 - s, 1.0 - hi, 1.0 - lo),
                r.mean_plies.to_string(),
            ],
        );
        configs.push((r.config.clone(), s, lo, hi));
    }
    let _ = writeln!(body, "</table>");
    if let Some(m) = manifest {
        verdicts::control_section(m, &rows, body);
    }
    // A ladder has its own plot, with fewer labels.
    if rows.iter().all(|r| r.budget == rows[0].budget) {
        figure(body, &chart(charts::scores(&configs))?);
    }
    verdicts::ladder_section(&rows, body)?;
    verdicts::players_section(&rows, body);
    if let Some(m) = manifest {
        verdicts::army_section(m, &rows, body);
    }
    verdicts::quality_section(&rows, body);
    // How games ended: the terminations that occurred.
    let endings: Vec<Vec<(hoplite_core::Termination, u64)>> = rows.iter().map(|r| r.endings()).collect();
    let kinds: Vec<usize> =
        (0..endings.first().map_or(0, |e| e.len())).filter(|&k| endings.iter().any(|e| e[k].1 > 0)).collect();
    let names: Vec<String> = kinds.iter().map(|&k| endings[0][k].0.to_string()).collect();
    let series: Vec<(String, Vec<u64>)> =
        rows.iter().zip(&endings).map(|(r, e)| (r.config.clone(), kinds.iter().map(|&k| e[k].1).collect())).collect();
    let _ = writeln!(body, "<h2>How games ended</h2><table><tr><th>configuration</th>");
    for k in &names {
        let _ = write!(body, "<th>{}</th>", esc(k));
    }
    let _ = writeln!(body, "</tr>");
    for (name, counts) in &series {
        let _ = write!(body, "<tr><td>{}</td>", esc(name));
        for c in counts {
            let _ = write!(body, "<td>{c}</td>");
        }
        let _ = writeln!(body, "</tr>");
    }
    let _ = writeln!(body, "</table>");
    figure(body, &chart(charts::grouped_bars("Terminations", &names, &series))?);
    let games = dir.join(hoplite_formats::GAMES);
    if games.exists() {
        let mut plies = Vec::new();
        for (_, row) in Rows::<GameRow>::open(&games)? {
            plies.push(row?.plies);
        }
        let _ = writeln!(body, "<h2>Game length</h2>");
        figure(body, &chart(charts::lengths(&plies))?);
    }
    Ok(())
}

fn match_section(dir: &Path, body: &mut String) -> Result<()> {
    let path = dir.join(MATCH);
    let rows: Vec<MatchRow> = csvfile::read(&path)?;
    let m = rows.first().ok_or(ReportError::Empty { path: path.display().to_string(), message: "no row" })?;
    let (a, b) = (&m.a, &m.b);
    let _ = writeln!(body, "<h2>Match: {} against {}</h2><table>", esc(a), esc(b));
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let sprt = match (&m.sprt, &m.llr) {
        (Some(v), Some(l)) => format!("{v:?} (LLR {l})"),
        (Some(v), None) => format!("{v:?}"),
        _ => "none".into(),
    };
    for (label, value) in [
        ("games", m.games.to_string()),
        (&format!("{a} wins / draws / {b} wins"), format!("{} / {} / {}", m.a_wins, m.draws, m.b_wins)),
        (&format!("{a}'s score"), m.a_score.to_string()),
        ("Elo difference", format!("{:+.1} ± {:.1}", m.elo.0 + 0.0, m.elo_error.0)),
        (
            "normalized Elo (from the pairs)",
            match (m.nelo, m.nelo_error) {
                (Some(n), Some(e)) => format!("{:+.1} ± {:.1}", n.0 + 0.0, e.0),
                _ => "–".into(),
            },
        ),
        ("likelihood of superiority", pct(m.los.0)),
        ("draw rate", pct(m.draw_rate.0)),
        (
            "pentanomial (pairs scoring 0, ½, 1, 1½, 2)",
            format!("{}, {}, {}, {}, {}", m.penta_0, m.penta_1, m.penta_2, m.penta_3, m.penta_4),
        ),
        ("SPRT", sprt),
    ] {
        let _ = writeln!(body, "<tr><td>{}</td><td>{}</td></tr>", esc(label), esc(&value));
    }
    let _ = writeln!(body, "</table>");
    let sprt = dir.join(SPRT);
    if sprt.exists() {
        let trace: Vec<SprtRow> = csvfile::read(&sprt)?;
        let pts: Vec<(f64, f64)> = trace.iter().map(|r| (r.pairs as f64, r.llr.0)).collect();
        let bounds: Vec<f64> = trace.first().map_or(vec![], |r| vec![r.lower.0, r.upper.0]);
        let plot = charts::lines("SPRT: log-likelihood ratio", "pairs", "LLR", &[("LLR".into(), pts)], &bounds);
        figure(body, &chart(plot)?);
    }
    Ok(())
}

/// Piece values by play-testing (`hoplite values`), beside the Texel-tuned ones.
fn values_section(dir: &Path, body: &mut String) -> Result<()> {
    let rows: Vec<ValueRow> = csvfile::read(&dir.join(VALUES))?;
    let _ = writeln!(
        body,
        "<h2>Piece values by play-testing</h2><p>Each piece in pawns from games of material imbalances \
         (each also with the armies' colours swapped), scaled by pawn-odds games (docs/values.md); \
         beside it the Texel-tuned value of data/piece-values/.</p>\
         <table><tr><th>piece</th><th>player, budget</th><th>pawns [95% CI]</th><th>Texel</th><th>games</th></tr>"
    );
    let mut items = Vec::new();
    for r in &rows {
        let _ = writeln!(
            body,
            "<tr><td>{} ({})</td><td>{}, {}</td><td>{} [{}, {}]</td><td>{}</td><td>{}</td></tr>",
            esc(&r.name),
            esc(&r.letter),
            esc(&r.player),
            esc(&r.budget),
            r.pawns,
            r.ci95_low,
            r.ci95_high,
            r.texel.map_or("–".into(), |t| t.to_string()),
            r.games
        );
        let label = if rows.iter().any(|o| o.budget != r.budget) {
            format!("{} {}", r.letter, r.budget)
        } else {
            r.letter.clone()
        };
        items.push((label.clone(), r.pawns.0, (r.ci95_high.0 - r.ci95_low.0) / 2.0));
        if let Some(t) = r.texel {
            items.push((format!("{label} Texel"), t.0, 0.0));
        }
    }
    let _ = writeln!(body, "</table>");
    figure(body, &chart(charts::values("Piece values: play-testing (95% CI) and Texel", "pawns", &items))?);
    Ok(())
}

fn tune_section(weights: &Path, loss: &Path, values: &Path, body: &mut String) -> Result<()> {
    let header =
        std::fs::read_to_string(weights).ok().and_then(|w| w.lines().next().map(String::from)).unwrap_or_default();
    let _ = writeln!(body, "<h2>Tuning</h2><p>{}</p>", esc(header.trim_start_matches("# ")));
    let epochs: Vec<LossRow> = csvfile::read(loss)?;
    let curve = |f: fn(&LossRow) -> f64| -> Vec<(f64, f64)> { epochs.iter().map(|r| (r.epoch as f64, f(r))).collect() };
    let curves = [("training".into(), curve(|r| r.train_loss.0)), ("validation".into(), curve(|r| r.valid_loss.0))];
    figure(body, &chart(charts::lines("Loss per epoch", "epoch", "mean squared error", &curves, &[]))?);
    let _ =
        writeln!(body, "<table><tr><th>piece</th><th>letter</th><th>value (pawns)</th><th>± standard error</th></tr>");
    let mut items = Vec::new();
    for r in read_values(values)?.iter().filter(|r| r.table == "material") {
        let value = r.value as f64 / 100.0;
        let se = r.stderr.map(|s| s.0 / 100.0);
        if value == 0.0 && se.is_none() {
            continue; // royal pieces
        }
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{value:.2}</td><td>{}</td></tr>",
            esc(&r.name),
            esc(&r.letter),
            se.map_or("fixed".into(), |s| format!("{s:.2}"))
        );
        items.push((r.letter.clone(), value, se.unwrap_or(0.0)));
    }
    let _ = writeln!(body, "</table>");
    figure(body, &chart(charts::values("Piece values (± one standard error)", "pawns", &items))?);
    Ok(())
}

/// The directory of round `r` of a `hoplite train` run.
fn round_dir(dir: &Path, r: usize) -> PathBuf {
    dir.join(format!("round-{r}"))
}

/// The variant a `hoplite train` run trained for, as its first gauntlet or data recorded it.
fn train_variant(dir: &Path) -> Option<String> {
    let first = round_dir(dir, 1);
    [first.join("gauntlet-linear"), first.join("data")]
        .iter()
        .find_map(|d| Manifest::read(&d.join(MANIFEST)).ok().and_then(|m| m.variant))
}

/// A `hoplite train` run: each round's data, losses and gauntlets; the loss curves; and the
/// make-up of the positions each round generated (the games' results, positions a game, bytes a
/// position).
fn train_section(dir: &Path, body: &mut String) -> Result<()> {
    let rounds: Vec<RoundRow> = csvfile::read(&dir.join(ROUNDS))?;
    let elo = |e: Option<Decimal<1>>, err: Option<Decimal<1>>| match (e, err) {
        (Some(e), Some(err)) => format!("{:+.1} ± {:.1}", e.0, err.0),
        _ => "–".into(),
    };
    let _ = writeln!(
        body,
        "<h2>Rounds</h2><table><tr><th>round</th><th>positions</th><th>training loss</th><th>validation loss</th>\
         <th>Elo against the linear evaluation</th><th>Elo against the previous network</th></tr>"
    );
    for r in &rounds {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{:.6}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.round,
            r.positions,
            r.train_loss.0,
            r.valid_loss.map_or("–".into(), |v| format!("{:.6}", v.0)),
            elo(Some(r.elo_linear), Some(r.elo_linear_error)),
            elo(r.elo_previous, r.elo_previous_error)
        );
    }
    let _ = writeln!(body, "</table>");
    if rounds.len() > 1 {
        let at = |f: fn(&RoundRow) -> f64| rounds.iter().map(|r| (r.round as f64, f(r))).collect::<Vec<_>>();
        let series = [
            ("Elo".into(), at(|r| r.elo_linear.0)),
            ("95% low".into(), at(|r| r.elo_linear.0 - r.elo_linear_error.0)),
            ("95% high".into(), at(|r| r.elo_linear.0 + r.elo_linear_error.0)),
        ];
        let title = "Elo against the linear evaluation per round";
        figure(body, &chart(charts::lines(title, "round", "Elo", &series, &[0.0]))?);
    }
    let mut curves = Vec::new();
    for r in &rounds {
        let path = round_dir(dir, r.round).join(CURVE);
        if !path.exists() {
            continue;
        }
        let epochs: Vec<EpochRow> = csvfile::read(&path)?;
        curves.push((
            format!("round {} training", r.round),
            epochs.iter().map(|e| (e.epoch as f64, e.train_loss)).collect(),
        ));
        let valid: Vec<(f64, f64)> =
            epochs.iter().filter_map(|e| e.validation_loss.map(|v| (e.epoch as f64, v))).collect();
        if !valid.is_empty() {
            curves.push((format!("round {} validation", r.round), valid));
        }
    }
    if !curves.is_empty() {
        figure(body, &chart(charts::lines("Loss per epoch", "epoch", "mean squared error", &curves, &[]))?);
    }
    data_section(dir, &rounds, body)
}

/// The positions each round of a `hoplite train` run generated: its games' results (White's
/// wins, draws, Black's wins), their positions and bytes; a round trained on given data (`--data`)
/// has none of its own.
fn data_section(dir: &Path, rounds: &[RoundRow], body: &mut String) -> Result<()> {
    let _ = writeln!(
        body,
        "<h2>Data</h2><table><tr><th>round</th><th>games</th><th>White wins / draws / Black wins</th>\
         <th>positions</th><th>a game</th><th>bytes a position</th></tr>"
    );
    for r in rounds {
        let data = round_dir(dir, r.round).join("data");
        if !data.join(PACKED_INDEX).exists() {
            let _ = writeln!(body, "<tr><td>{}</td><td colspan=\"5\">given positions (--data)</td></tr>", r.round);
            continue;
        }
        let games: Vec<GameRow> = csvfile::read(&data.join(GAMES))?;
        let index: Vec<PackedIndexRow> = csvfile::read(&data.join(PACKED_INDEX))?;
        let count = |result: GameResult| games.iter().filter(|g| g.result == result).count();
        let (positions, bytes) = index.iter().fold((0, 0), |(p, b), i| (p + i.positions, b + i.bytes));
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{} / {} / {}</td><td>{positions}</td><td>{:.1}</td><td>{:.1}</td></tr>",
            r.round,
            games.len(),
            count(GameResult::WhiteWins),
            count(GameResult::Draw),
            count(GameResult::BlackWins),
            positions as f64 / games.len().max(1) as f64,
            bytes as f64 / positions.max(1) as f64
        );
    }
    let _ = writeln!(body, "</table>");
    Ok(())
}

/// An SPSA run: its settings, each tuned number's start and end, and the path of each.
fn spsa_section(dir: &Path, body: &mut String) -> Result<()> {
    let settings = std::fs::read_to_string(dir.join(spsa::SETTINGS_FILE)).unwrap_or_default();
    let _ = writeln!(body, "<h2>SPSA</h2><pre>{}</pre>", esc(&settings));
    let path = spsa::SpsaPath::read(&dir.join(spsa::PATH_FILE))?;
    let (Some(first), Some(last)) = (path.rows.first(), path.rows.last()) else {
        return Err(ReportError::Empty { path: dir.join(spsa::PATH_FILE).display().to_string(), message: "no rows" });
    };
    let (won, level, lost) = path.rows.iter().fold((0, 0, 0), |(w, d, l), r| (w + r.won, d + r.level, l + r.lost));
    let _ = writeln!(
        body,
        "<p>{} pairs: the plus engine won {won}, drew {level} and lost {lost} of them.</p>\n\
         <table><tr><th>tuned</th><th>start</th><th>end</th></tr>",
        last.pairs
    );
    for (j, name) in path.names.iter().enumerate() {
        table_row(body, &[esc(name), format!("{:.1}", first.theta[j]), format!("{:.1}", last.theta[j])]);
    }
    let _ = writeln!(body, "</table>");
    for (j, name) in path.names.iter().enumerate() {
        let pts: Vec<(f64, f64)> = path.rows.iter().map(|r| (r.pairs as f64, r.theta[j])).collect();
        let title = format!("{name}: its path");
        figure(body, &chart(charts::lines(&title, "pairs", name, &[(name.clone(), pts)], &[first.theta[j]]))?);
    }
    Ok(())
}

/// A table row of cells already escaped.
fn table_row(body: &mut String, cells: &[String]) {
    body.push_str("<tr>");
    for c in cells {
        let _ = write!(body, "<td>{c}</td>");
    }
    body.push_str("</tr>\n");
}

/// A plot's SVG, or why plotters could not draw it.
fn chart(svg: std::result::Result<String, String>) -> Result<String> {
    svg.map_err(ReportError::Chart)
}

fn figure(body: &mut String, svg: &str) {
    let _ = writeln!(body, "<div class=\"figure\">{svg}</div>");
}

#[cfg(test)]
mod tests {
    use super::render;

    /// A tune output as `hoplite tune` writes it, with the values table's first column named
    /// `header` (`table` now, `group` in files from before the tapered evaluation).
    fn tune_dir(name: &str, header: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("hoplite-report-tune-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("w.toml"), "# hoplite tune: 90 positions for training, 10 for validation, K = 0.5\n")
            .unwrap();
        std::fs::write(d.join("w-loss.csv"), "epoch,train_loss,valid_loss,seconds\n1,0.2,0.21,0.1\n2,0.1,0.11,0.1\n")
            .unwrap();
        std::fs::write(
            d.join("w-values.csv"),
            format!(
                "{header},letter,name,value,stderr,fitted\nmaterial,p,Pawn,100,,false\nmaterial,n,Knight,277,7.00,true\n\
                 mobility,n,Knight,4,0.12,true\nmobility_end,n,Knight,2,0.10,true\n"
            ),
        )
        .unwrap();
        d
    }

    #[test]
    fn a_tune_report_lists_the_piece_values_of_either_values_format() {
        for header in ["table", "group"] {
            let d = tune_dir(header, header);
            let html = render(&d).unwrap();
            std::fs::remove_dir_all(&d).ok();
            assert!(html.contains("<td>Knight</td><td>n</td><td>2.77</td><td>0.07</td>"), "{header}");
            assert!(html.contains("<td>Pawn</td><td>p</td><td>1.00</td><td>fixed</td>"), "{header}");
            assert_eq!(html.matches("<td>Knight</td>").count(), 1, "only material rows: {header}");
        }
    }

    #[test]
    fn an_spsa_report_gives_each_tuned_number_its_start_end_and_path() {
        let d = std::env::temp_dir().join(format!("hoplite-report-spsa-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("spsa.toml"), "variant = \"chess\"\ngames = 32\n").unwrap();
        let path = "pairs,won,level,lost,rfp_margin,mobility.n\n0,0,0,0,80,5\n8,3,2,3,81.5,5.25\n16,4,1,3,82.75,4.5\n";
        std::fs::write(d.join("spsa.csv"), path).unwrap();
        let html = render(&d).unwrap();
        std::fs::remove_dir_all(&d).ok();
        assert!(html.contains("<h1>hoplite spsa</h1>"));
        assert!(html.contains("16 pairs: the plus engine won 7, drew 3 and lost 6 of them."), "{html}");
        assert!(html.contains("<tr><td>rfp_margin</td><td>80.0</td><td>82.8</td></tr>"));
        assert!(html.contains("<tr><td>mobility.n</td><td>5.0</td><td>4.5</td></tr>"));
        assert_eq!(html.matches("<svg").count(), 2, "a path each");
    }
}
