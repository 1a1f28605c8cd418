//! Diagnostic rendering: header, source line and caret; notes; non-file locations.

use super::*;
use crate::location::LocData;

fn render_parse_error(src: &str) -> String {
    let mut c = ctx();
    assert!(parse_source(&mut c, src, FILE).is_none());
    let mut sm = SourceMgr::new();
    sm.add_buffer(FILE, src);
    sm.render(&c, &c.diagnostics()[0])
}

#[test]
fn error_with_caret() {
    let src = "%0 = \"t.x\"() : () -> i32\n\"t.use\"(%y) : (i32) -> ()\n";
    assert_eq!(
        render_parse_error(src),
        "t.mlir:2:9: error: use of undeclared SSA value name '%y'\n\"t.use\"(%y) : (i32) -> ()\n        ^\n"
    );
}

#[test]
fn error_with_note() {
    let src = "%a = \"t.d\"() : () -> i32\n  %a = \"t.d\"() : () -> i32\n";
    assert_eq!(
        render_parse_error(src),
        concat!(
            "t.mlir:2:3: error: redefinition of SSA value '%a'\n",
            "  %a = \"t.d\"() : () -> i32\n",
            "  ^\n",
            "t.mlir:1:1: note: previously defined here\n",
            "%a = \"t.d\"() : () -> i32\n",
            "^\n"
        )
    );
}

#[test]
fn caret_keeps_tabs_and_handles_end_of_file() {
    let src = "\t\"t.use\"(%y) : (i32) -> ()";
    assert_eq!(
        render_parse_error(src),
        "t.mlir:1:10: error: use of undeclared SSA value name '%y'\n\t\"t.use\"(%y) : (i32) -> ()\n\t        ^\n"
    );
    let src = "%0 = \"t.op\"(";
    assert_eq!(
        render_parse_error(src),
        "t.mlir:1:13: error: expected SSA operand\n%0 = \"t.op\"(\n            ^\n"
    );
}

#[test]
fn non_file_locations() {
    let mut c = Context::new();
    let sm = SourceMgr::new();
    let unknown = c.unknown_loc();
    let d = Diagnostic::error(unknown, "boom");
    assert_eq!(sm.render(&c, &d), "loc(unknown): error: boom\n");
    let name = c.ident("kernel");
    let named = c.intern_loc(LocData::Name { name, child: None });
    let d = Diagnostic::warning(named, "careful").with_note(unknown, "here");
    assert_eq!(
        sm.render(&c, &d),
        "loc(\"kernel\"): warning: careful\nloc(unknown): note: here\n"
    );
    // A name around a file location uses the file location; unknown buffers print no snippet.
    let inner = c.file_loc("other.py", 4, 2);
    let wrapped = c.intern_loc(LocData::Name {
        name,
        child: Some(inner),
    });
    assert_eq!(
        sm.render(&c, &Diagnostic::error(wrapped, "x")),
        "other.py:4:2: error: x\n"
    );
}
