//! Parse errors: each is one diagnostic at an exact file:line:col.

use super::*;

fn check(src: &str, line: u32, col: u32, msg: &str) {
    let got = parse_error(src);
    assert_eq!(got, (line, col, msg.to_string()), "for input:\n{src}");
}

fn check_strict(src: &str, line: u32, col: u32, msg: &str) {
    let got = parse_error_in(strict_ctx(), src);
    assert_eq!(got, (line, col, msg.to_string()), "for input:\n{src}");
}

/// The notes of the one diagnostic of a failed parse: (line, col, message).
fn notes(src: &str) -> Vec<(u32, u32, String)> {
    let mut c = ctx();
    assert!(parse_source(&mut c, src, FILE).is_none());
    c.diagnostics()[0]
        .notes
        .iter()
        .map(|n| {
            let (_, l, col) = c.file_line_col(n.loc).unwrap();
            (l, col, n.message.clone())
        })
        .collect()
}

#[test]
fn undefined_value() {
    check(
        "\"t.use\"(%x) : (i32) -> ()",
        1,
        9,
        "use of undeclared SSA value name '%x'",
    );
    check(
        "\"t.r\"() ({\n  \"t.use\"(%x#1) : (i32) -> ()\n}) : () -> ()",
        2,
        11,
        "use of undeclared SSA value name '%x#1'",
    );
}

#[test]
fn redefinition() {
    let src = "%a = \"t.d\"() : () -> i32\n%a = \"t.d\"() : () -> i32";
    check(src, 2, 1, "redefinition of SSA value '%a'");
    assert_eq!(
        notes(src),
        vec![(1, 1, "previously defined here".to_string())]
    );
    // A nested region may not redefine a name of an enclosing one.
    check(
        "%a = \"t.d\"() : () -> i32\n\"t.r\"() ({\n  %a = \"t.d\"() : () -> i32\n}) : () -> ()",
        3,
        3,
        "redefinition of SSA value '%a'",
    );
    check(
        "\"t.r\"() ({\n^bb0(%a: i32, %a: i32):\n}) : () -> ()",
        2,
        15,
        "redefinition of SSA value '%a'",
    );
}

#[test]
fn type_mismatches() {
    let src =
        "\"t.use\"(%x) : (i32) -> ()\n\"t.use\"(%x) : (f32) -> ()\n%x = \"t.d\"() : () -> i32";
    check(
        src,
        2,
        9,
        "use of value '%x' expects different type than prior uses: 'f32' vs 'i32'",
    );
    assert_eq!(notes(src), vec![(1, 9, "prior use here".to_string())]);
    let src = "\"t.use\"(%x) : (i32) -> ()\n%x = \"t.d\"() : () -> f32";
    check(src, 2, 1, "definition of SSA value '%x' has type 'f32'");
    assert_eq!(
        notes(src),
        vec![(1, 9, "previously used here with type 'i32'".to_string())]
    );
    check(
        "%x = \"t.d\"() : () -> i32\n\"t.use\"(%x) : (f32) -> ()",
        2,
        9,
        "use of value '%x' expects different type than prior uses: 'f32' vs 'i32'",
    );
}

#[test]
fn unbalanced_braces() {
    let src = "\"t.op\"() ({\n  \"t.x\"() : () -> ()\n";
    check(
        src,
        3,
        1,
        "unexpected end of file: expected '}' to end region",
    );
    assert_eq!(notes(src), vec![(1, 11, "region opened here".to_string())]);
    check(
        "\"t.a\"() : () -> ()\n}",
        2,
        1,
        "expected operation name in quotes",
    );
    check("\"t.op\"() ({\n}", 2, 2, "expected ')' to end region list");
    check(
        "\"t.op\"() {a = [1, 2} : () -> ()",
        1,
        20,
        "expected ']' to close an array attribute",
    );
    check(
        "\"t.op\"() {a = {b = 1] : () -> ()",
        1,
        21,
        "expected '}' in attribute dictionary",
    );
}

#[test]
fn truncated_input() {
    check("%0 = \"t.op\"(", 1, 13, "expected SSA operand");
    check("%0 = \"t.op\"() : () ->", 1, 22, "expected type");
    check("%0 =", 1, 5, "expected operation name in quotes");
    check("%0", 1, 3, "expected '=' after SSA name");
    check("\"t.op\"() {a = ", 1, 15, "expected attribute value");
    check(
        "\"t.op\"() {a = \"unterminated",
        1,
        15,
        "expected '\"' in string literal",
    );
    check(
        "\"t.op\"() : () -> () loc(",
        1,
        25,
        "expected location instance",
    );
    check(
        "\"t.op\"()",
        1,
        9,
        "expected ':' followed by operation type",
    );
    check("\"t.op\"() : (", 1, 13, "expected type");
    check("#a = ", 1, 6, "expected attribute value");
}

#[test]
fn bad_types() {
    check(
        "\"t.op\"() : () -> i99999999",
        1,
        18,
        "integer bitwidth is limited to 16777215 bits",
    );
    check(
        "\"t.op\"() : () -> foo",
        1,
        18,
        "expected non-function type",
    );
    check(
        "\"t.op\"() : () -> !undefined",
        1,
        18,
        "undefined symbol alias id 'undefined'",
    );
    check("\"t.op\"() : i32", 1, 12, "expected function type");
    check_strict(
        "\"test.generic_only\"() : () -> !foo.bar",
        1,
        31,
        "unknown type '!foo.bar': dialect 'foo' is not registered",
    );
    check(
        "\"t.op\"() : () -> !foo.bar<a",
        1,
        28,
        "unexpected end of file in dialect body",
    );
}

#[test]
fn out_of_range_and_mistyped_literals() {
    let lit = |attr: &str| format!("\"t.op\"() {{a = {attr}}} : () -> ()");
    let oor = "integer constant out of range for attribute";
    for bad in [
        "300 : i8",
        "-129 : i8",
        "2 : i1",
        "-2 : i1",
        "256 : ui8",
        "128 : si8",
        "-9223372036854775809 : index",
        "9223372036854775808 : index",
        "18446744073709551616",
        "99999999999999999999999999999999999999999999 : i64",
        "1 : i0",
        "170141183460469231731687303715884105728 : si128",
    ] {
        check(&lit(bad), 1, 15, oor);
    }
    check(
        &lit("-1 : ui8"),
        1,
        16,
        "negative integer literal not valid for unsigned integer type",
    );
    check(
        &lit("1.5 : i32"),
        1,
        15,
        "floating point value not valid for specified type",
    );
    check(
        &lit("1 : f32"),
        1,
        15,
        "unexpected decimal integer literal for a floating point value",
    );
    check(
        &lit("0x1FFFFFFFF : f32"),
        1,
        15,
        "hexadecimal float constant out of range for type",
    );
    check(
        &lit("-0x7FC00000 : f32"),
        1,
        16,
        "hexadecimal float literal should not have a leading minus",
    );
    check(
        &lit("1 : none"),
        1,
        15,
        "numeric literal not valid for type 'none'",
    );
    check(&lit("array<i8: 1, 300>"), 1, 28, oor);
    check(
        &lit("array<none: 1>"),
        1,
        21,
        "expected integer or float type in dense array, got 'none'",
    );
    // Limits themselves are fine.
    for ok in [
        "255 : i8",
        "-128 : i8",
        "1 : i1",
        "-1 : i1",
        "true",
        "255 : ui8",
        "127 : si8",
        "18446744073709551615 : i64",
        "-9223372036854775808 : i64",
        "18446744073709551615 : ui64",
        "0 : i0",
        "0x7F800000 : f32",
        "0xFFFF : bf16",
        "1.0e999 : f32",
    ] {
        let mut c = ctx();
        assert!(parse_source(&mut c, &lit(ok), FILE).is_some(), "{ok}");
    }
}

#[test]
fn unknown_ops() {
    check_strict(
        "\"foo.bar\"() : () -> ()",
        1,
        1,
        "unregistered operation 'foo.bar' found in dialect ('foo') that does not allow unknown operations",
    );
    // An unknown op of a registered dialect is an error even when unregistered ops are allowed.
    check(
        "%0 = \"test.nope\"() : () -> ()",
        1,
        6,
        "unregistered operation 'test.nope' found in dialect ('test') that does not allow unknown operations",
    );
    check_strict(
        "\"test.generic_only\"() {x = #foo.bar} : () -> ()",
        1,
        28,
        "attribute '#foo.bar' of unregistered dialect 'foo'",
    );
}

#[test]
fn result_and_operand_count_mismatch() {
    check(
        "%0:2 = \"t.op\"() : () -> i32",
        1,
        1,
        "operation defines 1 results but was provided 2 to bind",
    );
    check(
        "%a, %b = \"t.op\"() : () -> (i32, i32, i32)",
        1,
        1,
        "operation defines 3 results but was provided 2 to bind",
    );
    check(
        "%a:0 = \"t.op\"() : () -> ()",
        1,
        4,
        "expected named operation to have at least 1 result",
    );
    check(
        "%a = \"t.d\"() : () -> i32\n\"t.op\"(%a) : () -> ()",
        2,
        14,
        "expected 1 operand type but had 0",
    );
}

#[test]
fn blocks() {
    check(
        "\"t.f\"() ({\n^bb0:\n  \"t.x\"() : () -> ()\n^bb0:\n  \"t.y\"() : () -> ()\n}) : () -> ()",
        4,
        1,
        "redefinition of block '^bb0'",
    );
    check(
        "\"t.f\"() ({\n  \"t.br\"()[^bb7] : () -> ()\n}) : () -> ()",
        2,
        12,
        "reference to an undefined block '^bb7'",
    );
    check(
        "\"t.f\"() ({\n^bb1(%a i32):\n}) : () -> ()",
        2,
        9,
        "expected ':' and type for SSA value",
    );
    check(
        "\"t.f\"() ({\n^bb1\n}) : () -> ()",
        3,
        1,
        "expected ':' after block name",
    );
}

#[test]
fn alias_errors() {
    check(
        "#a = 1\n#a = 2",
        2,
        1,
        "redefinition of attribute alias id 'a'",
    );
    check(
        "!a = i32\n!a = i32",
        2,
        1,
        "redefinition of type alias id 'a'",
    );
    check(
        "#a.b = 1",
        1,
        1,
        "attribute names with a '.' are reserved for dialect-defined names",
    );
    check(
        "\"t.op\"() {x = #nope} : () -> ()",
        1,
        15,
        "undefined symbol alias id 'nope'",
    );
    check(
        "\"t.op\"() : () -> () loc(#nope)",
        1,
        25,
        "undefined symbol alias id 'nope'",
    );
    check(
        "#a = 1\n\"t.op\"() : () -> () loc(#a)",
        2,
        25,
        "'#a' is not a location alias",
    );
    check(
        "#l = loc(unknown)\n\"t.op\"() {x = #l} : () -> ()",
        2,
        15,
        "'#l' is a location alias, not an attribute",
    );
}

#[test]
fn dictionary_errors() {
    check(
        "\"t.op\"() {a = 1, a = 2} : () -> ()",
        1,
        18,
        "duplicate key 'a' in dictionary attribute",
    );
    check(
        "\"t.op\"() {1 = 2} : () -> ()",
        1,
        11,
        "expected attribute name",
    );
}

#[test]
fn nesting_too_deep() {
    let n = 300;
    let mut src = String::new();
    for _ in 0..n {
        src.push_str("\"t.r\"() ({\n");
    }
    for _ in 0..n {
        src.push_str("}) : () -> ()\n");
    }
    let (_, _, msg) = parse_error(&src);
    assert_eq!(msg, "nesting too deep (more than 200 levels)");
    let deep_attr = format!(
        "\"t.op\"() {{a = {}1{}}} : () -> ()",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    assert_eq!(
        parse_error(&deep_attr).2,
        "nesting too deep (more than 200 levels)"
    );
    let deep_type = format!(
        "\"t.op\"() {{a = {}i32{}}} : () -> ()",
        "(".repeat(5000),
        ") -> i32".repeat(5000)
    );
    assert_eq!(
        parse_error(&deep_type).2,
        "nesting too deep (more than 200 levels)"
    );
    let deep_fn = format!("\"t.op\"() : () -> {}", "(".repeat(100_000));
    assert_eq!(
        parse_error(&deep_fn).2,
        "nesting too deep (more than 200 levels)"
    );
    let deep_loc = format!(
        "\"t.op\"() : () -> () loc({}unknown{})",
        "\"n\"(".repeat(5000),
        ")".repeat(5000)
    );
    assert_eq!(
        parse_error(&deep_loc).2,
        "nesting too deep (more than 200 levels)"
    );
    // Just under the limit parses.
    let mut ok = String::new();
    for _ in 0..150 {
        ok.push_str("\"t.r\"() ({\n");
    }
    for _ in 0..150 {
        ok.push_str("}) : () -> ()\n");
    }
    round_trip(&ok);
}
