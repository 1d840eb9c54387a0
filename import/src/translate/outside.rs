//! Keys the kit has no counterpart for, and keys FSF does not know: refused wherever they act.

use super::Out;
use crate::rules::Val;

/// Keys the kit has no counterpart for: refused when their value is not FSF's default. Keys
/// that only act on drops are left to `pieceDrops`, since without drops they change nothing.
const NOT_IN_KIT: &[(&str, &str)] = &[
    ("twoBoards", "bughouse's partner boards are not in hoplite's rule kit"),
    ("freeDrops", "drops are not in hoplite's rule kit"),
    ("gating", "gating (pieces entering on vacated squares) is not in hoplite's rule kit"),
    ("seirawanGating", "gating (pieces entering on vacated squares) is not in hoplite's rule kit"),
    ("cambodianMoves", "Ouk Chatrang's first moves are not in hoplite's rule kit"),
    ("wallOrMove", "a wall placed instead of a move (Atlantis) is not in hoplite's rule kit"),
    ("petrifyBlastPieces", "blasted pieces turning into walls are not in hoplite's rule kit"),
    ("petrifyOnCaptureTypes", "capturers turning into walls are not in hoplite's rule kit"),
    ("diagonalLines", "Janggi's palace diagonals are not in hoplite's rule kit"),
    ("passWhite", "passing is not in hoplite's rule kit"),
    ("passBlack", "passing is not in hoplite's rule kit"),
    ("flipEnclosedPieces", "flipping enclosed pieces is not in hoplite's rule kit"),
    ("moveRepetitionIllegal", "illegal move repetition is not in hoplite's rule kit"),
    ("chasingRule", "perpetual-chase rules are not in hoplite's rule kit"),
    ("bikjangRule", "bikjang (facing kings end the game) is not in hoplite's rule kit"),
    ("connectNxN", "connection wins are not in hoplite's rule kit"),
    ("connectRegion1White", "connection wins are not in hoplite's rule kit"),
    ("connectRegion1Black", "connection wins are not in hoplite's rule kit"),
    ("connectRegion2White", "connection wins are not in hoplite's rule kit"),
    ("connectRegion2Black", "connection wins are not in hoplite's rule kit"),
    ("adjudicateFullBoard", "adjudication on a full board is not in hoplite's rule kit"),
    ("sittuyinPromotion", "Sittuyin's in-place promotion is not in hoplite's rule kit"),
    ("piecePromotionOnCapture", "promotion only on captures is not in hoplite's rule kit"),
    ("pieceDemotion", "demotion is not in hoplite's rule kit"),
];

/// Whether a value is FSF's default for its kind of key (off, 0, none, empty).
fn is_default(v: &Val) -> bool {
    match v {
        Val::Bool(b) => !b,
        Val::Int(n) => *n == 0,
        Val::Text(t) => t == "none" || t == "-" || t.is_empty(),
        Val::Squares(s) => s.is_empty(),
        Val::Types(t) => t.is_empty(),
    }
}

/// Refuses the keys FSF does not know and those of rules the kit does not have.
pub(super) fn refuse_outside_kit(o: &mut Out) {
    let r = o.r;
    for s in &r.unknown {
        o.refuse(s, "not a key FSF knows (FSF ignores it); fix or remove it");
    }
    for &(key, why) in NOT_IN_KIT {
        let s = r.get(key).clone();
        let mut active = !is_default(&s.val);
        if key == "diagonalLines" || key.starts_with("connectRegion") {
            active = !o.on_board(&s.val.squares()).is_empty();
        }
        if active {
            o.refuse(&s, why);
        }
    }
    if matches!(r.val("materialCounting").text(), "janggi") {
        o.refuse_key("materialCounting", "Janggi's point counting is not in hoplite's rule kit");
    }
}
