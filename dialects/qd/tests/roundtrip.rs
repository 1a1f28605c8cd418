//! Text round trips of the qd dialect through qd-ir's parser and printer: the shared example
//! kernels, custom and generic forms, and printing of ill-formed ops.

use qd_ir::text::{parse_source, print_op, PrintOptions};
use qd_ir::Context;

fn ctx() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(qd_arith::dialect());
    ctx.register_dialect(qd_math::dialect());
    ctx
}

fn parse(ctx: &mut Context, src: &str, name: &str) -> qd_ir::OpId {
    match parse_source(ctx, src, name) {
        Some(op) => op,
        None => panic!("{name} does not parse: {:?}", ctx.take_diagnostics()),
    }
}

fn verify(ctx: &Context, op: qd_ir::OpId, name: &str) {
    if let Err(ds) = qd_ir::verifier::verify(ctx, op) {
        let msgs: Vec<_> = ds.iter().map(|d| d.message.as_str()).collect();
        panic!("{name} does not verify: {msgs:#?}");
    }
}

const CUSTOM: PrintOptions = PrintOptions {
    generic: false,
    debug_info: false,
};
const GENERIC: PrintOptions = PrintOptions {
    generic: true,
    debug_info: false,
};

/// Parses, verifies and prints; returns the custom and generic texts.
fn round(src: &str, name: &str) -> (String, String) {
    let mut ctx = ctx();
    let m = parse(&mut ctx, src, name);
    verify(&ctx, m, name);
    (print_op(&ctx, m, &CUSTOM), print_op(&ctx, m, &GENERIC))
}

/// The text with comments and blank lines dropped, indentation trimmed, float literals compared
/// by value, and SSA names replaced by numbers given in order of definition (a use takes the
/// number of the latest definition of its name, as MLIR scopes names per region), so that texts
/// that differ only in value names compare equal.
fn normalize(text: &str) -> Vec<String> {
    let mut current: std::collections::HashMap<String, usize> = Default::default();
    let mut defs = 0;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        // Where definitions may appear on this line: the results before ` = `, the induction
        // variable(s) of a loop, and `%name: type` arguments anywhere.
        let results_end = if line.starts_with('%') {
            line.find(" = ").unwrap_or(0)
        } else {
            0
        };
        let ivs = if let Some(r) = line.strip_prefix("qd.range_for ") {
            let start = line.len() - r.len();
            start..start + r.find(' ').unwrap_or(0)
        } else if let Some(r) = line.strip_prefix("qd.struct_for (") {
            let start = line.len() - r.len();
            start..start + r.find(')').unwrap_or(0)
        } else {
            0..0
        };
        let mut norm = String::new();
        let mut rest = line;
        while let Some(pos) = rest.find('%') {
            norm.push_str(&rest[..pos]);
            let offset = line.len() - rest.len() + pos;
            let tail = &rest[pos + 1..];
            let len = tail
                .find(|c: char| {
                    !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.' || c == '-')
                })
                .unwrap_or(tail.len());
            let name = tail[..len].to_string();
            let after = &tail[len..];
            let is_def = offset < results_end || ivs.contains(&offset) || after.starts_with(": ");
            let n = if is_def || !current.contains_key(&name) {
                defs += 1;
                current.insert(name, defs);
                defs
            } else {
                current[&name]
            };
            norm.push_str(&format!("%{n}"));
            rest = after;
        }
        norm.push_str(rest);
        out.push(normalize_floats(&norm));
    }
    out
}

/// Float literals compared by value (as f32, the examples' float type): the shared examples write
/// `1.3 : f32`, which prints as mlir-opt prints it, `1.300000e+00 : f32`.
fn normalize_floats(line: &str) -> String {
    let words: Vec<String> = line
        .split(' ')
        .map(|w| {
            let (num, tail) = w.split_at(w.trim_end_matches(',').len());
            let float_like = num.contains(['.', 'e', 'E'])
                && num.starts_with(|c: char| c.is_ascii_digit() || c == '-');
            match num.parse::<f64>() {
                Ok(v) if float_like => format!("{:?}{tail}", v as f32),
                _ => w.to_string(),
            }
        })
        .collect();
    words.join(" ")
}

fn example(name: &str) -> String {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const EXAMPLES: [&str; 5] = [
    "control_flow.mlir",
    "dynamic_loop.mlir",
    "local_array.mlir",
    "ndarray_bound.mlir",
    "triangular.mlir",
];

/// Each example parses unchanged, verifies, and prints back as the same text modulo SSA names;
/// a second round is byte-identical; the generic form re-parses to the same IR.
#[test]
fn examples_round_trip() {
    for name in EXAMPLES {
        let src = example(name);
        let (custom, generic) = round(&src, name);
        assert_eq!(
            normalize(&custom),
            normalize(&src),
            "{name}: printed text differs from the source:\n{custom}"
        );
        let (custom2, generic2) = round(&custom, name);
        assert_eq!(custom2, custom, "{name}: second custom round differs");
        assert_eq!(
            generic2, generic,
            "{name}: generic form differs after a round trip"
        );
        let (from_generic, generic3) = round(&generic, name);
        assert_eq!(
            from_generic, custom,
            "{name}: custom text from the generic form differs"
        );
        assert_eq!(generic3, generic, "{name}: generic form is not stable");
    }
}

/// The examples copied into the repository are the shared ones, unchanged.
#[test]
fn examples_are_the_shared_ones() {
    let shared = std::path::Path::new("/work/shared/examples");
    if !shared.exists() {
        return;
    }
    for name in EXAMPLES {
        let theirs = std::fs::read_to_string(shared.join(name)).unwrap();
        assert_eq!(example(name), theirs, "{name} differs from shared/examples");
    }
}

/// Every prefix of every example, and every example with one character removed, parses to a
/// module or a diagnostic (never a panic); what parses is verified and printed without panics.
#[test]
fn truncated_and_damaged_text_never_panics() {
    for name in EXAMPLES {
        let src = example(name);
        let cuts: Vec<usize> = (0..=src.len())
            .filter(|&i| src.is_char_boundary(i))
            .collect();
        for (k, &i) in cuts.iter().enumerate() {
            let mut variants = vec![src[..i].to_string()];
            // Removing a character: a third of the positions keeps the test fast.
            if k % 3 == 0 && i < src.len() {
                let next = cuts[k + 1];
                variants.push(format!("{}{}", &src[..i], &src[next..]));
            }
            for text in variants {
                let mut ctx = ctx();
                if let Some(m) = parse_source(&mut ctx, &text, name) {
                    let _ = qd_ir::verifier::verify(&ctx, m);
                    let _ = print_op(&ctx, m, &CUSTOM);
                }
            }
        }
    }
}

/// qd ops of every shape (wrong operand and result counts, missing or ill-typed properties,
/// missing blocks) print in their custom form without panicking.
#[test]
fn ill_formed_ops_print_without_panics() {
    use qd_ir::{Builder, OperationState, Type, Value};
    let mut ctx = ctx();
    let loc = ctx.unknown_loc();
    let (module, body) = qd_ir::builtin::create_module(&mut ctx, loc);
    let f32t = ctx.f32_type();
    let i32t = ctx.i32_type();
    let nd = qd_frontend::ndarray_type(&mut ctx, 1, f32t);
    let k = qd_frontend::KernelOp::build(
        &mut Builder::at_end(&mut ctx, body),
        "k",
        &[nd, f32t, i32t],
        loc,
    );
    let kb = k.body(&ctx).unwrap();
    let args = k.args(&ctx);
    let operand_sets: Vec<Vec<Value>> =
        vec![vec![], vec![args[1]], vec![args[0], args[2]], args.clone()];
    let result_sets: Vec<Vec<Type>> = vec![vec![], vec![f32t], vec![nd, i32t]];
    let sym = ctx.symbol_ref_attr("x");
    let s = ctx.string_attr("x");
    let int = ctx.integer_attr(3, i32t);
    let prop_sets = vec![
        vec![],
        vec![
            ("field", sym),
            ("sym_name", s),
            ("axis", int),
            ("index", int),
        ],
        vec![
            ("field", s),
            ("type", int),
            ("function_type", sym),
            ("index", s),
        ],
    ];
    let names: Vec<&str> = ctx
        .registered_ops()
        .map(|i| i.name)
        .filter(|n| n.starts_with("qd."))
        .collect();
    for name in names {
        for ops in &operand_sets {
            for res in &result_sets {
                for props in &prop_sets {
                    for regions in 0..3 {
                        let mut st = OperationState::new(name, loc).operands(ops).results(res);
                        for &(key, v) in props {
                            st.add_prop(&mut ctx, key, v);
                        }
                        for r in 0..regions {
                            let region = ctx.create_region();
                            if r == 1 {
                                let b = ctx.create_block(&[(i32t, loc)]);
                                ctx.append_block(region, b);
                            }
                            st.regions.push(region);
                        }
                        Builder::at_end(&mut ctx, kb).insert(st);
                    }
                }
            }
        }
    }
    let text = print_op(&ctx, module, &CUSTOM);
    assert!(text.contains("qd.member_ptr"));
    let _ = print_op(&ctx, module, &GENERIC);
}

/// The normalization used above tells apart texts that differ in more than value names.
#[test]
fn normalization_is_alpha_equivalence() {
    let a = "%a = arith.addf %x, %y : f32\n";
    let b = "%0 = arith.addf %arg0, %arg1 : f32\n";
    let swapped = "%0 = arith.addf %arg1, %arg0 : f32\n";
    let src = "qd.kernel @k(%x: f32, %y: f32) {\n".to_string();
    let out = "qd.kernel @k(%arg0: f32, %arg1: f32) {\n".to_string();
    assert_eq!(normalize(&(src.clone() + a)), normalize(&(out.clone() + b)));
    assert_ne!(normalize(&(src + a)), normalize(&(out + swapped)));
    // Sibling regions may reuse names; a use binds to the latest definition.
    let t1 = "qd.if %c {\n%v = qd.local_load %p : !qd.ptr<f32>\n} else {\n%v = qd.local_load %p : !qd.ptr<f32>\nqd.local_store %v, %p : !qd.ptr<f32>\n}";
    let t2 = "qd.if %c {\n%1 = qd.local_load %p : !qd.ptr<f32>\n} else {\n%2 = qd.local_load %p : !qd.ptr<f32>\nqd.local_store %1, %p : !qd.ptr<f32>\n}";
    assert_ne!(normalize(t1), normalize(t2));
}
