//! Bad input gets a clear error naming the field (file, line, character), never a panic.

use hoplite_core::error::{GeometryError, PlacementError, ProblemKind};
use hoplite_core::{betza, parse_suite, FenErrorKind, MoveError, Position, SetupError, Variant, VariantError};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

fn fen_error(variant: &str, fen: &str) -> String {
    fen_kind(variant, fen).to_string()
}

fn fen_kind(variant: &str, fen: &str) -> FenErrorKind {
    match Position::from_fen(&Variant::builtin(variant), fen) {
        Ok(p) => panic!("'{fen}' should be rejected, read as {}", p.to_fen()),
        Err(e) => {
            assert_eq!(e.fen, fen);
            e.kind
        }
    }
}

/// Asserts that `text` contains every one of `parts`.
fn says(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "'{part}' missing from: {text}");
    }
}

fn toml_error(label: &str, src: &str) -> VariantError {
    match Variant::from_toml(label, src) {
        Ok(v) => panic!("{label} should be rejected, loaded as {}", v.name),
        Err(e) => e,
    }
}

#[test]
fn fen_wrong_number_of_ranks() {
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1");
    says(&e, &["placement", "7 ranks, expected 8"]);
    let e = fen_error("chess", &format!("{START}/8 w KQkq - 0 1"));
    says(&e, &["placement", "9 ranks, expected 8"]);
    let e = fen_error("sultan", "rbnmckqabnr/ppppppppppp/11 w - - 0 1");
    says(&e, &["placement", "3 ranks, expected 11"]);
    let e = fen_error("chess", "");
    says(&e, &["placement", "empty"]);
    let e = fen_error("chess", "   ");
    says(&e, &["placement", "empty"]);
}

#[test]
fn fen_rank_too_long_or_too_short() {
    let e = fen_error("chess", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    says(&e, &["placement", "rank 7", "9 squares, expected 8"]);
    let e = fen_error("chess", "rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    says(&e, &["placement", "rank 8", "7 squares, expected 8"]);
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    says(&e, &["rank 4", "44 squares, expected 8"]);
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8/99999999999999999999999/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    says(&e, &["rank 4", "expected 8"]);
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8/0/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    says(&e, &["rank 4", "0 squares"]);
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8//8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    says(&e, &["rank 4", "0 squares, expected 8"]);
    // Two-digit runs on the 11-file board: `12` is one square too many.
    let e = fen_error("sultan", "rbnmckqabnr/ppppppppppp/12/11/11/11/11/11/11/PPPPPPPPPPP/RBNMCKQABNR w KQkq - 0 1");
    says(&e, &["rank 9", "12 squares, expected 11"]);
}

#[test]
fn fen_errors_are_typed() {
    let kind = fen_kind("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1");
    assert!(matches!(kind, FenErrorKind::Placement(PlacementError::Ranks { found: 7, expected: 8, .. })));
    let kind = fen_kind("chess", &format!("{START} w KQkx - 0 1"));
    assert_eq!(kind, FenErrorKind::Castling { letter: 'x', field: "KQkx".into() });
    assert_eq!(fen_kind("chess", &format!("{START} w KQkq - x 1")), FenErrorKind::Halfmove("x".into()));
}

/// Positions that read well but cannot arise in a game.
#[test]
fn unplayable_positions_are_refused() {
    let unplayable = |variant: &str, fen: &str| match fen_kind(variant, fen) {
        FenErrorKind::Unplayable(e) => e,
        other => panic!("{fen}: {other}"),
    };
    // No king, or one side without its king.
    let e = unplayable("chess", "8/8/8/8/8/8/8/8 w - - 0 1");
    assert_eq!(e, SetupError::NoRoyal { side: "White", letters: "K".into() });
    assert_eq!(
        unplayable("chess", "4k3/8/8/8/8/8/8/8 b - - 0 1"),
        SetupError::NoRoyal { side: "White", letters: "K".into() }
    );
    assert!(matches!(unplayable("spartan", "4K3/8/8/8/8/8/8/8 w - - 0 1"), SetupError::NoRoyal { side: "Black", .. }));
    // Two white kings in chess; Spartan's second king is fine, a third is not.
    assert!(matches!(
        unplayable("chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        SetupError::TooManyRoyals { count: 2, .. }
    ));
    assert!(Position::from_fen(&Variant::builtin("spartan"), "1k2k3/8/8/8/8/8/8/4K3 w - - 0 1").is_ok());
    // The Persians never get a second king (their pawns do not promote to one).
    let e = unplayable("spartan", "1k2k3/8/8/8/8/8/8/3KK3 w - - 0 1");
    assert_eq!(e, SetupError::TooManyRoyals { side: "White", count: 2, most: 1 });
    // The side that just moved left its king in check.
    let e = unplayable("chess", "4k3/8/8/8/8/8/8/r3K3 b - - 0 1");
    assert_eq!(e, SetupError::OpponentInCheck { side: "White", mover: "Black" });
    assert_eq!(e.to_string(), "side to move: White is in check with Black to move");
    // Two Spartan kings, one attacked: not check. Both attacked with the Persians to move: refused.
    assert!(Position::from_fen(&Variant::builtin("spartan"), "3k3k/8/8/8/8/8/8/R3K3 w - - 0 1").is_ok());
    let e = unplayable("spartan", "R6k/8/8/8/8/8/8/R2kK3 w - - 0 1");
    assert_eq!(e, SetupError::OpponentInCheck { side: "Black", mover: "White" });
    // Pawns on a rank they can never stand on: their promotion rank, or behind their start.
    for (variant, fen, letter, square) in [
        ("chess", "4k2P/8/8/8/8/8/8/4K3 b - - 0 1", 'P', "h8"),
        ("chess", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", 'p', "a1"),
        ("chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", 'P', "a1"),
        ("shatranj", "3k4/8/8/8/8/8/8/p2K4 w - - 0 1", 'p', "a1"),
        ("spartan", "4k2h/8/8/8/8/8/8/4K3 w - - 0 1", 'h', "h8"),
        ("spartan", "4k3/8/8/8/8/8/8/h3K3 w - - 0 1", 'h', "a1"),
        ("great-shatranj", "4k4P/10/10/10/10/10/10/4K5 b - - 0 1", 'P', "j8"),
    ] {
        let e = unplayable(variant, fen);
        assert_eq!(e, SetupError::Unreachable { letter, square: square.into() }, "{variant} {fen}");
    }
    // A pawn one rank from promotion, or on its start rank, is fine.
    assert!(Position::from_fen(&Variant::builtin("chess"), "4k3/7P/8/8/8/8/P7/4K3 w - - 0 1").is_ok());
    // A variant file whose setup cannot be played is refused when it is loaded.
    let e = toml_error("check.toml", "extends = \"chess\"\nsetup = \"4k3/8/8/8/8/8/8/r3K3 b - - 0 1\"\n");
    says(&e.to_string(), &["check.toml:2", "setup", "White is in check with Black to move"]);
    // A side its setup gives no king (as in Horde chess) needs none later.
    let horde =
        Variant::from_toml("horde.toml", "extends = \"chess\"\nsetup = \"4k3/8/8/8/8/8/PPPPPPPP/8 w - - 0 1\"\n");
    let horde = horde.unwrap();
    assert!(Position::from_fen(&horde, "4k3/8/8/8/8/8/8/P7 b - - 0 1").is_err(), "a pawn behind its start");
    assert!(Position::from_fen(&horde, "4k3/8/8/8/8/8/P7/8 b - - 0 1").is_ok());
}

#[test]
fn fen_bad_piece_letters() {
    let e = fen_error("chess", "rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    says(&e, &["placement", "rank 8", "'x' is not a piece letter", "pnbrqk"]);
    // A Spartan letter in chess, a chess letter in shatranj is fine, a non-ASCII one is not.
    let e = fen_error("chess", "lgkcckwl/hhhhhhhh/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1");
    says(&e, &["'l' is not a piece letter"]);
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNé w - - 0 1");
    says(&e, &["rank 1", "'é'"]);
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN# w - - 0 1");
    says(&e, &["rank 1", "'#'"]);
}

#[test]
fn fen_bad_side_to_move() {
    let e = fen_error("chess", &format!("{START} x KQkq - 0 1"));
    says(&e, &["side to move", "'x'"]);
    let e = fen_error("chess", &format!("{START} W KQkq - 0 1"));
    says(&e, &["side to move", "'W'"]);
}

#[test]
fn fen_bad_castling() {
    let e = fen_error("chess", &format!("{START} w KQkx - 0 1"));
    says(&e, &["castling", "'x'", "KQkx"]);
    let e = fen_error("sultan", "rbnmckqabnr/ppppppppppp/11/11/11/11/11/11/11/PPPPPPPPPPP/RBNMCKQABNR w KQAkq - 0 1");
    says(&e, &["castling", "'A'"]);
}

#[test]
fn fen_bad_en_passant() {
    for ep in ["e9", "z3", "e3x", "e", "3e", "e0", "e3-", "--"] {
        let e = fen_error("chess", &format!("{START} w KQkq {ep} 0 1"));
        says(&e, &["en passant", &format!("'{ep}'")]);
    }
    // Sultan has ranks 10 and 11, not 12.
    let e = fen_error("sultan", "rbnmckqabnr/ppppppppppp/11/11/11/11/11/11/11/PPPPPPPPPPP/RBNMCKQABNR w KQkq e12 0 1");
    says(&e, &["en passant", "'e12'"]);
}

#[test]
fn fen_bad_counters() {
    let e = fen_error("chess", &format!("{START} w KQkq - x 1"));
    says(&e, &["halfmove clock", "'x'"]);
    let e = fen_error("chess", &format!("{START} w KQkq - -3 1"));
    says(&e, &["halfmove clock", "'-3'"]);
    let e = fen_error("chess", &format!("{START} w KQkq - 0 one"));
    says(&e, &["fullmove number", "'one'"]);
    let e = fen_error("chess", &format!("{START} w KQkq - 0 99999999999999999999"));
    says(&e, &["fullmove number"]);
    let e = fen_error("chess", &format!("{START} w KQkq - 0 1 extra"));
    says(&e, &["fields", "7 fields"]);
}

#[test]
fn bad_betza_names_the_character() {
    let e = betza::parse("fmWxQ").unwrap_err();
    assert_eq!(e.position, 3);
    says(&e.to_string(), &["at character 4", "'x'"]);
    let e = betza::parse("RX").unwrap_err();
    says(&e.to_string(), &["at character 2", "'X' is not a Betza atom"]);
    let e = betza::parse("KO").unwrap_err();
    says(&e.to_string(), &["at character 2", "O2"]);
    let e = betza::parse("Nfm").unwrap_err();
    says(&e.to_string(), &["at character 2", "not followed by an atom"]);
    let e = betza::parse("W99999999999999").unwrap_err();
    says(&e.to_string(), &["at character 2", "range"]);
    let e = betza::parse("pN").unwrap_err();
    says(&e.to_string(), &["at character 1", "hopper"]);
    // In a variant file: file, line, piece and character.
    let e = toml_error("bad-betza.toml", "extends = \"chess\"\n\n[[pieces]]\nletter = \"n\"\nbetza = \"NfmQx\"\n");
    assert_eq!(e.problems.len(), 1, "{e}");
    says(&e.to_string(), &["bad-betza.toml:5", "pieces.n.betza", "'NfmQx'", "at character 5"]);
}

#[test]
fn board_too_large() {
    let piece = "[[pieces]]\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n";
    let e = toml_error(
        "big.toml",
        &format!(
            "name = \"big\"\nfiles = 12\nranks = 11\nsetup = \"k11/11/11/11/11/11/11/11/11/11/K11 w - - 0 1\"\n{piece}"
        ),
    );
    says(&e.to_string(), &["big.toml:2", "files/ranks", "132 squares", "128"]);
    assert_eq!(
        e.problems[0].kind,
        ProblemKind::Board(GeometryError::TooManySquares { files: 12, ranks: 11, max: 128 })
    );
    let e = toml_error(
        "wide.toml",
        &format!("name = \"wide\"\nfiles = 17\nranks = 4\nsetup = \"k16/17/17/K16 w - - 0 1\"\n{piece}"),
    );
    says(&e.to_string(), &["wide.toml:2", "17x4", "at most 16"]);
    let e = toml_error("empty.toml", &format!("name = \"empty\"\nfiles = 0\nranks = 8\n{piece}"));
    says(&e.to_string(), &["empty.toml:2", "no squares"]);
    let e = toml_error("neg.toml", &format!("name = \"neg\"\nfiles = -8\nranks = 8\n{piece}"));
    says(&e.to_string(), &["neg.toml:2"]);
    // 16 x 8 = 128 is fine.
    let v = Variant::from_toml(
        "max.toml",
        &format!("name = \"max\"\nfiles = 16\nranks = 8\nsetup = \"k15/16/16/16/16/16/16/K15 w - - 0 1\"\n{piece}"),
    )
    .unwrap();
    let p = Position::startpos(&v);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves.len(), 3);
}

#[test]
fn unknown_variant_lists_the_built_ins() {
    let e = Variant::load("xiangqi").unwrap_err().to_string();
    says(
        &e,
        &[
            "unknown variant 'xiangqi'",
            "chess",
            "shatranj",
            "sultan",
            "spartan",
            "rumi-shatranj",
            "great-shatranj",
            "great-shatranj-r",
        ],
    );
    let e = Variant::load("/nonexistent/dir/v.toml").unwrap_err().to_string();
    says(&e, &["cannot read variant file", "/nonexistent/dir/v.toml"]);
}

#[test]
fn unknown_toml_keys_name_file_and_line() {
    let e = toml_error("extra.toml", "extends = \"chess\"\nname = \"x\"\n\ncolour = \"blue\"\n");
    says(&e.to_string(), &["extra.toml:4", "unknown field `colour`"]);
    let e = toml_error("rules.toml", "extends = \"chess\"\n[rules]\nstalemate = \"draw\"\nbare_kings = \"reply\"\n");
    says(&e.to_string(), &["rules.toml:4", "unknown field `bare_kings`", "bare_king"]);
    let e = toml_error("piece.toml", "extends = \"chess\"\n[[pieces]]\nletter = \"n\"\nbeza = \"N\"\n");
    says(&e.to_string(), &["piece.toml:4", "unknown field `beza`"]);
    // Wrong types and broken TOML syntax name the line as well.
    let e = toml_error("type.toml", "extends = \"chess\"\nfiles = \"eight\"\n");
    says(&e.to_string(), &["type.toml:2"]);
    let e = toml_error("syntax.toml", "extends = \"chess\"\n\nname = \n");
    says(&e.to_string(), &["syntax.toml:3"]);
}

#[test]
fn several_problems_are_all_reported() {
    let src = "\
extends = \"chess\"
setup = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1\"
[[pieces]]
letter = \"n\"
betza = \"NX\"
[[pieces]]
letter = \"p\"
promotes_to = \"qz\"
[castling]
rook = \"x\"
[rules]
stalemate = \"maybe\"
bare_king = \"sometimes\"
insufficient_material = [\"K v X\"]
";
    let e = toml_error("many.toml", src);
    let all = e.to_string();
    for (line, field) in [
        (2, "setup"),
        (5, "pieces.n.betza"),
        (8, "pieces.p.promotes_to"),
        (10, "castling.rook"),
        (12, "rules.stalemate"),
        (13, "rules.bare_king"),
        (14, "rules.insufficient_material"),
    ] {
        assert!(
            e.problems.iter().any(|p| p.at == format!("many.toml:{line}") && p.field == field),
            "no problem for {field} on line {line} in:\n{all}"
        );
    }
    assert_eq!(e.problems.len(), 7, "{all}");

    // Missing essentials.
    let e = toml_error("blank.toml", "");
    says(&e.to_string(), &["name: missing", "board size missing", "no pieces"]);
    let e = toml_error(
        "nosetup.toml",
        "name = \"n\"\nfiles = 8\nranks = 8\n[[pieces]]\nletter = \"k\"\nbetza = \"K\"\n[[pieces]]\nletter = \"kk\"\nbetza = \"K\"\n",
    );
    says(&e.to_string(), &["setup: missing", "'kk' must be a single letter"]);
    // A setup whose other FEN fields are bad is caught when the variant is loaded.
    let e = toml_error(
        "side.toml",
        "extends = \"chess\"\nsetup = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1\"\n",
    );
    says(&e.to_string(), &["side.toml:2", "setup", "side to move"]);
    // Other rule fields.
    let e = toml_error(
        "opening.toml",
        "extends = \"rumi-shatranj\"\n[[opening_moves]]\nplayer_move = 1\npiece = \"q\"\nfrom = \"d1\"\nto = \"z9\"\n",
    );
    says(&e.to_string(), &["opening.toml:3", "opening_moves", "z9"]);
    let e = toml_error("promo.toml", "extends = \"chess\"\n[promotion]\nranks = 9\n");
    says(&e.to_string(), &["promo.toml:3", "promotion.ranks"]);
    let e = toml_error("castle.toml", "extends = \"chess\"\n[[pieces]]\nletter = \"k\"\nbetza = \"K\"\n");
    says(&e.to_string(), &["castling", "no piece castles"]);
    let e = toml_error(
        "twice.toml",
        "name = \"t\"\nfiles = 8\nranks = 8\nsetup = \"k7/8/8/8/8/8/8/K7 w - - 0 1\"\n[[pieces]]\nletter = \"k\"\nbetza = \"K\"\n[[pieces]]\nletter = \"K\"\nbetza = \"W\"\n",
    );
    says(&e.to_string(), &["twice.toml:9", "'k' defined twice"]);
    // More than 16 piece types.
    let mut src = String::from("name = \"wide\"\nfiles = 8\nranks = 8\nsetup = \"k7/8/8/8/8/8/8/K7 w - - 0 1\"\n");
    for l in "abcdefghijklmnopq".chars() {
        src += &format!("[[pieces]]\nletter = \"{l}\"\nbetza = \"K\"\n");
    }
    let e = toml_error("types.toml", &src);
    says(&e.to_string(), &["17 piece types", "at most 16"]);
}

#[test]
fn extends_of_an_unknown_base() {
    let e = toml_error("child.toml", "# a child\nextends = \"nosuch\"\nname = \"c\"\n");
    says(&e.to_string(), &["child.toml:2", "extends", "unknown variant 'nosuch'", "chess"]);
    let e = toml_error("child.toml", "extends = \"missing/base.toml\"\n");
    says(&e.to_string(), &["child.toml:1", "extends", "cannot read variant file"]);
    // A file extending a broken file: the error names both.
    let dir = std::env::temp_dir().join(format!("hoplite-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("base.toml"), "extends = \"chess\"\nnonsense = 1\n").unwrap();
    std::fs::write(dir.join("child.toml"), "extends = \"base.toml\"\n").unwrap();
    let e = Variant::load(dir.join("child.toml").to_str().unwrap()).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).ok();
    says(&e, &["child.toml:1: extends", "base.toml:2", "unknown field `nonsense`"]);
    // A cycle.
    let dir = std::env::temp_dir().join(format!("hoplite-cycle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.toml"), "extends = \"b.toml\"\n").unwrap();
    std::fs::write(dir.join("b.toml"), "extends = \"a.toml\"\n").unwrap();
    let e = Variant::load(dir.join("a.toml").to_str().unwrap()).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).ok();
    says(&e, &["cycle"]);
}

#[test]
fn illegal_uci_moves_are_refused() {
    let chess = Variant::builtin("chess");
    let p = Position::startpos(&chess);
    for text in ["e2e5", "e1g1", "e7e5", "e2e4q", "e2", "", "z9z9", "e2e4e5", "E2E4", "e2-e4", "ééé", "a1a1", "g1g3"]
    {
        let e = p.parse_uci(text).unwrap_err();
        assert!(matches!(&e, MoveError::Illegal { text: t, .. } if t == text), "{e}");
        says(&e.to_string(), &[&format!("'{text}'"), "not a legal move"]);
    }
    assert!(p.parse_uci("e2e4").is_ok());
    // A promotion needs its letter, and a letter the variant allows.
    let p = Position::from_fen(&chess, "8/4P3/8/8/8/8/8/k3K3 w - - 0 1").unwrap();
    assert!(p.parse_uci("e7e8").is_err());
    assert!(p.parse_uci("e7e8k").is_err());
    assert!(p.parse_uci("e7e8p").is_err());
    assert!(p.parse_uci("e7e8n").is_ok());
    // Sultan: two-digit ranks; castling is the king's four-square move only.
    let sultan = Variant::builtin("sultan");
    let p = Position::from_fen(&sultan, "r4k4r/11/11/11/11/11/11/11/11/11/R4K4R w KQkq - 0 1").unwrap();
    assert!(p.parse_uci("f1j1").is_ok());
    assert!(p.parse_uci("f1h1").is_err());
    assert!(p.parse_uci("f1k1").is_err());
    let p = Position::startpos(&sultan);
    assert!(p.parse_uci("e2e5").is_ok());
    assert!(p.parse_uci("e2e6").is_err());
    assert!(p.parse_uci("e10e7").is_err(), "not Black's turn");
}

#[test]
fn bad_perft_suite_lines_name_the_line() {
    let e = parse_suite("s.epd", "# c\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\nfen ;D1 x\n").unwrap_err();
    says(&e, &["s.epd:3", "'D1 x'"]);
    let e = parse_suite("s.epd", "8/8/8/8/8/8/8/K6k w - - 0 1\n").unwrap_err();
    says(&e, &["s.epd:1", "no ';D<depth> <nodes>'"]);
    let e = parse_suite("s.epd", "fen ;X1 3\n").unwrap_err();
    says(&e, &["s.epd:1", "'X1 3'"]);
}

/// Naming the line of every error of a long file takes time in proportion to the file, not its
/// square: 60,000 duplicate pieces (a 1.8 MB file) are all reported, the last on its line, in
/// well under the 30 s that counting lines from the top for each took.
#[test]
fn errors_of_a_long_file_are_found_in_linear_time() {
    let mut text = String::from("name = \"long\"\nextends = \"chess\"\n");
    for _ in 0..60_000 {
        text += "[[pieces]]\nletter = \"a\"\nbetza = \"W\"\n";
    }
    let started = std::time::Instant::now();
    let e = Variant::from_toml("long.toml", &text).unwrap_err().to_string();
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    let last = 2 + 3 * 59_999 + 2;
    assert!(
        e.lines().last().unwrap().starts_with(&format!("long.toml:{last}: pieces.letter: 'a' defined twice")),
        "{}",
        e.lines().last().unwrap()
    );
}
