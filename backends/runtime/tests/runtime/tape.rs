//! The tape's bookkeeping over the mock device (which bumps element 0 of the first field at
//! every launch): forward launches in order, gradient launches last to first with the tape's
//! adjoint ndarrays, snapshots put back between them, the final data put back at the end.
//! Gradients against finite differences are tested on the interpreter (qd-interp's `tape`).

use super::mock::{Log, Mock};
use qd_ir::text::parse_source;
use qd_ir::Context;
use qd_runtime::{Arg, DType, Error, Ndarray, Program, ProgramConfig, Tape, WriteSet};
use std::cell::RefCell;
use std::rc::Rc;

const SRC: &str = "
qd.field @c : !qd.field<f32>
qd.field @d : !qd.field<2xf32> {needs_grad}
qd.kernel @k(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>) {
  %z = arith.constant 0 : i32
  %v = qd.ndarray_load %a[%z] : !qd.ndarray<?xf32>
  qd.store %v, @c[] : f32
  qd.ndarray_store %v, %b[%z] : !qd.ndarray<?xf32>
  %w = qd.load @d[%z] : f32
}
qd.kernel @k_grad(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>, %da: !qd.ndarray<?xf32>, %db: !qd.ndarray<?xf32>) {
}
qd.kernel @j(%b: !qd.ndarray<?xf32>) {
  %z = arith.constant 0 : i32
  %v = qd.ndarray_load %b[%z] : !qd.ndarray<?xf32>
  qd.atomic_add %v, @d[%z] : f32
}
qd.kernel @j_grad(%b: !qd.ndarray<?xf32>, %db: !qd.ndarray<?xf32>) {
}
ad.reverse @k -> @k_grad
ad.reverse @j -> @j_grad
";

fn program() -> (Program, Rc<RefCell<Log>>) {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_arith::dialect());
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(qd_ad::dialect());
    let m =
        parse_source(&mut ctx, SRC, "t.mlir").unwrap_or_else(|| panic!("{:?}", ctx.diagnostics()));
    let log = Rc::new(RefCell::new(Log::default()));
    let p = Program::new(
        ctx,
        m,
        Box::new(Mock::new(log.clone())),
        ProgramConfig::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (p, log)
}

#[test]
fn gradients_run_last_to_first_between_snapshots() {
    let (mut p, log) = program();
    let a = p.add_ndarray(Ndarray::zeros(DType::F32, &[2]).unwrap());
    let b = p.add_ndarray(Ndarray::zeros(DType::F32, &[2]).unwrap());
    let mut tape = Tape::new();
    let (ka, kb) = ([Arg::Ndarray(a), Arg::Ndarray(b)], [Arg::Ndarray(b)]);
    tape.launch(&mut p, "k", &ka).unwrap(); // c: 0 -> 1
    tape.launch(&mut p, "j", &kb).unwrap(); // c: 1 -> 2
    tape.launch(&mut p, "k", &ka).unwrap(); // snapshot c = 2, b; c: 2 -> 3
    let (k, j) = (p.kernel("k").unwrap(), p.kernel("j").unwrap());
    // Write sets come from the IR: k stores @c (field 0) and writes %b; j updates @d.
    let want = |fields: Vec<usize>, params: Vec<usize>| Some(WriteSet { fields, params });
    assert_eq!(tape.kernel_write_set(k).cloned(), want(vec![0], vec![1]));
    assert_eq!(tape.kernel_write_set(j).cloned(), want(vec![1], vec![]));
    // Snapshots: before j, @d (8 bytes); before the second k, @c and b (4 + 8).
    assert_eq!(tape.snapshot_bytes(), 8 + 4 + 8);
    assert_eq!(p.read_f64("c").unwrap(), vec![3.0]);
    log.borrow_mut().launched.clear();
    tape.backward(&mut p).unwrap();
    let names: Vec<String> = log
        .borrow()
        .launched
        .iter()
        .map(|(c, _)| log.borrow().compiled[*c as usize].clone())
        .collect();
    assert_eq!(names, ["k_grad", "j_grad", "k_grad"]);
    // One adjoint ndarray per primal ndarray, shared by every gradient launch.
    let (da, db) = (
        tape.existing_adjoint(a).unwrap(),
        tape.existing_adjoint(b).unwrap(),
    );
    let launched = log.borrow().launched.clone();
    assert_eq!(launched[0].1[2..], [Arg::Ndarray(da), Arg::Ndarray(db)]);
    assert_eq!(launched[1].1[1..], [Arg::Ndarray(db)]);
    assert_eq!(launched[2].1, launched[0].1);
    // The mock bumped c at each gradient launch; the tape put the data back after each and
    // at the end: c is as the last forward launch left it.
    assert_eq!(p.read_f64("c").unwrap(), vec![3.0]);
    // Each gradient launch has its plan.
    assert_eq!(tape.gradient_plan(1).unwrap().kernel, "j_grad");
    assert!(tape.forward_plan(0).is_some());
}

#[test]
fn launch_grad_with_checks_the_adjoints() {
    let (mut p, _) = program();
    let a = p.add_ndarray(Ndarray::zeros(DType::F32, &[2]).unwrap());
    let short = p.add_ndarray(Ndarray::zeros(DType::F32, &[3]).unwrap());
    let g = p.gradient("j").unwrap();
    let e = p.launch_grad_with(&g, &[Arg::Ndarray(a)], &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the gradient of @j takes 1 adjoint ndarray, got 0"
    );
    let e = p
        .launch_grad_with(&g, &[Arg::Ndarray(a)], &[short])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("must be an ndarray of f32 with shape [2], got f32 with shape [3]"),
        "{e}"
    );
    let e = p.launch_grad_with(&g, &[], &[]).unwrap_err();
    assert!(matches!(e, Error::ArgCount { .. }), "{e:?}");
    p.launch_grad_with(&g, &[Arg::Ndarray(a)], &[a]).unwrap();
}

#[test]
fn a_differentiated_kernel_refuses_one_ndarray_for_two_parameters() {
    let (mut p, log) = program();
    let a = p.add_ndarray(Ndarray::zeros(DType::F32, &[2]).unwrap());
    let twice = [Arg::Ndarray(a), Arg::Ndarray(a)];
    let want = "arguments 0 and 1 of @k are the same ndarray; a differentiated kernel takes distinct ndarrays";
    // The tape refuses before running anything, and records nothing.
    let mut tape = Tape::new();
    let e = tape.launch(&mut p, "k", &twice).unwrap_err();
    assert!(e.to_string().contains(want), "{e}");
    assert!(tape.is_empty());
    assert!(log.borrow().launched.is_empty());
    // So do both gradient launches.
    let g = p.gradient("k").unwrap();
    let e = p.launch_grad(&g, &twice).unwrap_err();
    assert!(e.to_string().contains(want), "{e}");
    let b = p.add_ndarray(Ndarray::zeros(DType::F32, &[2]).unwrap());
    let e = p.launch_grad_with(&g, &twice, &[a, b]).unwrap_err();
    assert!(e.to_string().contains(want), "{e}");
    // A plain forward launch is the caller's business.
    let k = p.kernel("k").unwrap();
    p.launch(k, &twice).unwrap();
}
