//! Export: kernels and gradients to upstream func/scf/arith/math/memref (verified by MLIR's own
//! verifier with only upstream dialects registered, inside `export_text`), and located errors for
//! IR the export does not take.

use super::common::*;
use qd_ir::text::parse_source;

const SRC: &str = r#"module {
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @k(%a: !qd.ndarray<?x?xf32>, %n: i32) {
    qd.struct_for (%i) in @x {
      %xi = qd.load @x[%i] : f32
      %s = qd.alloca : !qd.ptr<f32>
      qd.local_store %xi, %s : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %o = qd.local_load %s : !qd.ptr<f32>
        %aj = qd.ndarray_load %a[%c0, %j] : !qd.ndarray<?x?xf32>
        %t = math.tanh %o : f32
        %r = arith.mulf %t, %aj : f32
        qd.local_store %r, %s : !qd.ptr<f32>
      }
      %f = qd.local_load %s : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}"#;

#[test]
fn a_kernel_is_one_function_per_task_over_memrefs() {
    let text = export(SRC, "k", false);
    for want in [
        "func.func @k_task0(%arg0: index, %arg1: index, %arg2: i64, %arg3: i64, %arg4: memref<?xi8>, %arg5: memref<?xi8>, %arg6: memref<?xi8>, %arg7: memref<?xi64>, %arg8: memref<?xi64>, %arg9: memref<?xf32>, %arg10: i64, %arg11: i64, %arg12: i32, %arg13: memref<?xf32>, %arg14: memref<?xf32>)",
        "scf.for %arg15 = %arg0 to %arg1 step %c1 {",
        "math.tanh",
        "memref.atomic_rmw addf",
        // The ndarray's extents bound its index (bounds checks on): an error record in %status.
        "memref.store %0, %arg8[%c0] : memref<?xi64>",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    for not in ["qd.", "lowered.", "ad."] {
        assert!(!text.contains(not), "{not}\n{text}");
    }
}

#[test]
fn a_gradients_adstack_is_a_view_of_its_heap() {
    let text = export(SRC, "k", true);
    // The stack of the carried local: a typed view of the float heap at its byte offset, whose
    // capacity and offset come from %meta.
    assert!(
        text.contains("memref.view %arg5[") && text.contains("to memref<?xf32>"),
        "{text}"
    );
    assert!(text.contains("memref.load %arg7["), "{text}");
    assert!(text.contains("scf.if"), "{text}");
}

#[test]
fn what_is_not_a_lowered_kernel_is_a_located_error() {
    let mut ctx = qd_dialects::context();
    let m = parse_source(&mut ctx, SRC, "src.mlir").unwrap();
    let k = ctx
        .walk_pre_order(m)
        .into_iter()
        .find(|&o| ctx.name(o) == "qd.kernel")
        .unwrap();
    let memory = qd_runtime::Memory::for_module(&ctx, m).unwrap();
    let mcx = qd_mlir::MlirContext::new();
    let e = qd_mlir::export_kernel(&mcx, &ctx, k, "k", &memory)
        .err()
        .expect("a qd.kernel is refused");
    assert_eq!(
        e.message,
        "the MLIR export takes a lowered.kernel, got 'qd.kernel'"
    );
    assert_eq!(ctx.file_line_col(e.loc), Some(("src.mlir", 4, 3)));
}

#[test]
fn an_op_without_an_upstream_form_is_a_located_error() {
    let src = r#"module {
  qd.field @y : !qd.field<4xf32>
  lowered.kernel @k(%arg0: f32) attributes {temps = 0} {
    lowered.task @k_0 range(0, 4) {
      %0 = lowered.arg 0 : f32
      %1 = "test.twice"(%0) : (f32) -> f32
      lowered.return
    }
  }
}"#;
    let mut ctx = qd_dialects::context();
    ctx.allow_unregistered = true;
    let m = parse_source(&mut ctx, src, "low.mlir")
        .unwrap_or_else(|| panic!("{:?}", ctx.diagnostics()));
    let k = ctx
        .walk_pre_order(m)
        .into_iter()
        .find(|&o| ctx.name(o) == "lowered.kernel")
        .unwrap();
    let memory = qd_runtime::Memory::for_module(&ctx, m).unwrap();
    let e = qd_mlir::export_text(&ctx, k, "k", &memory).expect_err("test.twice is refused");
    assert_eq!(e.message, "the MLIR export does not support 'test.twice'");
    assert_eq!(ctx.file_line_col(e.loc), Some(("low.mlir", 6, 12)));
}

/// Two tasks: the first with a `while` nested in a `while` (next to a `for` and an `if`), the
/// second with no `while` at all.
const WHILES: &str = r#"module {
  qd.field @y : !qd.field<4xi32>
  qd.kernel @w(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    qd.range_for %i = %c0 to %c4 : i32 {
      %k = qd.alloca : !qd.ptr<i32>
      qd.local_store %c0, %k : !qd.ptr<i32>
      qd.while {
        %kk = qd.local_load %k : !qd.ptr<i32>
        %go = arith.cmpi slt, %kk, %n : i32
        qd.condition %go
      } do {
        %j = qd.alloca : !qd.ptr<i32>
        qd.local_store %c0, %j : !qd.ptr<i32>
        qd.while {
          %jj = qd.local_load %j : !qd.ptr<i32>
          %go2 = arith.cmpi slt, %jj, %i : i32
          qd.condition %go2
        } do {
          %jj = qd.local_load %j : !qd.ptr<i32>
          %j1 = arith.addi %jj, %c1 : i32
          qd.local_store %j1, %j : !qd.ptr<i32>
        }
        %kk = qd.local_load %k : !qd.ptr<i32>
        %k1 = arith.addi %kk, %c1 : i32
        qd.local_store %k1, %k : !qd.ptr<i32>
      }
      qd.range_for %m = %c0 to %n : i32 {
        %big = arith.cmpi sgt, %m, %i : i32
        qd.if %big {
          qd.store %m, @y[%i] : i32
        }
      }
    }
    qd.range_for %i = %c0 to %c4 : i32 {
      qd.store %n, @y[%i] : i32
    }
  }
}"#;

/// Whether line `at` of `lines` lies directly in the `do` region of an `scf.while` (not inside
/// an op nested in it): the nearest line above it that is indented less, block labels aside,
/// opens that region.
fn directly_in_a_while_body(lines: &[&str], at: usize) -> bool {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let own = indent(lines[at]);
    lines[..at]
        .iter()
        .rev()
        .find(|l| indent(l) < own && !l.trim_start().starts_with('^'))
        .is_some_and(|l| l.trim() == "} do {")
}

#[test]
fn the_cancel_flag_is_read_at_while_back_edges_only() {
    let text = export(WHILES, "w", false);
    let lines: Vec<&str> = text.lines().collect();
    let whiles = lines.iter().filter(|l| l.contains("scf.while")).count();
    assert_eq!(whiles, 2, "{text}");
    // One atomic load per while, at the end of its body, and no other LLVM-dialect op but the
    // flag's address.
    let loads: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("llvm.load"))
        .collect();
    assert_eq!(loads.len(), whiles, "{text}");
    for &i in &loads {
        assert!(
            lines[i].contains("atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32"),
            "{}",
            lines[i]
        );
        assert!(directly_in_a_while_body(&lines, i), "line {i}\n{text}");
        assert!(lines[i - 1].contains("llvm.inttoptr %arg9 : i64 to !llvm.ptr"));
    }
    let llvm_ops = lines.iter().filter(|l| l.contains("llvm.")).count();
    assert_eq!(llvm_ops, 2 * whiles, "{text}");
    // The task with whiles takes the flag's address after %status; the other does not.
    assert!(
        text.contains("%arg8: memref<?xi64>, %arg9: i64, %arg10: i32, %arg11: memref<?xi32>)"),
        "{text}"
    );
    assert!(
        text.contains(
            "func.func @w_task1(%arg0: index, %arg1: index, %arg2: i64, %arg3: i64, %arg4: memref<?xi8>, %arg5: memref<?xi8>, %arg6: memref<?xi8>, %arg7: memref<?xi64>, %arg8: memref<?xi64>, %arg9: i32, %arg10: memref<?xi32>)"
        ),
        "{text}"
    );
}
