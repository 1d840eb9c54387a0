//! `hoplite spsa` end to end: the path, the parameters file the engine loads, the same bytes
//! on any thread count, and a resume that must be given the same arguments.

mod common;
use common::{hoplite, ok, tmp};

fn spsa(out: &str, threads: &str, games: &str) -> Vec<String> {
    let args = ["spsa", "--variant", "chess", "--games", games, "--nodes", "200", "--batch", "4"];
    let tune = ["--tune", "rfp_margin,lmr_base=40..120/8,mobility.n"];
    [&args[..], &tune, &["--threads", threads, "--out", out]].concat().iter().map(|s| s.to_string()).collect()
}

fn run(args: &[String]) -> std::process::Output {
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn spsa_writes_its_path_and_a_parameters_file_the_same_on_any_thread_count() {
    let (one, two) = (tmp("spsa-1"), tmp("spsa-2"));
    let table = run(&spsa(one.to_str().unwrap(), "1", "24"));
    run(&spsa(two.to_str().unwrap(), "2", "24"));
    let path = std::fs::read_to_string(one.join("spsa.csv")).unwrap();
    assert_eq!(path, std::fs::read_to_string(two.join("spsa.csv")).unwrap());
    let rows: Vec<&str> = path.lines().collect();
    assert_eq!(rows[0], "pairs,won,level,lost,rfp_margin,lmr_base,mobility.n");
    // The start, then 12 pairs in batches of 4: three rows, each batch's pairs counted once.
    assert_eq!(rows.len(), 5);
    assert!(rows[1].starts_with("0,0,0,0,80,80,"), "{}", rows[1]);
    for (row, pairs) in rows[2..].iter().zip([4, 8, 12]) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[0].parse::<u64>().unwrap(), pairs);
        assert_eq!(f[1..4].iter().map(|x| x.parse::<u64>().unwrap()).sum::<u64>(), 4);
    }
    let stdout = String::from_utf8_lossy(&table.stdout);
    assert!(stdout.contains("lmr_base") && stdout.contains("40..=120"), "{stdout}");
    // The parameters file plays: a match with it, and the engine's UCI options take it.
    let params = one.join("params.toml");
    let text = std::fs::read_to_string(&params).unwrap();
    assert!(text.contains("rfp_margin = ") && text.contains("lmr_base = "), "{text}");
    assert!(one.join("weights.toml").exists(), "a weight was tuned");
    let m = tmp("spsa-match");
    ok(&[
        "match",
        "--variant",
        "chess",
        "--a-params",
        params.to_str().unwrap(),
        "--a-name",
        "tuned",
        "--b-name",
        "base",
        "--nodes",
        "100",
        "--games",
        "2",
        "--out",
        m.to_str().unwrap(),
    ]);
}

#[test]
fn spsa_resumes_only_with_its_own_arguments() {
    let out = tmp("spsa-resume");
    let dir = out.to_str().unwrap();
    run(&spsa(dir, "2", "8"));
    let again = hoplite(&spsa(dir, "2", "8").iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("pass --resume"));
    let mut changed = spsa(dir, "2", "16");
    changed.push("--resume".into());
    let refused = hoplite(&changed.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("started with other arguments"));
    let mut same = spsa(dir, "1", "8");
    same.push("--resume".into());
    let before = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    run(&same);
    assert_eq!(std::fs::read_to_string(out.join("spsa.csv")).unwrap(), before, "nothing left to play");
}

#[test]
fn a_run_started_without_names_resumes_with_the_set_it_started_with() {
    // As if an earlier version's table had held only these two: its spsa.toml names none, its
    // path file the two. The resumed run goes on with them, whatever today's table holds.
    let out = tmp("spsa-default-set");
    let dir = out.to_str().unwrap();
    let args = |games: &str| {
        let a = ["spsa", "--variant", "chess", "--games", games, "--nodes", "200", "--batch", "4", "--out", dir];
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let mut first = args("8");
    first.extend(["--tune".to_string(), "rfp_margin,lmr_base".to_string()]);
    run(&first);
    let settings = out.join("spsa.toml");
    let text = std::fs::read_to_string(&settings).unwrap();
    let started = text.lines().find(|l| l.starts_with("tune")).unwrap().to_string();
    std::fs::write(&settings, text.replace(&started, "tune = []")).unwrap();
    let mut resumed = args("8");
    resumed.push("--resume".into());
    run(&resumed);
    let path = std::fs::read_to_string(out.join("spsa.csv")).unwrap();
    assert!(path.starts_with("pairs,won,level,lost,rfp_margin,lmr_base\n"), "{path}");
    assert!(std::fs::read_to_string(out.join("params.toml")).unwrap().contains("rfp_margin = "));
}
