//! The status record of a launch (`%status`, i64 words), shared by the exported functions and
//! the mlir-cpu device that reads it: the first failing thread's error (its thread, the error
//! site's number, the site's values) and the first overflowing thread's stack.

/// No thread (the words' initial value).
pub const NONE: i64 = -1;
/// The failing thread, or [`NONE`].
pub const ERR_THREAD: usize = 0;
/// The failing site's number (`qd_runtime::sites::Sites`).
pub const ERR_SITE: usize = 1;
/// The site's values, from here.
pub const ERR_VALUES: usize = 2;
/// The most values a site reports.
pub const MAX_VALUES: usize = 16;
/// The first overflowing thread, or [`NONE`], and its stack id.
pub const OVF_THREAD: usize = ERR_VALUES + MAX_VALUES;
pub const OVF_STACK: usize = OVF_THREAD + 1;
/// The record's length.
pub const WORDS: usize = OVF_STACK + 1;

/// A fresh record.
pub fn fresh() -> Vec<i64> {
    let mut v = vec![0; WORDS];
    v[ERR_THREAD] = NONE;
    v[OVF_THREAD] = NONE;
    v
}
