//! The host C library's functions that Rust's std does not forward to it (std computes asinh,
//! acosh and atanh itself, and has no erf): mlir-opt folds math ops with the host's libm, so
//! folding with these gives the same last bits, where a port (the `libm` crate, from musl) may
//! differ by an ulp.

mod c {
    extern "C" {
        pub fn erf(x: f64) -> f64;
        pub fn erff(x: f32) -> f32;
        pub fn erfc(x: f64) -> f64;
        pub fn erfcf(x: f32) -> f32;
        pub fn asinh(x: f64) -> f64;
        pub fn asinhf(x: f32) -> f32;
        pub fn acosh(x: f64) -> f64;
        pub fn acoshf(x: f32) -> f32;
        pub fn atanh(x: f64) -> f64;
        pub fn atanhf(x: f32) -> f32;
    }
}

macro_rules! host_fn {
    ($name:ident, $t:ty) => {
        /// The C library's function of that name.
        pub fn $name(x: $t) -> $t {
            // SAFETY: a C99 <math.h> function of one value, with no other effect than errno.
            unsafe { c::$name(x) }
        }
    };
}

host_fn!(erf, f64);
host_fn!(erff, f32);
host_fn!(erfc, f64);
host_fn!(erfcf, f32);
host_fn!(asinh, f64);
host_fn!(asinhf, f32);
host_fn!(acosh, f64);
host_fn!(acoshf, f32);
host_fn!(atanh, f64);
host_fn!(atanhf, f32);
