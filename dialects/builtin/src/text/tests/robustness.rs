//! Bad input never panics: truncations and mutations of valid inputs, and a large module.

use super::*;

const SAMPLES: &[&str] = &[
    include_str!("sample_generic.mlir"),
    r#"module @m attributes {a = [1, 2.5 : f32, "s\n", @x::@y, array<i32: 1>, #test.mode<none>]} {
  %c = "test.generic_only"() : () -> i32
  test.loop %i = %c : i32 {
    %t = test.add %i, %c : i32 loc("a.py":1:2)
  }
  test.isolated {
    test.br ^bb1
  ^bb1:
    "x.y"() : () -> (!test.box<4x?xf32>, !u.v<(i32) -> i32>)
  }
}
#l = loc(callsite("a":1:2 at fused<"m">["b":3:4]))
"#,
];

/// Parses in both contexts, then prints whatever parsed; only checks that nothing panics.
fn parse_any(src: &str) {
    for mut c in [ctx(), strict_ctx()] {
        if let Some(op) = parse_source(&mut c, src, FILE) {
            let _ = print_op(&c, op, &custom());
            let _ = print_op(&c, op, &generic());
        } else {
            assert_eq!(
                c.diagnostics().len(),
                1,
                "one diagnostic per failed parse: {src:?}"
            );
        }
    }
}

#[test]
fn samples_round_trip() {
    for s in SAMPLES {
        round_trip(s);
    }
}

#[test]
fn every_truncation_is_handled() {
    for s in SAMPLES {
        for (i, _) in s.char_indices() {
            parse_any(&s[..i]);
        }
    }
}

#[test]
fn random_mutations_are_handled() {
    // A small deterministic generator (xorshift), so failures reproduce.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    const PIECES: &[&str] = &[
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "<",
        ">",
        ",",
        ":",
        "=",
        "->",
        "%",
        "%0",
        "#",
        "^bb0",
        "@",
        "\"",
        "\\",
        "!",
        "0x",
        "-",
        "1.5",
        "99999999999999999999999",
        "i1",
        "loc(",
        "x",
        " ",
        "\n",
        "é",
        "...",
        "//",
        "array<",
        "#test.mode<",
        "!test.box<",
        "?x",
    ];
    for s in SAMPLES {
        let bytes: Vec<char> = s.chars().collect();
        for _ in 0..1500 {
            let mut v = bytes.clone();
            for _ in 0..(1 + next() % 4) {
                let pos = (next() as usize) % (v.len() + 1);
                match next() % 3 {
                    0 if pos < v.len() => {
                        v.remove(pos);
                    }
                    1 if pos < v.len() => {
                        let other = (next() as usize) % v.len();
                        v.swap(pos, other);
                    }
                    _ => {
                        let piece = PIECES[(next() as usize) % PIECES.len()];
                        for (k, ch) in piece.chars().enumerate() {
                            v.insert(pos + k, ch);
                        }
                    }
                }
            }
            let text: String = v.into_iter().collect();
            parse_any(&text);
        }
    }
}

#[test]
fn large_generic_module() {
    let n = 20_000;
    let mut src = String::with_capacity(n * 64);
    src.push_str("\"t.func\"() ({\n^bb0(%a: i32, %b: f32):\n");
    for i in 0..n {
        let prev = if i == 0 {
            "%a".to_string()
        } else {
            format!("%v{}", i - 1)
        };
        src.push_str(&format!(
            "  %v{i} = \"t.op{}\"({prev}, %a) <{{k = {i} : i64}}> {{tag = \"x\"}} : (i32, i32) -> i32\n",
            i % 7
        ));
    }
    src.push_str("  \"t.ret\"(%b) : (f32) -> ()\n}) : () -> ()\n");
    let mut c = ctx();
    let m = parse(&mut c, &src);
    let out = print_op(&c, m, &generic());
    assert_eq!(out.lines().count(), n + 6);
    let mut c2 = ctx();
    let m2 = parse(&mut c2, &out);
    assert_eq!(print_op(&c2, m2, &generic()), out);
}

/// Timing of parse and print on a 100k-op module (run with `--release --ignored --nocapture`).
#[test]
#[ignore]
fn bench_100k_ops() {
    let n = 100_000;
    let mut src = String::with_capacity(n * 80);
    src.push_str("\"t.func\"() ({\n^bb0(%a: i32):\n");
    for i in 0..n {
        if i % 3 == 0 {
            src.push_str(&format!(
                "  %v{i} = \"arith.constant\"() <{{value = {} : i32}}> : () -> i32\n",
                i % 10
            ));
        } else {
            src.push_str(&format!(
                "  %v{i} = \"arith.addi\"(%v{}, %a) <{{overflowFlags = #arith.overflow<none>}}> {{k = {i} : i64}} : (i32, i32) -> i32\n",
                i - 1
            ));
        }
    }
    src.push_str("}) : () -> ()\n");
    let mut c = ctx();
    let t = std::time::Instant::now();
    let m = parse(&mut c, &src);
    let parsed = t.elapsed();
    let custom_out = print_op(&c, m, &custom());
    let printed = t.elapsed() - parsed;
    eprintln!(
        "100k ops: parse {parsed:?}, print {printed:?} ({} bytes)",
        custom_out.len()
    );
}
