//! `ValueMarks` holds exactly the values marked since it was last cleared, whether it is
//! emptied value by value (few marks) or by range (many).

use crate::marks::ValueMarks;
use qd_ir::{Context, OperationState, Value};

/// `n` values: the results of `n` detached ops.
fn values(ctx: &mut Context, n: usize) -> Vec<Value> {
    let loc = ctx.unknown_loc();
    let f32t = ctx.f32_type();
    (0..n)
        .map(|_| {
            let o = ctx.create_op(OperationState::new("t.x", loc).results(&[f32t]));
            ctx.result(o, 0)
        })
        .collect()
}

fn check(m: &ValueMarks, all: &[Value], marked: &[Value]) {
    for &v in all {
        assert_eq!(m.contains(v), marked.contains(&v), "value {}", v.index());
    }
}

#[test]
fn holds_what_was_marked_until_cleared() {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let all = values(&mut ctx, 20_000);
    let mut m = ValueMarks::default();
    check(&m, &all, &[]);
    for round in 0..3 {
        // Few, scattered (one twice), then many (more than are listed one by one).
        let few: Vec<Value> = all.iter().copied().skip(round).step_by(997).collect();
        for &v in few.iter().chain(&few[..1]) {
            m.mark(v);
        }
        check(&m, &all, &few);
        m.clear();
        check(&m, &all, &[]);
        let many: Vec<Value> = all[round * 100..].iter().copied().step_by(3).collect();
        for &v in &many {
            m.mark(v);
        }
        check(&m, &all, &many);
        m.clear();
        check(&m, &all, &[]);
    }
}

#[test]
fn an_op_defines_its_results_and_its_blocks_arguments() {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let loc = ctx.unknown_loc();
    let f32t = ctx.f32_type();
    let i32t = ctx.i32_type();
    let outside = values(&mut ctx, 3);
    let (r, b) = ctx.create_region_with_block(&[(i32t, loc), (f32t, loc)]);
    let b2 = ctx.create_block(&[(f32t, loc)]);
    ctx.append_block(r, b2);
    let op = ctx.create_op(
        OperationState::new("t.loop", loc)
            .results(&[f32t, i32t])
            .region(r),
    );
    let mut m = ValueMarks::default();
    m.mark_defined_by(&ctx, op);
    let defined: Vec<Value> = ctx
        .results(op)
        .iter()
        .chain(ctx.block_args(b))
        .chain(ctx.block_args(b2))
        .copied()
        .collect();
    assert_eq!(defined.len(), 5);
    let all: Vec<Value> = defined.iter().chain(&outside).copied().collect();
    check(&m, &all, &defined);
}
