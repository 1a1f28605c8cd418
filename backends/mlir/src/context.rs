//! The melior context every exporter, importer and the mlir-cpu device work in: every upstream
//! dialect registered and loaded, the LLVM IR translations registered (for the JIT), and MLIR's
//! diagnostics collected as text instead of printed to stderr.

use melior::dialect::DialectRegistry;
use melior::utility::{register_all_dialects, register_all_llvm_translations, register_all_passes};
use melior::Context;
use std::sync::{Arc, Mutex};

/// A context with every upstream dialect and translation, and the messages MLIR reported in it.
pub struct MlirContext {
    pub cx: Context,
    messages: Arc<Mutex<Vec<String>>>,
}

impl MlirContext {
    pub fn new() -> Self {
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        register_all_passes();
        // MLIR's own threads would only add startup time for the small modules of one kernel.
        let cx = Context::new_with_registry(&registry, false);
        cx.load_all_available_dialects();
        register_all_llvm_translations(&cx);
        let messages: Arc<Mutex<Vec<String>>> = Arc::default();
        let sink = messages.clone();
        cx.attach_diagnostic_handler(move |d| {
            let loc = d.location().to_string();
            if let Ok(mut m) = sink.lock() {
                m.push(format!("{loc}: {d}"));
            }
            true
        });
        MlirContext { cx, messages }
    }

    /// The messages MLIR reported since the last call, one per line.
    pub fn take_messages(&self) -> String {
        let mut m = self.messages.lock().unwrap_or_else(|e| e.into_inner());
        let s = m.join("\n");
        m.clear();
        s
    }
}

impl Default for MlirContext {
    fn default() -> Self {
        Self::new()
    }
}
