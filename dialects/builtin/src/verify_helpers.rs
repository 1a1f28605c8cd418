//! Small checks shared by dialect op verifiers (operand/result/region counts, allowed properties,
//! element-type agreement), so that every dialect words the same mistake the same way. Messages
//! follow MLIR: `'qd.load' op expects 1 result, got 0`.

use crate::{Context, DiagResult, Diagnostic, OpId, Type};

/// An error at `op`'s location, prefixed with `'name' op`.
pub fn op_error(ctx: &Context, op: OpId, msg: impl AsRef<str>) -> Diagnostic {
    Diagnostic::error(
        ctx.loc(op),
        format!("'{}' op {}", ctx.name(op), msg.as_ref()),
    )
}

/// `n word` or `n words`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Exactly `n` operands with `exact`, else at least `n`.
pub fn expect_operands(ctx: &Context, op: OpId, n: usize, exact: bool) -> DiagResult<()> {
    let got = ctx.num_operands(op);
    if exact && got != n {
        return Err(op_error(
            ctx,
            op,
            format!("expects {}, got {got}", plural(n, "operand")),
        ));
    }
    if got < n {
        return Err(op_error(
            ctx,
            op,
            format!("expects at least {}, got {got}", plural(n, "operand")),
        ));
    }
    Ok(())
}

/// A result count within `range`.
pub fn expect_results(
    ctx: &Context,
    op: OpId,
    range: std::ops::RangeInclusive<usize>,
) -> DiagResult<()> {
    let r = ctx.num_results(op);
    if range.contains(&r) {
        return Ok(());
    }
    let want = if range.start() == range.end() {
        plural(*range.start(), "result")
    } else {
        format!("{} to {} results", range.start(), range.end())
    };
    Err(op_error(ctx, op, format!("expects {want}, got {r}")))
}

/// No successors.
pub fn expect_no_successors(ctx: &Context, op: OpId) -> DiagResult<()> {
    if ctx.successors(op).is_empty() {
        Ok(())
    } else {
        Err(op_error(ctx, op, "expects no successors"))
    }
}

/// Rejects properties other than `allowed`.
pub fn only_props(ctx: &Context, op: OpId, allowed: &[&str]) -> DiagResult<()> {
    for (k, _) in ctx.properties(op) {
        let k = ctx.ident_str(*k);
        if !allowed.contains(&k) {
            return Err(op_error(ctx, op, format!("has unknown property '{k}'")));
        }
    }
    Ok(())
}

/// The shape of a region-free op: `operands` operands (exactly, with `exact_operands`, else at
/// least), exactly `results` results, no regions or successors, and no properties but `props`.
pub fn expect_simple_shape(
    ctx: &Context,
    op: OpId,
    operands: usize,
    exact_operands: bool,
    results: usize,
    props: &[&str],
) -> DiagResult<()> {
    expect_operands(ctx, op, operands, exact_operands)?;
    expect_results(ctx, op, results..=results)?;
    let regions = ctx.regions(op).len();
    if regions != 0 {
        return Err(op_error(
            ctx,
            op,
            format!("expects no regions, got {regions}"),
        ));
    }
    expect_no_successors(ctx, op)?;
    only_props(ctx, op, props)
}

/// `got` (the type of the op's `what`) must equal `elem`, the element type of its `of`.
pub fn check_elem_type(
    ctx: &Context,
    op: OpId,
    elem: Type,
    got: Type,
    what: &str,
    of: &str,
) -> DiagResult<()> {
    if got == elem {
        return Ok(());
    }
    Err(op_error(
        ctx,
        op,
        format!(
            "expects the {what} type to match the {of} element type {}, got {}",
            crate::text::type_to_string(ctx, elem),
            crate::text::type_to_string(ctx, got)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OperationState;

    /// An unregistered `x.op` with `operands` i32 operands (block arguments), `results` f32
    /// results and the unit properties `props`.
    fn make(ctx: &mut Context, operands: usize, results: usize, props: &[&str]) -> OpId {
        let i32t = ctx.i32_type();
        let f32t = ctx.f32_type();
        let loc = ctx.unknown_loc();
        let block = ctx.create_block(&vec![(i32t, loc); operands]);
        let args = ctx.block_args(block).to_vec();
        let mut st = OperationState::new("x.op", loc)
            .operands(&args)
            .results(&vec![f32t; results]);
        for p in props {
            let u = ctx.unit_attr();
            st.add_prop(ctx, p, u);
        }
        ctx.create_op(st)
    }

    fn msg(r: DiagResult<()>) -> String {
        r.map_or_else(|d| d.message, |()| "ok".to_string())
    }

    #[test]
    fn counts() {
        let mut ctx = Context::new();
        let op = make(&mut ctx, 2, 1, &[]);
        assert_eq!(msg(expect_operands(&ctx, op, 2, true)), "ok");
        assert_eq!(
            msg(expect_operands(&ctx, op, 1, true)),
            "'x.op' op expects 1 operand, got 2"
        );
        assert_eq!(msg(expect_operands(&ctx, op, 1, false)), "ok");
        assert_eq!(
            msg(expect_operands(&ctx, op, 3, false)),
            "'x.op' op expects at least 3 operands, got 2"
        );
        assert_eq!(msg(expect_results(&ctx, op, 0..=1)), "ok");
        assert_eq!(
            msg(expect_results(&ctx, op, 0..=0)),
            "'x.op' op expects 0 results, got 1"
        );
        assert_eq!(
            msg(expect_results(&ctx, op, 2..=3)),
            "'x.op' op expects 2 to 3 results, got 1"
        );
        assert_eq!(msg(expect_no_successors(&ctx, op)), "ok");
    }

    #[test]
    fn simple_shape_and_props() {
        let mut ctx = Context::new();
        let op = make(&mut ctx, 1, 0, &["a", "b"]);
        assert_eq!(
            msg(expect_simple_shape(&ctx, op, 1, true, 0, &["a", "b"])),
            "ok"
        );
        assert_eq!(
            msg(expect_simple_shape(&ctx, op, 1, true, 0, &["a"])),
            "'x.op' op has unknown property 'b'"
        );
        assert_eq!(
            msg(expect_simple_shape(&ctx, op, 0, false, 1, &[])),
            "'x.op' op expects 1 result, got 0"
        );
    }

    #[test]
    fn elem_type() {
        let mut ctx = Context::new();
        let op = make(&mut ctx, 0, 0, &[]);
        let (i, f) = (ctx.i32_type(), ctx.f32_type());
        assert_eq!(msg(check_elem_type(&ctx, op, f, f, "value", "field")), "ok");
        assert_eq!(
            msg(check_elem_type(&ctx, op, f, i, "value", "field")),
            "'x.op' op expects the value type to match the field element type f32, got i32"
        );
    }
}
