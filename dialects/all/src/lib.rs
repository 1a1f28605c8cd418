//! register_all_dialects: the one list of qd's dialects. Tools call it; a new dialect is added
//! here and nowhere else.

use qd_ir::Context;

/// Registers every qd dialect in `ctx` (builtin is always registered by `Context::new`).
pub fn register_all_dialects(ctx: &mut Context) {
    ctx.register_dialect(qd_arith::dialect());
    ctx.register_dialect(qd_math::dialect());
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(qd_ad::dialect());
    ctx.register_dialect(qd_adstack::dialect());
    ctx.register_dialect(qd_lowered::dialect());
    ctx.register_dialect(qd_func::dialect());
    ctx.register_dialect(qd_ndarray::dialect());
}

/// A context with every dialect registered.
pub fn context() -> Context {
    let mut ctx = Context::new();
    register_all_dialects(&mut ctx);
    ctx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_every_dialect_once() {
        let mut ctx = context();
        register_all_dialects(&mut ctx);
        let names: Vec<_> = ctx.dialect_names().collect();
        for d in [
            "builtin", "arith", "math", "qd", "ad", "adstack", "lowered", "func", "ndarray",
        ] {
            assert_eq!(names.iter().filter(|n| **n == d).count(), 1, "{d}");
        }
        for op in [
            "arith.constant",
            "arith.addf",
            "arith.cmpi",
            "math.sin",
            "math.fma",
            "qd.kernel",
            "qd.range_for",
            "ad.reverse",
            "ad.acc_ndarray_adjoint",
            "adstack.alloca",
            "adstack.acc_adjoint",
            "func.func",
            "func.return",
            "func.call",
            "func.call_indirect",
            "func.constant",
            "ndarray.add",
            "ndarray.launch",
        ] {
            assert!(ctx.lookup_op_info(op).is_some(), "{op} is not registered");
        }
        assert!(ctx.dialect("math").unwrap().materialize_constant.is_some());
        assert!(ctx.dialect("adstack").unwrap().parse_type.is_some());
    }
}
