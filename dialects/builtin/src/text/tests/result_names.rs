//! Result name hints (`asm_result_names`): uniquing as MLIR's SSANameState (one conflict counter
//! carried into nested regions, names of enclosing regions taken, siblings independent),
//! sanitizing, and no hints in the generic form.

use super::*;

fn custom_text(src: &str) -> String {
    let mut c = ctx();
    let m = parse(&mut c, src);
    print_op(&c, m, &custom())
}

#[test]
fn hints_are_uniqued_with_one_counter_per_scope() {
    let src = r#"
%a = "test.named"() {hint = "x"} : () -> i32
%b = "test.named"() {hint = "x"} : () -> i32
%n = "test.generic_only"() : () -> i32
"test.generic_only"() ({
  %c = "test.named"() {hint = "x"} : () -> i32
  %d = "test.named"() {hint = "y"} : () -> i32
  %e = "test.named"() {hint = "y"} : () -> i32
}, {
  %f = "test.named"() {hint = "x"} : () -> i32
}) : () -> ()
%g = "test.named"() {hint = ""} : () -> i32
"#;
    let out = custom_text(src);
    for want in [
        "%x = \"test.named\"() {hint = \"x\"}",
        "%x_0 = \"test.named\"() {hint = \"x\"}",
        "%0 = \"test.generic_only\"()",
        // The nested regions see %x and %x_0 and continue the counter from 1.
        "    %x_1 = \"test.named\"() {hint = \"x\"}",
        "    %y = \"test.named\"() {hint = \"y\"}",
        "    %y_2 = \"test.named\"() {hint = \"y\"}",
        // The sibling region starts again from its parent's counter.
        "  }, {\n    %x_1 = \"test.named\"() {hint = \"x\"}",
        // An empty hint means a number, after the unnamed values before it.
        "%1 = \"test.named\"() {hint = \"\"}",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    // The printed names parse back to the same text.
    assert_eq!(custom_text(&out), out);
}

#[test]
fn hints_are_sanitized_as_mlir_identifiers() {
    let src = r#"
%a = "test.named"() {hint = "1st"} : () -> i32
%b = "test.named"() {hint = "a b"} : () -> i32
%c = "test.named"() {hint = "a/b"} : () -> i32
%d = "test.named"() {hint = "c-1_i8.$"} : () -> i32
"#;
    let out = custom_text(src);
    for want in ["%_1st = ", "%a_b = ", "%a2Fb = ", "%c-1_i8.$ = "] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}

#[test]
fn generic_form_has_no_hints_and_unique_numbers() {
    let src = r#"
%a = "test.named"() {hint = "x"} : () -> i32
"test.generic_only"() ({
  %b = "test.named"() {hint = "x"} : () -> i32
}, {
  %c = "test.named"() {hint = "x"} : () -> i32
}) : () -> ()
"#;
    let mut c = ctx();
    let m = parse(&mut c, src);
    let out = print_op(&c, m, &generic());
    assert!(!out.contains("%x"), "{out}");
    // Numbered on through the walk, the last region first (as mlir-opt's generic form).
    assert!(out.contains("({\n    %2 = \"test.named\""), "{out}");
    assert!(out.contains("}, {\n    %1 = \"test.named\""), "{out}");
}
