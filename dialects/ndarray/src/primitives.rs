//! The primitive registry: every elementwise op of the dialect is a primitive (a name, an arity,
//! a scalar forward body built from arith/math ops, an optional hand-written backward, and
//! whether it may join a fused chain). The dialect's own ops are registered first, under their
//! mnemonics (`add`, `relu`, `lt`, ...); [`register_primitive`] adds more, which the IR then names
//! with `ndarray.primitive "name"(...)` and which fuse exactly as built-in ones do.
//!
//! The registry is process-wide, as op registration is: a primitive is a property of the
//! program's language, not of one compilation.

use qd_arith::{build_binary, build_cmpf, build_constant_float, build_select, build_unary};
use qd_arith::{names as an, CmpFPredicate};
use qd_ir::{Builder, Location, Value};
use qd_math::names as mn;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

/// Builds the scalar forward body at the builder's insertion point from scalar operands (of the
/// element type; a `select` condition is i1) and returns the scalar result.
pub type ForwardFn = Arc<dyn Fn(&mut Builder, &[Value], Location) -> Value + Send + Sync>;

/// What a hand-written backward sees: the scalar operands, the forward result and its adjoint.
pub struct BackwardArgs<'a> {
    pub operands: &'a [Value],
    pub result: Value,
    pub result_adjoint: Value,
}

/// Builds each operand's adjoint contribution (None: no contribution, e.g. a condition).
pub type BackwardFn =
    Arc<dyn Fn(&mut Builder, &BackwardArgs, Location) -> Vec<Option<Value>> + Send + Sync>;

/// The element type of a primitive's result.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ResultKind {
    /// The element type of the float operands.
    Float,
    /// i1 (comparisons).
    Bool,
}

/// One registered elementwise primitive.
pub struct Primitive {
    pub name: String,
    pub arity: usize,
    pub forward: ForwardFn,
    /// None: the backward is reverse-mode-ad of `forward`.
    pub backward: Option<BackwardFn>,
    /// Whether the op may join a fused chain; when not, it runs as a kernel of its own.
    pub fusible: bool,
    pub result: ResultKind,
    /// Operand positions that are i1 conditions (select's first).
    pub bool_operands: &'static [usize],
}

impl std::fmt::Debug for Primitive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Primitive")
            .field("name", &self.name)
            .field("arity", &self.arity)
            .field("custom_backward", &self.backward.is_some())
            .field("fusible", &self.fusible)
            .finish()
    }
}

fn registry() -> &'static RwLock<HashMap<String, Arc<Primitive>>> {
    static R: OnceLock<RwLock<HashMap<String, Arc<Primitive>>>> = OnceLock::new();
    R.get_or_init(|| RwLock::new(builtins()))
}

/// The primitive named `name`, built-in or registered.
pub fn primitive(name: &str) -> Option<Arc<Primitive>> {
    registry()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .get(name)
        .cloned()
}

/// The names of every primitive, sorted.
pub fn primitive_names() -> Vec<String> {
    let r = registry().read().unwrap_or_else(|e| e.into_inner());
    let mut v: Vec<_> = r.keys().cloned().collect();
    v.sort();
    v
}

/// Adds an elementwise primitive of `arity` float operands with a float result. `forward` builds
/// its scalar body from arith/math ops; `backward`, when given, replaces reverse-mode-ad of the
/// body; a primitive that is not `fusible` always runs as a kernel of its own. A name that is
/// taken (a built-in op or an earlier registration) or is not an identifier is refused.
pub fn register_primitive(
    name: &str,
    arity: usize,
    forward: ForwardFn,
    backward: Option<BackwardFn>,
    fusible: bool,
) -> Result<(), String> {
    let ident = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if !ident {
        return Err(format!("primitive name '{name}' is not an identifier"));
    }
    if arity == 0 || arity > 8 {
        return Err(format!(
            "primitive '{name}': arity must be 1 to 8, got {arity}"
        ));
    }
    let mut r = registry().write().unwrap_or_else(|e| e.into_inner());
    if r.contains_key(name) {
        return Err(format!("primitive '{name}' is already registered"));
    }
    r.insert(
        name.to_string(),
        Arc::new(Primitive {
            name: name.to_string(),
            arity,
            forward,
            backward,
            fusible,
            result: ResultKind::Float,
            bool_operands: &[],
        }),
    );
    Ok(())
}

fn entry(
    m: &mut HashMap<String, Arc<Primitive>>,
    name: &str,
    arity: usize,
    result: ResultKind,
    forward: ForwardFn,
) {
    m.insert(
        name.to_string(),
        Arc::new(Primitive {
            name: name.to_string(),
            arity,
            forward,
            backward: None,
            fusible: true,
            result,
            bool_operands: if name == "select" { &[0] } else { &[] },
        }),
    );
}

fn binary(op: &'static str) -> ForwardFn {
    Arc::new(move |b, v, loc| build_binary(b, op, v[0], v[1], loc))
}
fn unary(op: &'static str) -> ForwardFn {
    Arc::new(move |b, v, loc| build_unary(b, op, v[0], loc))
}
fn cmp(p: CmpFPredicate) -> ForwardFn {
    Arc::new(move |b, v, loc| build_cmpf(b, p, v[0], v[1], loc))
}

/// The dialect's own elementwise ops, by mnemonic.
fn builtins() -> HashMap<String, Arc<Primitive>> {
    use ResultKind::*;
    let mut m = HashMap::new();
    for (n, op) in [
        ("add", an::ADDF),
        ("sub", an::SUBF),
        ("mul", an::MULF),
        ("div", an::DIVF),
        ("maximum", an::MAXIMUMF),
        ("minimum", an::MINIMUMF),
        ("pow", mn::POWF),
    ] {
        entry(&mut m, n, 2, Float, binary(op));
    }
    for (n, op) in [
        ("neg", an::NEGF),
        ("tanh", mn::TANH),
        ("exp", mn::EXP),
        ("log", mn::LOG),
        ("sqrt", mn::SQRT),
        ("abs", mn::ABSF),
    ] {
        entry(&mut m, n, 1, Float, unary(op));
    }
    for (n, p) in [
        ("lt", CmpFPredicate::Olt),
        ("le", CmpFPredicate::Ole),
        ("gt", CmpFPredicate::Ogt),
        ("ge", CmpFPredicate::Oge),
        ("eq", CmpFPredicate::Oeq),
        ("ne", CmpFPredicate::Une),
    ] {
        entry(&mut m, n, 2, Bool, cmp(p));
    }
    // relu(x) = max(x, 0): NaN propagates, as NumPy's maximum does.
    entry(
        &mut m,
        "relu",
        1,
        Float,
        Arc::new(|b, v, loc| {
            let ty = b.ctx.value_type(v[0]);
            let zero = build_constant_float(b, 0.0, ty, loc);
            build_binary(b, an::MAXIMUMF, v[0], zero, loc)
        }),
    );
    // sigmoid(x) = 1 / (1 + exp(-x)).
    entry(
        &mut m,
        "sigmoid",
        1,
        Float,
        Arc::new(|b, v, loc| {
            let ty = b.ctx.value_type(v[0]);
            let one = build_constant_float(b, 1.0, ty, loc);
            let n = build_unary(b, an::NEGF, v[0], loc);
            let e = build_unary(b, mn::EXP, n, loc);
            let d = build_binary(b, an::ADDF, one, e, loc);
            build_binary(b, an::DIVF, one, d, loc)
        }),
    );
    entry(
        &mut m,
        "select",
        3,
        Float,
        Arc::new(|b, v, loc| build_select(b, v[0], v[1], v[2], loc)),
    );
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_there_and_names_are_checked() {
        for n in ["add", "relu", "sigmoid", "select", "lt", "pow"] {
            assert!(primitive(n).is_some(), "{n}");
        }
        assert_eq!(primitive("select").unwrap().arity, 3);
        assert_eq!(primitive("lt").unwrap().result, ResultKind::Bool);
        let f: ForwardFn = Arc::new(|b, v, loc| build_unary(b, an::NEGF, v[0], loc));
        assert!(register_primitive("add", 2, f.clone(), None, true)
            .unwrap_err()
            .contains("already registered"));
        assert!(register_primitive("9x", 1, f.clone(), None, true).is_err());
        assert!(register_primitive("zero_arity", 0, f.clone(), None, true).is_err());
        register_primitive("test_registry_neg", 1, f, None, false).unwrap();
        let p = primitive("test_registry_neg").unwrap();
        assert!(!p.fusible && p.backward.is_none());
        assert!(primitive_names().contains(&"test_registry_neg".to_string()));
    }
}
