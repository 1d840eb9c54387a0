//! The rows of games.csv, positions.csv, summary.csv, match.csv and sprt.csv.

use crate::decimal::Decimal;
use hoplite_core::{GameResult, Termination};
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// One game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub game_id: u64,
    pub variant: String,
    pub config: String,
    pub seed: u64,
    pub white: String,
    pub black: String,
    pub opening_fen: String,
    pub result: GameResult,
    pub termination: Termination,
    pub plies: u32,
    pub final_fen: String,
    pub nodes: u64,
    /// Empty unless timing was asked for: wall time would make runs differ byte for byte.
    pub duration_ms: Option<u64>,
    /// The mean number of legal moves in the game's positions after the opening (absent in
    /// files of hoplite 0.1).
    #[serde(default)]
    pub branching: Option<Decimal<2>>,
    /// With `--evals`: the players' scores after the opening, a ply each, in centipawns from
    /// White's view, space-separated.
    #[serde(default)]
    pub evals: Option<String>,
}

/// White's score in a position: a game's result (`1`, `0.5`, `0`), or an expected score
/// between them (`hoplite label`: a stronger player's evaluation as a win probability). The
/// tuner's target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WhiteScore(f64);

impl WhiteScore {
    /// `None` outside 0 to 1 (or not a number).
    pub fn new(score: f64) -> Option<WhiteScore> {
        (0.0..=1.0).contains(&score).then_some(WhiteScore(score))
    }
    pub fn get(self) -> f64 {
        self.0
    }
}

impl From<GameResult> for WhiteScore {
    fn from(r: GameResult) -> WhiteScore {
        WhiteScore(match r {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        })
    }
}

impl Serialize for WhiteScore {
    /// A result as before (`1`, `0.5`, `0`); an expected score to four decimals.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = format!("{:.4}", self.0);
        s.serialize_str(text.trim_end_matches('0').trim_end_matches('.'))
    }
}

impl<'de> Deserialize<'de> for WhiteScore {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let text = text.trim();
        text.parse().ok().and_then(WhiteScore::new).ok_or_else(|| {
            de::Error::custom(format!("result '{text}' is not White's score: 1, 0.5, 0 or a number between"))
        })
    }
}

/// One position of a game, after the opening, with the game's result (or a label for it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionRow {
    pub game_id: u64,
    pub ply: u32,
    pub fen: String,
    pub result: WhiteScore,
}

/// One game's share of positions.bin, in the order the file holds them: how many training
/// positions it gave and their bytes. A resume cuts positions.bin back to the games of
/// games.csv by it, and a merge interleaves shards' records in game-id order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackedIndexRow {
    pub game_id: u64,
    pub positions: u64,
    pub bytes: u64,
}

/// One configuration's totals: White's score with its 95% interval, and how games ended.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    pub config: String,
    pub games: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    pub white_score: Decimal<4>,
    pub ci95_low: Decimal<4>,
    pub ci95_high: Decimal<4>,
    pub mean_plies: Decimal<2>,
    pub checkmate: u64,
    pub stalemate: u64,
    pub repetition: u64,
    pub fifty_moves: u64,
    pub insufficient_material: u64,
    pub bare_king: u64,
    pub max_plies: u64,
    pub adjudication: u64,
    /// The players' failures (absent in files of hoplite 0.1, which had none).
    #[serde(default)]
    pub illegal_move: u64,
    #[serde(default)]
    pub crash: u64,
    #[serde(default)]
    pub timeout: u64,
    #[serde(default)]
    pub time_forfeit: u64,
    /// The rule kit's ends (absent in files before it).
    #[serde(default)]
    pub extinction: u64,
    #[serde(default)]
    pub flag: u64,
    #[serde(default)]
    pub checks: u64,
    #[serde(default)]
    pub connect: u64,
    #[serde(default)]
    pub counting: u64,
    #[serde(default)]
    pub castling: u64,
    /// What the row is of: the rule configuration, the player and its budget (a ladder has a
    /// row for each budget, a cross-engine run one for each player).
    #[serde(default)]
    pub base: String,
    #[serde(default)]
    pub player: String,
    #[serde(default)]
    pub budget: String,
    /// Game quality (docs/quality.md): the spread of game length, the mean branching factor,
    /// balance (1 − 2·|White's score − ½|), drawishness (the share of draws), completion (the
    /// share of games a rule of the game ended), and, from the players' evaluations when the
    /// run kept them, the mean lead changes a game and decisiveness (the mean share of a
    /// decided game played before its winner stayed ahead for good).
    #[serde(default)]
    pub length_sd: Decimal<2>,
    #[serde(default)]
    pub branching: Decimal<2>,
    #[serde(default)]
    pub balance: Decimal<4>,
    #[serde(default)]
    pub drawishness: Decimal<4>,
    #[serde(default)]
    pub completion: Decimal<4>,
    #[serde(default)]
    pub lead_changes: Option<Decimal<2>>,
    #[serde(default)]
    pub decisiveness: Option<Decimal<4>>,
}

impl SummaryRow {
    /// The count of games that ended by `t`.
    pub fn ended_by(&mut self, t: Termination) -> &mut u64 {
        match t {
            Termination::Checkmate => &mut self.checkmate,
            Termination::Stalemate => &mut self.stalemate,
            Termination::Repetition => &mut self.repetition,
            Termination::FiftyMoves => &mut self.fifty_moves,
            Termination::InsufficientMaterial => &mut self.insufficient_material,
            Termination::BareKing => &mut self.bare_king,
            Termination::MaxPlies => &mut self.max_plies,
            Termination::Adjudication => &mut self.adjudication,
            Termination::IllegalMove => &mut self.illegal_move,
            Termination::Crash => &mut self.crash,
            Termination::Timeout => &mut self.timeout,
            Termination::TimeForfeit => &mut self.time_forfeit,
            Termination::Extinction => &mut self.extinction,
            Termination::Flag => &mut self.flag,
            Termination::Checks => &mut self.checks,
            Termination::Connect => &mut self.connect,
            Termination::Counting => &mut self.counting,
            Termination::Castling => &mut self.castling,
        }
    }
    /// (termination, count) for every termination, in the columns' order.
    pub fn endings(&self) -> Vec<(Termination, u64)> {
        let mut row = self.clone();
        Termination::ALL.iter().map(|&t| (t, *row.ended_by(t))).collect()
    }
}

/// An SPRT's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtVerdict {
    H1,
    H0,
    #[serde(rename = "continue")]
    Continue,
}

/// A match's figures from engine A's view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRow {
    pub a: String,
    pub b: String,
    pub games: u64,
    pub a_wins: u64,
    pub draws: u64,
    pub b_wins: u64,
    pub a_score: Decimal<4>,
    pub elo: Decimal<2>,
    pub elo_error: Decimal<2>,
    /// Normalized Elo (from the pairs) and its 95% error; absent in hoplite 0.1's files.
    #[serde(default)]
    pub nelo: Option<Decimal<2>>,
    #[serde(default)]
    pub nelo_error: Option<Decimal<2>>,
    pub los: Decimal<4>,
    pub draw_rate: Decimal<4>,
    pub penta_0: u64,
    pub penta_1: u64,
    pub penta_2: u64,
    pub penta_3: u64,
    pub penta_4: u64,
    pub llr: Option<Decimal<4>>,
    pub sprt: Option<SprtVerdict>,
}

/// A piece value by play-testing (values.csv): in pawns, with its 95% interval, at one budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueRow {
    pub player: String,
    pub budget: String,
    pub letter: String,
    pub name: String,
    pub pawns: Decimal<2>,
    pub ci95_low: Decimal<2>,
    pub ci95_high: Decimal<2>,
    /// The games of the imbalances that hold this piece.
    pub games: u64,
    /// The Texel-tuned value of data/piece-values/ for the built-in variants.
    pub texel: Option<Decimal<2>>,
}

/// The SPRT's log-likelihood ratio after each pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtRow {
    pub pairs: u64,
    pub llr: Decimal<4>,
    pub lower: Decimal<4>,
    pub upper: Decimal<4>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csvfile::header;

    #[test]
    fn headers_come_from_the_types() {
        assert_eq!(
            header::<GameRow>().join(","),
            "game_id,variant,config,seed,white,black,opening_fen,result,termination,plies,final_fen,nodes,duration_ms,branching,evals"
        );
        assert_eq!(header::<PositionRow>().join(","), "game_id,ply,fen,result");
        let summary = header::<SummaryRow>();
        let ends: Vec<&str> = Termination::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(summary[9..9 + ends.len()], ends[..], "a column per termination, in order");
    }

    #[test]
    fn a_name_with_a_comma_survives_the_round_trip() {
        let path = std::env::temp_dir().join(format!("hoplite-formats-{}.csv", std::process::id()));
        let row = MatchRow {
            a: "x,y \"quoted\"".into(),
            b: "B".into(),
            games: 2,
            a_wins: 1,
            draws: 0,
            b_wins: 1,
            a_score: Decimal(0.5),
            elo: Decimal(0.0),
            elo_error: Decimal(1.5),
            nelo: Some(Decimal(0.0)),
            nelo_error: Some(Decimal(2.5)),
            los: Decimal(0.5),
            draw_rate: Decimal(0.0),
            penta_0: 0,
            penta_1: 0,
            penta_2: 1,
            penta_3: 0,
            penta_4: 0,
            llr: None,
            sprt: Some(SprtVerdict::Continue),
        };
        crate::csvfile::write(&path, std::slice::from_ref(&row)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"x,y \"\"quoted\"\"\",B,2,1,0,1,0.5000,0.00,1.50"), "{text}");
        let back: Vec<MatchRow> = crate::csvfile::read(&path).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!(back, [row]);
    }

    #[test]
    fn a_position_row_holds_a_result_or_an_expected_score() {
        let path = std::env::temp_dir().join(format!("hoplite-positions-{}.csv", std::process::id()));
        let rows: Vec<PositionRow> = [1.0, 0.5, 0.0, 0.73128]
            .iter()
            .enumerate()
            .map(|(i, &x)| PositionRow {
                game_id: i as u64,
                ply: 9,
                fen: "f".into(),
                result: WhiteScore::new(x).unwrap(),
            })
            .collect();
        crate::csvfile::write(&path, &rows).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let results: Vec<&str> = text.lines().skip(1).map(|l| l.rsplit(',').next().unwrap()).collect();
        // A game's result is written as it always was; a label to four decimals.
        assert_eq!(results, ["1", "0.5", "0", "0.7313"]);
        let back: Vec<PositionRow> = crate::csvfile::read(&path).unwrap();
        assert_eq!(back[3].result.get(), 0.7313);
        std::fs::write(&path, "game_id,ply,fen,result\n1,9,f,1.5\n").unwrap();
        let err = crate::csvfile::read::<PositionRow>(&path).unwrap_err().to_string();
        std::fs::remove_file(&path).ok();
        assert!(err.contains("'1.5' is not White's score") && err.contains(".csv:2:"), "{err}");
    }
}
