//! `!ndarray.array<4x8xf32>`: a whole n-dimensional array of static shape (rank 0:
//! `!ndarray.array<f32>`). Elements are f32, f64 or i1 (what comparisons make).

use qd_ir::asm::{AsmParser, AsmPrinter};
use qd_ir::{Context, DiagResult, Diagnostic, Type, TypeData, TypeParam};

pub const DIALECT: &str = "ndarray";
pub const ARRAY: &str = "array";

/// `!ndarray.array<shape x elem>`.
pub fn array_type(ctx: &mut Context, shape: &[i64], elem: Type) -> Type {
    let dialect = ctx.ident(DIALECT);
    let mnemonic = ctx.ident(ARRAY);
    ctx.intern_type(TypeData::Dialect {
        dialect,
        mnemonic,
        params: vec![
            TypeParam::Dims(shape.iter().map(|&d| Some(d)).collect()),
            TypeParam::Type(elem),
        ],
    })
}

/// A typed view of `!ndarray.array<...>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArrayType(pub Type);

impl ArrayType {
    pub fn from_type(ctx: &Context, ty: Type) -> Option<Self> {
        match ctx.type_data(ty) {
            TypeData::Dialect {
                dialect,
                mnemonic,
                params,
            } if ctx.ident_str(*dialect) == DIALECT && ctx.ident_str(*mnemonic) == ARRAY => {
                match params.as_slice() {
                    [TypeParam::Dims(d), TypeParam::Type(_)] if d.iter().all(Option::is_some) => {
                        Some(ArrayType(ty))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
    pub fn shape(self, ctx: &Context) -> Vec<i64> {
        match ctx.type_data(self.0) {
            TypeData::Dialect { params, .. } => match params.first() {
                Some(TypeParam::Dims(d)) => d.iter().map(|d| d.unwrap_or(0)).collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }
    pub fn elem(self, ctx: &Context) -> Type {
        match ctx.type_data(self.0) {
            TypeData::Dialect { params, .. } => match params.get(1) {
                Some(TypeParam::Type(t)) => *t,
                _ => self.0,
            },
            _ => self.0,
        }
    }
    pub fn num_elements(self, ctx: &Context) -> i64 {
        self.shape(ctx)
            .iter()
            .fold(1i64, |a, &d| a.saturating_mul(d))
    }
}

/// Shape and element type of an operand: an array's, or `([], ty)` for a scalar.
pub fn shape_and_elem(ctx: &Context, ty: Type) -> (Vec<i64>, Type) {
    match ArrayType::from_type(ctx, ty) {
        Some(a) => (a.shape(ctx), a.elem(ctx)),
        None => (Vec::new(), ty),
    }
}

/// f32 or f64.
pub fn is_float_elem(ctx: &Context, ty: Type) -> bool {
    ctx.type_data(ty).is_float()
}

/// What an array may hold: f32, f64 or i1.
pub fn is_elem(ctx: &Context, ty: Type) -> bool {
    matches!(ctx.type_data(ty), TypeData::Float(_))
        || matches!(ctx.type_data(ty), TypeData::Integer { width: 1, .. })
}

/// `DialectDef::parse_type`: `array<4x8xf32>`.
pub fn parse_type(p: &mut dyn AsmParser, mnemonic: &str) -> DiagResult<Vec<TypeParam>> {
    let loc = p.current_loc();
    if mnemonic != ARRAY {
        return Err(Diagnostic::error(
            loc,
            format!("unknown ndarray type '!ndarray.{mnemonic}' (expected array)"),
        ));
    }
    p.parse_punct("<")?;
    let dims = p.parse_dimension_list(false)?;
    let elem = p.parse_type()?;
    p.parse_punct(">")?;
    if let Some(d) = dims.iter().flatten().find(|&&d| d <= 0) {
        return Err(Diagnostic::error(
            loc,
            format!("invalid !ndarray.array type: dimensions must be positive, got {d}"),
        ));
    }
    if !is_elem(p.ctx_ref(), elem) {
        return Err(Diagnostic::error(
            loc,
            "invalid !ndarray.array type: elements must be f32, f64 or i1",
        ));
    }
    Ok(vec![TypeParam::Dims(dims), TypeParam::Type(elem)])
}

/// `DialectDef::print_type`.
pub fn print_type(_mnemonic: &str, params: &[TypeParam], p: &mut dyn AsmPrinter) {
    p.write(ARRAY);
    p.write("<");
    if let [TypeParam::Dims(d), TypeParam::Type(t)] = params {
        p.print_dimension_list(d);
        p.print_type(*t);
    }
    p.write(">");
}
