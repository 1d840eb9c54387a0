//! `hoplite report` rendered in headless Chromium: the screenshot is not blank and the page's
//! text, as the browser sees it, holds the run's key figures. Without Chromium the test says
//! so and passes, unless HOPLITE_REQUIRE_CHROMIUM is set (CI installs Debian's chromium and
//! sets it).

use std::path::{Path, PathBuf};
use std::process::Command;

fn hoplite(args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_hoplite")).args(args).output().unwrap();
    assert!(o.status.success(), "hoplite {args:?}: {}", String::from_utf8_lossy(&o.stderr));
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
fn report_renders_in_a_browser_with_the_key_figures() {
    let Some(chrome) = chromium() else {
        assert!(std::env::var_os("HOPLITE_REQUIRE_CHROMIUM").is_none(), "Chromium is required but not installed");
        eprintln!("chromium not installed: report rendering not checked");
        return;
    };
    let dir = std::env::temp_dir().join(format!("hoplite-report-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    let config = dir.join("general.toml");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        &config,
        "variant = \"spartan\"\ngames = 6\nnodes = 200\nrandom_plies = 4\nseed = 3\nmax_plies = 60\n\
         [[configs]]\nname = \"RF\"\n[[configs]]\nname = \"RN\"\npieces = [{ letter = \"g\", betza = \"RN\" }]\n",
    )
    .unwrap();
    hoplite(&["balance", config.to_str().unwrap(), "--out", run.to_str().unwrap()]);
    hoplite(&["report", run.to_str().unwrap()]);
    let page = run.join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"), "nothing loaded from the network");
    assert!(!html.contains("<script"), "self-contained, static");

    // The figures the page must show, from summary.csv.
    let summary = std::fs::read_to_string(run.join("summary.csv")).unwrap();
    let mut want = Vec::new();
    for line in summary.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (s, lo, hi): (f64, f64, f64) = (f[5].parse().unwrap(), f[6].parse().unwrap(), f[7].parse().unwrap());
        want.push(f[0].to_string());
        want.push(format!("{s:.3} [{lo:.3}, {hi:.3}]"));
        want.push(format!("{:.3} [{:.3}, {:.3}]", 1.0 - s, 1.0 - hi, 1.0 - lo));
    }
    let profile = dir.join("profile");
    let url = format!("file://{}", page.display());
    let dom = String::from_utf8(browser(&chrome, &profile, &["--dump-dom", &url])).unwrap();
    for w in &want {
        assert!(dom.contains(w.as_str()), "the page lacks '{w}'");
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
