//! [`OpDef`]: the static definition that [`declare_op!`](crate::declare_op) generates for an op,
//! and the [`OpInfo`] built from it. The definition rides on the OpInfo as an interface, so that
//! one verifier, one parser and one printer serve every declared op.

use super::constraint::TypeConstraint;
use super::format::Format;
use super::prop::PropSpec;
use crate::registry::{OpInfo, OpTraits, ParseFn, PrintFn, VerifyFn, VerifySymbolUsesFn};
use crate::{Context, OpId, Type};
use std::ops::Range;

/// How many values an operand or result group holds.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Arity {
    Single,
    /// Zero or one.
    Optional,
    /// Any number.
    Variadic,
}

/// A type derived from another operand's or result's type (ODS's `TypesMatchWith`): used by the
/// custom-form parser for values whose type the text does not spell, and by the builder for
/// results.
#[derive(Copy, Clone, Debug)]
pub struct InferDef {
    /// The single operand or result whose type is the input.
    pub from: &'static str,
    pub f: fn(&mut Context, Type) -> Type,
}

/// A declared operand or result group.
#[derive(Copy, Clone, Debug)]
pub struct ValueDef {
    pub name: &'static str,
    pub arity: Arity,
    pub constraint: TypeConstraint,
    pub infer: Option<InferDef>,
}

/// A declared region.
#[derive(Copy, Clone, Debug)]
pub struct RegionDef {
    pub name: &'static str,
    /// At most one block.
    pub single_block: bool,
}

/// A declared property.
#[derive(Copy, Clone)]
pub struct PropDef {
    pub name: &'static str,
    pub required: bool,
    pub spec: PropSpec,
    /// The kind's [`PropKind::IRDL`](super::PropKind::IRDL).
    pub irdl: crate::irdl::Irdl,
}

impl std::fmt::Debug for PropDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name, self.spec.expected)
    }
}

/// The op's custom form.
#[derive(Debug)]
pub enum Syntax {
    /// Generic form only.
    None,
    /// An assembly format, interpreted by the generic parser and printer.
    Format(Format),
    /// Hand-written parser and printer (for what a format cannot express).
    Custom(ParseFn, PrintFn),
}

/// Everything `declare_op!` knows about an op.
#[derive(Debug)]
pub struct OpDef {
    pub name: &'static str,
    pub summary: &'static str,
    pub traits: OpTraits,
    pub operands: &'static [ValueDef],
    pub results: &'static [ValueDef],
    pub regions: &'static [RegionDef],
    pub props: &'static [PropDef],
    pub syntax: Syntax,
    /// Runs after the structural checks pass.
    pub verify: Option<VerifyFn>,
    /// Runs after `verify` passed: the checks that resolve symbols, through the verifier's
    /// cached tables ([`OpInfo::verify_symbol_uses`]).
    pub verify_symbol_uses: Option<VerifySymbolUsesFn>,
    /// Result name hints for the custom form (MLIR's `getAsmResultNames`).
    pub asm_result_names: Option<crate::registry::AsmResultNamesFn>,
}

impl OpDef {
    /// The registered op, with the generic verifier, the custom form and the definition as its
    /// `OpDef` interface. Panics on a malformed declaration (a bad format, two variadic groups):
    /// a programming error that registering the dialect in any test reveals.
    pub fn op_info(def: &'static &'static OpDef) -> OpInfo {
        let d: &'static OpDef = def;
        if let Err(m) = d.validate() {
            panic!("invalid declaration of op '{}': {m}", d.name);
        }
        let mut info = OpInfo::new(d.name, d.summary)
            .traits(d.traits)
            .verify(super::verify::verify)
            .interface::<OpDef>(def);
        if let Some(f) = d.verify_symbol_uses {
            info = info.verify_symbol_uses(f);
        }
        if let Some(f) = d.asm_result_names {
            info = info.asm_result_names(f);
        }
        match &d.syntax {
            Syntax::None => {}
            Syntax::Format(_) => info = info.syntax(super::asm::parse, super::asm::print),
            Syntax::Custom(parse, print) => info = info.syntax(*parse, *print),
        }
        info
    }

    /// The definition of a declared op.
    pub fn of(info: &OpInfo) -> Option<&'static OpDef> {
        info.get_interface::<OpDef>()
    }

    /// The definition of `op`, if it is a registered declared op.
    pub fn of_op(ctx: &Context, op: OpId) -> Option<&'static OpDef> {
        ctx.info(op).and_then(Self::of)
    }

    pub fn prop(&self, name: &str) -> Option<&PropDef> {
        self.props.iter().find(|p| p.name == name)
    }

    fn validate(&self) -> Result<(), String> {
        if self.traits.contains(OpTraits::SYMBOL_USER) && self.verify_symbol_uses.is_none() {
            // The generic check skips the op: without a hook its uses would go unchecked.
            return Err("a SYMBOL_USER op needs a verify_symbol_uses hook".to_string());
        }
        let mut names: Vec<&str> = Vec::new();
        let all = self
            .operands
            .iter()
            .map(|v| v.name)
            .chain(self.results.iter().map(|v| v.name))
            .chain(self.regions.iter().map(|r| r.name))
            .chain(self.props.iter().map(|p| p.name));
        for n in all {
            if names.contains(&n) {
                return Err(format!("'{n}' is declared twice"));
            }
            names.push(n);
        }
        for (what, group) in [("operand", self.operands), ("result", self.results)] {
            let non_single = group.iter().filter(|v| v.arity != Arity::Single).count();
            if non_single > 1 {
                return Err(format!(
                    "at most one optional or variadic {what} group is supported"
                ));
            }
            for v in group {
                let Some(inf) = v.infer else { continue };
                let src = self
                    .operands
                    .iter()
                    .chain(self.results)
                    .find(|s| s.name == inf.from);
                if !src.is_some_and(|s| s.arity == Arity::Single) {
                    return Err(format!(
                        "'{}' infers its type from '{}', which is not a single operand or result",
                        v.name, inf.from
                    ));
                }
            }
        }
        if let Syntax::Format(f) = &self.syntax {
            f.elements(self)?;
        }
        Ok(())
    }
}

/// The index range of group `i` among `total` values, when only one group may be optional or
/// variadic (the others hold one value each).
pub fn segment(arity: &[Arity], i: usize, total: usize) -> Range<usize> {
    let Some(v) = arity.iter().position(|a| *a != Arity::Single) else {
        return i..i + 1;
    };
    if i < v {
        return i..i + 1;
    }
    let after = arity.len() - 1 - v;
    let end = total.saturating_sub(after).max(v);
    if i == v {
        v..end
    } else {
        let s = end + (i - v - 1);
        s..s + 1
    }
}

/// The position of `name` in `names` (for the generated accessors' constant indices).
pub const fn position(names: &[&str], name: &str) -> usize {
    let mut i = 0;
    while i < names.len() {
        if str_eq(names[i], name) {
            return i;
        }
        i += 1;
    }
    panic!("no such name")
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
