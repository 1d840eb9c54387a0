//! The `[rules]` table: the game's ends (results, extinction, flags, draws) and the rules of
//! play that are not a piece's (checks, walls, passing, en-passant landing squares).

use super::kit::{q, result, squares_value};
use super::Out;
use std::fmt::Write;

/// The `[rules]` table's lines; `checks` is the checks' count when checks are counted.
pub(super) fn rules_table(o: &mut Out, checks: Option<(u32, u32)>, has_pawn: bool) -> String {
    let mut rules = String::new();
    results(o, &mut rules, checks);
    extinction(o, &mut rules);
    blast(o, &mut rules);
    connect(o, &mut rules);
    flag(o, &mut rules);
    draws(o, &mut rules);
    play(o, &mut rules, has_pawn);
    super::hand::hand(o, &mut rules);
    rules
}

/// Checkmate and stalemate results, and the rules about checks and captures.
fn results(o: &mut Out, rules: &mut String, checks: Option<(u32, u32)>) {
    let r = o.r;
    for (key, kit) in [("checkmateValue", "checkmate"), ("stalemateValue", "stalemate")] {
        let v = r.val(key).text();
        let default = if key == "checkmateValue" { "loss" } else { "draw" };
        match result(v) {
            Some(x) if x != default => {
                let _ = writeln!(rules, "{kit} = {}", q(x));
            }
            Some(_) => {}
            None => o.refuse_key(key, "no result ('none') is not in hoplite's rule kit"),
        }
    }
    if r.val("stalematePieceCount").bool() {
        let _ = writeln!(rules, "stalemate_count = true");
    }
    if r.val("mustCapture").bool() {
        let _ = writeln!(rules, "must_capture = true");
    }
    if !r.val("checking").bool() {
        let _ = writeln!(rules, "no_check = true");
    }
    if let Some((w, b)) = checks {
        let _ = writeln!(rules, "checks = {}", w.max(b));
    }
    if r.val("flyingGeneral").bool() {
        let _ = writeln!(rules, "flying_general = true");
    }
    if r.val("immobilityIllegal").bool() {
        let _ = writeln!(rules, "immobility_illegal = true");
    }
    let wins = r.val("castlingWins").text();
    if wins != "-" && !wins.is_empty() {
        let _ = writeln!(rules, "castling_wins = {}", q(wins));
    }
    if r.val("makpongRule").bool() {
        let _ = writeln!(rules, "makpong = true");
    }
    if r.val("shatarMateRule").bool() {
        // FSF's shak is a check by its knight, rook or bers types; the knight alone may not mate.
        let letters = |names: &[&str]| names.iter().filter_map(|n| r.letter(n)).collect::<String>();
        let (shak, knight) = (letters(&["knight", "rook", "bers"]), letters(&["knight"]));
        let _ = writeln!(rules, "shatar_mate = {{ shak = {}, not_alone = {} }}", q(&shak), q(&knight));
    }
}

/// Pseudo-royal pieces (FSF's extinction with `extinctionPseudoRoyal`) and extinction.
fn extinction(o: &mut Out, rules: &mut String) {
    let r = o.r;
    let pseudo = r.val("extinctionPseudoRoyal").bool();
    let duple = pseudo && r.val("dupleCheck").bool();
    let ext_count = r.val("extinctionPieceCount").int();
    let ext_types = o.types("extinctionPieceTypes");
    let ext_letters = if ext_types.iter().any(|t| t == "*") { "*".to_string() } else { o.letters(&ext_types) };
    if pseudo && !duple && !ext_types.is_empty() {
        let _ = writeln!(rules, "pseudo_royal = {{ types = {}, count = {ext_count} }}", q(&ext_letters));
    }
    let ext_value = r.val("extinctionValue").text();
    // FSF ends a game by extinction of pseudo-royal pieces only where a blast can take them.
    let extinct = !pseudo || r.val("blastOnCapture").bool();
    if extinct && ext_value != "none" && !ext_types.is_empty() {
        if ext_types.iter().any(|t| t != "*" && r.letter(t).is_none()) {
            o.refuse_key("extinctionPieceTypes", "an extinction type that is not in the game");
        }
        let mut items = vec![format!("types = {}", q(&ext_letters))];
        if ext_count != 0 {
            items.push(format!("count = {ext_count}"));
        }
        let opp = r.val("extinctionOpponentPieceCount").int();
        if opp != 0 {
            items.push(format!("opponent_count = {opp}"));
        }
        if ext_value != "loss" {
            items.push(format!("value = {}", q(ext_value)));
        }
        if r.val("extinctionClaim").bool() {
            items.push("claim = true".into());
        }
        let _ = writeln!(rules, "extinction = {{ {} }}", items.join(", "));
    }
}

/// Atomic's blast: FSF spares its pawn type (the piece of `pawn`, not other pawn-like pieces)
/// next to the capture, and `blastImmuneTypes` everywhere.
fn blast(o: &mut Out, rules: &mut String) {
    if !o.r.val("blastOnCapture").bool() {
        return;
    }
    if o.r.val("capturesToHand").bool() {
        o.refuse_key("blastOnCapture", "a blast with captures to the hand is not in hoplite's rule kit");
    }
    let spares: String = o.r.letter("pawn").into_iter().collect();
    let immune = o.letters(&o.types("blastImmuneTypes"));
    let mut items = vec![format!("spares = {}", q(&spares))];
    if !immune.is_empty() {
        items.push(format!("immune = {}", q(&immune)));
    }
    let _ = writeln!(rules, "blast = {{ {} }}", items.join(", "));
}

/// Connect-N: a line of pieces wins (FSF's `connectValue` is the connector's result).
fn connect(o: &mut Out, rules: &mut String) {
    let r = o.r;
    let (n, collinear) = (r.val("connectN").int(), r.val("collinearN").int());
    if n > 0 && collinear > 0 {
        o.refuse_key("collinearN", "a connection and a collinear line in one game are not in hoplite's rule kit");
    }
    let mut items = match (n, collinear) {
        (n, _) if n > 0 => vec![format!("count = {n}")],
        (_, c) if c > 0 => vec![format!("count = {c}"), "collinear = true".into()],
        _ => return,
    };
    let types = o.types("connectPieceTypes");
    if !types.iter().any(|t| t == "*all*" || t == "*") {
        items.push(format!("pieces = {}", q(&o.letters(&types))));
    }
    for (key, kit) in
        [("connectHorizontal", "horizontal"), ("connectVertical", "vertical"), ("connectDiagonal", "diagonal")]
    {
        if !r.val(key).bool() {
            items.push(format!("{kit} = false"));
        }
    }
    match result(r.val("connectValue").text()) {
        Some("win") => {}
        Some(v) => items.push(format!("value = {}", q(v))),
        None => o.refuse_key("connectValue", "no result ('none') for a connection is not in hoplite's rule kit"),
    }
    let _ = writeln!(rules, "connect = {{ {} }}", items.join(", "));
}

/// A flag: a piece reaching a region wins (king of the hill, racing kings).
fn flag(o: &mut Out, rules: &mut String) {
    let (r, files, ranks) = (o.r, o.files, o.ranks);
    let (fw, fb) = (o.sq("flagRegionWhite"), o.sq("flagRegionBlack"));
    if !fw.is_empty() || !fb.is_empty() {
        let (pw, pb) = (o.types("flagPieceWhite"), o.types("flagPieceBlack"));
        let name = |t: &Vec<String>| match t.first().map(String::as_str) {
            None | Some("*") => "*".to_string(),
            Some(n) => r.letter(n).map_or("?".into(), |c| c.to_string()),
        };
        let piece = if fw.is_empty() {
            name(&pb)
        } else if fb.is_empty() || name(&pw) == name(&pb) {
            name(&pw)
        } else {
            o.refuse_key(
                "flagPieceBlack",
                "flag pieces that differ by colour are not in hoplite's rule kit (flag.piece is one letter)",
            );
            name(&pw)
        };
        let mut items = Vec::new();
        if piece != "*" {
            items.push(format!("piece = {}", q(&piece)));
        }
        items.push(format!("region = {}", squares_value(&fw, &fb, files, ranks)));
        let count = r.val("flagPieceCount").int();
        if count != 1 {
            items.push(format!("count = {count}"));
        }
        for (key, kit) in [("flagMove", "move"), ("flagPieceSafe", "safe"), ("flagPieceBlockedWin", "blocked")] {
            if r.val(key).bool() {
                items.push(format!("{kit} = true"));
            }
        }
        let _ = writeln!(rules, "flag = {{ {} }}", items.join(", "));
    }
}

/// Draws: the move rule, repetitions and their result, perpetual check, material counting.
fn draws(o: &mut Out, rules: &mut String) {
    let r = o.r;
    let n_move = r.val("nMoveRule").int();
    if n_move * 2 != 100 {
        let _ = writeln!(rules, "move_rule = {}", n_move.max(0) * 2);
    }
    let n_fold = r.val("nFoldRule").int();
    if n_fold != 3 {
        let _ = writeln!(rules, "repetitions = {}", n_fold.max(0));
    }
    match result(r.val("nFoldValue").text()) {
        Some("draw") => {}
        Some(v) => {
            let _ = writeln!(rules, "repetition_value = {}", q(v));
        }
        None => o.refuse_key("nFoldValue", "no result ('none') for a repetition is not in hoplite's rule kit"),
    }
    if r.val("nFoldValueAbsolute").bool() {
        let _ = writeln!(rules, "repetition_absolute = true");
    }
    if r.val("perpetualCheckIllegal").bool() {
        let _ = writeln!(rules, "perpetual_check = true");
    }
    match r.val("materialCounting").text() {
        "whitedrawodds" => {
            let _ = writeln!(rules, "material_counting = \"white_draw_odds\"");
        }
        "blackdrawodds" => {
            let _ = writeln!(rules, "material_counting = \"black_draw_odds\"");
        }
        "unweighted" => {
            let _ = writeln!(rules, "material_counting = \"unweighted\"");
        }
        _ => {}
    }
}

/// The rest of play: where en-passant captures land, passing when stalemated, walls, and
/// counting rules (refused).
fn play(o: &mut Out, rules: &mut String, has_pawn: bool) {
    let (r, files, ranks) = (o.r, o.files, o.ranks);
    let full = o.full();
    // Where en-passant captures may land, per capturer (FSF: the capturer's region).
    let ep_regions = (o.sq("enPassantRegionWhite"), o.sq("enPassantRegionBlack"));
    let ep_possible = (!ep_regions.0.is_empty(), !ep_regions.1.is_empty());
    if has_pawn && (ep_possible.0 || ep_possible.1) && (ep_regions.0 != full || ep_regions.1 != full) {
        let _ = writeln!(rules, "en_passant_region = {}", squares_value(&ep_regions.0, &ep_regions.1, files, ranks));
    }
    match (r.val("passOnStalemateWhite").bool(), r.val("passOnStalemateBlack").bool()) {
        (false, false) => {}
        (true, true) => {
            let _ = writeln!(rules, "pass_on_stalemate = true");
        }
        _ => o.refuse_key("passOnStalemateBlack", "passing for one side only is not in hoplite's rule kit"),
    }
    match r.val("wallingRule").text() {
        "none" => {}
        rule @ ("arrow" | "duck" | "past" | "static") => {
            let _ = writeln!(rules, "walling = {}", q(rule));
            let region = (o.sq("wallingRegionWhite"), o.sq("wallingRegionBlack"));
            if region.0 != full || region.1 != full {
                let _ = writeln!(rules, "walling_region = {}", squares_value(&region.0, &region.1, files, ranks));
            }
        }
        _ => o.refuse_key("wallingRule", "walls on the board's edge (Atlantis) are not in hoplite's rule kit"),
    }
    match r.val("countingRule").text() {
        "none" => {}
        rule @ ("makruk" | "asean") => {
            // FSF counts by its pawn, rook, khon (its silver) and knight types.
            let role = |name: &str| q(&r.letter(name).map(String::from).unwrap_or_default());
            let (pawn, rook, khon, knight) = (role("pawn"), role("rook"), role("silver"), role("knight"));
            let _ = writeln!(
                rules,
                "counting = {{ rule = {}, pawn = {pawn}, rook = {rook}, khon = {khon}, knight = {knight} }}",
                q(rule)
            );
        }
        _ => o.refuse_key("countingRule", "Cambodian counting is not in hoplite's rule kit"),
    }
}
