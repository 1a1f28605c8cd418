//! Unit tests on IR built with the generated builders: a kernel that verifies and reads back
//! through the typed accessors, and the checks that need the surrounding kernel or task.

use crate::*;
use qd_ir::builtin::create_module;
use qd_ir::text::{print_op, PrintOptions};
use qd_ir::{BlockId, Builder, Context, Location, OpId};

struct Fx {
    ctx: Context,
    loc: Location,
    module: OpId,
    body: BlockId,
}

impl Fx {
    fn new() -> Self {
        let mut ctx = Context::new();
        ctx.register_dialect(qd_frontend::dialect());
        ctx.register_dialect(dialect());
        let loc = ctx.file_loc("t.mlir", 1, 1);
        let (module, body) = create_module(&mut ctx, loc);
        Fx {
            ctx,
            loc,
            module,
            body,
        }
    }
    fn verify(&self) -> Option<String> {
        qd_ir::verifier::verify(&self.ctx, self.module)
            .err()
            .map(|d| d[0].message.clone())
    }
}

/// A kernel `@k(f32)` with `temps` slots and one task of `kind`; returns (kernel, task block).
fn kernel_with_task(fx: &mut Fx, temps: u32, kind: TaskKind, stacks: &[u32]) -> (OpId, BlockId) {
    let loc = fx.loc;
    let f32t = fx.ctx.f32_type();
    let ft = fx.ctx.function_type(vec![f32t], vec![]);
    let mut b = Builder::at_end(&mut fx.ctx, fx.body);
    let k = KernelOp::build(&mut b, "k", ft, temps, loc);
    let kb = b.ctx.create_block(&[(f32t, loc)]);
    let r = k.body(b.ctx);
    b.ctx.append_block(r, kb);
    let mut b = Builder::at_end(&mut fx.ctx, kb);
    let t = TaskOp::build(&mut b, "k_0", "serial", None, None, None, None, None, loc);
    t.set_kind(b.ctx, kind);
    t.set_adstacks(b.ctx, stacks);
    let tb = b.ctx.create_block(&[]);
    let r = t.body(b.ctx);
    b.ctx.append_block(r, tb);
    (k.0, tb)
}

#[test]
fn built_kernel_verifies_and_reads_back() {
    let mut fx = Fx::new();
    let kind = TaskKind::Range {
        begin: TaskBound::Const(0),
        end: TaskBound::Temp(1),
    };
    let (k, tb) = kernel_with_task(&mut fx, 2, kind, &[4, 1]);
    let loc = fx.loc;
    let f32t = fx.ctx.f32_type();
    let mut b = Builder::at_end(&mut fx.ctx, tb);
    let a = ArgOp::build(&mut b, f32t, 0, loc).result(b.ctx);
    let slot_ty = global_ptr(b.ctx, f32t);
    let p = TempPtrOp::build(&mut b, slot_ty, 0, loc).result(b.ctx);
    StoreOp::build(&mut b, a, p, loc);
    let l = LoadOp::build(&mut b, p, loc);
    AtomicAddOp::build(&mut b, a, p, loc);
    AdstackOverflowOp::build(&mut b, 4, loc);
    ReturnOp::build(&mut b, loc);
    assert_eq!(fx.verify(), None);

    let ctx = &fx.ctx;
    let k = KernelOp(k);
    assert_eq!((k.name(ctx), k.temps(ctx)), ("k", 2));
    assert_eq!(k.arg_types(ctx), vec![f32t]);
    let t = k.tasks(ctx)[0];
    assert_eq!(t.kind(ctx), Some(kind));
    assert_eq!(t.adstacks(ctx), vec![4, 1]);
    assert_eq!(ctx.value_type(l.result(ctx)), f32t);
    let text = print_op(ctx, fx.module, &PrintOptions::default());
    assert!(
        text.contains("lowered.task @k_0 range(0, temp 1) adstacks [4, 1] {"),
        "{text}"
    );
    assert!(text.contains("lowered.adstack_overflow 4"), "{text}");
}

#[test]
fn context_checks() {
    // A slot past the kernel's temps.
    let mut fx = Fx::new();
    let kind = TaskKind::Range {
        begin: TaskBound::Temp(3),
        end: TaskBound::Const(4),
    };
    let (_, tb) = kernel_with_task(&mut fx, 2, kind, &[]);
    let loc = fx.loc;
    ReturnOp::build(&mut Builder::at_end(&mut fx.ctx, tb), loc);
    let e = fx.verify().unwrap();
    assert!(
        e.contains("reads temporaries slot 3, but the kernel has 2"),
        "{e}"
    );

    // An adstack id its task does not list; task_begin in a serial task.
    let mut fx = Fx::new();
    let (_, tb) = kernel_with_task(&mut fx, 0, TaskKind::Serial, &[1]);
    let loc = fx.loc;
    let mut b = Builder::at_end(&mut fx.ctx, tb);
    let i64t = b.ctx.i64_type();
    AdstackOffsetOp::build(&mut b, i64t, 2, loc);
    ReturnOp::build(&mut b, loc);
    let e = fx.verify().unwrap();
    assert!(
        e.contains("refers to adstack 2, which is not in its task's 'adstacks'"),
        "{e}"
    );

    let mut fx = Fx::new();
    let (_, tb) = kernel_with_task(&mut fx, 0, TaskKind::Serial, &[]);
    let loc = fx.loc;
    let mut b = Builder::at_end(&mut fx.ctx, tb);
    let i64t = b.ctx.i64_type();
    TaskBeginOp::build(&mut b, i64t, loc);
    ReturnOp::build(&mut b, loc);
    let e = fx.verify().unwrap();
    assert!(e.contains("expects to be in a range task"), "{e}");
}

#[test]
fn ops_outside_a_task_print_and_verify_alone() {
    // Task-level ops built on their own (no enclosing op) have nothing to check against; a
    // malformed op still prints.
    let mut ctx = Context::new();
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(dialect());
    let loc = ctx.unknown_loc();
    let i64t = ctx.i64_type();
    let mut b = Builder::new(&mut ctx, qd_ir::InsertPoint::Detached);
    let t = ThreadIdOp::build(&mut b, i64t, loc);
    assert!(qd_ir::verifier::verify(&ctx, t.0).is_ok());
    let bad = ctx.create_op(qd_ir::OperationState::new(MEMBER_PTR_OP, loc));
    let text = print_op(&ctx, bad, &PrintOptions::default());
    assert!(text.contains("lowered.member_ptr"), "{text}");
}

#[test]
fn bounds_check_carries_every_index_and_extent() {
    let mut fx = Fx::new();
    let (_, tb) = kernel_with_task(&mut fx, 0, TaskKind::Serial, &[]);
    let loc = fx.loc;
    let mut b = Builder::at_end(&mut fx.ctx, tb);
    let i64t = b.ctx.i64_type();
    // Any i64 values will do: the op checks them only when it runs.
    let mut v = || ThreadIdOp::build(&mut b, i64t, loc).result(b.ctx);
    let (t, c3, c4, c10) = (v(), v(), v(), v());
    let f = BoundsCheckOp::build(&mut b, &[t, c3], &[c4, c10], "field @f", false, loc);
    let l = BoundsCheckOp::build(
        &mut b,
        &[t],
        &[c10],
        "local array '!qd.array<10xf32>'",
        true,
        loc,
    );
    ReturnOp::build(&mut b, loc);
    assert_eq!(fx.verify(), None);

    let ctx = &fx.ctx;
    assert_eq!(
        (f.indices(ctx), f.extents(ctx)),
        (vec![t, c3], vec![c4, c10])
    );
    assert_eq!((f.what(ctx), f.is_local(ctx)), ("field @f", false));
    assert_eq!(
        (l.indices(ctx), l.extents(ctx), l.is_local(ctx)),
        (vec![t], vec![c10], true)
    );
    let text = print_op(ctx, fx.module, &PrintOptions::default());
    assert!(
        text.contains("lowered.bounds_check [%0, %1] in [%2, %3] {what = \"field @f\"} : i64"),
        "{text}"
    );
    assert!(
        text.contains(
            "lowered.bounds_check [%0] in [%3] {what = \"local array '!qd.array<10xf32>'\", local} : i64"
        ),
        "{text}"
    );

    // `local` names one index.
    let mut b = Builder::before(&mut fx.ctx, l.0);
    BoundsCheckOp::build(&mut b, &[t, c3], &[c4, c10], "local array 'x'", true, loc);
    let e = fx.verify().unwrap();
    assert!(e.contains("expects one index with 'local'"), "{e}");
}
