//! `#arith.fastmath<...>` and `#arith.overflow<...>`: bit sets, typed dialect attributes
//! ([`ArithFlags`]) parsed once when the IR is read and printed in upstream's canonical order.

use qd_ir::{Attribute, Context, DialectAttr};

/// The two flag-set attributes of arith, with their upstream case names in bit order.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FlagKind {
    FastMath,
    Overflow,
}

const FASTMATH_NAMES: [&str; 7] = ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"];
const OVERFLOW_NAMES: [&str; 2] = ["nsw", "nuw"];

impl FlagKind {
    /// The attribute mnemonic and the custom-syntax keyword (`fastmath`, `overflow`).
    pub fn mnemonic(self) -> &'static str {
        match self {
            FlagKind::FastMath => "fastmath",
            FlagKind::Overflow => "overflow",
        }
    }
    /// The property name ops store the flags under.
    pub fn prop_name(self) -> &'static str {
        match self {
            FlagKind::FastMath => "fastmath",
            FlagKind::Overflow => "overflowFlags",
        }
    }
    fn names(self) -> &'static [&'static str] {
        match self {
            FlagKind::FastMath => &FASTMATH_NAMES,
            FlagKind::Overflow => &OVERFLOW_NAMES,
        }
    }
    fn all(self) -> u8 {
        (1u8 << self.names().len()) - 1
    }
    /// The bits of one case name (`none` is 0, `fast` is every fast-math bit).
    pub fn case_bits(self, name: &str) -> Option<u8> {
        if name == "none" {
            return Some(0);
        }
        if self == FlagKind::FastMath && name == "fast" {
            return Some(self.all());
        }
        let i = self.names().iter().position(|n| *n == name)?;
        Some(1 << i)
    }
    /// Upstream's "expected ... to be one of" message for an unknown case name.
    pub fn bad_case_message(self) -> String {
        let (ty, extra) = match self {
            FlagKind::FastMath => ("FastMathFlags", ", fast"),
            FlagKind::Overflow => ("IntegerOverflowFlags", ""),
        };
        format!(
            "expected ::mlir::arith::{ty} to be one of: none, {}{extra}",
            self.names().join(", ")
        )
    }
    /// Parses a list of case names into bits.
    pub fn parse_cases<'a>(self, cases: impl IntoIterator<Item = &'a str>) -> Result<u8, String> {
        let mut bits = 0;
        for c in cases {
            bits |= self.case_bits(c).ok_or_else(|| self.bad_case_message())?;
        }
        Ok(bits)
    }
    /// The canonical case list: `none`, `fast`, or the set names in bit order.
    pub fn cases_text(self, bits: u8) -> String {
        if bits == 0 {
            return "none".to_string();
        }
        if self == FlagKind::FastMath && bits == self.all() {
            return "fast".to_string();
        }
        let sep = match self {
            FlagKind::FastMath => ",",
            FlagKind::Overflow => ", ",
        };
        let set: Vec<&str> = self
            .names()
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, n)| *n)
            .collect();
        set.join(sep)
    }
    /// The interned attribute `#arith.<mnemonic><cases>`.
    pub fn attr(self, ctx: &mut Context, bits: u8) -> Attribute {
        ctx.typed_attr(ArithFlags {
            kind: self,
            bits: bits & self.all(),
        })
    }
    /// The bits of an attribute of this kind, or None when it is something else.
    pub fn bits_of(self, ctx: &Context, attr: Attribute) -> Option<u8> {
        ctx.dialect_attr::<ArithFlags>(attr)
            .filter(|f| f.kind == self)
            .map(|f| f.bits)
    }
}

/// The value of a `#arith.fastmath<...>` or `#arith.overflow<...>` attribute.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArithFlags {
    pub kind: FlagKind,
    pub bits: u8,
}

impl DialectAttr for ArithFlags {
    fn dialect(&self) -> &'static str {
        "arith"
    }
    fn print(&self, out: &mut String) {
        out.push_str(self.kind.mnemonic());
        out.push('<');
        out.push_str(&self.kind.cases_text(self.bits));
        out.push('>');
    }
}

/// Splits `mnemonic<a, b>` into the mnemonic and its trimmed case names.
fn split_body(body: &str) -> Option<(&str, Vec<&str>)> {
    let (mnemonic, rest) = body.split_once('<')?;
    let inner = rest.trim_end().strip_suffix('>')?;
    let cases = inner.split(',').map(str::trim).collect();
    Some((mnemonic.trim(), cases))
}

/// Fast-math flag bits (upstream's `arith::FastMathFlags`).
pub mod fastmath {
    pub const NONE: u8 = 0;
    pub const REASSOC: u8 = 1;
    pub const NNAN: u8 = 2;
    pub const NINF: u8 = 4;
    pub const NSZ: u8 = 8;
    pub const ARCP: u8 = 16;
    pub const CONTRACT: u8 = 32;
    pub const AFN: u8 = 64;
    pub const FAST: u8 = 127;
}

/// Integer overflow flag bits (upstream's `arith::IntegerOverflowFlags`).
pub mod overflow {
    pub const NONE: u8 = 0;
    pub const NSW: u8 = 1;
    pub const NUW: u8 = 2;
}

/// Parses the body of an `#arith.` attribute (the dialect's `parse_attr` hook).
pub fn parse_attr(_ctx: &Context, body: &str) -> Result<Box<dyn DialectAttr>, String> {
    let mnemonic = body
        .split(['<', ' '])
        .next()
        .unwrap_or_default()
        .trim()
        .to_string();
    let kind = match mnemonic.as_str() {
        "fastmath" => FlagKind::FastMath,
        "overflow" => FlagKind::Overflow,
        _ => return Err(format!("unknown attribute `{mnemonic}` in dialect `arith`")),
    };
    let (_, cases) = split_body(body)
        .ok_or_else(|| format!("expected `<` and `>` around the cases of `{mnemonic}`"))?;
    let bits = kind.parse_cases(cases)?;
    Ok(Box::new(ArithFlags { kind, bits }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_text() {
        let fm = FlagKind::FastMath;
        assert_eq!(fm.cases_text(0), "none");
        assert_eq!(fm.cases_text(fastmath::FAST), "fast");
        assert_eq!(fm.cases_text(fastmath::NINF | fastmath::NNAN), "nnan,ninf");
        let ov = FlagKind::Overflow;
        assert_eq!(ov.cases_text(overflow::NSW | overflow::NUW), "nsw, nuw");
        assert_eq!(ov.parse_cases(["nuw", "nsw"]), Ok(3));
        assert_eq!(fm.parse_cases(["none", "nnan"]), Ok(fastmath::NNAN));
        assert!(ov.parse_cases(["fast"]).is_err());
    }

    #[test]
    fn attrs_round_trip() {
        let mut ctx = Context::new();
        let a = FlagKind::FastMath.attr(&mut ctx, fastmath::NNAN | fastmath::CONTRACT);
        assert_eq!(
            ctx.dialect_attr::<ArithFlags>(a),
            Some(&ArithFlags {
                kind: FlagKind::FastMath,
                bits: 34
            })
        );
        assert_eq!(
            qd_ir::text::attr_to_string(&ctx, a),
            "#arith.fastmath<nnan,contract>"
        );
        assert_eq!(FlagKind::FastMath.bits_of(&ctx, a), Some(34));
        assert_eq!(FlagKind::Overflow.bits_of(&ctx, a), None);
        // Equal flags are one attribute.
        assert_eq!(FlagKind::FastMath.attr(&mut ctx, 34), a);
        let i = ctx.i32_type();
        let c = ctx.integer_attr(1, i);
        assert_eq!(FlagKind::Overflow.bits_of(&ctx, c), None);
    }

    fn parsed(body: &str) -> Result<ArithFlags, String> {
        let ctx = Context::new();
        parse_attr(&ctx, body).map(|v| {
            *v.as_any()
                .downcast_ref::<ArithFlags>()
                .expect("an ArithFlags")
        })
    }

    #[test]
    fn parsing() {
        assert_eq!(parsed("fastmath<fast>").map(|f| f.bits), Ok(fastmath::FAST));
        // Other spacing or order reads the same bits.
        assert_eq!(parsed("overflow<nuw,nsw>").map(|f| f.bits), Ok(3));
        assert_eq!(
            parsed("foo<none>"),
            Err("unknown attribute `foo` in dialect `arith`".into())
        );
        assert_eq!(
            parsed("overflow<bogus>"),
            Err("expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw".into())
        );
        assert!(parsed("fastmath").is_err());
    }
}
