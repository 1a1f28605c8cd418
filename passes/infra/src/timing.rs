//! The `--pass-timing` report, in mlir-opt's `--mlir-timing` format. Rows come from the pass
//! manager (one per pass, one per nested pipeline, children indented) and from the tool
//! (e.g. "Parser" and "Output"); "Rest" is the part of the total no row accounts for.

use std::time::Duration;

/// One row: a name, its nesting depth (0 = top level) and its accumulated wall time.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TimingRow {
    pub name: String,
    pub depth: usize,
    pub wall: Duration,
}

/// Collects rows and renders the report.
#[derive(Clone, Debug, Default)]
pub struct TimingReport {
    rows: Vec<TimingRow>,
    total: Option<Duration>,
}

const RULE: &str =
    "===-------------------------------------------------------------------------===";

impl TimingReport {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a top-level row (e.g. "Parser").
    pub fn push(&mut self, name: impl Into<String>, wall: Duration) {
        self.rows.push(TimingRow {
            name: name.into(),
            depth: 0,
            wall,
        });
    }

    /// Appends rows, e.g. `PassManager::timing_rows()`.
    pub fn extend(&mut self, rows: impl IntoIterator<Item = TimingRow>) {
        self.rows.extend(rows);
    }

    /// The whole run's wall time. Without it, the total is the sum of the top-level rows.
    pub fn set_total(&mut self, total: Duration) {
        self.total = Some(total);
    }

    pub fn rows(&self) -> &[TimingRow] {
        &self.rows
    }

    pub fn render(&self) -> String {
        let top: Duration = self
            .rows
            .iter()
            .filter(|r| r.depth == 0)
            .map(|r| r.wall)
            .sum();
        let total = self.total.unwrap_or(top).max(top);
        let secs = total.as_secs_f64();
        let pct = |d: Duration| {
            if secs > 0.0 {
                d.as_secs_f64() / secs * 100.0
            } else {
                0.0
            }
        };
        let mut out = String::new();
        out.push_str(RULE);
        out.push('\n');
        out.push_str("                         ... Execution time report ...\n");
        out.push_str(RULE);
        out.push('\n');
        out.push_str(&format!("  Total Execution Time: {secs:.4} seconds\n\n"));
        out.push_str("  ----Wall Time----  ----Name----\n");
        let row = |d: Duration, p: f64, depth: usize, name: &str| {
            format!(
                "  {:>8.4} ({:>5.1}%)  {}{}\n",
                d.as_secs_f64(),
                p,
                "  ".repeat(depth),
                name
            )
        };
        for r in &self.rows {
            out.push_str(&row(r.wall, pct(r.wall), r.depth, &r.name));
        }
        if self.total.is_some() {
            let rest = total.saturating_sub(top);
            out.push_str(&row(rest, pct(rest), 0, "Rest"));
        }
        out.push_str(&row(total, 100.0, 0, "Total"));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_format_matches_mlir() {
        let mut r = TimingReport::new();
        r.push("Parser", Duration::from_micros(2200));
        r.extend([
            TimingRow {
                name: "'qd.kernel' Pipeline".into(),
                depth: 0,
                wall: Duration::from_micros(200),
            },
            TimingRow {
                name: "CSE".into(),
                depth: 1,
                wall: Duration::from_micros(100),
            },
        ]);
        r.push("Output", Duration::from_micros(100));
        r.set_total(Duration::from_micros(4000));
        assert_eq!(
            r.render(),
            "\
===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0040 seconds

  ----Wall Time----  ----Name----
    0.0022 ( 55.0%)  Parser
    0.0002 (  5.0%)  'qd.kernel' Pipeline
    0.0001 (  2.5%)    CSE
    0.0001 (  2.5%)  Output
    0.0015 ( 37.5%)  Rest
    0.0040 (100.0%)  Total
"
        );
    }

    #[test]
    fn without_total_sums_top_rows() {
        let mut r = TimingReport::new();
        r.push("A", Duration::from_millis(1));
        r.push("B", Duration::from_millis(3));
        let s = r.render();
        assert!(s.contains("  Total Execution Time: 0.0040 seconds\n"));
        assert!(s.contains("    0.0010 ( 25.0%)  A\n"));
        assert!(!s.contains("Rest"));
        assert!(s.ends_with("    0.0040 (100.0%)  Total\n"));
    }

    #[test]
    fn empty_report_does_not_divide_by_zero() {
        let s = TimingReport::new().render();
        assert!(s.ends_with("    0.0000 (100.0%)  Total\n"));
    }
}
