//! The hand: drops (`pieceDrops`) and captures to the hand (`capturesToHand`), and the drop
//! keys the kit does not have yet, refused when they would act.

use super::kit::{q, squares_value};
use super::Out;
use std::fmt::Write;

/// Drop keys refused when set away from FSF's default while drops are on; without drops they
/// change nothing.
const NOT_YET: &[(&str, &str)] = &[
    ("sittuyinRookDrop", "Sittuyin's rook drops are not in hoplite's rule kit"),
    ("dropOppositeColoredBishop", "bishop drops on opposite colours are not in hoplite's rule kit"),
    ("dropPromoted", "drops of promoted pieces are not in hoplite's rule kit"),
    ("castlingDroppedPiece", "castling rights from a dropped king or rook are not in hoplite's rule kit"),
];

/// The `[rules]` lines of the hand, and refusals of what it cannot say.
pub(super) fn hand(o: &mut Out, rules: &mut String) {
    let r = o.r;
    if r.val("capturesToHand").bool() {
        let _ = writeln!(rules, "captures_to_hand = true");
        if r.val("dropLoop").bool() {
            let _ = writeln!(rules, "drop_loop = true");
        }
    }
    if !r.val("pieceDrops").bool() {
        return;
    }
    let _ = writeln!(rules, "drops = true");
    if r.val("mustDrop").bool() {
        let _ = writeln!(rules, "must_drop = true");
    }
    for &(key, why) in NOT_YET {
        if r.val(key).bool() {
            o.refuse_key(key, why);
        }
    }
    match r.val("enclosingDrop").text() {
        "none" => {}
        fall @ ("top" | "anyside") if o.sq("enclosingDropStart").is_empty() => {
            let _ = writeln!(rules, "drop_fall = {}", q(fall));
        }
        _ => o.refuse_key("enclosingDrop", "drops that must enclose pieces are not in hoplite's rule kit"),
    }
    for (key, kit) in
        [("promotionZonePawnDrops", "pawn_drops_in_zone"), ("firstRankPawnDrops", "pawn_drops_on_first_rank")]
    {
        if r.val(key).bool() {
            let _ = writeln!(rules, "{kit} = true");
        }
    }
    // FSF's pawn-drop mate rule binds the shogi pawn only.
    if let Some(pawn) = r.letter("shogiPawn").filter(|_| r.val("shogiPawnDropMateIllegal").bool()) {
        let _ = writeln!(rules, "drop_mate = {}", q(&pawn.to_string()));
    }
    let doubled = o.letters(&o.types("dropNoDoubled").into_iter().filter(|t| t != "*").collect::<Vec<_>>());
    if !doubled.is_empty() {
        let count = r.val("dropNoDoubledCount").int();
        let _ = writeln!(rules, "drop_no_doubled = {{ types = {}, count = {count} }}", q(&doubled));
    }
    if !r.val("dropChecks").bool() {
        o.refuse_key("dropChecks", "drops that may not give check are not in hoplite's rule kit");
    }
    if o.types("mustDropType").iter().any(|t| t != "*") {
        o.refuse_key("mustDropType", "a compulsory drop is not in hoplite's rule kit");
    }
    let region = (o.sq("dropRegionWhite"), o.sq("dropRegionBlack"));
    if region.0 != o.full() || region.1 != o.full() {
        let _ = writeln!(rules, "drop_region = {}", squares_value(&region.0, &region.1, o.files, o.ranks));
    }
}
