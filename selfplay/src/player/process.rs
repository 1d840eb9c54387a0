//! An engine process: its standard input for commands, its standard output read line by line
//! by a thread of its own, so that every wait has a deadline.

use crate::error::PlayerError;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A bare program name is looked up on PATH, then in /usr/games, where Debian puts game
/// engines and which root's PATH often lacks.
fn locate(command: &str) -> std::path::PathBuf {
    let path = std::path::Path::new(command);
    if command.contains('/') {
        return path.to_path_buf();
    }
    let on_path =
        std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|dir| dir.join(command).is_file()));
    let games = std::path::Path::new("/usr/games").join(command);
    if !on_path && games.is_file() {
        games
    } else {
        path.to_path_buf()
    }
}

/// A failure to start an engine: it cannot play any game of the run.
pub fn starting(e: PlayerError) -> PlayerError {
    match e {
        PlayerError::Setup(m) => PlayerError::Setup(m),
        e => PlayerError::Setup(format!("it did not start: {e}")),
    }
}

/// No answer `wanted` to `sent` within `limit` while starting: the engine cannot play any
/// game of the run.
pub fn unanswered(e: PlayerError, sent: &str, wanted: &str, limit: Duration) -> PlayerError {
    match e {
        PlayerError::Timeout(_) => PlayerError::Setup(format!(
            "it did not answer '{sent}' with '{wanted}' within {} s (engines.toml: handshake)",
            limit.as_secs_f64()
        )),
        e => starting(e),
    }
}

pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The program, for messages.
    name: String,
}

impl Process {
    pub fn spawn(command: &str, args: &[String]) -> Result<Process, PlayerError> {
        let mut child = Command::new(locate(command))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| PlayerError::Crash(format!("cannot start '{command}': {e}")))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, stdin, lines, name: command.to_string() })
    }

    pub fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        self.send_all(&[line])
    }

    /// Sends lines in one write, so that the engine wakes once for them.
    pub fn send_all(&mut self, lines: &[&str]) -> Result<(), PlayerError> {
        let text: String = lines.iter().flat_map(|l| [*l, "\n"]).collect();
        match self.stdin.write_all(text.as_bytes()).and_then(|_| self.stdin.flush()) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.crashed(&format!("stopped reading its input ({e})"))),
        }
    }

    /// The next line, if one comes before `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, PlayerError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(PlayerError::Timeout(wait)),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed("closed its output")),
        }
    }

    /// Lines until one that `done` accepts (returned), or an error at the deadline.
    pub fn until(&mut self, deadline: Instant, mut done: impl FnMut(&str) -> bool) -> Result<String, PlayerError> {
        loop {
            let line = self.recv(deadline)?;
            if done(&line) {
                return Ok(line);
            }
        }
    }

    /// A crash, with how the process ended if it has (`exit status: 1`).
    fn crashed(&mut self, what: &str) -> PlayerError {
        // The reader sees the output close a moment before the process can be reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return PlayerError::Crash(format!("{} {what}: {status}", self.name));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        PlayerError::Crash(format!("{} {what}", self.name))
    }
}

impl Drop for Process {
    /// Asks the engine to quit, then ends it if it has not within a moment.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
