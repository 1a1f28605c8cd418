//! The extension point: a dialect interpreter registered from outside the crate runs its ops,
//! recurses into nested blocks through the compiler, and keeps per-launch state.

use super::common::*;
use qd_interp::helpers::{float_unary, unary_slots};
use qd_interp::{Compiler, DialectInterpreter, Exec, Flow, Interpreter};
use qd_ir::{Diagnostic, OpId};
use qd_runtime::{Program, ProgramConfig};

/// `test.triple` (f32 -> f32), `test.count` (-> i32: how many times it ran in this launch) and
/// `test.twice` (runs its region twice).
struct TestDialect;

impl DialectInterpreter for TestDialect {
    fn dialect(&self) -> &'static str {
        "test"
    }
    fn compile(&self, c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
        match c.ctx().name(op) {
            "test.triple" => {
                let (x, d) = unary_slots(c, op);
                Ok(float_unary::<f32>(x, d, |a| a * 3.0))
            }
            "test.count" => {
                let state = c.add_state(|| Box::new(0i32));
                let d = c.result_slot(op, 0);
                Ok(Box::new(move |f| {
                    let n = f.state::<i32>(state);
                    *n += 1;
                    let v = *n;
                    f.set(d, v as i64 as u64);
                    Ok(Flow::Next)
                }))
            }
            "test.twice" => {
                let body = c.compile_region(op, 0)?;
                Ok(Box::new(move |f| {
                    body.run(f)?;
                    body.run(f)
                }))
            }
            _ => Err(c.unsupported(op)),
        }
    }
}

const SRC: &str = "module {
  qd.field @y : !qd.field<f32>
  qd.field @c : !qd.field<4xi32>
  qd.kernel @k(%x: f32) {
    %t = \"test.triple\"(%x) : (f32) -> f32
    qd.store %t, @y[] : f32
    qd.struct_for (%i) in @c {
      \"test.twice\"() ({
        %n = \"test.count\"() : () -> i32
        qd.store %n, @c[%i] : i32
      }) : () -> ()
    }
  }
}
";

#[test]
fn registered_dialects_plug_in() {
    let mut ctx = context();
    ctx.allow_unregistered = true;
    let (ctx, module) = parse(ctx, SRC, "ext.mlir");
    let mut interp = Interpreter::new();
    interp.register(Box::new(TestDialect));
    assert_eq!(
        interp.dialects(),
        vec!["arith", "math", "qd", "ad", "adstack", "test"]
    );
    let mut p = Program::new(ctx, module, Box::new(interp), ProgramConfig::default()).unwrap();
    let args = [qd_runtime::Arg::Scalar(qd_runtime::Scalar::F32(1.5))];
    run_ok(&mut p, "k", &args);
    assert_eq!(p.read_f64("y").unwrap(), vec![4.5]);
    // Each thread's second run of the region stores the running count.
    assert_eq!(p.field("c").unwrap().as_i32().unwrap(), &[2, 4, 6, 8]);
    // The state starts afresh at every launch.
    run_ok(&mut p, "k", &args);
    assert_eq!(p.field("c").unwrap().as_i32().unwrap(), &[2, 4, 6, 8]);
}

#[test]
fn without_the_extension_the_op_is_refused() {
    let mut ctx = context();
    ctx.allow_unregistered = true;
    let (ctx, module) = parse(ctx, SRC, "ext.mlir");
    let mut p = Program::new(
        ctx,
        module,
        Box::new(Interpreter::new()),
        ProgramConfig::default(),
    )
    .unwrap();
    let e = p.kernel("k").unwrap_err();
    assert!(
        e.to_string().contains("no interpreter for dialect 'test'"),
        "{e}"
    );
}
