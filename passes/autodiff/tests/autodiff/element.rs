//! [element-ad]: element-addressed differentiation of local arrays and structs, against the
//! naive whole-aggregate mode (`aggregates=ssa`).
//!
//! - Every corpus kernel with a local array or struct (`examples/grad/`, `GRAD-COVERS`
//!   `local-array` / `local-struct`: the `element_*` cases of the issue and the others) matches
//!   finite differences in BOTH modes.
//! - The adstack memory of examples/local_array.mlir (n = 40, len = 10) per thread, as the
//!   runtime sizes it for the launch (what `qd-run --report-adstack` prints): the element mode
//!   saves at most n + len values, the naive mode at least n * len.
//! - `element-access-ad` on its own: the paths it builds, what it leaves alone, what it erases.

use super::common::{context, differentiate, parse, print, rendered, stacks_in};
use super::corpus::{case, corpus_dir};
use super::corpus_spec;
use super::gradcheck::try_check;
use qd_autodiff::{reverse_mode_ad, rewrite_element_accesses, Aggregates, Options};
use qd_interp::Interpreter;
use qd_ir::Context;
use qd_runtime::{Program, ProgramConfig};

/// The corpus files whose kernels have local aggregates.
fn aggregate_corpus() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir())
        .expect("examples/grad exists")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("mlir" | "grad")
            )
        })
        .filter(|p| {
            corpus_spec::read(p).is_ok_and(|s| {
                s.covers
                    .iter()
                    .any(|c| c == "local-array" || c == "local-struct")
            })
        })
        .collect();
    files.sort();
    files
}

/// Files whose naive-mode stacks the sizing analysis cannot bound, and the capacity forced
/// instead. control_flow.grad: its while loop's counter is a struct member; in the naive mode it
/// lives on one of the struct's leaf stacks, pushed at every store of the struct (unchanged
/// leaves included), which the analysis does not follow as a counter. The loop runs at most 50
/// times with 2 stores each, plus 2 stores before and 6 after: at most 1 + 2 + 100 + 6 entries.
/// element_while_counter.mlir likewise: at most 8 iterations of 2 stores, 2 stores before, and
/// the zero struct: 19 entries.
const SSA_FORCED: &[(&str, usize)] = &[
    ("control_flow.grad", 128),
    ("element_while_counter.mlir", 32),
];

#[test]
fn aggregate_kernels_match_finite_differences_in_both_modes() {
    let files = aggregate_corpus();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    // The issue's cases are all there.
    for want in [
        "element_dynamic_index.mlir",
        "element_two_arrays.mlir",
        "element_nested_structs.mlir",
        "element_read_twice.mlir",
        "element_alias.mlir",
        "element_read_only.mlir",
        "element_data_indices.mlir",
        "element_outer_loop.mlir",
        "element_while_counter.mlir",
        "local_array.grad",
    ] {
        assert!(names.iter().any(|n| n == want), "missing {want}");
    }
    let mut failures = Vec::new();
    println!(
        "| file | stacks element | stacks ssa | max|ad64-fd|/tol element | max|ad64-fd|/tol ssa |"
    );
    for (path, name) in files.iter().zip(&names) {
        let spec = corpus_spec::read(path).unwrap();
        let base = case(&spec).unwrap_or_else(|e| panic!("{e}"));
        let mut row = vec![name.clone()];
        let mut ratios = Vec::new();
        for mode in [Aggregates::Element, Aggregates::Ssa] {
            let mut c = base.clone();
            c.aggregates = mode;
            if mode == Aggregates::Ssa {
                if let Some(&(_, n)) = SSA_FORCED.iter().find(|(f, _)| f == name) {
                    c.ad_stack_size = Some(n);
                }
            }
            match checked(&c) {
                Ok(r) => {
                    row.push(r.stacks.to_string());
                    ratios.push(format!("{:.3}", r.fd_error_ratio(&c)));
                }
                Err(e) => {
                    row.push("-".into());
                    failures.push(format!("{name} ({}): {e}", mode.name()));
                }
            }
        }
        row.extend(ratios);
        println!("| {} |", row.join(" | "));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// [`try_check`], with a failure before the comparison (the pass, the sizing, a launch: they
/// panic) as an error too.
fn checked(c: &super::gradcheck::GradCase) -> Result<super::gradcheck::GradResult, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| try_check(c))) {
        Ok(r) => r,
        Err(p) => Err(p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panicked".into())),
    }
}

/// Saved values (the sum of the stacks' depths) and bytes per thread of the gradient kernel of
/// examples/local_array.mlir with n steps, as the runtime sizes its stacks for the launch.
fn local_array_saved(n: usize, mode: Aggregates) -> (u64, u64, usize) {
    let src = super::common::example("local_array.mlir");
    let (mut ctx, m) = parse(&src);
    let options = Options {
        aggregates: mode,
        ..Default::default()
    };
    if reverse_mode_ad(&mut ctx, m, &options).is_err() {
        panic!(
            "reverse-mode-ad failed:\n{}",
            rendered(&ctx, &src, "input.mlir")
        );
    }
    let stacks = stacks_in(&ctx, m, "compute_grad");
    let mut p = program(ctx, m);
    p.write_f64("n", &[n as f64]).unwrap();
    let x: Vec<f64> = (0..40).map(|i| i as f64 / 39.0).collect();
    p.write_f64("x", &x).unwrap();
    let k = p.kernel("compute").unwrap();
    let kg = p.kernel("compute_grad").unwrap();
    p.launch(k, &[]).unwrap();
    p.write_f64("y.grad", &[1.0]).unwrap();
    p.launch(kg, &[]).unwrap();
    p.sync().unwrap_or_else(|e| panic!("{e:?}"));
    let plan = p.last_adstack_plan(kg).expect("the gradient kernel ran");
    let values = plan.stacks.iter().map(|s| s.depth).sum();
    (values, plan.bytes_per_thread(), stacks)
}

fn program(ctx: Context, m: qd_ir::OpId) -> Program {
    Program::new(
        ctx,
        m,
        Box::new(Interpreter::new()),
        ProgramConfig::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn local_array_saves_n_plus_len_values_not_n_times_len() {
    let (n, len) = (40u64, 10u64);
    let (ev, eb, es) = local_array_saved(n as usize, Aggregates::Element);
    let (sv, sb, ss) = local_array_saved(n as usize, Aggregates::Ssa);
    println!("examples/local_array.mlir, n = {n}, len = {len}, per thread:");
    println!("  element: {es} adstack(s), {ev} saved values, {eb} bytes");
    println!("  ssa:     {ss} adstack(s), {sv} saved values, {sb} bytes");
    assert!(ev <= n + len, "element mode saves {ev} values");
    assert!(sv >= n * len, "ssa mode saves {sv} values");
    // Exactly: one f32 stack of n overwritten elements; len stacks (one per element) of the
    // zero array, the len filling stores and the n updates.
    assert_eq!((es, ev), (1, n));
    assert_eq!((ss, sv), (len as usize, len * (1 + len + n)));
    // 8 bytes of header per stack, 8 per f32 entry (primal and adjoint).
    assert_eq!(eb, 8 + 8 * n);
    assert_eq!(sb, len * 8 + 8 * len * (1 + len + n));
}

#[test]
fn the_slang_example_has_one_scalar_stack_in_element_mode_and_len_in_ssa() {
    let src = super::common::example("local_array.mlir");
    let (ctx, m, r) = differentiate(&src);
    assert_eq!(r.gradients[0].2, 1);
    let text = print(&ctx, m);
    assert_eq!(text.matches("adstack.alloca : f32").count(), 1, "{text}");
    // ssa: one stack per element, pushed at every store.
    let (mut ctx, m) = parse(&src);
    let options = Options {
        aggregates: Aggregates::Ssa,
        ..Default::default()
    };
    let r = reverse_mode_ad(&mut ctx, m, &options).unwrap();
    assert_eq!(r.gradients[0].2, 10);
}

#[test]
fn ssa_mode_refuses_aggregates_it_cannot_unroll() {
    let src = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.alloca : !qd.ptr<!qd.array<80x!qd.array<80xf32>>>
    %c0 = arith.constant 0 : i32
    %c9 = arith.constant 9 : i32
    %v = qd.load @x[%i] : f32
    qd.range_for %t = %c0 to %c9 : i32 {
      %p = qd.elem_ptr %a[%t] : !qd.ptr<!qd.array<80x!qd.array<80xf32>>>
      %q = qd.elem_ptr %p[%t] : !qd.ptr<!qd.array<80xf32>>
      qd.local_store %v, %q : !qd.ptr<f32>
    }
    %p = qd.elem_ptr %a[%c0] : !qd.ptr<!qd.array<80x!qd.array<80xf32>>>
    %q = qd.elem_ptr %p[%c0] : !qd.ptr<!qd.array<80xf32>>
    %w = qd.local_load %q : !qd.ptr<f32>
    qd.atomic_add %w, @y[] : f32
  }
}
"#;
    let (mut ctx, m) = parse(src);
    let options = Options {
        aggregates: Aggregates::Ssa,
        ..Default::default()
    };
    assert!(reverse_mode_ad(&mut ctx, m, &options).is_err());
    let msgs: Vec<String> = ctx
        .diagnostics()
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        msgs,
        ["reverse-mode-ad{aggregates=ssa}: this local has 4097 scalars; the naive whole-aggregate mode keeps at most 4096 (use aggregates=element)"]
    );
    // The element mode differentiates it, with no stack (the store's value is loop-invariant).
    let (ctx, m, _) = differentiate(src);
    assert_eq!(stacks_in(&ctx, m, "k_grad"), 0);
}

/// Runs element-access-ad on `src`'s kernels; returns the printed module and the counts.
fn rewrite(src: &str) -> (String, usize, usize, usize) {
    let (mut ctx, m) = parse(src);
    let kernels: Vec<_> = ctx
        .walk_pre_order(m)
        .into_iter()
        .filter(|&o| ctx.name(o) == qd_frontend::KERNEL_OP)
        .collect();
    let (mut l, mut s, mut e) = (0, 0, 0);
    for k in kernels {
        let r = rewrite_element_accesses(&mut ctx, k);
        (l, s, e) = (l + r.loads, s + r.stores, e + r.erased);
    }
    qd_ir::verifier::verify(&ctx, m).expect("the rewrite verifies");
    (print(&ctx, m), l, s, e)
}

#[test]
fn element_access_ad_builds_whole_paths() {
    let src = r#"
qd.kernel @k(%i: i32, %v: f32) {
  %n = qd.alloca : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>
  %c2 = arith.constant 2 : i32
  %e = qd.elem_ptr %n[%i] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>
  %m = qd.member_ptr %e[1] : !qd.ptr<!qd.struct<f32, !qd.array<3xf32>>>
  %q = qd.elem_ptr %m[%c2] : !qd.ptr<!qd.array<3xf32>>
  %a = qd.local_load %q : !qd.ptr<f32>
  %f = qd.member_ptr %e[0] : !qd.ptr<!qd.struct<f32, !qd.array<3xf32>>>
  qd.local_store %a, %f {note} : !qd.ptr<f32>
  %b = ad.load_element %m[%i] : !qd.ptr<!qd.array<3xf32>>
  ad.store_element %b, %e[1, 0] : !qd.ptr<!qd.struct<f32, !qd.array<3xf32>>>
  %s = qd.alloca : !qd.ptr<f32>
  qd.local_store %v, %s : !qd.ptr<f32>
}
"#;
    let (text, loads, stores, erased) = rewrite(src);
    // Constant indices become literals; chains and element ops on addresses are re-rooted.
    for want in [
        "%1 = ad.load_element %0[%arg0, 1, 2] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>",
        "ad.store_element %1, %0[%arg0, 0] {note} : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>",
        "%2 = ad.load_element %0[%arg0, 1, %arg0] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>",
        "ad.store_element %2, %0[%arg0, 1, 0] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>",
        // A scalar local is not an aggregate access.
        "qd.local_store %arg1, %3 : !qd.ptr<f32>",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    assert!(
        !text.contains("elem_ptr") && !text.contains("member_ptr"),
        "{text}"
    );
    assert_eq!((loads, stores, erased), (2, 2, 4));
    // A second run finds nothing to do.
    let (again, l, s, e) = rewrite(&text);
    assert_eq!((l, s, e), (0, 0, 0));
    assert_eq!(again, text);
}

#[test]
fn element_access_ad_keeps_addresses_with_other_uses() {
    // An address also used by another op stays (and its accesses are still rewritten).
    let src = r#"
qd.kernel @k(%i: i32) {
  %a = qd.alloca : !qd.ptr<!qd.array<4xf32>>
  %p = qd.elem_ptr %a[%i] : !qd.ptr<!qd.array<4xf32>>
  %v = qd.local_load %p : !qd.ptr<f32>
  "test.use"(%p) : (!qd.ptr<f32>) -> ()
}
"#;
    let mut ctx = context();
    ctx.allow_unregistered = true;
    let m = qd_ir::text::parse_source(&mut ctx, src, "t.mlir").unwrap();
    let k = ctx
        .walk_pre_order(m)
        .into_iter()
        .find(|&o| ctx.name(o) == qd_frontend::KERNEL_OP)
        .unwrap();
    let r = rewrite_element_accesses(&mut ctx, k);
    assert_eq!((r.loads, r.stores, r.erased), (1, 0, 0));
    let text = print(&ctx, m);
    assert!(
        text.contains("qd.elem_ptr") && text.contains("ad.load_element %0[%arg0]"),
        "{text}"
    );
}

#[test]
fn element_access_ad_keeps_out_of_bounds_constants_as_values() {
    // A constant index out of bounds (folding makes one in code that never runs; found by the
    // passes fuzz target) stays a value entry: a literal entry must be in bounds to verify, a
    // value entry is checked when it runs. In-bounds constants still become literals.
    let src = r#"
qd.kernel @k(%v: f32) {
  %a = qd.alloca : !qd.ptr<!qd.array<3x!qd.array<2xf32>>>
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %cm = arith.constant -1 : i32
  %p = qd.elem_ptr %a[%c3] : !qd.ptr<!qd.array<3x!qd.array<2xf32>>>
  %q = qd.elem_ptr %p[%c1] : !qd.ptr<!qd.array<2xf32>>
  qd.local_store %v, %q : !qd.ptr<f32>
  %r = qd.elem_ptr %a[%c1] : !qd.ptr<!qd.array<3x!qd.array<2xf32>>>
  %s = qd.elem_ptr %r[%cm] : !qd.ptr<!qd.array<2xf32>>
  %l = qd.local_load %s : !qd.ptr<f32>
  qd.local_store %l, %q : !qd.ptr<f32>
}
"#;
    // rewrite() verifies the result.
    let (text, loads, stores, erased) = rewrite(src);
    for want in [
        "ad.store_element %arg0, %0[%c3_i32, 1] : !qd.ptr<!qd.array<3x2xf32>>",
        "%1 = ad.load_element %0[1, %c-1_i32] : !qd.ptr<!qd.array<3x2xf32>>",
        "ad.store_element %1, %0[%c3_i32, 1] : !qd.ptr<!qd.array<3x2xf32>>",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    assert_eq!((loads, stores, erased), (1, 2, 4));
}

/// Runs the `element-access-ad` pass on each kernel of `ctx`; returns whether each changed.
fn run_pass_on_kernels(ctx: &mut Context, m: qd_ir::OpId) -> Vec<bool> {
    use qd_pass::Pass;
    let kernels: Vec<_> = ctx
        .walk_pre_order(m)
        .into_iter()
        .filter(|&o| ctx.name(o) == qd_frontend::KERNEL_OP)
        .collect();
    let mut pass = qd_autodiff::ElementAccessAdPass::default();
    kernels
        .into_iter()
        .map(|k| pass.run(ctx, k).expect("the pass succeeds").changed)
        .collect()
}

#[test]
fn element_access_ad_pass_without_address_ops_reports_unchanged() {
    // Locals accessed directly (no qd.elem_ptr / qd.member_ptr anywhere): the pass returns at
    // once; the module is the same.
    let src = r#"
qd.kernel @k(%v: f32) {
  %s = qd.alloca : !qd.ptr<f32>
  qd.local_store %v, %s : !qd.ptr<f32>
  %a = qd.local_load %s : !qd.ptr<f32>
  qd.local_store %a, %s : !qd.ptr<f32>
}
"#;
    let (mut ctx, m) = parse(src);
    let before = print(&ctx, m);
    assert_eq!(run_pass_on_kernels(&mut ctx, m), [false]);
    assert_eq!(print(&ctx, m), before);
}

#[test]
fn element_access_ad_pass_rewrites_until_no_address_op_is_left() {
    // A kernel with an address chain is rewritten (its address ops erased), one without is not;
    // once the address ops are gone, a second run changes nothing.
    let src = r#"
qd.kernel @with(%i: i32) {
  %a = qd.alloca : !qd.ptr<!qd.array<4x!qd.struct<f32, f32>>>
  %p = qd.elem_ptr %a[%i] : !qd.ptr<!qd.array<4x!qd.struct<f32, f32>>>
  %q = qd.member_ptr %p[1] : !qd.ptr<!qd.struct<f32, f32>>
  %v = qd.local_load %q : !qd.ptr<f32>
}
qd.kernel @without(%v: f32) {
  %s = qd.alloca : !qd.ptr<f32>
  qd.local_store %v, %s : !qd.ptr<f32>
}
"#;
    let (mut ctx, m) = parse(src);
    assert_eq!(run_pass_on_kernels(&mut ctx, m), [true, false]);
    let text = print(&ctx, m);
    assert!(
        text.contains("ad.load_element %0[%arg0, 1]") && !text.contains("_ptr"),
        "{text}"
    );
    assert_eq!(run_pass_on_kernels(&mut ctx, m), [false, false]);
    assert_eq!(print(&ctx, m), text);
}
