//! The one piece of linear algebra the fits need.

/// Inverse of a symmetric positive matrix by Gauss-Jordan elimination; rows and columns of
/// weights the data never touched are left out (their errors stay unknown).
pub fn invert(m: &[f64], p: usize) -> Option<Vec<f64>> {
    let live: Vec<usize> = (0..p).filter(|&a| m[a * p + a] > 1e-18).collect();
    let q = live.len();
    let mut a = vec![0.0; q * 2 * q];
    for (r, &i) in live.iter().enumerate() {
        for (c, &j) in live.iter().enumerate() {
            a[r * 2 * q + c] = m[i * p + j];
        }
        a[r * 2 * q + q + r] = 1.0;
    }
    for col in 0..q {
        let pivot = (col..q).max_by(|&x, &y| a[x * 2 * q + col].abs().total_cmp(&a[y * 2 * q + col].abs()))?;
        if a[pivot * 2 * q + col].abs() < 1e-30 {
            return None;
        }
        for k in 0..2 * q {
            a.swap(col * 2 * q + k, pivot * 2 * q + k);
        }
        let d = a[col * 2 * q + col];
        for k in 0..2 * q {
            a[col * 2 * q + k] /= d;
        }
        for r in 0..q {
            if r != col {
                let f = a[r * 2 * q + col];
                if f != 0.0 {
                    for k in 0..2 * q {
                        a[r * 2 * q + k] -= f * a[col * 2 * q + k];
                    }
                }
            }
        }
    }
    let mut out = vec![f64::INFINITY; p * p];
    for (r, &i) in live.iter().enumerate() {
        for (c, &j) in live.iter().enumerate() {
            out[i * p + j] = a[r * 2 * q + q + c];
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::invert;

    #[test]
    fn inverse_of_a_small_matrix() {
        let inv = invert(&[4.0, 2.0, 2.0, 3.0], 2).unwrap();
        let want = [0.375, -0.25, -0.25, 0.5];
        for (a, b) in inv.iter().zip(want) {
            assert!((a - b).abs() < 1e-12);
        }
    }
}
