//! `structurize` on the interpreter: each kernel, with its jumps and with them replaced by flags,
//! computes the same bits; no jump is left and the result verifies.

use super::parse;
use crate::structurize::remove_jumps;
use qd_runtime::{Program, ProgramConfig};

/// Runs `@k` of `src` (after `remove_jumps` when `structurize`) and returns field `out`.
fn run(src: &str, structurize: bool) -> Vec<f64> {
    let (mut ctx, m) = parse(src);
    if structurize {
        let n = remove_jumps(&mut ctx, &mut Default::default(), m).unwrap();
        assert!(n > 0, "no loop to rewrite");
        qd_ir::verifier::verify(&ctx, m).unwrap_or_else(|d| panic!("{d:?}"));
        for o in ctx.walk_pre_order(m) {
            assert!(
                !matches!(ctx.name(o), "qd.break" | "qd.continue"),
                "a jump is left"
            );
        }
    }
    let mut p = Program::new(
        ctx,
        m,
        Box::new(qd_interp::Interpreter::new()),
        ProgramConfig::default(),
    )
    .unwrap();
    p.write_f64("x", &[0.5, -1.0, 2.0, 3.5, -0.25, 7.0, 1.0, -3.0])
        .unwrap();
    let k = p.kernel("k").unwrap();
    p.launch(k, &[]).unwrap();
    p.sync().unwrap();
    p.read_f64("out").unwrap()
}

fn same(src: &str) {
    let (a, b) = (run(src, false), run(src, true));
    let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&a), bits(&b), "{a:?} vs {b:?}");
    assert!(a.iter().any(|v| *v != 0.0), "the kernel computes nothing");
}

const FIELDS: &str = r#"
qd.field @x : !qd.field<8xf32>
qd.field @out : !qd.field<8xf32>
qd.field @count : !qd.field<i32>
qd.field @g : !qd.field<2x4xf32>
"#;

#[test]
fn break_and_continue_in_a_range_for() {
    same(&format!(
        r#"{FIELDS}
qd.kernel @k() {{
  qd.struct_for (%i) in @x {{
    %acc = qd.alloca : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    qd.range_for %j = %c0 to %c8 : i32 {{
      %v = qd.load @x[%j] : f32
      %z = arith.constant 0.0 : f32
      %neg = arith.cmpf olt, %v, %z : f32
      qd.if %neg {{
        qd.continue
      }}
      %a = qd.local_load %acc : !qd.ptr<f32>
      %s = arith.addf %a, %v : f32
      qd.local_store %s, %acc : !qd.ptr<f32>
      %lim = arith.constant 5.0 : f32
      %big = arith.cmpf ogt, %s, %lim : f32
      qd.if %big {{
        %ij = arith.addi %i, %j : i32
        %c3 = arith.constant 3 : i32
        %odd = arith.cmpi sgt, %ij, %c3 : i32
        qd.if %odd {{
          qd.break
        }}
        %h = arith.constant 0.5 : f32
        %t = arith.mulf %s, %h : f32
        qd.local_store %t, %acc : !qd.ptr<f32>
      }}
    }}
    %r = qd.local_load %acc : !qd.ptr<f32>
    qd.store %r, @out[%i] : f32
  }}
}}
"#
    ));
}

#[test]
fn a_while_with_a_break_never_reevaluates_its_condition() {
    // The condition counts its evaluations: one more after the break would show.
    same(&format!(
        r#"{FIELDS}
qd.kernel @k() {{
  qd.struct_for (%i) in @x {{
    %p = qd.alloca : !qd.ptr<i32>
    qd.while {{
      %one = arith.constant 1 : i32
      %old = qd.atomic_add %one, @count[] : i32
      %v = qd.local_load %p : !qd.ptr<i32>
      %c10 = arith.constant 10 : i32
      %go = arith.cmpi slt, %v, %c10 : i32
      qd.condition %go
    }} do {{
      %v = qd.local_load %p : !qd.ptr<i32>
      %c1 = arith.constant 1 : i32
      %w = arith.addi %v, %c1 : i32
      qd.local_store %w, %p : !qd.ptr<i32>
      %stop = arith.cmpi sge, %w, %i : i32
      qd.if %stop {{
        qd.break
      }}
    }}
    %n = qd.load @count[] : i32
    %f = arith.sitofp %n : i32 to f32
    qd.store %f, @out[%i] : f32
  }}
}}
"#
    ));
}

#[test]
fn a_serial_struct_for_and_an_index_loop_with_breaks() {
    same(&format!(
        r#"{FIELDS}
qd.kernel @k() {{
  qd.struct_for (%i) in @x {{
    %acc = qd.alloca : !qd.ptr<f32>
    qd.struct_for (%a, %b) in @g {{
      %ab = arith.addi %a, %b : i32
      %v = qd.load @x[%ab] : f32
      %s0 = qd.local_load %acc : !qd.ptr<f32>
      %s = arith.addf %s0, %v : f32
      qd.local_store %s, %acc : !qd.ptr<f32>
      %lim = arith.sitofp %i : i32 to f32
      %big = arith.cmpf ogt, %s, %lim : f32
      qd.if %big {{
        qd.break
      }}
    }}
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    qd.range_for %t = %c0 to %c5 : index {{
      %ti = arith.index_cast %t : index to i32
      %stop = arith.cmpi sge, %ti, %i : i32
      qd.if %stop {{
        qd.break
      }} else {{
        %s0 = qd.local_load %acc : !qd.ptr<f32>
        %two = arith.constant 2.0 : f32
        %s = arith.mulf %s0, %two : f32
        qd.local_store %s, %acc : !qd.ptr<f32>
      }}
    }}
    %r = qd.local_load %acc : !qd.ptr<f32>
    qd.store %r, @out[%i] : f32
  }}
}}
"#
    ));
}
