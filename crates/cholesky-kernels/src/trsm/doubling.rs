//! Whole inverses of a lower-triangular T's diagonal blocks of order s (a power-of-two
//! multiple of the leaf order nb), for the TRSM leaves that apply one as a single GEMM.
//!
//! Doubling from the leaves' inverses: [[A, 0], [C, D]]⁻¹ = [[A⁻¹, 0], [−D⁻¹·C·A⁻¹, D⁻¹]].
//! Level h (h = nb, 2·nb, …, s/2) pairs neighbouring h-blocks along the diagonal and forms
//! W = C·A⁻¹, then −D⁻¹·W, as two GEMMs batched over every pair of every matrix.
//!
//! Storage: block j of matrix b, lower triangular with exact zeros above its diagonal,
//! row-major with row stride s, at `b·per_matrix + j·s·(s + 1)`. The s words of padding after
//! each block put element (R, C) of the block diagonal at R·s + C, so the pairs of a level
//! step uniformly along it (stride 2h·(s + 1)) across all blocks, and per_matrix is a whole
//! number of such steps: across all matrices too. For a batch, T's diagonal blocks are first
//! copied into the same layout, so that the C blocks of every matrix step uniformly as well;
//! a single matrix reads them in place.
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
        let leaves = band / nb;
        // The leaves' inverses onto the diagonal (their lower triangles): leaf q of matrix b
        // from `inv` block g0 + q into Y at b·per_matrix + q·nb·(s + 1).
        let leaf = inv.block(g0, nb).view;
        let leaf_copy = |count: usize, src_at: usize, src_bs: usize, dst_at: usize, dst_bs| {
            launch_copy(
                ctx.client,
                hw,
                count,
                (
                    &inv.handle,
                    inv.len,
                    View {
                        offset: leaf.offset + src_at,
                        batch_stride: src_bs,
                        ..leaf
                    },
                ),
                (&handle, len, band_view(dst_at, nb, dst_bs)),
                &flags,
                CopyConfig {
                    lower: true,
                    ..CopyConfig::PLAIN
                },
            )
        };
        let leaf_step = nb * (s + 1);
        grid_copies(
            batch,
            leaves,
            (inv.per_matrix, nb * nb),
            (per_matrix, leaf_step),
            leaf_copy,
        );
        // The blocks C that the levels read: from T itself for one matrix (its pairs step
        // uniformly along T's diagonal); for a batch, from a copy of T's diagonal blocks in
        // Y's layout, where the pairs of every matrix step uniformly (per_matrix = pairs·step
        // at every level), so that each GEMM covers the whole batch.
        let tv = t.view;
        let band_t = (batch > 1).then(|| {
            let (bt, bl) = ctx.buffer(batch * per_matrix);
            let diag_copy = |count: usize, src_at: usize, src_bs: usize, dst_at: usize, dst_bs| {
                let src = View {
                    offset: tv.offset + src_at,
                    rows: s,
                    cols: s,
                    batch_stride: src_bs,
                    ..tv
                };
                launch_copy(
                    ctx.client,
                    hw,
                    count,
                    (t.handle, t.len, src),
                    (&bt, bl, band_view(dst_at, s, dst_bs)),
                    &flags,
                    CopyConfig {
                        lower: true,
                        ..CopyConfig::PLAIN
                    },
                )
            };
            grid_copies(
                batch,
                blocks,
                (tv.batch_stride, s * (tv.row_stride + tv.col_stride)),
                (per_matrix, s * (s + 1)),
                diag_copy,
            );
            (bt, bl)
        });
        let c_at = |h: usize, step: usize| -> Operand {
            match &band_t {
                None => t.with_view(View {
                    offset: tv.offset + h * tv.row_stride,
                    rows: h,
                    cols: h,
                    batch_stride: 2 * h * (tv.row_stride + tv.col_stride),
                    ..tv
                }),
                Some((bt, bl)) => Operand::new(bt, *bl, band_view(h * s, h, step)),
            }
        };
        // W = C·A⁻¹ of every pair of every matrix.
        let w = ctx.buffer(batch * band / 2 * s / 2);
        let mut h = nb;
        while h < s {
            let pairs = batch * band / (2 * h);
            let step = 2 * h * (s + 1);
            let wv = View {
                batch_stride: h * h,
                ..View::contiguous(h, h)
            };
            let y_a = Operand::new(&handle, len, band_view(0, h, step));
            let y_d = Operand::new(&handle, len, band_view(h * (s + 1), h, step));
            let y_c = Operand::new(&handle, len, band_view(h * s, h, step));
            let wo = Operand::new(&w.0, w.1, wv);
            let gemm = ctx.launch.gemm_for(h, h, h);
            gemm.launch(ctx.client, pairs, c_at(h, step), y_a, wo, GemmOp::SET);
            let neg = GemmOp {
                negate: true,
                a_lower: true,
                ..GemmOp::SET
            };
            gemm.launch(ctx.client, pairs, y_d, wo, y_c, neg);
            h *= 2;
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

/// `copy(count, src_at, src_bs, dst_at, dst_bs)` over a grid of `mats` matrices × `blocks`
/// blocks, whose source and destination step by `(per matrix, per block)`: one launch where
/// every matrix is a whole number of block steps on both sides (the grid is one sequence),
/// else one launch per matrix or per block, whichever is fewer.
fn grid_copies(
    mats: usize,
    blocks: usize,
    src: (usize, usize),
    dst: (usize, usize),
    copy: impl Fn(usize, usize, usize, usize, usize),
) {
    if mats == 1 || (src.0 == blocks * src.1 && dst.0 == blocks * dst.1) {
        copy(mats * blocks, 0, src.1, 0, dst.1);
    } else if mats <= blocks {
        for b in 0..mats {
            copy(blocks, b * src.0, src.1, b * dst.0, dst.1);
        }
    } else {
        for j in 0..blocks {
            copy(mats, j * src.1, src.0, j * dst.1, dst.0);
        }
    }
}
