//! Pass managers, as MLIR's: an [`OpPassManager`] is anchored on an op name (or `any`) and holds
//! passes and nested pass managers; a nested manager runs on every op of its anchor name directly
//! nested (one level of regions) in the op its parent runs on. [`PassManager`] is the root, with
//! verification after each pass, instrumentation and timing.
//!
//! Anchored passes added with [`OpPassManager::add_pass`] or by name (`--pass=NAME`, `-p a,b`) to
//! a manager with another anchor are nested automatically, in an "implicit" nested manager that
//! runs on every op of the pass's anchor name nested at ANY depth under the op (a kernel pass added
//! at module level runs on every kernel in the module). Textual pipelines (`--pass-pipeline`) are
//! strict, as MLIR's: an anchored pass must be written inside its anchor, `qd.kernel(pass)`.

use crate::instrument::PassInstrumentation;
use crate::options::{ParsedOptions, PassOptions};
use crate::pass::{Pass, PassFailure, Statistic};
use crate::pipeline::{parse_pipeline, PipelineElement, PipelineError};
use crate::registry::PassRegistry;
use crate::runner::Runner;
use crate::timing::{TimingReport, TimingRow};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{Context, OpId};
use std::time::Duration;

/// What a pass manager runs on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Anchor {
    /// Ops with this name.
    Op(String),
    /// Any op (`any(...)` in a pipeline).
    Any,
}

impl Anchor {
    fn parse(name: &str) -> Anchor {
        if name == "any" {
            Anchor::Any
        } else {
            Anchor::Op(name.to_string())
        }
    }
    pub fn name(&self) -> &str {
        match self {
            Anchor::Op(n) => n,
            Anchor::Any => "any",
        }
    }
    pub(crate) fn matches(&self, ctx: &Context, op: OpId) -> bool {
        match self {
            Anchor::Op(n) => ctx.name(op) == n,
            Anchor::Any => true,
        }
    }
}

pub(crate) struct PassSlot {
    pub(crate) pass: Box<dyn Pass>,
    /// Resolved options, when the pass came from the registry (for the pipeline string).
    options: Option<ParsedOptions>,
    pub(crate) wall: Duration,
}

pub(crate) struct NestedSlot {
    pub(crate) pm: OpPassManager,
    /// Implicit nesting: runs on matching ops at any depth, not only direct children.
    pub(crate) deep: bool,
    pub(crate) wall: Duration,
}

pub(crate) enum Element {
    Pass(PassSlot),
    Nested(NestedSlot),
}

/// A list of passes and nested pass managers, anchored on an op name.
pub struct OpPassManager {
    pub(crate) anchor: Anchor,
    pub(crate) elements: Vec<Element>,
}

impl OpPassManager {
    /// A manager for ops named `anchor` (`"any"` for any op).
    pub fn new(anchor: &str) -> Self {
        OpPassManager {
            anchor: Anchor::parse(anchor),
            elements: Vec::new(),
        }
    }

    pub fn anchor(&self) -> &Anchor {
        &self.anchor
    }

    /// Number of passes and nested managers directly in this one.
    pub fn len(&self) -> usize {
        self.elements.len()
    }
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// Adds a pass. A pass anchored on another op name is nested implicitly (see the module doc);
    /// consecutive such passes with the same anchor share one nested manager.
    pub fn add_pass(&mut self, pass: Box<dyn Pass>) {
        self.add_slot(PassSlot {
            pass,
            options: None,
            wall: Duration::ZERO,
        });
    }

    fn add_slot(&mut self, slot: PassSlot) {
        let anchor = match slot.pass.anchor() {
            Some(a) if self.anchor != Anchor::Op(a.to_string()) => a,
            _ => {
                self.elements.push(Element::Pass(slot));
                return;
            }
        };
        if let Some(Element::Nested(n)) = self.elements.last_mut() {
            if n.deep && n.pm.anchor == Anchor::Op(anchor.to_string()) {
                n.pm.elements.push(Element::Pass(slot));
                return;
            }
        }
        let mut pm = OpPassManager::new(anchor);
        pm.elements.push(Element::Pass(slot));
        self.elements.push(Element::Nested(NestedSlot {
            pm,
            deep: true,
            wall: Duration::ZERO,
        }));
    }

    /// Adds a nested manager that runs on ops named `anchor` directly nested in this manager's op.
    pub fn nest(&mut self, anchor: &str) -> &mut OpPassManager {
        self.elements.push(Element::Nested(NestedSlot {
            pm: OpPassManager::new(anchor),
            deep: false,
            wall: Duration::ZERO,
        }));
        match self.elements.last_mut() {
            Some(Element::Nested(n)) => &mut n.pm,
            _ => unreachable!("just pushed a nested manager"),
        }
    }

    /// Adds passes by their textual form, the flat form of `--pass=NAME` and `-p a,b`:
    /// `canonicalize{max-iterations=4}`, a comma-separated list of such, or nested pipelines
    /// `qd.kernel(cse,dce)`. Top-level anchored passes are nested implicitly.
    pub fn add_pass_by_name(
        &mut self,
        registry: &PassRegistry,
        text: &str,
    ) -> Result<(), PipelineError> {
        for el in parse_pipeline(text)? {
            match el {
                PipelineElement::Pass {
                    name,
                    offset,
                    options,
                } => {
                    let slot = create_pass(registry, text, &name, offset, options.as_ref())?;
                    self.add_slot(slot);
                }
                nested => self.add_element_strict(registry, text, nested)?,
            }
        }
        Ok(())
    }

    /// Adds one parsed element; anchored passes must match this manager's anchor.
    fn add_element_strict(
        &mut self,
        registry: &PassRegistry,
        text: &str,
        el: PipelineElement,
    ) -> Result<(), PipelineError> {
        match el {
            PipelineElement::Pass {
                name,
                offset,
                options,
            } => {
                let slot = create_pass(registry, text, &name, offset, options.as_ref())?;
                if let Some(a) = slot.pass.anchor() {
                    if self.anchor != Anchor::Op(a.to_string()) {
                        return Err(PipelineError::new(
                            text,
                            offset,
                            format!(
                                "pass '{name}' runs on '{a}' ops and cannot be scheduled on '{}' \
                                 ops; nest it: '{a}({name})'",
                                self.anchor.name()
                            ),
                        ));
                    }
                }
                self.elements.push(Element::Pass(slot));
            }
            PipelineElement::Nested {
                anchor, elements, ..
            } => {
                let child = self.nest(&anchor);
                for e in elements {
                    child.add_element_strict(registry, text, e)?;
                }
            }
        }
        Ok(())
    }

    /// The textual pipeline, e.g. `builtin.module(qd.kernel(cse),canonicalize{max-iterations=10 ...})`,
    /// with every option of registry-created passes spelled out (as MLIR's pipeline dump).
    pub fn to_pipeline_string(&self) -> String {
        let parts: Vec<String> = self
            .elements
            .iter()
            .map(|e| match e {
                Element::Pass(s) => match &s.options {
                    Some(o) if !o.to_option_string().is_empty() => {
                        format!("{}{{{}}}", s.pass.name(), o.to_option_string())
                    }
                    _ => s.pass.name().to_string(),
                },
                Element::Nested(n) => n.pm.to_pipeline_string(),
            })
            .collect();
        format!("{}({})", self.anchor.name(), parts.join(","))
    }

    fn timing_rows_into(&self, depth: usize, out: &mut Vec<TimingRow>) {
        for e in &self.elements {
            match e {
                Element::Pass(s) => out.push(TimingRow {
                    name: s.pass.display_name(),
                    depth,
                    wall: s.wall,
                }),
                Element::Nested(n) => {
                    out.push(TimingRow {
                        name: format!("'{}' Pipeline", n.pm.anchor.name()),
                        depth,
                        wall: n.wall,
                    });
                    n.pm.timing_rows_into(depth + 1, out);
                }
            }
        }
    }

    fn statistics_into(&self, depth: usize, out: &mut String) {
        let indent = "  ".repeat(depth);
        for e in &self.elements {
            match e {
                Element::Pass(s) => {
                    out.push_str(&format!("{indent}{}\n", s.pass.display_name()));
                    let stats = s.pass.statistics();
                    let width = stats
                        .iter()
                        .map(|st| st.value.to_string().len())
                        .max()
                        .unwrap_or(0);
                    for st in stats {
                        out.push_str(&format!(
                            "{indent}  (S) {:>width$} {} - {}\n",
                            st.value, st.name, st.description
                        ));
                    }
                }
                Element::Nested(n) => {
                    out.push_str(&format!("{indent}'{}' Pipeline\n", n.pm.anchor.name()));
                    n.pm.statistics_into(depth + 1, out);
                }
            }
        }
    }

    fn collect_statistics(&self, out: &mut Vec<(String, Vec<Statistic>)>) {
        for e in &self.elements {
            match e {
                Element::Pass(s) => out.push((s.pass.name().to_string(), s.pass.statistics())),
                Element::Nested(n) => n.pm.collect_statistics(out),
            }
        }
    }
}

/// Looks a pass up, resolves its options and creates it; errors point into `text`.
fn create_pass(
    registry: &PassRegistry,
    text: &str,
    name: &str,
    offset: usize,
    options: Option<&(String, usize)>,
) -> Result<PassSlot, PipelineError> {
    let Some(info) = registry.lookup(name) else {
        let hint = registry
            .suggest(name)
            .map(|s| format!("; did you mean '{s}'?"))
            .unwrap_or_default();
        return Err(PipelineError::new(
            text,
            offset,
            format!("'{name}' does not refer to a registered pass{hint}"),
        ));
    };
    let parsed = match options {
        Some((opt_text, opt_offset)) => PassOptions::parse(opt_text)
            .and_then(|raw| ParsedOptions::resolve(&info.options, &raw, name))
            .map_err(|e| PipelineError::new(text, opt_offset + e.offset, e.message))?,
        None => ParsedOptions::defaults(&info.options),
    };
    let pass = (info.create)(&parsed).map_err(|msg| {
        PipelineError::new(text, offset, format!("cannot create pass '{name}': {msg}"))
    })?;
    Ok(PassSlot {
        pass,
        options: Some(parsed),
        wall: Duration::ZERO,
    })
}

/// The root pass manager: an [`OpPassManager`] plus verification, instrumentation and timing.
pub struct PassManager {
    root: OpPassManager,
    /// Verify the op a pass ran on after each pass (default true).
    pub verify_each: bool,
    instrumentations: Vec<Box<dyn PassInstrumentation>>,
}

impl PassManager {
    /// A pass manager for top-level ops named `anchor` (usually `builtin.module`).
    pub fn new(anchor: &str) -> Self {
        PassManager {
            root: OpPassManager::new(anchor),
            verify_each: true,
            instrumentations: Vec::new(),
        }
    }

    /// Parses a `--pass-pipeline` string: exactly one anchored pipeline, `builtin.module(...)`,
    /// which names the top-level op.
    pub fn parse(registry: &PassRegistry, text: &str) -> Result<PassManager, PipelineError> {
        let mut elements = parse_pipeline(text)?.into_iter();
        let first = elements.next();
        if let Some(extra) = elements.next() {
            return Err(PipelineError::new(
                text,
                extra.offset(),
                "expected a single top-level pipeline anchored on the top-level op, e.g. \
                 'builtin.module(...)'",
            ));
        }
        match first {
            Some(PipelineElement::Nested {
                anchor, elements, ..
            }) => {
                let mut pm = PassManager::new(&anchor);
                for e in elements {
                    pm.root.add_element_strict(registry, text, e)?;
                }
                Ok(pm)
            }
            other => Err(PipelineError::new(
                text,
                other.map_or(0, |e| e.offset()),
                "expected pass pipeline to be wrapped with the anchor operation type, e.g. \
                 'builtin.module(...)'",
            )),
        }
    }

    pub fn root(&self) -> &OpPassManager {
        &self.root
    }
    pub fn root_mut(&mut self) -> &mut OpPassManager {
        &mut self.root
    }
    pub fn add_pass(&mut self, pass: Box<dyn Pass>) {
        self.root.add_pass(pass);
    }
    pub fn nest(&mut self, anchor: &str) -> &mut OpPassManager {
        self.root.nest(anchor)
    }
    /// See [`OpPassManager::add_pass_by_name`].
    pub fn add_pass_by_name(
        &mut self,
        registry: &PassRegistry,
        text: &str,
    ) -> Result<(), PipelineError> {
        self.root.add_pass_by_name(registry, text)
    }
    pub fn is_empty(&self) -> bool {
        self.root.is_empty()
    }
    pub fn to_pipeline_string(&self) -> String {
        self.root.to_pipeline_string()
    }

    /// Adds an instrumentation; they are called in the order added.
    pub fn add_instrumentation(&mut self, instrumentation: Box<dyn PassInstrumentation>) {
        self.instrumentations.push(instrumentation);
    }

    /// Runs the pipeline on `op`; returns whether any pass changed the IR. On failure the
    /// diagnostics are in `ctx`.
    pub fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<bool, PassFailure> {
        if !self.root.anchor.matches(ctx, op) {
            let msg = format!(
                "can't run '{}' pass manager on '{}' op",
                self.root.anchor.name(),
                ctx.name(op)
            );
            ctx.emit_error(ctx.loc(op), msg);
            return Err(PassFailure);
        }
        let mut runner = Runner {
            verify_each: self.verify_each,
            instrumentations: &mut self.instrumentations,
        };
        runner.run_pm(&mut self.root, ctx, op, &mut SymbolTableCollection::new())
    }

    /// Timing rows of the pipeline (wall time accumulated over every run), for a [`TimingReport`].
    pub fn timing_rows(&self) -> Vec<TimingRow> {
        let mut out = Vec::new();
        self.root.timing_rows_into(0, &mut out);
        out
    }

    /// The timing report of the pipeline alone (see [`TimingReport`] to add "Parser"/"Output" rows).
    pub fn timing_report(&self) -> String {
        let mut r = TimingReport::new();
        r.extend(self.timing_rows());
        r.render()
    }

    /// Each pass's CLI name and statistics, in pipeline order.
    pub fn statistics(&self) -> Vec<(String, Vec<Statistic>)> {
        let mut out = Vec::new();
        self.root.collect_statistics(&mut out);
        out
    }

    /// The `--pass-statistics` report, in mlir-opt's format.
    pub fn statistics_report(&self) -> String {
        let rule =
            "===-------------------------------------------------------------------------===";
        let mut out =
            format!("{rule}\n                         ... Pass statistics report ...\n{rule}\n");
        self.root.statistics_into(0, &mut out);
        out
    }
}
