//! `hoplite report`: the page itself is checked in every run (every section and plot there,
//! the run's figures in it, tags balanced, nothing from the network); with Chromium (CI
//! installs Debian's and sets HOPLITE_REQUIRE_CHROMIUM) it is also rendered and looked at.
//! Run directories written by hoplite 0.1 (tests/fixtures/runs-0.1) still report.

use hoplite_formats::SummaryRow;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{ok as hoplite, tmp_dir as tmp};

/// Renders the report of `dir` into `out` and returns the page.
fn report(dir: &Path, out: &Path) -> String {
    hoplite(&["report", dir.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    std::fs::read_to_string(out).unwrap()
}

/// Elements that have no closing tag in HTML.
const VOID: [&str; 4] = ["meta", "br", "img", "input"];

/// Checks that every tag is closed in order (HTML's void elements and SVG's self-closing ones
/// aside) and that the page is one html element with a head and a body.
fn well_formed(html: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = html.strip_prefix("<!DOCTYPE html>").expect("a doctype");
    while let Some(i) = rest.find('<') {
        let end = rest[i..].find('>').expect("a tag closes") + i;
        let tag = &rest[i + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') || tag.starts_with('?') || tag.ends_with('/') {
            continue;
        }
        let name: String = tag.trim_start_matches('/').chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if let Some(closing) = tag.strip_prefix('/') {
            let open = stack.pop().unwrap_or_else(|| panic!("</{closing}> closes nothing"));
            assert_eq!(open, name, "<{open}> closed by </{name}>");
        } else if !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    for part in ["<html", "<head>", "</head>", "<body>", "</body>", "</html>"] {
        assert_eq!(html.matches(part).count(), 1, "{part}");
    }
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"), "nothing loaded from the network");
    assert!(!html.contains("<script"), "self-contained, static");
}

/// The page's figures from summary.csv: each configuration's name and both sides' scores.
fn summary_figures(dir: &Path) -> Vec<String> {
    let rows: Vec<SummaryRow> = hoplite_formats::csvfile::read(&dir.join("summary.csv")).unwrap();
    let mut want = Vec::new();
    for r in rows {
        let (s, lo, hi) = (r.white_score.0, r.ci95_low.0, r.ci95_high.0);
        want.push(r.config);
        want.push(format!("{s:.3} [{lo:.3}, {hi:.3}]"));
        want.push(format!("{:.3} [{:.3}, {:.3}]", 1.0 - s, 1.0 - hi, 1.0 - lo));
    }
    want
}

fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn browser(chrome: &Path, profile: &Path, args: &[&str]) -> Vec<u8> {
    let o = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "chromium failed: {}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

#[test]
fn a_balance_report_has_every_section_and_plot() {
    let dir = tmp("balance");
    let run = dir.join("run");
    let config = dir.join("general.toml");
    // Plies enough for decisive games (the plots' coloured marks): with 60, every game drew.
    std::fs::write(
        &config,
        "variant = \"spartan\"\ngames = 6\nnodes = 200\nrandom_plies = 4\nseed = 3\nmax_plies = 150\n\
         [[configs]]\nname = \"RF\"\n[[configs]]\nname = \"RN, 2009\"\npieces = [{ letter = \"g\", betza = \"RN\" }]\n",
    )
    .unwrap();
    hoplite(&["balance", config.to_str().unwrap(), "--out", run.to_str().unwrap()]);
    let page = run.join("report.html");
    let html = report(&run, &page);
    well_formed(&html);
    for section in ["<h2>Run</h2>", "<h2>Results</h2>", "<h2>How games ended</h2>", "<h2>Game length</h2>"] {
        assert!(html.contains(section), "{section}");
    }
    assert_eq!(html.matches("<svg").count(), 3, "score, termination and length plots");
    for w in summary_figures(&run) {
        assert!(html.contains(&w), "the page lacks '{w}'");
    }
    assert!(html.contains("Configuration file:") && html.contains("RN, 2009"));
    assert!(html.contains(&format!(
        "Repeat it: <code>hoplite balance CONFIG.toml --nodes 200 --games 6 --seed 3 --opening random --random-plies 4 --max-plies 150 \
         --tt-mb 1 --out {}</code>",
        run.display()
    )));

    // In a browser: the same figures, and a page that is not blank.
    let Some(chrome) = chromium() else {
        assert!(std::env::var_os("HOPLITE_REQUIRE_CHROMIUM").is_none(), "Chromium is required but not installed");
        eprintln!("chromium not installed: the rendering in a browser was not checked");
        return;
    };
    let profile = dir.join("profile");
    let url = format!("file://{}", page.display());
    let dom = String::from_utf8(browser(&chrome, &profile, &["--dump-dom", &url])).unwrap();
    for w in summary_figures(&run) {
        assert!(dom.contains(w.as_str()), "the rendered page lacks '{w}'");
    }
    assert!(dom.matches("<svg").count() >= 3, "score, termination and length plots");
    let shot = dir.join("shot.png");
    browser(&chrome, &profile, &["--window-size=900,1600", &format!("--screenshot={}", shot.display()), &url]);
    let decoder = png::Decoder::new(std::fs::File::open(&shot).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let bytes = &buf[..info.buffer_size()];
    let channels = info.color_type.samples();
    let pixels = bytes.len() / channels;
    let inked = bytes.chunks(channels).filter(|p| p.iter().take(3).any(|&c| c < 200)).count();
    assert!(inked * 100 > pixels * 2, "only {inked} of {pixels} pixels are not white: a blank page?");
    let coloured = bytes.chunks(channels).filter(|p| p.len() >= 3 && (p[0] as i32 - p[2] as i32).abs() > 80).count();
    assert!(coloured > 500, "the plots' coloured marks are missing ({coloured} pixels)");
}

/// The directories hoplite 0.1 wrote (checked in) report as they did, with the command that
/// repeats each: a match's flags included.
#[test]
fn runs_written_by_hoplite_0_1_still_report() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/runs-0.1");
    let out = tmp("old");
    let page = |run: &str| {
        let html = report(&fixtures.join(run), &out.join(format!("{run}.html")));
        well_formed(&html);
        html
    };
    let m = page("match");
    assert!(m.contains("<h2>Match: A against B</h2>"));
    assert!(m.contains("<td>Elo difference</td><td>+0.0 ± 0.0</td>"), "{m}");
    assert!(m.contains("--a-nodes 300 --a-name A --b-nodes 200 --b-name B"));
    assert!(m.contains("--resign 600:3 --sprt 0,10,0.05,0.05"));
    assert_eq!(m.matches("<svg").count(), 4, "scores, terminations, lengths and the SPRT trace");
    let s = page("selfplay");
    for w in summary_figures(&fixtures.join("selfplay")) {
        assert!(s.contains(&w), "{w}");
    }
    let b = page("balance");
    assert!(b.contains("RN, 2009"));
    let t = page("tune");
    assert!(t.contains("<h2>Tuning</h2>") && t.contains("<td>Knight</td><td>n</td><td>3.20</td><td>3.27</td>"), "{t}");
}
