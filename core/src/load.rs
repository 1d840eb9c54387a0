//! Loading a variant: a built-in name or a file path, the `extends` chain followed, the spec
//! compiled, and the start position checked to be playable.

use crate::error::{Problem, ProblemKind, VariantError};
use crate::position::Position;
use crate::variant::builtins::{builtin, builtin_names, FSF_BUILTIN};
use crate::variant::spec::{parse_file, Located, VariantSpec};
use crate::variant::Variant;
use std::path::Path;
use std::sync::Arc;

/// Reads a spec by built-in name or path, following `extends`.
fn load_spec(name: &str, dir: Option<&Path>, depth: usize) -> Result<VariantSpec, VariantError> {
    if depth > 8 {
        return Err(Problem::new(format!("'{name}'"), "", ProblemKind::ExtendsCycle).into());
    }
    let builtin = builtin(name);
    let fsf = FSF_BUILTIN.iter().find(|(n, _)| *n == name);
    let (label, src, here) = if let Some(b) = builtin {
        (format!("configs/variants/{name}.toml"), b.file.to_string(), None)
    } else if let Some((_, src)) = fsf {
        (format!("configs/variants/fsf/{name}.toml"), src.to_string(), None)
    } else {
        let path = match dir {
            Some(d) if Path::new(name).is_relative() => d.join(name),
            _ => Path::new(name).to_path_buf(),
        };
        let looks_like_file = name.ends_with(".toml") || name.contains('/') || path.exists();
        if !looks_like_file {
            let builtins = format!(
                "{}, and {} of Fairy-Stockfish's (hoplite variants)",
                builtin_names().join(", "),
                FSF_BUILTIN.len()
            );
            let kind = ProblemKind::UnknownVariant { name: name.into(), builtins };
            return Err(Problem::new("", "", kind).into());
        }
        let src = std::fs::read_to_string(&path).map_err(|e| {
            Problem::new("", "", ProblemKind::Read { path: path.display().to_string(), message: e.to_string() })
        })?;
        let here = path.parent().map(|p| p.to_path_buf());
        (path.display().to_string(), src, here)
    };
    let (mut spec, extends) = parse_file(&label, &src)?;
    spec.builtin = builtin.map(|b| b.name.to_string());
    extend(spec, extends, here.as_deref().or(dir), depth)
}

/// Lays `spec` over the variant it extends, if any.
fn extend(
    spec: VariantSpec,
    extends: Option<Located<String>>,
    dir: Option<&Path>,
    depth: usize,
) -> Result<VariantSpec, VariantError> {
    match extends {
        None => Ok(spec),
        Some(base) => {
            let base_spec = load_spec(&base.value, dir, depth + 1)
                .map_err(|e| Problem::new(&*base.at, "extends", ProblemKind::Base(Box::new(e))))?;
            Ok(base_spec.overlay(spec))
        }
    }
}

impl Variant {
    /// A built-in variant by name, or a variant file by path.
    pub fn load(name_or_path: &str) -> Result<Arc<Variant>, VariantError> {
        let spec = load_spec(name_or_path, None, 0)?;
        Variant::finish(spec)
    }

    /// A built-in variant; panics only if the shipped files are broken (tests check them).
    pub fn builtin(name: &str) -> Arc<Variant> {
        assert!(crate::variant::builtins::is_builtin(name), "no built-in variant '{name}'");
        Variant::load(name).unwrap_or_else(|e| panic!("built-in variant {name}: {e}"))
    }

    /// A variant from TOML text; `label` names it in errors.
    pub fn from_toml(label: &str, src: &str) -> Result<Arc<Variant>, VariantError> {
        let (spec, extends) = parse_file(label, src)?;
        Variant::finish(extend(spec, extends, None, 0)?)
    }

    /// Compiles a spec and checks that its start position can be played.
    fn finish(spec: VariantSpec) -> Result<Arc<Variant>, VariantError> {
        let at = spec.setup.as_ref().map_or_else(|| "variant".to_string(), |s| s.at.to_string());
        let variant = Arc::new(Variant::compile(spec)?);
        Position::from_setup(&variant, &variant.start).map_err(|e| {
            let fen = crate::error::FenError { fen: variant.setup.clone(), kind: e.into() };
            Problem::new(at, "setup", ProblemKind::Fen(fen))
        })?;
        Ok(variant)
    }
}
