//! Gradient kernels through the runtime API: found through `ad.reverse @k -> @k_grad`, launched
//! with the primal arguments and fresh zeroed adjoint ndarrays for the active ones.

use super::mock::{Log, Mock};
use qd_ir::text::parse_source;
use qd_ir::Context;
use qd_runtime::{Arg, DType, Error, Ndarray, Program, ProgramConfig, Scalar};
use std::cell::RefCell;
use std::rc::Rc;

const SRC: &str = "
qd.kernel @k(%a: !qd.ndarray<?x?xf32>, %s: f32, %n: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xf64>) {
}
qd.kernel @k_grad(%a: !qd.ndarray<?x?xf32>, %s: f32, %n: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xf64>, %da: !qd.ndarray<?x?xf32>, %db: !qd.ndarray<?xf64>) {
}
qd.kernel @j(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>) {
}
qd.kernel @j_grad(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>, %db: !qd.ndarray<?xf32>) {
}
qd.kernel @wanted() {
}
qd.kernel @plain() {
}
ad.reverse @k -> @k_grad
ad.reverse @j -> @j_grad {active = [false, true]}
ad.reverse @wanted
";

fn program() -> (Program, Rc<RefCell<Log>>) {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(qd_ad::dialect());
    let m =
        parse_source(&mut ctx, SRC, "g.mlir").unwrap_or_else(|| panic!("{:?}", ctx.diagnostics()));
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
fn gradient_kernels_come_from_their_declarations() {
    let (mut p, log) = program();
    let g = p.gradient("k").unwrap();
    assert_eq!(g.primal, "k");
    assert_eq!(p.kernel_name(g.kernel), Some("k_grad"));
    // Default activity: float ndarrays.
    assert_eq!(g.activity, vec![true, false, false, true]);
    let h = p.gradient("j").unwrap();
    assert_eq!(h.activity, vec![false, true]);
    assert_eq!(log.borrow().compiled, vec!["k_grad", "j_grad"]);
    // A declaration without a gradient, or none at all: the pipeline makes the gradient.
    for name in ["wanted", "plain"] {
        let g = p.gradient(name).unwrap();
        assert_eq!(
            p.kernel_name(g.kernel),
            Some(format!("{name}_grad").as_str())
        );
    }
    let e = p.gradient("nope").unwrap_err();
    assert!(
        matches!(&e, Error::UnknownKernel { name, .. } if name == "nope"),
        "{e:?}"
    );
}

#[test]
fn a_gradient_launch_adds_zeroed_adjoints_of_the_active_ndarrays() {
    let (mut p, log) = program();
    let a = p.add_ndarray(Ndarray::from_f64(DType::F32, &[2, 3], &[1.0; 6]).unwrap());
    let n = p.add_ndarray(Ndarray::zeros(DType::I32, &[4]).unwrap());
    let b = p.add_ndarray(Ndarray::from_f64(DType::F64, &[5], &[2.0; 5]).unwrap());
    let args = [
        Arg::Ndarray(a),
        Arg::Scalar(Scalar::F32(1.5)),
        Arg::Ndarray(n),
        Arg::Ndarray(b),
    ];
    let g = p.gradient("k").unwrap();
    let adj = p.launch_grad(&g, &args).unwrap();
    assert_eq!(adj.len(), 2);
    assert_eq!((adj[0].0, adj[1].0), (0, 3));
    let da = p.ndarray(adj[0].1).unwrap();
    assert_eq!((da.dtype(), da.shape()), (DType::F32, &[2usize, 3][..]));
    assert_eq!(da.to_f64_vec(), vec![0.0; 6]);
    let db = p.ndarray(adj[1].1).unwrap();
    assert_eq!((db.dtype(), db.shape()), (DType::F64, &[5usize][..]));
    let mut want = args.to_vec();
    want.extend([Arg::Ndarray(adj[0].1), Arg::Ndarray(adj[1].1)]);
    assert_eq!(log.borrow().launched.last().unwrap().1, want);
    assert!(p.sync().is_ok());
}

#[test]
fn bad_gradient_launches_run_nothing_and_leave_no_ndarrays() {
    let (mut p, log) = program();
    let g = p.gradient("j").unwrap();
    let a = p.add_ndarray(Ndarray::zeros(DType::F32, &[2]).unwrap());
    assert!(matches!(
        p.launch_grad(&g, &[Arg::Ndarray(a)]),
        Err(Error::ArgCount {
            expected: 2,
            got: 1,
            ..
        })
    ));
    // The active argument must be an ndarray.
    let e = p
        .launch_grad(&g, &[Arg::Ndarray(a), Arg::Scalar(Scalar::F32(0.0))])
        .unwrap_err();
    assert!(matches!(e, Error::ArgType { index: 1, .. }), "{e}");
    // An f64 ndarray where the kernel takes f32: the launch check refuses it, and the adjoint
    // made for it is freed.
    let wrong = p.add_ndarray(Ndarray::zeros(DType::F64, &[2]).unwrap());
    let e = p
        .launch_grad(&g, &[Arg::Ndarray(a), Arg::Ndarray(wrong)])
        .unwrap_err();
    assert!(matches!(e, Error::ArgType { .. }), "{e}");
    assert!(p.ndarray(qd_runtime::NdarrayId(wrong.0 + 1)).is_err());
    assert!(log.borrow().launched.is_empty());
}
