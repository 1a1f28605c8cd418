//! Pieces of arith's custom syntax shared by its ops (and math's): flag keywords such as
//! `fastmath<nnan,ninf>` and `overflow<nsw>`, and attribute dictionaries whose entries named like
//! a property become that property (as upstream does).

use crate::flags::FlagKind;
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::{DiagResult, Diagnostic, OpId, OperationState};

/// How an op carries a flags property.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FlagsProp {
    None,
    /// Always present (upstream `DefaultValuedAttr`): set to `none` when the text omits it, and
    /// elided from the custom form when it is `none`.
    Default(FlagKind),
    /// Present only when written (upstream `OptionalAttr`), printed whenever present.
    Optional(FlagKind),
}

impl FlagsProp {
    pub fn kind(self) -> Option<FlagKind> {
        match self {
            FlagsProp::None => None,
            FlagsProp::Default(k) | FlagsProp::Optional(k) => Some(k),
        }
    }
}

/// Parses an optional `<keyword><case, ...>` for the op's flags into its property.
pub fn parse_flags(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    flags: FlagsProp,
) -> DiagResult<()> {
    let Some(kind) = flags.kind() else {
        return Ok(());
    };
    if !p.parse_optional_keyword(kind.mnemonic()) {
        return Ok(());
    }
    p.parse_punct("<")?;
    let mut bits = 0;
    loop {
        let loc = p.current_loc();
        let case = p.parse_any_keyword()?;
        bits |= kind
            .case_bits(&case)
            .ok_or_else(|| Diagnostic::error(loc, kind.bad_case_message()))?;
        if !p.parse_optional_punct(",") {
            break;
        }
    }
    p.parse_punct(">")?;
    let attr = kind.attr(p.ctx(), bits);
    state.add_prop(p.ctx(), kind.prop_name(), attr);
    Ok(())
}

/// Gives a `Default` flags property its `none` value when the text did not set it.
pub fn default_flags(p: &mut dyn OpAsmParser, state: &mut OperationState, flags: FlagsProp) {
    if let FlagsProp::Default(kind) = flags {
        if state.get_prop(p.ctx_ref(), kind.prop_name()).is_none() {
            let none = kind.attr(p.ctx(), 0);
            state.add_prop(p.ctx(), kind.prop_name(), none);
        }
    }
}

/// Prints ` <keyword><cases>` for the op's flags when the custom form shows them.
pub fn print_flags(op: OpId, p: &mut dyn OpAsmPrinter, flags: FlagsProp) {
    let Some(kind) = flags.kind() else {
        return;
    };
    let ctx = p.ctx();
    let Some(bits) = ctx
        .prop_or_attr(op, kind.prop_name())
        .and_then(|a| kind.bits_of(ctx, a))
    else {
        return;
    };
    if bits == 0 && matches!(flags, FlagsProp::Default(_)) {
        return;
    }
    let text = format!(" {}<{}>", kind.mnemonic(), kind.cases_text(bits));
    p.write(&text);
}

/// Parses an optional attribute dictionary; entries named in `inherent` become properties.
pub fn parse_attr_dict(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    inherent: &[&str],
) -> DiagResult<()> {
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    for (k, v) in attrs {
        if inherent.contains(&p.ctx_ref().ident_str(k)) {
            state.properties.retain(|(n, _)| *n != k);
            state.properties.push((k, v));
        } else {
            state.attributes.retain(|(n, _)| *n != k);
            state.attributes.push((k, v));
        }
    }
    Ok(())
}

/// Prints the discardable attributes, leaving out those named like a property (shown by the
/// custom form itself).
pub fn print_attr_dict(op: OpId, p: &mut dyn OpAsmPrinter, inherent: &[&str]) {
    let attrs = p.ctx().attrs(op).to_vec();
    p.print_optional_attr_dict(&attrs, inherent);
}
