//! `hoplite import`: a variants.ini becomes one file per convertible section, one line per
//! refused section, a summary, exit 0; bad syntax is an error naming file and line.

mod common;
use common::outcome as hoplite;

#[test]
fn import_writes_files_refuses_and_sums_up() {
    let dir = common::tmp_dir("import");
    let out = dir.join("out");
    let ini = dir.join("variants.ini");
    std::fs::write(
        &ini,
        "# two sections\n[knightmare:chess]\nknight = -\ncustomPiece1 = n:NN\n\n[chase:xiangqi]\nmaxFile = i\n",
    )
    .unwrap();
    let (ok, stdout, stderr) = hoplite(&["import", ini.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with(
        "refused [chase]: variants.ini:6: [chase] inherited from FSF's built-in 'xiangqi': chasingRule = axf"
    ));
    assert_eq!(lines[1], "2 sections: 1 converted, 1 refused; refusals by key: chasingRule 1");
    let file = out.join("knightmare.toml");
    let (ok, perft, stderr) = hoplite(&["perft", "--variant", file.to_str().unwrap(), "--depth", "1"]);
    assert!(ok, "{stderr}");
    // fairy-stockfish-largeboards with this file: `go perft 1` = 24 (the nightriders reach e7/d7).
    assert_eq!(perft.trim_end(), "Nodes searched: 24");

    std::fs::write(&ini, "[x]\nnot a key\n").unwrap();
    let (ok, _, stderr) = hoplite(&["import", ini.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("variants.ini:2: 'not a key' is not 'key = value'"), "{stderr}");

    let (ok, stdout, _) = hoplite(&["import", "--builtins", "--out", out.join("b").to_str().unwrap()]);
    assert!(ok);
    assert!(stdout.lines().last().unwrap().starts_with("121 sections: "), "{stdout}");
    assert!(out.join("b").join("chess.toml").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Section names are file names under `--out` and nothing else: one that is a path (up and
/// out, or absolute) is refused, and nothing is written outside the folder.
#[test]
fn import_writes_only_under_out() {
    let dir = common::tmp_dir("import-escape");
    let out = dir.join("out");
    let ini = dir.join("variants.ini");
    let abs = dir.join("abs").join("x");
    let text = format!("[../escaped:chess]\n[{}:chess]\n[.hidden:chess]\n[fine-name_2:chess]\n", abs.display());
    std::fs::write(&ini, text).unwrap();
    let (ok, stdout, stderr) = hoplite(&["import", ini.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    for name in ["../escaped", &abs.display().to_string(), ".hidden"] {
        let line = format!("refused [{name}]: variants.ini:");
        assert!(stdout.lines().any(|l| l.starts_with(&line) && l.contains("is not a file name")), "{name}: {stdout}");
    }
    let written: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(written, ["fine-name_2.toml"]);
    assert!(!dir.join("escaped.toml").exists() && !abs.with_extension("toml").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
