//! Rendering diagnostics as MLIR does: `file:line:col: error: message`, the source line and a caret
//! under the column; notes follow in the same form.

use super::naming::Names;
use super::printer::Printer;
use super::PrintOptions;
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::entity::Location;

struct Buffer {
    name: String,
    text: String,
    line_starts: Vec<usize>,
}

/// The source buffers that diagnostics point into.
#[derive(Default)]
pub struct SourceMgr {
    buffers: Vec<Buffer>,
}

impl SourceMgr {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) the buffer named `name`.
    pub fn add_buffer(&mut self, name: &str, text: &str) {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let buf = Buffer {
            name: name.to_string(),
            text: text.to_string(),
            line_starts,
        };
        match self.buffers.iter_mut().find(|b| b.name == name) {
            Some(b) => *b = buf,
            None => self.buffers.push(buf),
        }
    }

    /// The diagnostic and its notes, each as a header line plus, for file locations in a known
    /// buffer, the source line and a caret line.
    pub fn render(&self, ctx: &Context, diag: &Diagnostic) -> String {
        let mut out = String::new();
        self.render_one(ctx, diag, &mut out, true);
        // As MLIR, a note at the diagnostic's own location does not repeat the source line.
        for note in &diag.notes {
            self.render_one(ctx, note, &mut out, note.loc != diag.loc);
        }
        out
    }

    fn render_one(&self, ctx: &Context, d: &Diagnostic, out: &mut String, source_line: bool) {
        let sev = d.severity.as_str();
        let Some((file, line, col)) = ctx.file_line_col(d.loc) else {
            out.push_str(&loc_text(ctx, d.loc));
            out.push_str(&format!(": {sev}: {}\n", d.message));
            return;
        };
        out.push_str(&format!("{file}:{line}:{col}: {sev}: {}\n", d.message));
        if !source_line {
            return;
        }
        let Some(buf) = self.buffers.iter().find(|b| b.name == file) else {
            return;
        };
        let Some(&start) = (line as usize)
            .checked_sub(1)
            .and_then(|l| buf.line_starts.get(l))
        else {
            return;
        };
        let rest = &buf.text[start..];
        let text = rest.split('\n').next().unwrap_or("").trim_end_matches('\r');
        out.push_str(text);
        out.push('\n');
        // Align the caret with the column (a byte offset), copying tabs so they line up.
        let upto = (col as usize).saturating_sub(1);
        for (i, c) in text.char_indices() {
            if i >= upto {
                break;
            }
            out.push(if c == '\t' { '\t' } else { ' ' });
        }
        if upto > text.len() {
            out.extend(std::iter::repeat_n(' ', upto - text.len()));
        }
        out.push_str("^\n");
    }
}

/// A location in MLIR syntax, `loc(...)`.
fn loc_text(ctx: &Context, loc: Location) -> String {
    let mut p = Printer::new(ctx, Names::empty(), PrintOptions::default());
    p.write_loc(loc);
    p.out
}
