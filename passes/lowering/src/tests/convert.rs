use super::{ops_named, parse};
use crate::ConvertQdToLowered;
use qd_ir::text::{print_op, PrintOptions};
use qd_pass::Pass;

#[test]
fn the_conversion_is_all_or_nothing() {
    // The second kernel has an op the conversion cannot handle: the pass fails, names it at its
    // location, and leaves the module as it was (the first kernel is not converted either).
    let (mut ctx, m) = parse(
        r#"
qd.kernel @good() {
  %c = arith.constant 1 : i32
}
qd.kernel @bad(%v: f32) {
  %s = adstack.alloca : f32 {max_size = 1}
  adstack.push %s, %v : f32
}
"#,
    );
    let before = print_op(&ctx, m, &PrintOptions::default());
    let mut pass = ConvertQdToLowered::default();
    assert!(pass.run(&mut ctx, m).is_err());
    let d = ctx.take_diagnostics();
    assert_eq!(d.len(), 1);
    assert!(
        d[0].message.contains("has no 'id' property"),
        "{}",
        d[0].message
    );
    assert_eq!(ctx.file_line_col(d[0].loc), Some(("t.mlir", 6, 8)));
    assert_eq!(print_op(&ctx, m, &PrintOptions::default()), before);
}

#[test]
fn every_produced_op_keeps_the_location_of_its_qd_op() {
    let (mut ctx, m) = parse(
        r#"
qd.field @x : !qd.field<4xf32>
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %v = qd.load @x[%i] : f32
    qd.store %v, @x[%i] : f32
  }
}
"#,
    );
    let mut pass = ConvertQdToLowered::default();
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(true));
    qd_ir::verifier::verify(&ctx, m).unwrap();
    // Every op of the lowered kernel is located in the source (none at an unknown location),
    // and the loads and stores at their qd op's line.
    for o in ctx.walk_pre_order(m) {
        let loc = ctx.file_line_col(ctx.loc(o));
        assert!(loc.is_some(), "'{}' has no file location", ctx.name(o));
        match ctx.name(o) {
            "lowered.load" => assert_eq!(loc.map(|l| l.1), Some(5)),
            "lowered.store" => assert_eq!(loc.map(|l| l.1), Some(6)),
            _ => {}
        }
    }
    // A second run has nothing to convert.
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(false));
}

#[test]
fn a_failed_legalization_leaves_the_module_as_it_was() {
    let mut ctx = qd_dialects::context();
    ctx.allow_unregistered = true;
    let src = r#"
qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    "test.unknown"(%i) : (i32) -> ()
  }
}
"#;
    let m = qd_ir::text::parse_source(&mut ctx, src, "t.mlir").unwrap();
    let before = print_op(&ctx, m, &PrintOptions::default());
    let mut pass = ConvertQdToLowered::default();
    assert!(pass.run(&mut ctx, m).is_err());
    let d = ctx.take_diagnostics();
    assert_eq!(d[0].message, "failed to legalize operation 'test.unknown'");
    assert_eq!(ctx.file_line_col(d[0].loc), Some(("t.mlir", 6, 5)));
    assert_eq!(print_op(&ctx, m, &PrintOptions::default()), before);
    qd_ir::verifier::verify(&ctx, m).unwrap();
}

#[test]
fn an_elided_stack_is_dropped_and_reserves_no_heap() {
    // Stack 0 was elided by minimize-tape (no uses); stack 1 is kept: only stack 1 is listed in
    // the task's adstacks and lowered.
    let (mut ctx, m) = parse(
        r#"
qd.kernel @k(%v: f32) {
  %e = adstack.alloca : f32 {id = 0, max_size = 0, primal_elided}
  %s = adstack.alloca : f32 {id = 1, max_size = 1}
  adstack.push %s, %v : f32
}
"#,
    );
    let mut pass = ConvertQdToLowered::default();
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(true));
    qd_ir::verifier::verify(&ctx, m).unwrap();
    let text = print_op(&ctx, m, &PrintOptions::default());
    assert!(text.contains("adstacks [1] {"), "{text}");
    assert!(!text.contains("adstack_offset 0"), "{text}");
    assert!(text.contains("adstack_offset 1"), "{text}");
}

#[test]
fn many_stacks_share_one_prologue_with_each_invariant_once() {
    // Forty stacks, each pushed, read and popped between field accesses, so that invariants
    // (stack metadata and constants) are asked for again and again while the prologue grows.
    // Debug builds check every answer of the prologue index against a scan of the prologue.
    let n = 40;
    let mut src = String::from(
        "qd.field @x : !qd.field<8xf32>\nqd.kernel @k() {\n  qd.struct_for (%i) in @x {\n",
    );
    for k in 0..n {
        src += &format!(
            "    %s{k} = adstack.alloca : f32 {{id = {k}, max_size = 2}}\n    \
             %v{k} = qd.load @x[%i] : f32\n    adstack.push %s{k}, %v{k} : f32\n"
        );
    }
    for k in (0..n).rev() {
        src += &format!(
            "    %t{k} = adstack.load_top %s{k} : f32\n    adstack.acc_adjoint %s{k}, %t{k} : f32\n    \
             %a{k} = adstack.load_top_adj %s{k} : f32\n    adstack.pop %s{k} : f32\n    \
             qd.store %a{k}, @x[%i] : f32\n"
        );
    }
    src += "  }\n}\n";
    let (mut ctx, m) = parse(&src);
    let mut pass = ConvertQdToLowered::default();
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(true));
    qd_ir::verifier::verify(&ctx, m).unwrap();
    let tasks = ops_named(&ctx, m, qd_lowered::TASK_OP);
    assert!(!tasks.is_empty());
    for t in tasks {
        let block = ctx.entry_block(ctx.region(t, 0)).expect("a task body");
        // What each prologue op computes: name, operands, result types and properties.
        let prologue: Vec<_> = ctx
            .block_ops(block)
            .take_while(|&o| ctx.regions(o).is_empty() && ctx.name(o) != "lowered.load")
            .map(|o| {
                let results: Vec<_> = ctx.results(o).iter().map(|&r| ctx.value_type(r)).collect();
                (
                    ctx.name(o).to_string(),
                    ctx.operand_vec(o),
                    results,
                    ctx.properties(o).to_vec(),
                )
            })
            .collect();
        let mut seen = std::collections::HashSet::new();
        for p in &prologue {
            assert!(seen.insert(p), "made twice in a task prologue: {p:?}");
        }
        let offsets = prologue
            .iter()
            .filter(|p| p.0 == "lowered.adstack_offset")
            .count();
        assert_eq!(offsets, n, "one offset per stack:\n{prologue:#?}");
    }
}

#[test]
fn the_facts_say_whether_a_kernel_has_jumps_to_remove() {
    // A jump nested in a qd.if in a loop in a loop counts; a kernel without one skips
    // structurize.
    let with = r#"
qd.kernel @k(%c: i1) {
  %a = arith.constant 0 : i32
  %b = arith.constant 4 : i32
  qd.range_for %i = %a to %b : i32 {
    qd.range_for %j = %a to %b : i32 {
      qd.if %c {
        qd.continue
      }
    }
  }
}
"#;
    let without = r#"
qd.kernel @k(%c: i1) {
  %a = arith.constant 0 : i32
  %b = arith.constant 4 : i32
  qd.range_for %i = %a to %b : i32 {
    %l = qd.alloca : !qd.ptr<i1>
    qd.local_store %c, %l : !qd.ptr<i1>
  }
}
"#;
    for (src, jumps) in [(with, true), (without, false)] {
        let (mut ctx, m) = parse(src);
        let k = ops_named(&ctx, m, qd_frontend::KERNEL_OP)[0];
        let body = qd_frontend::KernelOp(k).body(&ctx);
        let mut symbols = qd_ir::symbol_table::SymbolTableCollection::new();
        let facts = crate::facts::collect(&mut ctx, &mut symbols, k, body).unwrap();
        assert_eq!(facts.has_jumps, jumps, "{src}");
    }
}
