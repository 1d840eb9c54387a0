//! Network files: a header that says what the network is (format version, the variant's board
//! and pieces as a fingerprint, the architecture, the quantisation), the integers little-endian,
//! then a checksum of everything before it. A file for another variant, of another version or
//! damaged is refused, saying which.
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `HOPLNNUE` |
//! | 4 | format version (1) |
//! | 8 | the layout's fingerprint |
//! | 2 + 2 + 2 | files, ranks, piece types |
//! | 2 + n | the pieces' letters (UTF-8) |
//! | 4 | hidden width |
//! | 1 | activation (1: clipped squared ReLU) |
//! | 2 + 2 + 2 | `QA`, `QB`, `SCALE` |
//! | 2 each | the feature transformer's weights (input by input), its biases, the output weights |
//! | 4 | the output bias |
//! | 8 | checksum |

use super::{Layout, Network, QA, QB, SCALE};
use crate::error::NetworkError;
use hoplite_core::seed::mix64;
use std::path::Path;

const MAGIC: &[u8; 8] = b"HOPLNNUE";
const VERSION: u32 = 1;
const SCRELU: u8 = 1;
/// The widest hidden layer a file may ask for (its weights must fit in memory anyway).
const MAX_HIDDEN: usize = 4096;

/// A checksum of `bytes`: each 8-byte word (the last padded with zeros) mixed in turn.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(bytes.len() as u64, |h, c| {
        let mut word = [0u8; 8];
        word[..c.len()].copy_from_slice(c);
        mix64(h ^ u64::from_le_bytes(word))
    })
}

/// A hash of a network file's bytes, which run.toml records beside its name so that a
/// resume with another network of the same name is refused.
pub fn file_hash(path: &Path) -> Result<u64, NetworkError> {
    let bytes = std::fs::read(path)
        .map_err(|e| NetworkError::Read { path: path.display().to_string(), message: e.to_string() })?;
    Ok(bytes_hash(&bytes))
}

/// `file_hash` of a network's bytes held in memory (a shipped network).
pub fn bytes_hash(bytes: &[u8]) -> u64 {
    checksum(bytes)
}

impl Network {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let l = &self.layout;
        let mut b = Vec::with_capacity(64 + 2 * self.ft_weights.len());
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&l.fingerprint.to_le_bytes());
        for n in [l.files, l.ranks, l.types, l.letters.len()] {
            b.extend_from_slice(&(n as u16).to_le_bytes());
        }
        b.extend_from_slice(l.letters.as_bytes());
        b.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        b.push(SCRELU);
        for q in [QA, QB, SCALE] {
            b.extend_from_slice(&(q as u16).to_le_bytes());
        }
        for w in self.ft_weights.iter().chain(&self.ft_bias).chain(&self.out_weights) {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(&self.out_bias.to_le_bytes());
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Writes the file.
    pub fn save(&self, path: &Path) -> Result<(), NetworkError> {
        std::fs::write(path, self.to_bytes())
            .map_err(|e| NetworkError::Read { path: path.display().to_string(), message: e.to_string() })
    }

    /// Reads a network file made for `layout`'s variant (`variant` names it in messages).
    pub fn load(path: &Path, layout: &Layout, variant: &str) -> Result<Network, NetworkError> {
        let label = path.display().to_string();
        let bytes =
            std::fs::read(path).map_err(|e| NetworkError::Read { path: label.clone(), message: e.to_string() })?;
        Network::from_bytes(&bytes, &label, layout, variant)
    }

    /// A network from a file's bytes (`label` names it in messages).
    pub fn from_bytes(bytes: &[u8], label: &str, layout: &Layout, variant: &str) -> Result<Network, NetworkError> {
        let path = || label.to_string();
        let mut r = Reader { bytes, at: 0 };
        let truncated = |expected: usize| NetworkError::Truncated { path: path(), found: bytes.len(), expected };
        let short = || NetworkError::ShortHeader { path: path() };
        if r.take(8).ok_or_else(|| NetworkError::NotANetwork { path: path() })? != MAGIC {
            return Err(NetworkError::NotANetwork { path: path() });
        }
        let version = r.u32().ok_or_else(short)?;
        if version != VERSION {
            return Err(NetworkError::Version { path: path(), found: version, expected: VERSION });
        }
        let fingerprint = r.u64().ok_or_else(short)?;
        let mut dims = [0usize; 4];
        for d in &mut dims {
            *d = r.u16().ok_or_else(short)? as usize;
        }
        let [files, ranks, types, letters_len] = dims;
        let letters = r.take(letters_len).ok_or_else(short)?;
        let letters = String::from_utf8_lossy(letters).to_string();
        let network = format!("{files}x{ranks} {letters}");
        if fingerprint != layout.fingerprint || (files, ranks, types) != (layout.files, layout.ranks, layout.types) {
            return Err(NetworkError::OtherVariant {
                path: path(),
                network,
                found: fingerprint,
                variant: variant.to_string(),
                wanted: layout.describe(),
                expected: layout.fingerprint,
            });
        }
        let hidden = r.u32().ok_or_else(short)? as usize;
        let activation = r.take(1).ok_or_else(short)?[0];
        let architecture =
            |what, found: u64, expected: u64| NetworkError::Architecture { path: path(), what, found, expected };
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(architecture("the hidden width", hidden as u64, MAX_HIDDEN as u64));
        }
        if activation != SCRELU {
            return Err(architecture("the activation", u64::from(activation), u64::from(SCRELU)));
        }
        for (what, expected) in [("QA", QA), ("QB", QB), ("SCALE", SCALE)] {
            let found = r.u16().ok_or_else(short)?;
            if i32::from(found) != expected {
                return Err(architecture(what, u64::from(found), expected as u64));
            }
        }
        let inputs = layout.inputs();
        let expected = r.at + 2 * (inputs * hidden + 3 * hidden) + 4 + 8;
        if bytes.len() != expected {
            return Err(truncated(expected));
        }
        if checksum(&bytes[..expected - 8]) != u64::from_le_bytes(bytes[expected - 8..].try_into().expect("8 bytes")) {
            return Err(NetworkError::Checksum { path: path() });
        }
        let mut words = |n: usize| (0..n).map(|_| r.i16().expect("length checked")).collect::<Vec<i16>>();
        let ft_weights = words(inputs * hidden);
        let ft_bias = words(hidden);
        let out_weights = words(2 * hidden);
        let out_bias = r.u32().expect("length checked") as i32;
        Ok(Network { layout: layout.clone(), hidden, ft_weights, ft_bias, out_weights, out_bias })
    }
}

/// Little-endian reads from a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn i16(&mut self) -> Option<i16> {
        Some(i16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}
