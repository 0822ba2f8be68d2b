//! Whole inverses of a lower-triangular T's diagonal blocks of order s (a power-of-two
//! multiple of the leaf order nb), for the TRSM leaves that apply one as a single GEMM.
//!
//! Doubling from the leaves' inverses: [[A, 0], [C, D]]⁻¹ = [[A⁻¹, 0], [−D⁻¹·C·A⁻¹, D⁻¹]].
//! Level h (h = nb, 2·nb, …, s/2) pairs neighbouring h-blocks along the diagonal and forms
//! W = C·A⁻¹, then −D⁻¹·W, as two GEMMs batched over every pair of a matrix.
//!
//! Storage: block j of matrix b, lower triangular with exact zeros above its diagonal,
//! row-major with row stride s, at `b·per_matrix + j·s·(s + 1)`. The s words of padding after
//! each block put element (R, C) of the block diagonal at R·s + C, so the pairs of a level
//! step uniformly along it (stride 2h·(s + 1)) across all blocks.
use super::BlockInverses;
use crate::Ctx;
use cubecl::server::Handle;
use linalg_common::copy::{CopyConfig, launch_copy};
use linalg_common::gemm::{GemmOp, Operand, View, col_major};

/// The inverses of the full diagonal blocks of order `s` of one triangular solve's T, and the
/// scratch its leaves write through.
pub(crate) struct DoubledInverses {
    handle: Handle,
    len: usize,
    pub s: usize,
    per_matrix: usize,
    /// X = inv(T_jj)·B_j (s × k per matrix, stored like B), copied back into B afterwards.
    x: (Handle, usize),
    /// A dummy flag buffer for the copies (they check nothing).
    flags: Handle,
}

impl DoubledInverses {
    /// Invert the `t.view.rows / s` full diagonal blocks of order s of the lower-triangular
    /// `t`, whose nb×nb diagonal blocks have their inverses in `inv` from block `g0` on, for
    /// leaves with `k` right-hand sides.
    pub(crate) fn new(
        ctx: &Ctx,
        t: Operand,
        inv: &BlockInverses,
        g0: usize,
        s: usize,
        k: usize,
    ) -> Self {
        let nb = inv.nb;
        debug_assert!(s >= 2 * nb && s.is_multiple_of(nb) && (s / nb).is_power_of_two());
        let blocks = t.view.rows / s;
        let band = blocks * s;
        let per_matrix = band * (s + 1);
        let batch = ctx.batch;
        let (handle, len) = ctx.buffer(batch * per_matrix);
        let x = ctx.buffer(batch * s * k);
        let flags = ctx.buffer(batch * band / nb).0;
        let hw = ctx.launch.hw();
        let band_view = |offset: usize, rows: usize, batch_stride: usize| View {
            offset,
            rows,
            cols: rows,
            row_stride: s,
            col_stride: 1,
            batch_stride,
        };
        // Every block the identity (zeros above the diagonal), all matrices in one launch:
        // block q = b·blocks + j lies at q·s·(s + 1).
        let all = band_view(0, s, s * (s + 1));
        launch_copy(
            ctx.client,
            hw,
            batch * blocks,
            (&handle, len, all),
            (&handle, len, all),
            &flags,
            CopyConfig {
                identity: true,
                ..CopyConfig::PLAIN
            },
        );
        let w = ctx.buffer(band / 2 * s / 2);
        for b in 0..batch {
            let base = b * per_matrix;
            // The leaves' inverses onto the diagonal (their lower triangles).
            let leaf = inv.block(g0, nb).view;
            let src = View {
                offset: leaf.offset + b * inv.per_matrix,
                batch_stride: nb * nb,
                ..leaf
            };
            launch_copy(
                ctx.client,
                hw,
                band / nb,
                (&inv.handle, inv.len, src),
                (&handle, len, band_view(base, nb, nb * (s + 1))),
                &flags,
                CopyConfig {
                    lower: true,
                    ..CopyConfig::PLAIN
                },
            );
            let mut h = nb;
            while h < s {
                let pairs = band / (2 * h);
                let step = 2 * h * (s + 1);
                let tv = t.view;
                let c = View {
                    offset: tv.offset + b * tv.batch_stride + h * tv.row_stride,
                    rows: h,
                    cols: h,
                    batch_stride: 2 * h * (tv.row_stride + tv.col_stride),
                    ..tv
                };
                let wv = View {
                    batch_stride: h * h,
                    ..View::contiguous(h, h)
                };
                let y_a = Operand::new(&handle, len, band_view(base, h, step));
                let y_d = Operand::new(&handle, len, band_view(base + h * (s + 1), h, step));
                let y_c = Operand::new(&handle, len, band_view(base + h * s, h, step));
                let wo = Operand::new(&w.0, w.1, wv);
                let gemm = ctx.launch.gemm_for(h, h, h);
                gemm.launch(ctx.client, pairs, t.with_view(c), y_a, wo, GemmOp::SET);
                let neg = GemmOp {
                    negate: true,
                    a_lower: true,
                    ..GemmOp::SET
                };
                gemm.launch(ctx.client, pairs, y_d, wo, y_c, neg);
                h *= 2;
            }
        }
        Self {
            handle,
            len,
            s,
            per_matrix,
            x,
            flags,
        }
    }

    /// B ← inv(T_jj)·B for full block j (B: s × k, every matrix of the batch); T is lower,
    /// or upper with these the inverses of its transpose's blocks.
    pub(crate) fn apply(&self, ctx: &Ctx, j: usize, lower: bool, b: Operand) {
        let (s, k) = (self.s, b.view.cols);
        debug_assert_eq!(b.view.rows, s);
        let y = View {
            offset: j * s * (s + 1),
            rows: s,
            cols: s,
            row_stride: s,
            col_stride: 1,
            batch_stride: self.per_matrix,
        };
        let a = Operand::new(&self.handle, self.len, if lower { y } else { y.t() });
        // X in B's orientation, so that the copy back reads and writes consecutive elements.
        let xv = if col_major(&b.view) {
            View::contiguous(k, s).t()
        } else {
            View::contiguous(s, k)
        };
        let xo = Operand::new(&self.x.0, self.x.1, xv);
        let op = GemmOp {
            a_lower: lower,
            ..GemmOp::SET
        };
        ctx.launch
            .gemm_for(s, k, s)
            .launch(ctx.client, ctx.batch, a, b, xo, op);
        launch_copy(
            ctx.client,
            ctx.launch.hw(),
            ctx.batch,
            (&self.x.0, self.x.1, xv),
            (b.handle, b.len, b.view),
            &self.flags,
            CopyConfig::PLAIN,
        );
    }
}
