use super::{ops_named, parse};
use crate::jumps::{if_has_jump, loop_jumps, Jumps};

const LOOPS: &str = r#"
qd.kernel @k(%n: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  qd.if %c {
    // 0: a break in an if, followed by code: guarded.
    qd.range_for %i = %c0 to %n : i32 {
      qd.if %c {
        qd.break
      }
      %x = arith.addi %i, %i : i32
    }
    // 1: a continue in the last if of the body: no guard needed.
    qd.range_for %i = %c0 to %n : i32 {
      %x = arith.addi %i, %i : i32
      qd.if %c {
        qd.continue
      }
    }
    // 2: a jump two ifs deep, code after the inner if only.
    qd.while {
      qd.condition %c
    } do {
      qd.if %c {
        qd.if %c {
          qd.continue
        }
        %y = arith.addi %n, %n : i32
      }
    }
    // 3: the jumps of an inner loop are its own; the outer loop has none.
    qd.range_for %i = %c0 to %n : i32 {
      qd.if %c {
        qd.range_for %j = %c0 to %n : i32 {
          qd.break
        }
      }
      %z = arith.addi %i, %i : i32
    }
  }
}
"#;

#[test]
fn jumps_of_each_loop() {
    let (ctx, m) = parse(LOOPS);
    let loops: Vec<_> = ctx
        .walk_pre_order(m)
        .into_iter()
        .filter(|&o| matches!(ctx.name(o), "qd.range_for" | "qd.while"))
        .collect();
    let j = |i: usize| loop_jumps(&ctx, loops[i]);
    let jumps = |has_break, has_continue, guarded| Jumps {
        has_break,
        has_continue,
        guarded,
    };
    assert_eq!(j(0), jumps(true, false, true));
    assert_eq!(j(1), jumps(false, true, false));
    assert_eq!(j(2), jumps(false, true, true));
    assert_eq!(j(3), Jumps::default());
    // loops[4] is the inner loop of #3: a break that ends its body.
    assert_eq!(j(4), jumps(true, false, false));
    assert!(!j(3).any() && j(4).any());
}

#[test]
fn ifs_that_hold_a_jump() {
    let (ctx, m) = parse(LOOPS);
    let ifs = ops_named(&ctx, m, "qd.if");
    // The top-level if holds loops only; their jumps are not its own.
    assert!(!if_has_jump(&ctx, ifs[0]));
    assert!(if_has_jump(&ctx, ifs[1]));
    assert!(if_has_jump(&ctx, ifs[2]));
    // The outer if of loop #2 holds the jump through its inner if.
    assert!(if_has_jump(&ctx, ifs[3]) && if_has_jump(&ctx, ifs[4]));
    // The if around loop #3's inner loop does not jump out of loop #3.
    assert!(!if_has_jump(&ctx, ifs[5]));
}
