//! A number written with a fixed number of decimals, so that files compare byte for byte.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// `P` decimals when written; any number when read.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Decimal<const P: usize>(pub f64);

impl<const P: usize> Decimal<P> {
    /// `x` as it reads back from its text: a total made from rows in memory then equals one
    /// made from the file (a merge's).
    pub fn rounded(x: f64) -> Self {
        Decimal(format!("{x:.P$}").parse().expect("a formatted number parses"))
    }
}

impl<const P: usize> Serialize for Decimal<P> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:.*}", P, self.0))
    }
}

impl<'de, const P: usize> Deserialize<'de> for Decimal<P> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.trim().parse().map(Decimal).map_err(|_| de::Error::custom(format!("'{text}' is not a number")))
    }
}

impl<const P: usize> std::fmt::Display for Decimal<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.*}", P, self.0)
    }
}
