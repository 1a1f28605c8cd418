//! NumPy broadcasting: shapes are aligned at their last axis; two extents agree when they are
//! equal or one of them is 1 (a missing leading axis counts as 1).

/// The broadcast shape of `a` and `b`, or a message naming the first axis that disagrees.
pub fn broadcast(a: &[i64], b: &[i64]) -> Result<Vec<i64>, String> {
    let rank = a.len().max(b.len());
    let mut out = vec![1; rank];
    for (i, o) in out.iter_mut().enumerate() {
        let da = extent(a, rank, i);
        let db = extent(b, rank, i);
        *o = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            (x, y) => {
                return Err(format!(
                    "shapes {} and {} do not broadcast (axis {i}: {x} vs {y})",
                    show(a),
                    show(b)
                ))
            }
        };
    }
    Ok(out)
}

/// The broadcast shape of every shape in `shapes`.
pub fn broadcast_all<'a>(shapes: impl IntoIterator<Item = &'a [i64]>) -> Result<Vec<i64>, String> {
    shapes
        .into_iter()
        .try_fold(Vec::new(), |acc, s| broadcast(&acc, s))
}

fn extent(s: &[i64], rank: usize, i: usize) -> i64 {
    let pad = rank - s.len();
    if i < pad {
        1
    } else {
        s[i - pad]
    }
}

/// `4x1x8`, or `scalar` for rank 0.
pub fn show(s: &[i64]) -> String {
    if s.is_empty() {
        return "scalar".into();
    }
    s.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// Row-major strides of `shape`.
pub fn strides(shape: &[i64]) -> Vec<i64> {
    let mut st = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        st[i] = st[i + 1] * shape[i + 1];
    }
    st
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_rules() {
        assert_eq!(broadcast(&[4, 1], &[1, 8]), Ok(vec![4, 8]));
        assert_eq!(broadcast(&[3], &[2, 3]), Ok(vec![2, 3]));
        assert_eq!(broadcast(&[], &[2, 3]), Ok(vec![2, 3]));
        assert_eq!(broadcast(&[5, 1, 7], &[6, 1]), Ok(vec![5, 6, 7]));
        let e = broadcast(&[4, 3], &[5]).unwrap_err();
        assert_eq!(e, "shapes 4x3 and 5 do not broadcast (axis 1: 3 vs 5)");
        assert_eq!(
            broadcast_all([&[2, 1][..], &[1, 3][..], &[3][..]]),
            Ok(vec![2, 3])
        );
        assert_eq!(strides(&[2, 3, 4]), vec![12, 4, 1]);
        assert_eq!(strides(&[]), Vec::<i64>::new());
    }
}
