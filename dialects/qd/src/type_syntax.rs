//! Text syntax of the qd types (the part after `!qd.`):
//!
//! ```text
//! field<16xf32>  field<4x10xi32>  field<f32>      dense global array; no dims = scalar field
//! ndarray<?xf32> ndarray<?x?xi32>                 kernel argument array of dynamic shape
//! ptr<f32>       ptr<!qd.array<10xf32>>           address of a local
//! array<10xf32>  array<4x10xf32>                  local array; `4x10xf32` = array<4 x array<10xf32>>
//! struct<f32, i32>                                 local struct
//! ```
//!
//! Parsed types are checked with [`crate::types::verify_type`], so text cannot build a type that
//! the verifiers would reject.

use crate::types::*;
use qd_ir::asm::{AsmParser, AsmPrinter};
use qd_ir::{DiagResult, Diagnostic, TypeData, TypeParam};

/// `DialectDef::parse_type` of qd.
pub fn parse_type(p: &mut dyn AsmParser, mnemonic: &str) -> DiagResult<Vec<TypeParam>> {
    let loc = p.current_loc();
    p.parse_punct("<")?;
    let params = match mnemonic {
        FIELD => {
            let dims = p.parse_dimension_list(false)?;
            let elem = p.parse_type()?;
            vec![TypeParam::Dims(dims), TypeParam::Type(elem)]
        }
        NDARRAY => {
            let dims = p.parse_dimension_list(true)?;
            let elem = p.parse_type()?;
            vec![TypeParam::Dims(dims), TypeParam::Type(elem)]
        }
        PTR => vec![TypeParam::Type(p.parse_type()?)],
        ARRAY => {
            let dims = p.parse_dimension_list(false)?;
            if dims.is_empty() {
                return Err(p.error("expected an array length, as in !qd.array<10xf32>"));
            }
            let mut elem = p.parse_type()?;
            // `4x10xT` nests: the outermost length comes first.
            for d in dims[1..].iter().rev() {
                elem = array_type(p.ctx(), d.unwrap_or(0), elem);
            }
            vec![TypeParam::Int(dims[0].unwrap_or(0)), TypeParam::Type(elem)]
        }
        STRUCT => {
            let mut members = vec![TypeParam::Type(p.parse_type()?)];
            while p.parse_optional_punct(",") {
                members.push(TypeParam::Type(p.parse_type()?));
            }
            members
        }
        other => {
            return Err(Diagnostic::error(
                loc,
                format!(
                    "unknown qd type '!qd.{other}' (expected field, ndarray, ptr, array or struct)"
                ),
            ))
        }
    };
    p.parse_punct(">")?;
    // Check the semantic rules on the interned type, so that the message names the whole type.
    let dialect = p.ctx().ident(DIALECT);
    let mn = p.ctx().ident(mnemonic);
    let ty = p.ctx().intern_type(TypeData::Dialect {
        dialect,
        mnemonic: mn,
        params: params.clone(),
    });
    verify_type(p.ctx_ref(), ty)
        .map_err(|m| Diagnostic::error(loc, format!("invalid !qd.{mnemonic} type: {m}")))?;
    Ok(params)
}

/// `DialectDef::print_type` of qd. Malformed parameter lists (built by hand) still print, in a
/// form that the parser rejects with a clear message rather than silently misreading.
pub fn print_type(mnemonic: &str, params: &[TypeParam], p: &mut dyn AsmPrinter) {
    p.write(mnemonic);
    p.write("<");
    match (mnemonic, params) {
        (FIELD | NDARRAY, [TypeParam::Dims(dims), TypeParam::Type(elem)]) => {
            p.print_dimension_list(dims);
            p.print_type(*elem);
        }
        (ARRAY, [TypeParam::Int(n), TypeParam::Type(elem)]) => {
            // Nested arrays print flat: array<4 x array<10xf32>> is `4x10xf32`.
            let mut dims = vec![Some(*n)];
            let mut elem = *elem;
            while let Some(a) = ArrayType::from_type(p.ctx(), elem) {
                dims.push(Some(a.len(p.ctx())));
                elem = a.elem(p.ctx());
            }
            p.print_dimension_list(&dims);
            p.print_type(elem);
        }
        _ => {
            for (i, param) in params.iter().enumerate() {
                if i > 0 {
                    p.write(", ");
                }
                match param {
                    TypeParam::Type(t) => p.print_type(*t),
                    TypeParam::Int(n) => p.write(&n.to_string()),
                    TypeParam::Dims(d) => {
                        p.print_dimension_list(d);
                    }
                    TypeParam::Str(s) => p.print_string(s),
                }
            }
        }
    }
    p.write(">");
}
