//! Tests of pass managers: pipeline building (nesting, options, errors with columns), running
//! (order, nesting, failures, verification), instrumentation order, timing rows and statistics.

use crate::*;
use qd_ir::builtin::create_module;
use qd_ir::{
    BlockId, Context, Diagnostic, DialectDef, OpId, OpInfo, OpTraits, OperationState, Severity,
};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

thread_local! {
    /// What the test passes did, as `pass@op-name[sym]`.
    static LOG: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn log() -> Vec<String> {
    LOG.with(|l| l.borrow().clone())
}

fn describe(ctx: &Context, op: OpId) -> String {
    let sym = ctx
        .attr(op, "sym_name")
        .map(|a| match ctx.attr_data(a) {
            qd_ir::AttrData::String(s) => format!("[{s}]"),
            _ => String::new(),
        })
        .unwrap_or_default();
    format!("{}{sym}", ctx.name(op))
}

/// A pass that logs each run; `changes` makes it touch the IR and say so.
struct Record {
    name: &'static str,
    anchor: Option<&'static str>,
    tag: i64,
    changes: bool,
    runs: u64,
}

impl Pass for Record {
    fn name(&self) -> &'static str {
        self.name
    }
    fn description(&self) -> &'static str {
        "records its runs"
    }
    fn anchor(&self) -> Option<&'static str> {
        self.anchor
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        self.runs += 1;
        let tag = if self.tag != 0 {
            format!("#{}", self.tag)
        } else {
            String::new()
        };
        let entry = format!("{}{tag}@{}", self.name, describe(ctx, op));
        LOG.with(|l| l.borrow_mut().push(entry));
        if self.changes {
            let u = ctx.unit_attr();
            ctx.set_attr(op, "touched", u);
        }
        Ok(PassOutcome::changed(self.changes))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![Statistic {
            name: "num-runs",
            description: "Number of runs",
            value: self.runs,
        }]
    }
}

fn record(name: &'static str) -> Box<dyn Pass> {
    Box::new(Record {
        name,
        anchor: None,
        tag: 0,
        changes: false,
        runs: 0,
    })
}

/// Fails, with a diagnostic when `loud`.
struct Fail {
    loud: bool,
}

impl Pass for Fail {
    fn name(&self) -> &'static str {
        if self.loud {
            "fail"
        } else {
            "fail-silently"
        }
    }
    fn description(&self) -> &'static str {
        "fails"
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        if self.loud {
            ctx.emit_error(ctx.loc(op), "this pass always fails");
        }
        Err(PassFailure)
    }
}

/// Inserts an op that does not verify.
struct Break;

impl Pass for Break {
    fn name(&self) -> &'static str {
        "break-ir"
    }
    fn description(&self) -> &'static str {
        "inserts an invalid op"
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        let loc = ctx.unknown_loc();
        let bad = ctx.create_op(OperationState::new("test.bad", loc));
        let body = ctx.entry_block(ctx.region(op, 0)).expect("a body");
        ctx.append_op(body, bad);
        Ok(PassOutcome::CHANGED)
    }
}

fn registry() -> PassRegistry {
    let mut r = PassRegistry::new();
    r.register(PassInfo::new("rec-a", "records", |_| Ok(record("rec-a"))));
    r.register(PassInfo::new("rec-b", "records", |_| Ok(record("rec-b"))));
    r.register(
        PassInfo::new("tagged", "records its tag", |o| {
            let tag = o.get_int("tag");
            if tag < 0 {
                return Err("tag must be >= 0".into());
            }
            Ok(Box::new(Record {
                name: "tagged",
                anchor: None,
                tag,
                changes: o.get_bool("change"),
                runs: 0,
            }))
        })
        .option(OptionDecl::int("tag", 1, "the tag"))
        .option(OptionDecl::bool("change", false, "touch the IR")),
    );
    r.register(PassInfo::new("kernel-pass", "runs on kernels", |_| {
        Ok(Box::new(Record {
            name: "kernel-pass",
            anchor: Some("test.kernel"),
            tag: 0,
            changes: false,
            runs: 0,
        }))
    }));
    r.register(PassInfo::new("fail", "fails", |_| {
        Ok(Box::new(Fail { loud: true }))
    }));
    r
}

fn test_dialect() -> DialectDef {
    let mut d = DialectDef::new("test");
    d.ops = vec![
        OpInfo::new("test.kernel", "a kernel").traits(
            OpTraits::ISOLATED_FROM_ABOVE | OpTraits::NO_TERMINATOR | OpTraits::SINGLE_BLOCK,
        ),
        OpInfo::new("test.wrap", "holds ops")
            .traits(OpTraits::NO_TERMINATOR | OpTraits::SINGLE_BLOCK),
        OpInfo::new("test.use", "names a symbol"),
        OpInfo::new("test.bad", "never verifies")
            .verify(|ctx, op| Err(Diagnostic::error(ctx.loc(op), "'test.bad' op is invalid"))),
    ];
    d
}

fn container(ctx: &mut Context, parent: BlockId, name: &str, sym: Option<&str>) -> BlockId {
    let loc = ctx.unknown_loc();
    let (r, b) = ctx.create_region_with_block(&[]);
    let mut st = OperationState::new(name, loc).region(r);
    if let Some(s) = sym {
        let a = ctx.string_attr(s);
        st = st.attr(ctx, "sym_name", a);
    }
    let op = ctx.create_op(st);
    ctx.append_op(parent, op);
    b
}

/// `module { kernel k1 {}  kernel k2 {}  wrap { kernel k3 {} } }`
fn setup() -> (Context, OpId) {
    LOG.with(|l| l.borrow_mut().clear());
    let mut ctx = Context::new();
    ctx.register_dialect(test_dialect());
    let loc = ctx.unknown_loc();
    let (module, body) = create_module(&mut ctx, loc);
    container(&mut ctx, body, "test.kernel", Some("k1"));
    container(&mut ctx, body, "test.kernel", Some("k2"));
    let w = container(&mut ctx, body, "test.wrap", None);
    container(&mut ctx, w, "test.kernel", Some("k3"));
    (ctx, module)
}

fn parse(text: &str) -> PassManager {
    PassManager::parse(&registry(), text).unwrap_or_else(|e| panic!("{e}"))
}

fn parse_err(text: &str) -> (usize, String) {
    match PassManager::parse(&registry(), text) {
        Ok(_) => panic!("'{text}' parsed"),
        Err(e) => (e.column(), e.message),
    }
}

#[test]
fn nested_pipeline_runs_on_direct_children_in_order() {
    let (mut ctx, module) = setup();
    let mut pm = parse("builtin.module(test.kernel(rec-a,rec-b),rec-a)");
    assert_eq!(pm.run(&mut ctx, module), Ok(false));
    assert_eq!(
        log(),
        [
            "rec-a@test.kernel[k1]",
            "rec-b@test.kernel[k1]",
            "rec-a@test.kernel[k2]",
            "rec-b@test.kernel[k2]",
            "rec-a@builtin.module"
        ]
    );
}

#[test]
fn nesting_goes_one_level_at_a_time() {
    let (mut ctx, module) = setup();
    let mut pm = parse("builtin.module(test.wrap(test.kernel(rec-a)),any(rec-b))");
    pm.run(&mut ctx, module).unwrap();
    assert_eq!(
        log(),
        [
            "rec-a@test.kernel[k3]",
            "rec-b@test.kernel[k1]",
            "rec-b@test.kernel[k2]",
            "rec-b@test.wrap"
        ]
    );
}

#[test]
fn anchored_passes_added_by_name_nest_at_any_depth() {
    let (mut ctx, module) = setup();
    let reg = registry();
    let mut pm = PassManager::new("builtin.module");
    pm.add_pass_by_name(&reg, "kernel-pass").unwrap();
    pm.add_pass_by_name(&reg, "kernel-pass,rec-a").unwrap();
    // Consecutive anchored passes share one nested manager; the second list starts a new one
    // only after rec-a.
    assert_eq!(
        pm.to_pipeline_string(),
        "builtin.module(test.kernel(kernel-pass,kernel-pass),rec-a)"
    );
    pm.run(&mut ctx, module).unwrap();
    assert_eq!(
        log(),
        [
            "kernel-pass@test.kernel[k1]",
            "kernel-pass@test.kernel[k1]",
            "kernel-pass@test.kernel[k2]",
            "kernel-pass@test.kernel[k2]",
            "kernel-pass@test.kernel[k3]",
            "kernel-pass@test.kernel[k3]",
            "rec-a@builtin.module"
        ]
    );
}

#[test]
fn add_pass_by_name_accepts_options_and_nested_forms() {
    let (mut ctx, module) = setup();
    let reg = registry();
    let mut pm = PassManager::new("builtin.module");
    pm.add_pass_by_name(&reg, "tagged{tag=4}").unwrap();
    pm.add_pass_by_name(&reg, "test.kernel(tagged{tag=7 change})")
        .unwrap();
    assert_eq!(
        pm.to_pipeline_string(),
        "builtin.module(tagged{tag=4 change=false},test.kernel(tagged{tag=7 change=true}))"
    );
    assert_eq!(pm.run(&mut ctx, module), Ok(true));
    assert_eq!(
        log(),
        [
            "tagged#4@builtin.module",
            "tagged#7@test.kernel[k1]",
            "tagged#7@test.kernel[k2]"
        ]
    );
    // The nested form is strict, as in --pass-pipeline.
    let e = pm
        .add_pass_by_name(&reg, "test.wrap(kernel-pass)")
        .unwrap_err();
    assert_eq!(e.column(), 11);
}

#[test]
fn pipeline_errors_have_columns() {
    assert_eq!(
        parse_err("rec-a"),
        (
            1,
            "expected pass pipeline to be wrapped with the anchor operation type, e.g. \
             'builtin.module(...)'"
                .into()
        )
    );
    assert_eq!(
        parse_err("builtin.module(rec-a),builtin.module(rec-b)").0,
        23
    );
    assert_eq!(
        parse_err("builtin.module(rec-a,nope)"),
        (22, "'nope' does not refer to a registered pass".into())
    );
    assert_eq!(
        parse_err("builtin.module(rec-c)").1,
        "'rec-c' does not refer to a registered pass; did you mean 'rec-a'?"
    );
    assert_eq!(
        parse_err("builtin.module(tagged{tag=abc})"),
        (
            27,
            "invalid value 'abc' for option 'tag': expected an integer".into()
        )
    );
    assert_eq!(
        parse_err("builtin.module(test.kernel(tagged{ colour=red}))"),
        (
            36,
            "unknown option 'colour' for pass 'tagged'; known options: tag, change".into()
        )
    );
    assert_eq!(
        parse_err("builtin.module(tagged{tag=-1})"),
        (16, "cannot create pass 'tagged': tag must be >= 0".into())
    );
    assert_eq!(
        parse_err("builtin.module(kernel-pass)"),
        (
            16,
            "pass 'kernel-pass' runs on 'test.kernel' ops and cannot be scheduled on \
             'builtin.module' ops; nest it: 'test.kernel(kernel-pass)'"
                .into()
        )
    );
    assert_eq!(
        parse_err("builtin.module(test.kernel(rec-a)"),
        (
            15,
            "missing closing ')' for the 'builtin.module' pipeline".into()
        )
    );
}

#[test]
fn root_anchor_must_match_the_op() {
    let (mut ctx, module) = setup();
    let mut pm = parse("test.kernel(rec-a)");
    assert_eq!(pm.run(&mut ctx, module), Err(PassFailure));
    assert_eq!(
        ctx.diagnostics()[0].message,
        "can't run 'test.kernel' pass manager on 'builtin.module' op"
    );
    assert!(log().is_empty());
    // `any` runs on anything.
    let mut pm = parse("any(rec-a)");
    assert_eq!(pm.run(&mut ctx, module), Ok(false));
}

#[test]
fn a_failing_pass_stops_the_pipeline() {
    let (mut ctx, module) = setup();
    let mut pm = parse("builtin.module(rec-a,fail,rec-b)");
    assert_eq!(pm.run(&mut ctx, module), Err(PassFailure));
    assert_eq!(log(), ["rec-a@builtin.module"]);
    let msgs: Vec<_> = ctx
        .diagnostics()
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(msgs, ["this pass always fails"]);
}

#[test]
fn a_silent_failure_gets_a_diagnostic() {
    let (mut ctx, module) = setup();
    let mut pm = PassManager::new("builtin.module");
    pm.nest("test.kernel")
        .add_pass(Box::new(Fail { loud: false }));
    assert_eq!(pm.run(&mut ctx, module), Err(PassFailure));
    let d = &ctx.diagnostics()[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.message, "pass 'fail-silently' failed");
    // It stopped at the first kernel.
    assert_eq!(ctx.diagnostics().len(), 1);
}

#[test]
fn verification_after_each_pass_names_the_pass() {
    let (mut ctx, module) = setup();
    let mut pm = PassManager::new("builtin.module");
    pm.add_pass(Box::new(Break));
    pm.add_pass(record("rec-a"));
    assert_eq!(pm.run(&mut ctx, module), Err(PassFailure));
    assert!(log().is_empty());
    let d = &ctx.diagnostics()[0];
    assert_eq!(d.message, "'test.bad' op is invalid");
    assert_eq!(
        d.notes[0].message,
        "verification failed after running pass 'break-ir'"
    );

    let (mut ctx, module) = setup();
    let mut pm = PassManager::new("builtin.module");
    pm.verify_each = false;
    pm.add_pass(Box::new(Break));
    assert_eq!(pm.run(&mut ctx, module), Ok(true));
    assert!(ctx.diagnostics().is_empty());
}

/// On a kernel: appends a `test.use` op naming `@k2`, or `@nope` in the kernel `bad_in`.
struct Refer {
    bad_in: &'static str,
}

impl Pass for Refer {
    fn name(&self) -> &'static str {
        "refer"
    }
    fn description(&self) -> &'static str {
        "adds a symbol use"
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        let sym = ctx.attr(op, "sym_name").map(|a| describe_attr(ctx, a));
        let target = if sym.as_deref() == Some(self.bad_in) {
            "nope"
        } else {
            "k2"
        };
        let loc = ctx.unknown_loc();
        let r = ctx.symbol_ref_attr(target);
        let st = OperationState::new("test.use", loc).attr(ctx, "callee", r);
        let u = ctx.create_op(st);
        let body = ctx.entry_block(ctx.region(op, 0)).expect("a body");
        ctx.append_op(body, u);
        Ok(PassOutcome::CHANGED)
    }
}

fn describe_attr(ctx: &Context, a: qd_ir::Attribute) -> String {
    match ctx.attr_data(a) {
        qd_ir::AttrData::String(s) => s.clone(),
        _ => String::new(),
    }
}

/// Verify-each on a nested pipeline verifies each kernel after the pass with the module's
/// symbols (built once for the nesting, see `Runner::run_pm`): uses of sibling kernels resolve,
/// a use of a missing symbol fails as the whole module's verification says.
#[test]
fn verification_after_nested_passes_resolves_enclosing_symbols() {
    let run = |bad_in: &'static str| {
        let (mut ctx, module) = setup();
        let mut pm = PassManager::new("builtin.module");
        pm.nest("test.kernel").add_pass(Box::new(Refer { bad_in }));
        let result = pm.run(&mut ctx, module);
        (ctx, module, result)
    };
    let (ctx, module, result) = run("none");
    assert_eq!(result, Ok(true));
    assert!(ctx.diagnostics().is_empty());
    assert_eq!(qd_ir::verifier::verify(&ctx, module), Ok(()));

    let (ctx, module, result) = run("k2");
    assert_eq!(result, Err(PassFailure));
    let want = "'test.use' op '@nope' does not reference a valid symbol";
    let d = &ctx.diagnostics()[0];
    assert_eq!(d.message, want);
    assert_eq!(
        d.notes[0].message,
        "verification failed after running pass 'refer'"
    );
    // The first kernel ran and verified; the second failed and stopped the run.
    let whole = qd_ir::verifier::verify(&ctx, module).unwrap_err();
    assert_eq!(whole.len(), 1);
    assert_eq!(whole[0].message, want);
}

/// Logs instrumentation calls.
struct Spy(Rc<RefCell<Vec<String>>>, &'static str);

impl PassInstrumentation for Spy {
    fn before_pass(&mut self, ctx: &Context, pass: &dyn Pass, op: OpId) {
        let e = format!("{} before {}@{}", self.1, pass.name(), describe(ctx, op));
        self.0.borrow_mut().push(e);
    }
    fn after_pass(&mut self, ctx: &Context, pass: &dyn Pass, op: OpId, changed: bool) {
        let e = format!(
            "{} after {}@{} changed={changed}",
            self.1,
            pass.name(),
            describe(ctx, op)
        );
        self.0.borrow_mut().push(e);
    }
    fn after_pass_failed(&mut self, _: &Context, pass: &dyn Pass, _: OpId) {
        let e = format!("{} failed {}", self.1, pass.name());
        self.0.borrow_mut().push(e);
    }
}

#[test]
fn instrumentation_order() {
    let (mut ctx, module) = setup();
    let events = Rc::new(RefCell::new(Vec::new()));
    let mut pm = parse("builtin.module(tagged{change},test.kernel(rec-a),fail)");
    pm.add_instrumentation(Box::new(Spy(events.clone(), "1")));
    pm.add_instrumentation(Box::new(Spy(events.clone(), "2")));
    assert!(pm.run(&mut ctx, module).is_err());
    assert_eq!(
        *events.borrow(),
        [
            "1 before tagged@builtin.module",
            "2 before tagged@builtin.module",
            "1 after tagged@builtin.module changed=true",
            "2 after tagged@builtin.module changed=true",
            "1 before rec-a@test.kernel[k1]",
            "2 before rec-a@test.kernel[k1]",
            "1 after rec-a@test.kernel[k1] changed=false",
            "2 after rec-a@test.kernel[k1] changed=false",
            "1 before rec-a@test.kernel[k2]",
            "2 before rec-a@test.kernel[k2]",
            "1 after rec-a@test.kernel[k2] changed=false",
            "2 after rec-a@test.kernel[k2] changed=false",
            "1 before fail@builtin.module",
            "2 before fail@builtin.module",
            "1 failed fail",
            "2 failed fail",
        ]
    );
}

#[test]
fn changed_is_the_union_over_passes_and_nesting() {
    let (mut ctx, module) = setup();
    assert_eq!(
        parse("builtin.module(rec-a)").run(&mut ctx, module),
        Ok(false)
    );
    assert_eq!(
        parse("builtin.module(test.wrap(test.kernel(tagged{change})),rec-a)").run(&mut ctx, module),
        Ok(true)
    );
}

#[test]
fn timing_rows_follow_the_pipeline() {
    let (mut ctx, module) = setup();
    let mut pm = parse("builtin.module(test.kernel(rec-a,tagged),rec-b)");
    pm.run(&mut ctx, module).unwrap();
    pm.run(&mut ctx, module).unwrap();
    let rows: Vec<(String, usize)> = pm
        .timing_rows()
        .into_iter()
        .map(|r| (r.name, r.depth))
        .collect();
    assert_eq!(
        rows,
        [
            ("'test.kernel' Pipeline".to_string(), 0),
            ("RecA".to_string(), 1),
            ("Tagged".to_string(), 1),
            ("RecB".to_string(), 0)
        ]
    );
    let t = pm.timing_rows();
    assert!(t[0].wall >= t[1].wall + t[2].wall);
    let report = pm.timing_report();
    assert!(report.contains("  'test.kernel' Pipeline\n"), "{report}");
    assert!(report.contains("    RecA\n"), "{report}");
    assert!(report.ends_with("(100.0%)  Total\n"), "{report}");
}

#[test]
fn statistics_accumulate_over_runs() {
    let (mut ctx, module) = setup();
    let mut pm = parse("builtin.module(test.kernel(rec-a),rec-b)");
    pm.run(&mut ctx, module).unwrap();
    assert_eq!(
        pm.statistics_report(),
        "\
===-------------------------------------------------------------------------===
                         ... Pass statistics report ...
===-------------------------------------------------------------------------===
'test.kernel' Pipeline
  RecA
    (S) 2 num-runs - Number of runs
RecB
  (S) 1 num-runs - Number of runs
"
    );
    let stats = pm.statistics();
    assert_eq!(stats[0].0, "rec-a");
    assert_eq!(stats[0].1[0].value, 2);
}

/// A `Write` into a shared buffer.
#[derive(Clone, Default)]
struct Buf(Rc<RefCell<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    fn text(&self) -> String {
        String::from_utf8(self.0.borrow().clone()).unwrap()
    }
}

fn headers(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("// -----//"))
        .collect()
}

#[test]
fn print_ir_after_all_and_after_named() {
    let (mut ctx, module) = setup();
    let buf = Buf::default();
    let mut pm = parse("builtin.module(test.kernel(rec-a),rec-b)");
    pm.add_instrumentation(Box::new(PrintIrInstrumentation::with_sink(
        true,
        vec![],
        Box::new(buf.clone()),
    )));
    pm.run(&mut ctx, module).unwrap();
    let text = buf.text();
    assert_eq!(
        headers(&text),
        [
            "// -----// IR Dump After RecA (rec-a) //----- //",
            "// -----// IR Dump After RecA (rec-a) //----- //",
            "// -----// IR Dump After RecB (rec-b) //----- //"
        ]
    );
    // A nested pass dumps the op it ran on, not the module.
    let first = text.split("// -----//").nth(1).unwrap();
    assert!(first.contains("test.kernel"), "{first}");
    assert!(!first.contains("test.wrap"), "{first}");
    assert!(text.ends_with("\n\n"));

    let (mut ctx, module) = setup();
    let buf = Buf::default();
    let mut pm = parse("builtin.module(rec-a,rec-b,tagged{change})");
    let mut print = PrintIrInstrumentation::with_sink(
        false,
        vec!["rec-b".into(), "tagged".into()],
        Box::new(buf.clone()),
    );
    print.only_changed = true;
    pm.add_instrumentation(Box::new(print));
    pm.run(&mut ctx, module).unwrap();
    // rec-b did not change the IR: only_changed skips it.
    assert_eq!(
        headers(&buf.text()),
        ["// -----// IR Dump After Tagged (tagged) //----- //"]
    );
}
