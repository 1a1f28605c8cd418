//! Reverse-mode automatic differentiation of qd kernels (reverse-mode-ad)
