//! Builds the pass manager from the command line and times qd-opt's phases.

use crate::cli::Options;
use qd_pass::{PassManager, PassRegistry, PrintIrInstrumentation, TimingReport};
use std::time::{Duration, Instant};

fn registry() -> PassRegistry {
    qd_passes::all_passes()
}

/// The names of the registered passes (each is also a command-line flag).
pub fn pass_names() -> Vec<&'static str> {
    registry().iter().map(|p| p.name).collect()
}

/// `--list-passes`.
pub fn list_passes() -> String {
    registry().list_passes()
}

/// The pass manager for `--pass-pipeline`, or for the `--pass`/`-p` list (run on the module).
pub fn build(opts: &Options) -> Result<PassManager, String> {
    let reg = registry();
    let mut pm = match &opts.pipeline {
        Some(text) => PassManager::parse(&reg, text).map_err(|e| e.to_string())?,
        None => {
            let mut pm = PassManager::new(qd_ir::builtin::MODULE);
            for p in &opts.passes {
                pm.add_pass_by_name(&reg, p).map_err(|e| e.to_string())?;
            }
            pm
        }
    };
    pm.verify_each = opts.verify_each;
    if opts.print_ir_after_all || !opts.print_ir_after.is_empty() {
        let mut print =
            PrintIrInstrumentation::new(opts.print_ir_after_all, opts.print_ir_after.clone());
        print.generic = opts.print_generic;
        print.debug_info = opts.debug_info;
        pm.add_instrumentation(Box::new(print));
    }
    Ok(pm)
}

/// Wall time of qd-opt's own phases (parsing, verification, output) around the pass pipeline.
pub struct Timing {
    enabled: bool,
    start: Instant,
    phases: Vec<(&'static str, Duration)>,
}

impl Timing {
    pub fn new(enabled: bool) -> Self {
        Timing {
            enabled,
            start: Instant::now(),
            phases: Vec::new(),
        }
    }

    /// Runs `f`, adding its wall time to the phase `name`.
    pub fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = f();
        let d = t.elapsed();
        match self.phases.iter_mut().find(|(n, _)| *n == name) {
            Some((_, acc)) => *acc += d,
            None => self.phases.push((name, d)),
        }
        r
    }

    /// The `--pass-timing` report: parser and verifier, the pipeline's rows, then output.
    pub fn report(&self, pm: &PassManager) -> Option<String> {
        if !self.enabled {
            return None;
        }
        let mut r = TimingReport::new();
        let phase = |n: &str| self.phases.iter().find(|(p, _)| *p == n).map(|(_, d)| *d);
        for name in ["Parser", "Verifier"] {
            if let Some(d) = phase(name) {
                r.push(name, d);
            }
        }
        r.extend(pm.timing_rows());
        if let Some(d) = phase("Output") {
            r.push("Output", d);
        }
        r.set_total(self.start.elapsed());
        Some(r.render())
    }
}
