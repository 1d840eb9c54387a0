//! hoplite-report: one self-contained HTML page (inline SVG, no network) for a run directory
//! of `hoplite selfplay`, `match`, `balance` or `tune`.

mod charts;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

type Result<T> = std::result::Result<T, String>;

/// A CSV file as a header and rows of strings.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn read(path: &Path) -> Result<Table> {
        let mut r = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let header = r.headers().map_err(|e| format!("{}: {e}", path.display()))?.iter().map(String::from).collect();
        let mut rows = Vec::new();
        for (i, rec) in r.records().enumerate() {
            let rec = rec.map_err(|e| format!("{}:{}: {e}", path.display(), i + 2))?;
            rows.push(rec.iter().map(String::from).collect());
        }
        Ok(Table { header, rows })
    }
    fn col(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }
    fn get<'a>(&self, row: &'a [String], name: &str) -> &'a str {
        self.col(name).and_then(|c| row.get(c)).map_or("", |s| s.as_str())
    }
    fn num(&self, row: &[String], name: &str, path: &Path) -> Result<f64> {
        self.get(row, name).parse().map_err(|_| format!("{}: column '{name}' is not a number", path.display()))
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The files of a tune run in `dir`: (weights, loss, values).
fn tune_files(dir: &Path) -> Option<(PathBuf, PathBuf, PathBuf)> {
    let entries = std::fs::read_dir(dir).ok()?;
    let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    names.sort();
    let values = names.iter().find(|p| p.to_string_lossy().ends_with("-values.csv"))?.clone();
    let stem = values.to_string_lossy().trim_end_matches("-values.csv").to_string();
    let loss = PathBuf::from(format!("{stem}-loss.csv"));
    let weights = PathBuf::from(format!("{stem}.toml"));
    loss.exists().then_some((weights, loss, values))
}

const STYLE: &str = "body{font-family:sans-serif;max-width:800px;margin:2em auto;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}\
.figure{margin:1em 0}code{background:#f4f4f4;padding:1px 4px}";

/// Renders the report of the run in `dir`.
pub fn render(dir: &Path) -> Result<String> {
    if !dir.is_dir() {
        return Err(format!("{}: not a directory", dir.display()));
    }
    let mut body = String::new();
    let manifest = std::fs::read_to_string(dir.join("run.toml")).ok();
    let fields: BTreeMap<String, String> = manifest
        .iter()
        .flat_map(|m| m.lines())
        .filter_map(|l| {
            l.split_once(" = ").map(|(k, v)| (k.trim().to_string(), v.trim().trim_matches('"').to_string()))
        })
        .collect();
    let command = fields.get("command").cloned();
    let title = match (&command, fields.get("variant")) {
        (Some(c), Some(v)) => format!("hoplite {c}: {v}"),
        (Some(c), None) => format!("hoplite {c}"),
        _ if tune_files(dir).is_some() => "hoplite tune".to_string(),
        _ => return Err(format!("{}: neither a run (run.toml) nor a tune output (*-values.csv)", dir.display())),
    };
    let _ = writeln!(body, "<h1>{}</h1>", esc(&title));
    let _ = writeln!(body, "<p>Directory <code>{}</code></p>", esc(&dir.display().to_string()));
    if let Some(m) = &manifest {
        let _ = writeln!(body, "<h2>Run</h2><table><tr><th>setting</th><th>value</th></tr>");
        for l in m.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("config = ")) {
            if let Some((k, v)) = l.split_once(" = ") {
                let _ = writeln!(body, "<tr><td>{}</td><td>{}</td></tr>", esc(k), esc(v));
            }
        }
        let _ = writeln!(body, "</table>");
        if let Some(config) = m.lines().find_map(|l| l.strip_prefix("config = ")) {
            // A balance run keeps its whole configuration file, TOML-quoted.
            let text = config.trim_matches('"').replace("\\n", "\n").replace("\\\"", "\"");
            let _ = writeln!(body, "<p>Configuration file:</p><pre>{}</pre>", esc(&text));
        }
        let _ = writeln!(body, "<p>Repeat it: <code>{}</code></p>", esc(&command_line(&fields)));
    }
    if dir.join("summary.csv").exists() {
        games_sections(dir, &mut body)?;
    }
    if dir.join("match.csv").exists() {
        match_section(dir, &mut body)?;
    }
    if let Some((weights, loss, values)) = tune_files(dir) {
        tune_section(&weights, &loss, &values, &mut body)?;
    }
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        esc(&title)
    ))
}

/// The command that made a run, from run.toml (the settings that shape its output).
fn command_line(f: &BTreeMap<String, String>) -> String {
    let mut s = format!("hoplite {}", f.get("command").map_or("", |c| c.as_str()));
    if f.contains_key("config") {
        s += " CONFIG.toml";
    }
    for (k, flag) in [
        ("variant", "--variant"),
        ("games", "--games"),
        ("nodes", "--nodes"),
        ("depth", "--depth"),
        ("seed", "--seed"),
        ("random_plies", "--random-plies"),
        ("max_plies", "--max-plies"),
        ("shard", "--shard"),
    ] {
        if let Some(v) = f.get(k) {
            let _ = write!(s, " {flag} {v}");
        }
    }
    s
}

fn games_sections(dir: &Path, body: &mut String) -> Result<()> {
    let path = dir.join("summary.csv");
    let t = Table::read(&path)?;
    let mut configs = Vec::new();
    let _ = writeln!(
        body,
        "<h2>Results</h2><table><tr><th>configuration</th><th>games</th><th>White wins</th><th>draws</th><th>Black wins</th><th>White score [95% CI]</th><th>Black score [95% CI]</th><th>mean plies</th></tr>"
    );
    for row in &t.rows {
        let name = t.get(row, "config").to_string();
        let (s, lo, hi) =
            (t.num(row, "white_score", &path)?, t.num(row, "ci95_low", &path)?, t.num(row, "ci95_high", &path)?);
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{s:.3} [{lo:.3}, {hi:.3}]</td><td>{:.3} [{:.3}, {:.3}]</td><td>{}</td></tr>",
            esc(&name),
            t.get(row, "games"),
            t.get(row, "white_wins"),
            t.get(row, "draws"),
            t.get(row, "black_wins"),
            1.0 - s,
            1.0 - hi,
            1.0 - lo,
            t.get(row, "mean_plies")
        );
        configs.push((name, s, lo, hi));
    }
    let _ = writeln!(body, "</table>");
    figure(body, &charts::scores(&configs)?);
    // Terminations: the columns after mean_plies.
    let first = t.col("mean_plies").map_or(t.header.len(), |c| c + 1);
    let kinds: Vec<(usize, String)> = (first..t.header.len())
        .filter(|&c| t.rows.iter().any(|r| r.get(c).is_some_and(|v| v != "0")))
        .map(|c| (c, t.header[c].clone()))
        .collect();
    let series: Vec<(String, Vec<u64>)> = t
        .rows
        .iter()
        .map(|r| (t.get(r, "config").to_string(), kinds.iter().map(|(c, _)| r[*c].parse().unwrap_or(0)).collect()))
        .collect();
    let _ = writeln!(body, "<h2>How games ended</h2><table><tr><th>configuration</th>");
    for (_, k) in &kinds {
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
    let names: Vec<String> = kinds.into_iter().map(|k| k.1).collect();
    figure(body, &charts::grouped_bars("Terminations", &names, &series)?);
    let games = dir.join("games.csv");
    if games.exists() {
        let mut r = csv::Reader::from_path(&games).map_err(|e| format!("{}: {e}", games.display()))?;
        let col = r
            .headers()
            .map_err(|e| format!("{}: {e}", games.display()))?
            .iter()
            .position(|h| h == "plies")
            .ok_or_else(|| format!("{}: no 'plies' column", games.display()))?;
        let mut plies = Vec::new();
        for (i, rec) in r.records().enumerate() {
            let rec = rec.map_err(|e| format!("{}:{}: {e}", games.display(), i + 2))?;
            plies.push(
                rec.get(col)
                    .and_then(|p| p.parse().ok())
                    .ok_or_else(|| format!("{}:{}: bad plies", games.display(), i + 2))?,
            );
        }
        let _ = writeln!(body, "<h2>Game length</h2>");
        figure(body, &charts::lengths(&plies)?);
    }
    Ok(())
}

fn match_section(dir: &Path, body: &mut String) -> Result<()> {
    let path = dir.join("match.csv");
    let t = Table::read(&path)?;
    let row = t.rows.first().ok_or_else(|| format!("{}: no row", path.display()))?;
    let (a, b) = (t.get(row, "a"), t.get(row, "b"));
    let _ = writeln!(body, "<h2>Match: {} against {}</h2><table>", esc(a), esc(b));
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    for (label, value) in [
        ("games", t.get(row, "games").to_string()),
        (
            &format!("{a} wins / draws / {b} wins"),
            format!("{} / {} / {}", t.get(row, "a_wins"), t.get(row, "draws"), t.get(row, "b_wins")),
        ),
        (&format!("{a}'s score"), t.get(row, "a_score").to_string()),
        ("Elo difference", format!("{:+.1} ± {:.1}", t.num(row, "elo", &path)?, t.num(row, "elo_error", &path)?)),
        ("likelihood of superiority", pct(t.num(row, "los", &path)?)),
        ("draw rate", pct(t.num(row, "draw_rate", &path)?)),
        (
            "pentanomial (pairs scoring 0, ½, 1, 1½, 2)",
            (0..5).map(|i| t.get(row, &format!("penta_{i}"))).collect::<Vec<_>>().join(", "),
        ),
        ("SPRT", format!("{} {}", t.get(row, "sprt"), t.get(row, "llr"))),
    ] {
        let _ = writeln!(body, "<tr><td>{}</td><td>{}</td></tr>", esc(label), esc(&value));
    }
    let _ = writeln!(body, "</table>");
    let sprt = dir.join("sprt.csv");
    if sprt.exists() {
        let s = Table::read(&sprt)?;
        let pts: Vec<(f64, f64)> = s
            .rows
            .iter()
            .filter_map(|r| Some((s.get(r, "pairs").parse().ok()?, s.get(r, "llr").parse().ok()?)))
            .collect();
        let bounds: Vec<f64> = s
            .rows
            .first()
            .map_or(vec![], |r| ["lower", "upper"].iter().filter_map(|k| s.get(r, k).parse().ok()).collect());
        figure(body, &charts::lines("SPRT: log-likelihood ratio", "pairs", "LLR", &[("LLR".into(), pts)], &bounds)?);
    }
    Ok(())
}

fn tune_section(weights: &Path, loss: &Path, values: &Path, body: &mut String) -> Result<()> {
    let header =
        std::fs::read_to_string(weights).ok().and_then(|w| w.lines().next().map(String::from)).unwrap_or_default();
    let _ = writeln!(body, "<h2>Tuning</h2><p>{}</p>", esc(header.trim_start_matches("# ")));
    let l = Table::read(loss)?;
    let col = |name: &str| -> Vec<(f64, f64)> {
        l.rows.iter().filter_map(|r| Some((l.get(r, "epoch").parse().ok()?, l.get(r, name).parse().ok()?))).collect()
    };
    figure(
        body,
        &charts::lines(
            "Loss per epoch",
            "epoch",
            "mean squared error",
            &[("training".into(), col("train_loss")), ("validation".into(), col("valid_loss"))],
            &[],
        )?,
    );
    let v = Table::read(values)?;
    let _ =
        writeln!(body, "<table><tr><th>piece</th><th>letter</th><th>value (pawns)</th><th>± standard error</th></tr>");
    let mut items = Vec::new();
    for r in v.rows.iter().filter(|r| v.get(r, "table") == "material" || v.get(r, "group") == "material") {
        let value: f64 = v.num(r, "value", values)? / 100.0;
        let se: Option<f64> = v.get(r, "stderr").parse::<f64>().ok().map(|x| x / 100.0);
        if value == 0.0 && se.is_none() {
            continue; // royal pieces
        }
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{value:.2}</td><td>{}</td></tr>",
            esc(v.get(r, "name")),
            esc(v.get(r, "letter")),
            se.map_or("fixed".into(), |s| format!("{s:.2}"))
        );
        items.push((v.get(r, "letter").to_string(), value, se.unwrap_or(0.0)));
    }
    let _ = writeln!(body, "</table>");
    figure(body, &charts::values("Piece values (± one standard error)", "pawns", &items)?);
    Ok(())
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
            let html = render(&tune_dir(header, header)).unwrap();
            assert!(html.contains("<td>Knight</td><td>n</td><td>2.77</td><td>0.07</td>"), "{header}");
            assert!(html.contains("<td>Pawn</td><td>p</td><td>1.00</td><td>fixed</td>"), "{header}");
            assert_eq!(html.matches("<td>Knight</td>").count(), 1, "only material rows: {header}");
        }
    }
}
