//! Memory-bandwidth yardsticks shared by the benches that report "% of memcpy" (fusion,
//! streaming): a parallel copy, plain (glibc's memcpy) or with non-temporal stores, and timing a
//! run as the second of two in a row.

use std::time::{Duration, Instant};

/// The second of two runs in a row: a run pays for the dirty lines the one before it left in the
/// cache, so each is timed after one of its own (its steady state), not after whatever ran before.
pub fn second_of_two(f: &mut dyn FnMut()) -> Duration {
    f();
    let t = Instant::now();
    f();
    t.elapsed()
}

/// A parallel copy of `n` f32 with `threads` threads: the machine's memcpy, the yardstick of the
/// table's last column.
pub struct Memcpy {
    src: Vec<f32>,
    dst: Vec<f32>,
    threads: usize,
    /// Seconds of every timed copy in this run.
    pub samples: Vec<f64>,
}

impl Memcpy {
    pub fn new(n: usize, threads: usize) -> Memcpy {
        Memcpy {
            src: (0..n).map(|i| i as f32).collect(),
            dst: vec![0f32; n],
            threads,
            samples: Vec::new(),
        }
    }

    pub fn bytes(&self) -> f64 {
        (2 * self.src.len() * 4) as f64
    }

    /// One copy, timed from the first thread's start to the last one's end (creating the
    /// threads is not the copy's cost); `streaming` copies with non-temporal stores.
    pub fn copy(&mut self, streaming: bool) -> Duration {
        let chunk = self.src.len().div_ceil(self.threads);
        let go = std::sync::Barrier::new(self.threads);
        let spans: Vec<(Instant, Instant)> = std::thread::scope(|s| {
            let hs: Vec<_> = self
                .dst
                .chunks_mut(chunk)
                .zip(self.src.chunks(chunk))
                .map(|(d, c)| {
                    let go = &go;
                    s.spawn(move || {
                        go.wait();
                        let t = Instant::now();
                        if streaming {
                            copy_streaming(d, c);
                        } else {
                            d.copy_from_slice(c);
                        }
                        (t, Instant::now())
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        std::hint::black_box(&self.dst);
        let start = spans.iter().map(|s| s.0).min().unwrap();
        let end = spans.iter().map(|s| s.1).max().unwrap();
        end - start
    }

    /// Bytes per second of the faster of glibc's memcpy and a non-temporal copy, timed now
    /// (each the second of two). glibc streams only copies larger than its non-temporal
    /// threshold (3/4 of the shared cache it detects, which a VM may misreport), and a kernel
    /// with non-temporal stores must not be set against a copy that reads every line it writes.
    pub fn bandwidth(&mut self) -> f64 {
        let plain = second_of_two(&mut || {
            self.copy(false);
        });
        let streaming = second_of_two(&mut || {
            self.copy(true);
        });
        let t = plain.min(streaming).as_secs_f64();
        self.samples.push(t);
        self.bytes() / t
    }

    /// The median bandwidth over every copy timed in this run.
    pub fn median_bandwidth(&self) -> f64 {
        let mut v = self.samples.clone();
        v.sort_by(f64::total_cmp);
        self.bytes() / v[v.len() / 2]
    }
}

/// Copies `s` to `d` with non-temporal stores (32-byte AVX stores from the first aligned
/// element; the ends and machines without AVX copy plainly).
fn copy_streaming(d: &mut [f32], s: &[f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: AVX is available (checked above).
        unsafe { copy_streaming_avx(d, s) };
        return;
    }
    d.copy_from_slice(s);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn copy_streaming_avx(d: &mut [f32], s: &[f32]) {
    use std::arch::x86_64::{_mm256_loadu_ps, _mm256_stream_ps, _mm_sfence};
    let n = d.len().min(s.len());
    let head = d.as_ptr().align_offset(32).min(n);
    let body = (n - head) / 8 * 8;
    d[..head].copy_from_slice(&s[..head]);
    for i in (head..head + body).step_by(8) {
        // SAFETY: i + 8 <= n for both slices, and d + i is 32-byte aligned (head aligns it,
        // steps of 8 f32 keep it), as _mm256_stream_ps requires.
        unsafe { _mm256_stream_ps(d.as_mut_ptr().add(i), _mm256_loadu_ps(s.as_ptr().add(i))) };
    }
    d[head + body..n].copy_from_slice(&s[head + body..n]);
    // Non-temporal stores are weakly ordered: make them visible before the thread ends.
    _mm_sfence();
}
