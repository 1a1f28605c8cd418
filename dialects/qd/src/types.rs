//! The qd types: constructors, typed views and queries.
//!
//! Every qd type is a `TypeData::Dialect { dialect: "qd", mnemonic, params }`:
//!
//! | type                    | mnemonic  | params                                   |
//! |-------------------------|-----------|------------------------------------------|
//! | `!qd.field<4x10xf32>`   | `field`   | `[Dims([Some(4), Some(10)]), Type(f32)]` |
//! | `!qd.ndarray<?x?xf32>`  | `ndarray` | `[Dims([None, None]), Type(f32)]`        |
//! | `!qd.ptr<T>`            | `ptr`     | `[Type(T)]`                              |
//! | `!qd.array<10xT>`       | `array`   | `[Int(10), Type(T)]`                     |
//! | `!qd.struct<T, U>`      | `struct`  | `[Type(T), Type(U)]`                     |
//!
//! The typed views (`FieldType::from_type`, ...) check the parameter layout, so their accessors
//! never panic; [`verify_type`] checks the semantic rules (element kinds, positive sizes).

use qd_ir::irdl::{ParamDecl, TypeDecl};
use qd_ir::{Context, Type, TypeData, TypeParam};

pub const DIALECT: &str = "qd";
pub const FIELD: &str = "field";
pub const NDARRAY: &str = "ndarray";
pub const PTR: &str = "ptr";
pub const ARRAY: &str = "array";
pub const STRUCT: &str = "struct";

/// The qd types for IRDL (`qd-opt --print-irdl`); their syntax is [`crate::type_syntax`]'s.
pub const IRDL_TYPES: &[TypeDecl] = &[
    TypeDecl {
        mnemonic: FIELD,
        summary: "a dense global array: static shape (empty for a scalar field), element",
        params: &[ParamDecl::dims("shape"), ParamDecl::ty("elem")],
    },
    TypeDecl {
        mnemonic: NDARRAY,
        summary: "a kernel argument array whose shape is known at launch",
        params: &[ParamDecl::dims("shape"), ParamDecl::ty("elem")],
    },
    TypeDecl {
        mnemonic: PTR,
        summary: "the address of a local",
        params: &[ParamDecl::ty("pointee")],
    },
    TypeDecl {
        mnemonic: ARRAY,
        summary: "a local array",
        params: &[ParamDecl::int("len"), ParamDecl::ty("elem")],
    },
    TypeDecl {
        mnemonic: STRUCT,
        summary: "a local struct: its members",
        params: &[ParamDecl::rest("members")],
    },
];

fn qd_type(ctx: &mut Context, mnemonic: &str, params: Vec<TypeParam>) -> Type {
    let dialect = ctx.ident(DIALECT);
    let mnemonic = ctx.ident(mnemonic);
    ctx.intern_type(TypeData::Dialect {
        dialect,
        mnemonic,
        params,
    })
}

/// `!qd.field<shape x elem>`; an empty shape is a scalar field.
pub fn field_type(ctx: &mut Context, shape: &[i64], elem: Type) -> Type {
    let dims = shape.iter().map(|&d| Some(d)).collect();
    qd_type(
        ctx,
        FIELD,
        vec![TypeParam::Dims(dims), TypeParam::Type(elem)],
    )
}

/// `!qd.ndarray<?x...xelem>` of the given rank (every dimension is known only at launch).
pub fn ndarray_type(ctx: &mut Context, rank: usize, elem: Type) -> Type {
    qd_type(
        ctx,
        NDARRAY,
        vec![TypeParam::Dims(vec![None; rank]), TypeParam::Type(elem)],
    )
}

/// `!qd.ptr<pointee>`: the address of a local.
pub fn ptr_type(ctx: &mut Context, pointee: Type) -> Type {
    qd_type(ctx, PTR, vec![TypeParam::Type(pointee)])
}

/// `!qd.array<len x elem>`: a local array (nest arrays for more dimensions).
pub fn array_type(ctx: &mut Context, len: i64, elem: Type) -> Type {
    qd_type(ctx, ARRAY, vec![TypeParam::Int(len), TypeParam::Type(elem)])
}

/// `!qd.struct<members...>`: a local struct.
pub fn struct_type(ctx: &mut Context, members: &[Type]) -> Type {
    qd_type(
        ctx,
        STRUCT,
        members.iter().map(|&t| TypeParam::Type(t)).collect(),
    )
}

/// The mnemonic and parameters of a qd type, or None for any other type.
pub fn qd_params(ctx: &Context, ty: Type) -> Option<(&str, &[TypeParam])> {
    match ctx.type_data(ty) {
        TypeData::Dialect {
            dialect,
            mnemonic,
            params,
        } if ctx.ident_str(*dialect) == DIALECT => Some((ctx.ident_str(*mnemonic), params)),
        _ => None,
    }
}

/// Integer (any width and signedness) or float: what fields, ndarrays, locals and kernel scalar
/// arguments hold. `index` is excluded: it has no fixed storage size.
pub fn is_scalar(ctx: &Context, ty: Type) -> bool {
    let d = ctx.type_data(ty);
    d.is_integer() || d.is_float()
}

/// What a local (`qd.alloca`), an array element or a struct member may be: a scalar or a local
/// aggregate.
pub fn is_local_value_type(ctx: &Context, ty: Type) -> bool {
    is_scalar(ctx, ty)
        || ArrayType::from_type(ctx, ty).is_some()
        || StructType::from_type(ctx, ty).is_some()
}

/// A dense global array: `!qd.field<shape x elem>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct FieldType(pub Type);

impl FieldType {
    pub fn from_type(ctx: &Context, ty: Type) -> Option<Self> {
        match qd_params(ctx, ty)? {
            (FIELD, [TypeParam::Dims(d), TypeParam::Type(_)]) if d.iter().all(Option::is_some) => {
                Some(FieldType(ty))
            }
            _ => None,
        }
    }
    /// The static shape (empty for a scalar field).
    pub fn shape(self, ctx: &Context) -> Vec<i64> {
        match qd_params(ctx, self.0) {
            Some((_, [TypeParam::Dims(d), _])) => d.iter().map(|d| d.unwrap_or(0)).collect(),
            _ => Vec::new(),
        }
    }
    pub fn rank(self, ctx: &Context) -> usize {
        self.shape(ctx).len()
    }
    pub fn elem(self, ctx: &Context) -> Type {
        match qd_params(ctx, self.0) {
            Some((_, [_, TypeParam::Type(t)])) => *t,
            _ => self.0,
        }
    }
    /// The number of elements (1 for a scalar field), saturating.
    pub fn num_elements(self, ctx: &Context) -> i64 {
        self.shape(ctx)
            .iter()
            .fold(1i64, |acc, &d| acc.saturating_mul(d))
    }
}

/// A kernel argument array whose shape is known at launch: `!qd.ndarray<?x?xelem>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct NdarrayType(pub Type);

impl NdarrayType {
    pub fn from_type(ctx: &Context, ty: Type) -> Option<Self> {
        match qd_params(ctx, ty)? {
            (NDARRAY, [TypeParam::Dims(_), TypeParam::Type(_)]) => Some(NdarrayType(ty)),
            _ => None,
        }
    }
    pub fn rank(self, ctx: &Context) -> usize {
        match qd_params(ctx, self.0) {
            Some((_, [TypeParam::Dims(d), _])) => d.len(),
            _ => 0,
        }
    }
    pub fn elem(self, ctx: &Context) -> Type {
        match qd_params(ctx, self.0) {
            Some((_, [_, TypeParam::Type(t)])) => *t,
            _ => self.0,
        }
    }
}

/// The address of a local: `!qd.ptr<pointee>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PtrType(pub Type);

impl PtrType {
    pub fn from_type(ctx: &Context, ty: Type) -> Option<Self> {
        match qd_params(ctx, ty)? {
            (PTR, [TypeParam::Type(_)]) => Some(PtrType(ty)),
            _ => None,
        }
    }
    pub fn pointee(self, ctx: &Context) -> Type {
        match qd_params(ctx, self.0) {
            Some((_, [TypeParam::Type(t)])) => *t,
            _ => self.0,
        }
    }
}

/// A local array: `!qd.array<len x elem>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArrayType(pub Type);

impl ArrayType {
    pub fn from_type(ctx: &Context, ty: Type) -> Option<Self> {
        match qd_params(ctx, ty)? {
            (ARRAY, [TypeParam::Int(_), TypeParam::Type(_)]) => Some(ArrayType(ty)),
            _ => None,
        }
    }
    pub fn len(self, ctx: &Context) -> i64 {
        match qd_params(ctx, self.0) {
            Some((_, [TypeParam::Int(n), _])) => *n,
            _ => 0,
        }
    }
    pub fn is_empty(self, ctx: &Context) -> bool {
        self.len(ctx) == 0
    }
    pub fn elem(self, ctx: &Context) -> Type {
        match qd_params(ctx, self.0) {
            Some((_, [_, TypeParam::Type(t)])) => *t,
            _ => self.0,
        }
    }
}

/// A local struct: `!qd.struct<members...>`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct StructType(pub Type);

impl StructType {
    pub fn from_type(ctx: &Context, ty: Type) -> Option<Self> {
        match qd_params(ctx, ty)? {
            (STRUCT, ps) if ps.iter().all(|p| matches!(p, TypeParam::Type(_))) => {
                Some(StructType(ty))
            }
            _ => None,
        }
    }
    pub fn members(self, ctx: &Context) -> Vec<Type> {
        match qd_params(ctx, self.0) {
            Some((_, ps)) => ps
                .iter()
                .filter_map(|p| match p {
                    TypeParam::Type(t) => Some(*t),
                    _ => None,
                })
                .collect(),
            None => Vec::new(),
        }
    }
    pub fn member(self, ctx: &Context, i: usize) -> Option<Type> {
        self.members(ctx).get(i).copied()
    }
}

/// Checks the semantic rules of a qd type (recursively through its parameters): field and ndarray
/// elements are scalars, field dimensions and array lengths are positive, ndarray dimensions are
/// dynamic, pointees / array elements / struct members are scalars or local aggregates, structs
/// have members. Non-qd types are accepted. Returns the message of the first violation.
pub fn verify_type(ctx: &Context, ty: Type) -> Result<(), String> {
    let Some((mnemonic, params)) = qd_params(ctx, ty) else {
        return Ok(());
    };
    match mnemonic {
        FIELD => {
            let f = FieldType::from_type(ctx, ty).ok_or("malformed !qd.field type")?;
            if let Some(d) = f.shape(ctx).iter().find(|&&d| d <= 0) {
                return Err(format!("field dimensions must be positive, got {d}"));
            }
            expect_scalar_elem(ctx, f.elem(ctx), "field")
        }
        NDARRAY => {
            let a = NdarrayType::from_type(ctx, ty).ok_or("malformed !qd.ndarray type")?;
            if let Some(TypeParam::Dims(d)) = params.first() {
                if d.iter().any(Option::is_some) {
                    return Err("ndarray dimensions must be dynamic ('?')".into());
                }
            }
            expect_scalar_elem(ctx, a.elem(ctx), "ndarray")
        }
        PTR => {
            let p = PtrType::from_type(ctx, ty).ok_or("malformed !qd.ptr type")?;
            expect_local(ctx, p.pointee(ctx), "pointee")
        }
        ARRAY => {
            let a = ArrayType::from_type(ctx, ty).ok_or("malformed !qd.array type")?;
            if a.len(ctx) <= 0 {
                return Err(format!("array length must be positive, got {}", a.len(ctx)));
            }
            expect_local(ctx, a.elem(ctx), "array element")
        }
        STRUCT => {
            let s = StructType::from_type(ctx, ty).ok_or("malformed !qd.struct type")?;
            let members = s.members(ctx);
            if members.is_empty() {
                return Err("struct must have at least one member".into());
            }
            members
                .into_iter()
                .try_for_each(|m| expect_local(ctx, m, "struct member"))
        }
        other => Err(format!("unknown qd type '!qd.{other}'")),
    }
}

fn expect_scalar_elem(ctx: &Context, elem: Type, what: &str) -> Result<(), String> {
    if is_scalar(ctx, elem) {
        Ok(())
    } else {
        Err(format!(
            "{what} element type must be an integer or float scalar"
        ))
    }
}

fn expect_local(ctx: &Context, ty: Type, what: &str) -> Result<(), String> {
    if !is_local_value_type(ctx, ty) {
        return Err(format!(
            "{what} type must be an integer or float scalar, !qd.array or !qd.struct"
        ));
    }
    verify_type(ctx, ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_and_views() {
        let mut ctx = Context::new();
        let f32t = ctx.f32_type();
        let i32t = ctx.i32_type();
        let f = field_type(&mut ctx, &[4, 10], f32t);
        let fv = FieldType::from_type(&ctx, f).unwrap();
        assert_eq!(fv.shape(&ctx), vec![4, 10]);
        assert_eq!(fv.rank(&ctx), 2);
        assert_eq!(fv.elem(&ctx), f32t);
        assert_eq!(fv.num_elements(&ctx), 40);
        let s = field_type(&mut ctx, &[], f32t);
        assert_eq!(FieldType::from_type(&ctx, s).unwrap().rank(&ctx), 0);
        assert_eq!(FieldType::from_type(&ctx, s).unwrap().num_elements(&ctx), 1);

        let n = ndarray_type(&mut ctx, 2, i32t);
        let nv = NdarrayType::from_type(&ctx, n).unwrap();
        assert_eq!((nv.rank(&ctx), nv.elem(&ctx)), (2, i32t));
        assert!(FieldType::from_type(&ctx, n).is_none());

        let a = array_type(&mut ctx, 10, f32t);
        let av = ArrayType::from_type(&ctx, a).unwrap();
        assert_eq!((av.len(&ctx), av.elem(&ctx)), (10, f32t));
        let st = struct_type(&mut ctx, &[f32t, i32t]);
        let sv = StructType::from_type(&ctx, st).unwrap();
        assert_eq!(sv.members(&ctx), vec![f32t, i32t]);
        assert_eq!(sv.member(&ctx, 1), Some(i32t));
        assert_eq!(sv.member(&ctx, 2), None);
        let p = ptr_type(&mut ctx, st);
        assert_eq!(PtrType::from_type(&ctx, p).unwrap().pointee(&ctx), st);
        // Interning: the same parameters give the same type.
        assert_eq!(ptr_type(&mut ctx, st), p);
        for t in [f, s, n, a, st, p] {
            assert_eq!(verify_type(&ctx, t), Ok(()));
        }
    }

    #[test]
    fn semantic_rules() {
        let mut ctx = Context::new();
        let f32t = ctx.f32_type();
        let idx = ctx.index_type();
        let bad_dim = field_type(&mut ctx, &[0], f32t);
        assert!(verify_type(&ctx, bad_dim).unwrap_err().contains("positive"));
        let bad_elem = field_type(&mut ctx, &[2], idx);
        assert!(verify_type(&ctx, bad_elem).unwrap_err().contains("scalar"));
        let arr = array_type(&mut ctx, 2, f32t);
        let field_of_arr = field_type(&mut ctx, &[2], arr);
        assert!(verify_type(&ctx, field_of_arr).is_err());
        let empty = struct_type(&mut ctx, &[]);
        assert!(verify_type(&ctx, empty).unwrap_err().contains("member"));
        let p = ptr_type(&mut ctx, f32t);
        let ptr_to_ptr = ptr_type(&mut ctx, p);
        assert!(verify_type(&ctx, ptr_to_ptr).is_err());
        let zero_arr = array_type(&mut ctx, 0, f32t);
        assert!(verify_type(&ctx, zero_arr).is_err());
        // Nested violations are found.
        let nested = struct_type(&mut ctx, &[f32t, zero_arr]);
        assert!(verify_type(&ctx, nested).is_err());
        // Non-qd types are not ours to judge.
        assert_eq!(verify_type(&ctx, idx), Ok(()));
    }

    #[test]
    fn malformed_params_do_not_panic() {
        let mut ctx = Context::new();
        let t = qd_type(&mut ctx, FIELD, vec![TypeParam::Int(3)]);
        assert!(FieldType::from_type(&ctx, t).is_none());
        assert!(verify_type(&ctx, t).is_err());
        let t = qd_type(&mut ctx, "bogus", vec![]);
        assert!(verify_type(&ctx, t).is_err());
        let t = qd_type(&mut ctx, STRUCT, vec![TypeParam::Int(3)]);
        assert!(StructType::from_type(&ctx, t).is_none());
    }
}
