//! Loop shapes whose trip counts used to have no bound: a counted `qd.while` with a
//! `qd.continue` after its counter's update, and locals carried across the iterations of a
//! counted loop (`m = m + c`, `m - c`, capped by min/max, under a branch, reset per outer
//! iteration). Each kernel counts its pushes (an atomic max of a depth counter into `@peak`);
//! the test runs it with its evaluated bound as the capacity (no overflow, bound >= peak) and,
//! where the bound is exact, with one entry less (it overflows).

use super::common::*;
use qd_adstack_passes::DetermineAdStackSize;
use qd_pass::Pass;
use qd_runtime::Scalar;

/// One push, and the depth counter's update.
const PUSH: &str = "adstack.push %s, %v : f32
%pc = qd.local_load %cnt : !qd.ptr<i32>
%pc1 = arith.addi %pc, %c1 : i32
qd.local_store %pc1, %cnt : !qd.ptr<i32>
qd.atomic_max %pc1, @peak[] : i32
";

/// A kernel `@k` that runs `body` once (with `%s`, `%cnt`, literals `%c0` .. `%c4`), `PUSH`
/// standing for a counted push.
fn kernel(body: &str) -> String {
    format!(
        "qd.field @n : !qd.field<i32>\nqd.field @flag : !qd.field<i32>\n\
         qd.field @peak : !qd.field<i32>\n\
         qd.kernel @k(%v: f32) {{\n\
         %c0 = arith.constant 0 : i32\n%c1 = arith.constant 1 : i32\n\
         %c2 = arith.constant 2 : i32\n%c3 = arith.constant 3 : i32\n\
         %c4 = arith.constant 4 : i32\n\
         qd.range_for %t = %c0 to %c1 : i32 {{\n\
         %s = adstack.alloca : f32\n%cnt = qd.alloca : !qd.ptr<i32>\n\
         qd.local_store %c0, %cnt : !qd.ptr<i32>\n{}}}\n}}\n",
        body.replace("PUSH\n", PUSH)
    )
}

/// Runs `@k` with fields `n` and `flag` and the given capacity: Ok(peak) or Err (overflow).
fn run(src: &str, n: i64, flag: i64, capacity: u64) -> Result<u64, Vec<String>> {
    let (mut ctx, m) = parse(src);
    size(&mut ctx, m);
    let mut p = program_with_capacity(ctx, m, Some(capacity));
    p.write_scalars("n", &[Scalar::I32(n as i32)]).unwrap();
    p.write_scalars("flag", &[Scalar::I32(flag as i32)])
        .unwrap();
    launch(&mut p, "k", &[f32_arg(1.0)])?;
    Ok(p.read_f64("peak").unwrap()[0] as u64)
}

/// The evaluated bound and the real peak; asserts bound >= peak, and that one entry less
/// overflows when `exact`.
fn bound_and_peak(src: &str, n: i64, flag: i64, exact: bool) -> (u64, u64) {
    let (mut ctx, m) = parse(src);
    size(&mut ctx, m);
    let e = bounds(&ctx, m, "k")[0].1.clone();
    let data = Data {
        fields: vec![
            ("n".into(), vec![], vec![n]),
            ("flag".into(), vec![], vec![flag]),
        ],
        ..Default::default()
    };
    let bound = e.eval_capacity(&data).unwrap();
    let peak = run(src, n, flag, bound)
        .unwrap_or_else(|m| panic!("bound {bound} = {e} overflows: {m:?}\n{src}"));
    assert!(bound >= peak, "bound {bound} < peak {peak}: {e}\n{src}");
    if exact {
        assert_eq!(bound, peak, "{e}\n{src}");
        if bound > 0 {
            assert!(run(src, n, flag, bound - 1).is_err(), "{e}: one less fits");
        }
    }
    (bound, peak)
}

/// The sizing error's message.
fn error(src: &str) -> String {
    let (mut ctx, m) = parse(src);
    assert!(DetermineAdStackSize::new(None).run(&mut ctx, m).is_err());
    ctx.diagnostics()[0].message.clone()
}

/// `while k < n: k += 1; if odd(k): continue; push`, the continue `before` the update or after.
fn while_continue(before: bool) -> String {
    let update = "%k1 = arith.addi %kv, %c1 : i32\nqd.local_store %k1, %k : !qd.ptr<i32>\n";
    let skip = "%r = arith.remsi %kv, %c2 : i32\n%odd = arith.cmpi eq, %r, %c1 : i32\n\
                qd.if %odd {\nqd.continue\n}\n";
    let (first, second) = if before {
        (skip, update)
    } else {
        (update, skip)
    };
    kernel(&format!(
        "%k = qd.alloca : !qd.ptr<i32>\nqd.local_store %c0, %k : !qd.ptr<i32>\n\
         %n = qd.load @n[] : i32\n\
         qd.while {{\n%kc = qd.local_load %k : !qd.ptr<i32>\n\
         %c = arith.cmpi slt, %kc, %n : i32\nqd.condition %c\n}} do {{\n\
         %kv = qd.local_load %k : !qd.ptr<i32>\n{first}{second}PUSH\n}}\n"
    ))
}

#[test]
fn a_while_with_a_continue_after_its_update_is_bounded_by_its_counter() {
    // Every other iteration pushes: the bound counts them all (n), the peak is ceil(n / 2).
    let src = while_continue(false);
    for n in [0, 1, 7, 8] {
        let (bound, peak) = bound_and_peak(&src, n, 0, false);
        assert_eq!((bound, peak), (n as u64, (n as u64).div_ceil(2)), "n = {n}");
    }
}

#[test]
fn a_continue_before_the_update_is_still_refused() {
    let msg = error(&while_continue(true));
    assert!(msg.contains("no provable bound"), "{msg}");
}

/// `m = m0; for j in range(4): <body>`, the body reading `m` as `%mv`.
fn carried(init: &str, body: &str) -> String {
    kernel(&format!(
        "%m = qd.alloca : !qd.ptr<i32>\n{init}\
         qd.range_for %j = %c0 to %c4 : i32 {{\n{body}}}\n"
    ))
}

const INNER: &str = "qd.range_for %i = %c0 to %mv : i32 {\nPUSH\n}\n";

#[test]
fn a_local_incremented_per_iteration_is_affine_in_the_index() {
    // m = 1, 2, 3, 4: 10 pushes.
    let src = carried(
        "qd.local_store %c1, %m : !qd.ptr<i32>\n",
        &format!(
            "%mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}\
             %m2 = arith.addi %mv, %c1 : i32\nqd.local_store %m2, %m : !qd.ptr<i32>\n"
        ),
    );
    assert_eq!(bound_and_peak(&src, 0, 0, true), (10, 10));
}

#[test]
fn a_load_after_the_update_reads_the_next_value() {
    // m = m + 1 first: 2, 3, 4, 5.
    let src = carried(
        "qd.local_store %c1, %m : !qd.ptr<i32>\n",
        &format!(
            "%m0 = qd.local_load %m : !qd.ptr<i32>\n%m2 = arith.addi %c1, %m0 : i32\n\
             qd.local_store %m2, %m : !qd.ptr<i32>\n\
             %mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}"
        ),
    );
    assert_eq!(bound_and_peak(&src, 0, 0, true), (14, 14));
}

#[test]
fn a_decrement_from_a_field_is_exact() {
    // m = n, n - 1, n - 2, n - 3 (an empty range below 0).
    let src = carried(
        "%n = qd.load @n[] : i32\nqd.local_store %n, %m : !qd.ptr<i32>\n",
        &format!(
            "%mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}\
             %m2 = arith.subi %mv, %c1 : i32\nqd.local_store %m2, %m : !qd.ptr<i32>\n"
        ),
    );
    assert_eq!(bound_and_peak(&src, 6, 0, true), (18, 18));
    assert_eq!(bound_and_peak(&src, 2, 0, true), (3, 3));
    assert_eq!(bound_and_peak(&src, -1, 0, true), (0, 0));
}

#[test]
fn min_and_max_capped_updates_are_exact() {
    // m = min(m + 3, 5) from 1: 1, 4, 5, 5.
    let capped = carried(
        "qd.local_store %c1, %m : !qd.ptr<i32>\n",
        &format!(
            "%mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}\
             %c5 = arith.constant 5 : i32\n%m1 = arith.addi %mv, %c3 : i32\n\
             %m2 = arith.minsi %c5, %m1 : i32\nqd.local_store %m2, %m : !qd.ptr<i32>\n"
        ),
    );
    assert_eq!(bound_and_peak(&capped, 0, 0, true), (15, 15));
    // m = max(m - 2, 1) from n: n = 6 gives 6, 4, 2, 1.
    let floored = carried(
        "%n = qd.load @n[] : i32\nqd.local_store %n, %m : !qd.ptr<i32>\n",
        &format!(
            "%mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}\
             %m1 = arith.subi %mv, %c2 : i32\n\
             %m2 = arith.maxsi %m1, %c1 : i32\nqd.local_store %m2, %m : !qd.ptr<i32>\n"
        ),
    );
    assert_eq!(bound_and_peak(&floored, 6, 0, true), (13, 13));
}

#[test]
fn an_update_under_a_branch_is_bounded_as_if_it_always_ran() {
    // m += 2 when @flag: 1, 3, 5, 7 (16), else 1 each time (4); the bound is the former.
    let src = carried(
        "qd.local_store %c1, %m : !qd.ptr<i32>\n",
        &format!(
            "%mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}\
             %f = qd.load @flag[] : i32\n%on = arith.cmpi ne, %f, %c0 : i32\nqd.if %on {{\n\
             %m2 = arith.addi %mv, %c2 : i32\nqd.local_store %m2, %m : !qd.ptr<i32>\n}}\n"
        ),
    );
    assert_eq!(bound_and_peak(&src, 0, 1, true), (16, 16));
    assert_eq!(bound_and_peak(&src, 0, 0, false), (16, 4));
    // The load after the branch may read the value before or after the update: 2..5 at most.
    let after = carried(
        "qd.local_store %c1, %m : !qd.ptr<i32>\n",
        &format!(
            "%f = qd.load @flag[] : i32\n%on = arith.cmpi ne, %f, %c0 : i32\nqd.if %on {{\n\
             %m0 = qd.local_load %m : !qd.ptr<i32>\n%m2 = arith.addi %m0, %c1 : i32\n\
             qd.local_store %m2, %m : !qd.ptr<i32>\n}}\n\
             %mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}"
        ),
    );
    assert_eq!(bound_and_peak(&after, 0, 1, true), (14, 14));
    assert_eq!(bound_and_peak(&after, 0, 0, false), (14, 4));
}

/// `m` allocated outside `for o in range(3)`, which holds the carrying loop; `reset`: whether
/// `m = 1` starts each outer iteration (else it is stored once, before the outer loop).
fn outer(reset: bool) -> String {
    let store = "qd.local_store %c1, %m : !qd.ptr<i32>\n";
    let (before, inside) = if reset { ("", store) } else { (store, "") };
    kernel(&format!(
        "%m = qd.alloca : !qd.ptr<i32>\n{before}\
         qd.range_for %o = %c0 to %c3 : i32 {{\n{inside}\
         qd.range_for %j = %c0 to %c4 : i32 {{\n\
         %mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}\
         %m2 = arith.addi %mv, %c1 : i32\nqd.local_store %m2, %m : !qd.ptr<i32>\n}}\n}}\n"
    ))
}

#[test]
fn a_reset_before_the_loop_restarts_the_count() {
    // 1 + 2 + 3 + 4 per outer iteration.
    assert_eq!(bound_and_peak(&outer(true), 0, 0, true), (30, 30));
    let msg = error(&outer(false));
    assert!(
        msg.contains("loop-carried") && msg.contains("no store before it resets the local"),
        "{msg}"
    );
}

#[test]
fn updates_outside_the_shape_say_why() {
    let doubled = carried(
        "qd.local_store %c1, %m : !qd.ptr<i32>\n",
        &format!(
            "%mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}\
             %m2 = arith.addi %mv, %mv : i32\nqd.local_store %m2, %m : !qd.ptr<i32>\n"
        ),
    );
    let msg = error(&doubled);
    assert!(
        msg.contains("it is loop-carried") && msg.contains("a step that is not a literal"),
        "{msg}"
    );
    // The update in a loop nested in the carrying one may run many times per iteration.
    let nested = carried(
        "qd.local_store %c1, %m : !qd.ptr<i32>\n",
        &format!(
            "%mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}\
             qd.range_for %q = %c0 to %c2 : i32 {{\n\
             %mq = qd.local_load %m : !qd.ptr<i32>\n\
             %m2 = arith.addi %mq, %c1 : i32\nqd.local_store %m2, %m : !qd.ptr<i32>\n}}\n"
        ),
    );
    // The load in the nested loop is the one at fault: its loop runs once per outer iteration
    // and nothing resets the local in between.
    let msg = error(&nested);
    assert!(
        msg.contains("it is loop-carried") && msg.contains("no store before it resets the local"),
        "{msg}"
    );
    // Two stores in the loop.
    let twice = carried(
        "qd.local_store %c1, %m : !qd.ptr<i32>\n",
        &format!(
            "%mv = qd.local_load %m : !qd.ptr<i32>\n{INNER}\
             %m2 = arith.addi %mv, %c1 : i32\nqd.local_store %m2, %m : !qd.ptr<i32>\n\
             %m3 = arith.addi %m2, %c1 : i32\nqd.local_store %m3, %m : !qd.ptr<i32>\n"
        ),
    );
    let msg = error(&twice);
    assert!(
        msg.contains("it is stored 2 times in the loops around it"),
        "{msg}"
    );
}
