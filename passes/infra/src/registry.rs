//! The pass registry: every pass the tools can name, with its options and a constructor.

use crate::options::{OptionDecl, ParsedOptions};
use crate::pass::Pass;
use indexmap::IndexMap;

/// Builds a pass from its resolved options; `Err` is a message for the user (e.g. an option
/// value out of range).
pub type PassCreateFn = fn(&ParsedOptions) -> Result<Box<dyn Pass>, String>;

/// What a pass registers: its CLI name, description, options and constructor.
pub struct PassInfo {
    pub name: &'static str,
    pub description: &'static str,
    pub options: Vec<OptionDecl>,
    pub create: PassCreateFn,
}

impl PassInfo {
    pub fn new(name: &'static str, description: &'static str, create: PassCreateFn) -> Self {
        PassInfo {
            name,
            description,
            options: Vec::new(),
            create,
        }
    }
    pub fn option(mut self, decl: OptionDecl) -> Self {
        self.options.push(decl);
        self
    }
    /// Creates the pass with every option at its default.
    pub fn create_default(&self) -> Result<Box<dyn Pass>, String> {
        (self.create)(&ParsedOptions::defaults(&self.options))
    }
}

/// Passes by name.
#[derive(Default)]
pub struct PassRegistry {
    passes: IndexMap<&'static str, PassInfo>,
}

impl PassRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a pass. A second registration under the same name is ignored (the first wins),
    /// as registering a dialect twice is a no-op, so that registration functions compose.
    pub fn register(&mut self, info: PassInfo) {
        self.passes.entry(info.name).or_insert(info);
    }

    pub fn lookup(&self, name: &str) -> Option<&PassInfo> {
        self.passes.get(name)
    }

    pub fn len(&self) -> usize {
        self.passes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.passes.is_empty()
    }

    /// Every registered pass, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = &PassInfo> {
        let mut v: Vec<&PassInfo> = self.passes.values().collect();
        v.sort_by_key(|p| p.name);
        v.into_iter()
    }

    /// The `--list-passes` text: `  name - description`, then one line per option.
    pub fn list_passes(&self) -> String {
        let mut out = String::new();
        for p in self.iter() {
            out.push_str(&format!("  {} - {}\n", p.name, p.description));
            for o in &p.options {
                out.push_str(&format!(
                    "    --{}={} - {} (default: {})\n",
                    o.name,
                    o.kind().placeholder(),
                    o.description,
                    o.default
                ));
            }
        }
        out
    }

    /// The registered name closest to `name` (for "did you mean" hints), if any is close.
    pub fn suggest(&self, name: &str) -> Option<&'static str> {
        let (best, dist) = self
            .passes
            .keys()
            .map(|k| (*k, edit_distance(k, name)))
            .min_by_key(|(k, d)| (*d, *k))?;
        (dist <= (name.len() / 3).max(1)).then_some(best)
    }
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::{PassOutcome, PassResult};
    use qd_ir::{Context, OpId};

    struct Nop;
    impl Pass for Nop {
        fn name(&self) -> &'static str {
            "nop"
        }
        fn description(&self) -> &'static str {
            "does nothing"
        }
        fn run(&mut self, _: &mut Context, _: OpId) -> PassResult {
            Ok(PassOutcome::UNCHANGED)
        }
    }

    fn nop(_: &ParsedOptions) -> Result<Box<dyn Pass>, String> {
        Ok(Box::new(Nop))
    }

    #[test]
    fn listing_is_sorted_with_options() {
        let mut r = PassRegistry::new();
        r.register(PassInfo::new("zeta", "last", nop));
        r.register(
            PassInfo::new("alpha", "first", nop)
                .option(OptionDecl::int("max-iterations", 10, "how many"))
                .option(OptionDecl::string_list("skip", "what to skip")),
        );
        r.register(PassInfo::new("zeta", "duplicate is ignored", nop));
        assert_eq!(r.len(), 2);
        let names: Vec<_> = r.iter().map(|p| p.name).collect();
        assert_eq!(names, ["alpha", "zeta"]);
        assert_eq!(
            r.list_passes(),
            "  alpha - first\n    --max-iterations=<int> - how many (default: 10)\n    \
             --skip=<string,...> - what to skip (default: {})\n  zeta - last\n"
        );
        assert_eq!(r.lookup("zeta").unwrap().description, "last");
        assert!(r.lookup("nope").is_none());
        assert!(r.lookup("alpha").unwrap().create_default().is_ok());
    }

    #[test]
    fn suggestions() {
        let mut r = PassRegistry::new();
        r.register(PassInfo::new("canonicalize", "", nop));
        r.register(PassInfo::new("cse", "", nop));
        assert_eq!(r.suggest("canonicalise"), Some("canonicalize"));
        assert_eq!(r.suggest("csee"), Some("cse"));
        assert_eq!(r.suggest("inline"), None);
    }
}
