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

/// The text with comments and blank lines dropped, indentation trimmed, and SSA names replaced
/// by numbers given in order of definition (a use takes the number of the latest definition of
/// its name, as MLIR scopes names per region), so that texts that differ only in value names
/// compare equal.
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
        out.push(norm);
    }
    out
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
