//! The one registry of built-in variants: each one's variant file, the evaluation weights
//! hoplite plays it with (fitted by `hoplite tune`, kept where they won a match:
//! data/weights/README.md) and the piece values the tuner fitted (data/piece-values/), all
//! embedded so that nothing needs to be on disk; and Fairy-Stockfish's variants that ship as
//! built-ins (configs/variants/fsf/, embedded by build.rs).

include!(concat!(env!("OUT_DIR"), "/fsf_builtins.rs"));

/// A built-in variant of hoplite's own and the files that come with it.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    pub name: &'static str,
    /// The variant file (configs/variants/NAME.toml).
    pub file: &'static str,
    /// Its tuned weights file (data/weights/NAME.toml), which the search reads.
    pub weights: &'static str,
    /// Its Texel-tuned material in pawns (data/piece-values/NAME.toml).
    pub values: &'static str,
}

macro_rules! builtins {
    ($($name:literal),* $(,)?) => {
        /// hoplite's built-in variants, in the order `hoplite variants` lists them.
        pub const BUILTINS: &[Builtin] = &[$(Builtin {
            name: $name,
            file: include_str!(concat!("../../../configs/variants/", $name, ".toml")),
            weights: include_str!(concat!("../../../data/weights/", $name, ".toml")),
            values: include_str!(concat!("../../../data/piece-values/", $name, ".toml")),
        }),*];
    };
}

builtins!["chess", "shatranj", "sultan", "spartan", "rumi-shatranj", "great-shatranj", "great-shatranj-r"];

/// hoplite's built-in variant of this name.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// The network shipped for hoplite's built-in variant `name` (data/networks/NAME.nnue), if any.
pub fn shipped_network(name: &str) -> Option<&'static [u8]> {
    SHIPPED_NETWORKS.iter().find(|(n, _)| *n == name).map(|(_, bytes)| *bytes)
}

/// The names of hoplite's built-in variants.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTINS.iter().map(|b| b.name).collect()
}

/// Whether `name` is a built-in variant's (hoplite's or a shipped Fairy-Stockfish one).
pub fn is_builtin(name: &str) -> bool {
    builtin(name).is_some() || FSF_BUILTIN.iter().any(|(n, _)| *n == name)
}

/// The names of Fairy-Stockfish's variants shipped as built-ins (`FSF_BUILTIN`).
pub fn fsf_builtin_names() -> Vec<&'static str> {
    FSF_BUILTIN.iter().map(|(n, _)| *n).collect()
}
