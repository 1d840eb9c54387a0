//! A training's state after an epoch (`checkpoint.bin`): enough to go on as if never stopped.
//! The shuffle of epoch `e` is drawn from the seed and `e` alone, so the epoch number is the
//! generator's whole state. Little-endian:
//!
//! | what |
//! |---|
//! | `HOPLCKPT`, format version (`u32`) |
//! | the settings line (`u32` length, UTF-8): what must match to resume |
//! | epochs done (`u32`), optimiser steps (`u64`) |
//! | the loss curve: rows (`u32`), each epoch (`u32`), train, validation (NaN for none) and seconds (`f64`) |
//! | the network, then AdamW's first and second moments: each parameter as an `f32`, in `FloatNetwork`'s order |

use super::adam::AdamW;
use super::EpochRow;
use crate::error::TuneError;
use hoplite_search::eval::network::FloatNetwork;
use std::path::Path;

const MAGIC: &[u8; 8] = b"HOPLCKPT";
const VERSION: u32 = 1;

/// A training stopped after `epoch` epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub settings: String,
    pub epoch: usize,
    pub net: FloatNetwork,
    pub adam: AdamW,
    pub curve: Vec<EpochRow>,
}

fn floats(b: &mut Vec<u8>, n: &FloatNetwork) {
    for x in n.ft_weights.iter().chain(&n.ft_bias).chain(&n.out_weights).chain([&n.out_bias]) {
        b.extend_from_slice(&x.to_le_bytes());
    }
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(self.settings.len() as u32).to_le_bytes());
        b.extend_from_slice(self.settings.as_bytes());
        b.extend_from_slice(&(self.epoch as u32).to_le_bytes());
        b.extend_from_slice(&self.adam.steps.to_le_bytes());
        b.extend_from_slice(&(self.curve.len() as u32).to_le_bytes());
        for r in &self.curve {
            b.extend_from_slice(&(r.epoch as u32).to_le_bytes());
            for x in [r.train_loss, r.validation_loss.unwrap_or(f64::NAN), r.seconds] {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        for n in [&self.net, &self.adam.m, &self.adam.v] {
            floats(&mut b, n);
        }
        b
    }

    /// The checkpoint in `bytes`, its networks shaped like `zero`.
    pub fn from_bytes(bytes: &[u8], zero: &FloatNetwork) -> Result<Checkpoint, String> {
        let mut r = Reader { b: bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err("not a training checkpoint (it does not begin with HOPLCKPT)".into());
        }
        let version = r.u32()?;
        if version != VERSION {
            return Err(format!("a checkpoint of format version {version}; this hoplite reads {VERSION}"));
        }
        let len = r.u32()? as usize;
        let settings = String::from_utf8(r.take(len)?.to_vec()).map_err(|_| "settings not UTF-8")?;
        let epoch = r.u32()? as usize;
        let steps = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
        let mut curve = Vec::new();
        for _ in 0..r.u32()? {
            let epoch = r.u32()? as usize;
            let [train_loss, valid, seconds] = [r.f64()?, r.f64()?, r.f64()?];
            let validation_loss = (!valid.is_nan()).then_some(valid);
            curve.push(EpochRow { epoch, train_loss, validation_loss, seconds });
        }
        let mut nets = [zero.clone(), zero.clone(), zero.clone()];
        for n in &mut nets {
            for x in n.ft_weights.iter_mut().chain(&mut n.ft_bias).chain(&mut n.out_weights) {
                *x = r.f32()?;
            }
            n.out_bias = r.f32()?;
        }
        if r.at != bytes.len() {
            return Err(format!("{} bytes after the end", bytes.len() - r.at));
        }
        let [net, m, v] = nets;
        Ok(Checkpoint { settings, epoch, net, adam: AdamW { m, v, steps }, curve })
    }

    /// Writes the checkpoint to `path` by way of a temporary file and a rename, so that a
    /// training killed while writing leaves the previous checkpoint whole.
    pub fn save(&self, path: &Path) -> Result<(), TuneError> {
        let tmp = path.with_extension("bin.tmp");
        let io = |p: &Path, e: std::io::Error| TuneError::Checkpoint {
            path: p.display().to_string(),
            message: e.to_string(),
        };
        std::fs::write(&tmp, self.to_bytes()).map_err(|e| io(&tmp, e))?;
        std::fs::rename(&tmp, path).map_err(|e| io(path, e))
    }

    /// The checkpoint at `path`, or `None` if there is none.
    pub fn load(path: &Path, zero: &FloatNetwork) -> Result<Option<Checkpoint>, TuneError> {
        let err = |message: String| TuneError::Checkpoint { path: path.display().to_string(), message };
        match std::fs::read(path) {
            Ok(bytes) => Checkpoint::from_bytes(&bytes, zero).map(Some).map_err(err),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(err(e.to_string())),
        }
    }
}

/// A cursor over a checkpoint's bytes.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let s = self.b.get(self.at..self.at + n).ok_or_else(|| format!("cut short at byte {}", self.at))?;
        self.at += n;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::{adam, gradient};

    #[test]
    fn a_checkpoint_round_trips_and_a_cut_one_is_refused() {
        let net = adam::initial(10, 4, 3);
        let mut opt = AdamW::new(gradient::zeros(10, 4));
        opt.m.ft_weights[7] = 0.25;
        opt.steps = 12;
        let curve = vec![
            EpochRow { epoch: 1, train_loss: 0.5, validation_loss: Some(0.25), seconds: 1.5 },
            EpochRow { epoch: 2, train_loss: 0.4, validation_loss: None, seconds: 1.0 },
        ];
        let c = Checkpoint { settings: "hidden=4".into(), epoch: 2, net, adam: opt, curve };
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes, &gradient::zeros(10, 4)), Ok(c));
        let e = Checkpoint::from_bytes(&bytes[..bytes.len() - 1], &gradient::zeros(10, 4)).unwrap_err();
        assert!(e.contains("cut short"), "{e}");
        assert!(Checkpoint::from_bytes(&bytes, &gradient::zeros(10, 8)).is_err());
    }
}
