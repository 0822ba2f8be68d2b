//! Cholesky kernels in CubeCL (recursive POTRF with recursive TRSM and SYRK on GEMM, a fused
//! small-matrix kernel for leaves and batches, per-matrix `info`, triangular and Cholesky
//! solves). Nothing is implemented yet: this crate holds its place in the workspace so the
//! layout, features and CI are settled before the kernels land (issue 4).
