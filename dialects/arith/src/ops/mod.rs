//! arith's ops, one file per family; each op is defined once in its family's table.

pub mod cast;
pub mod cmp;
pub mod constant;
pub mod float;
pub mod int;
pub mod select;

/// Every arith op, in registration order.
pub fn all() -> Vec<qd_ir::OpInfo> {
    let mut v = constant::ops();
    v.extend(int::ops());
    v.extend(float::ops());
    v.extend(cmp::ops());
    v.extend(select::ops());
    v.extend(cast::ops());
    v
}
