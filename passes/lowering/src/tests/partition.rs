use super::{ops_named, parse};
use crate::partition::{partition, Bound, Segment};
use qd_frontend::KernelOp;

fn plan_of(src: &str) -> (qd_ir::Context, crate::partition::Plan, qd_ir::OpId) {
    let (mut ctx, m) = parse(src);
    let k = ops_named(&ctx, m, "qd.kernel")[0];
    let plan = partition(&mut ctx, &mut Default::default(), KernelOp(k))
        .unwrap_or_else(|d| panic!("{d:?}"));
    (ctx, plan, k)
}

#[test]
fn loops_serial_code_bounds_and_spills() {
    let (ctx, plan, k) = plan_of(
        r#"
qd.field @n : !qd.field<i32>
qd.field @x : !qd.field<4x2xf32>
qd.kernel @k(%s: f32, %m: i32) {
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %four = arith.addi %c1, %c3 : i32
  qd.range_for %i = %c1 to %four : i32 {
    qd.atomic_add %s, @x[%c1, %c1] : f32
  }
  %n = qd.load @n[] : i32
  %v = qd.load @x[%c1, %c1] : f32
  qd.range_for %i = %m to %n : i32 {
    qd.store %v, @x[%i, %c1] : f32
  }
  qd.struct_for (%i, %j) in @x {
    qd.store %v, @x[%i, %j] : f32
  }
}
"#,
    );
    let body = KernelOp(k).body(&ctx).unwrap();
    let top = ctx.block_op_vec(body);
    // Constants, `%four` (a folded constant) are rematerialized, in no task.
    for &o in &top[..3] {
        assert!(plan.remat.contains(&o), "{}", ctx.name(o));
    }
    assert_eq!(plan.segments.len(), 4, "{:?}", plan.segments);
    // The first loop's bounds fold to constants.
    assert_eq!(
        plan.segments[0],
        Segment::Range {
            op: top[3],
            begin: Bound::Const(1),
            end: Bound::Const(4)
        }
    );
    // The serial code between the loops holds the loads, then stores the next loop's bounds
    // (slots 0 and 1).
    let Segment::Serial { ops, bounds } = &plan.segments[1] else {
        panic!("{:?}", plan.segments[1]);
    };
    assert_eq!(ops, &vec![top[4], top[5]]);
    let m_arg = ctx.block_arg(body, 1);
    let n = ctx.result(top[4], 0);
    assert_eq!(bounds, &vec![(m_arg, 0, top[6]), (n, 1, top[6])]);
    assert_eq!(
        plan.segments[2],
        Segment::Range {
            op: top[6],
            begin: Bound::Temp(0),
            end: Bound::Temp(1)
        }
    );
    // The struct_for: the field's index space.
    assert_eq!(
        plan.segments[3],
        Segment::Range {
            op: top[7],
            begin: Bound::Const(0),
            end: Bound::Const(8)
        }
    );
    // `%v` crosses into both later tasks: one slot; `%n` is only a bound, computed in its own
    // task: no spill.
    let v = ctx.result(top[5], 0);
    assert_eq!(plan.spills.get(&v), Some(&2));
    assert_eq!(plan.spills.len(), 1);
    assert_eq!(plan.temps, 3);
}

#[test]
fn a_loop_first_or_after_a_loop_gets_a_serial_task_for_its_bounds() {
    let (_, plan, _) = plan_of(
        r#"
qd.kernel @k(%n: i32) {
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
  }
  qd.range_for %i = %c0 to %n : i32 {
  }
}
"#,
    );
    let kinds: Vec<&str> = plan
        .segments
        .iter()
        .map(|s| match s {
            Segment::Serial { ops, bounds } => {
                assert!(ops.is_empty());
                assert_eq!(bounds.len(), 1);
                "serial"
            }
            Segment::Range { .. } => "range",
        })
        .collect();
    assert_eq!(kinds, ["serial", "range", "serial", "range"]);
    assert!(plan.spills.is_empty());
}

#[test]
fn pointers_do_not_cross_tasks() {
    let (mut ctx, m) = parse(
        r#"
qd.field @x : !qd.field<4xf32>
qd.kernel @k() {
  %p = qd.alloca : !qd.ptr<f32>
  qd.struct_for (%i) in @x {
    %v = qd.local_load %p : !qd.ptr<f32>
  }
}
"#,
    );
    let k = ops_named(&ctx, m, "qd.kernel")[0];
    let d = partition(&mut ctx, &mut Default::default(), KernelOp(k)).unwrap_err();
    assert!(d.message.contains("used by another task"), "{}", d.message);
    assert_eq!(d.notes.len(), 1);
}
