//! Given reflectors (householder_product, apply_q) applied in wide blocks on GEMMs: the path for
//! tall matrices of few matrices, where the one-cube panel kernel would read each panel alone.
//!
//! Math (LAPACK `slarft`, forward, columnwise): with V a block's reflectors made explicit (unit
//! diagonal, zeros above) and G = VᵀV, T is upper triangular with T_jj = τ_j and
//! T[0:j, j] = −τ_j·T[0:j, 0:j]·G[0:j, j]; the block is I − V·T·Vᵀ.
//!
//! The blocks (`QrLaunch::apply_block` columns, independent of geqrf's panel width) need
//! nothing from the matrix they are applied to, so a group of them is formed together, one
//! launch per stage for the whole group and batch: [`unit_lower_kernel`] writes every V, one
//! batched GEMM every G, [`t_from_gram_kernel`] every T (one cube per block, or per part of
//! at most [`super::config::MAX_T_PART`] columns, the parts then merged by GEMMs in
//! [`merge_parts`]), one batched GEMM every U = V·T (or V·Tᵀ). Only the two GEMMs of each
//! block's update are left in the chain.
//! geqrf's outer blocks form one block at a time the same way, once it is factored.
//!
//! Storage: item t = b·count + j of a group (matrix b, block q0 + j) holds V and U as m × width
//! row-major slabs at t·m·width (rows from the group's first column on are written; V is zero
//! above its diagonal and past column k, so every G and U may run over the same rows) and G,
//! T as width × width at t·2·width² and t·2·width² + width².
use super::Ctx;
use super::config::{GRAM_CHUNK, MAX_SPLITS, t_part};
use super::update::TauRef;
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::gemm::{GemmOp, Operand, Strides, View, batch_grid};

/// V of item t (see the module docs) from H's columns (q0 + t % count)·width + c < k of
/// matrix t / count: H below the diagonal, 1 on it, 0 above and past k. Rows r0 … m − 1;
/// cube x covers elements x·units … of (m − r0)·width.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn unit_lower_kernel<F: Float>(
    h: &[F],
    v_out: &mut [F],
    sh: Strides,
    m: usize,
    k: usize,
    r0: usize,
    q0: usize,
    count: usize,
    items: usize,
    #[comptime] width: usize,
) {
    let t = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    let e = ABSOLUTE_POS_X as usize;
    if t < items && e < (m - r0) * width {
        let i = r0 + e / width;
        let c = e % width;
        let col = (q0 + t % count) * width + c;
        let mut x = F::new(0.0);
        if col < k && i >= col {
            x = F::new(1.0);
            if i > col {
                x = h[sh.offset + (t / count) * sh.bs + i * sh.rs + col * sh.cs];
            }
        }
        v_out[t * m * width + i * width + c] = x;
    }
}

/// Columns of the blocks whose T one unit per column forms before the merges.
const T_LEAF: usize = 16;

/// T (or Tᵀ with `trans`) of part h of item b, for blocks of W = parts·nb columns: the
/// diagonal nb × nb block h of the item's T (w × w, w the part's columns before k, zero
/// elsewhere) into `mats[b·2W² + W² + (h·nb + i)·W + h·nb + j]`, from the same block of G at
/// `mats[b·2W² + …]` and τ of matrix b / count, columns (q0 + b % count)·W + h·nb + j. Cube
/// x = b·parts + h. Part h also zeroes T's blocks (g, h) for g > h (Tᵀ: (h, g)), which the
/// merges of [`merge_parts`] leave alone; they write the blocks on the other side.
///
/// Method: the block reflector of columns A then B has T = [T_A, −T_A·G_AB·T_B; 0, T_B] (the
/// product of the two; it holds for τ = 0 too, so no division by τ). A unit per column first
/// forms T of blocks of [`T_LEAF`] columns, merging one row at a time from the bottom:
/// T[i][j] = −τ_i·Σ_{l=i+1..j} G[i][l]·T[l][j]. Then each level merges neighbouring blocks of
/// s columns into blocks of 2s, every element of the level at once: Y = G_AB·T_B (kept
/// transposed in the unused lower triangle of T's shared copy), a barrier, T_AB = −T_A·Y, a
/// barrier. log₂(nb/16) levels instead of slarft's nb column steps.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn t_from_gram_kernel<F: Float>(
    mats: &mut [F],
    tau: &[F],
    tau_off: usize,
    tau_bs: usize,
    k: usize,
    q0: usize,
    count: usize,
    items: usize,
    #[comptime] nb: usize,
    #[comptime] parts: usize,
    #[comptime] units: usize,
    #[comptime] trans: bool,
) {
    let cube = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if cube >= items * parts {
        terminate!();
    }
    let bidx = cube / parts;
    let part = cube % parts;
    let wide = comptime!(nb * parts);
    let col0 = (q0 + bidx % count) * wide + part * nb;
    let mut w = 0usize;
    if k > col0 {
        w = k - col0;
    }
    if w > nb {
        w = nb;
    }
    let unit = UNIT_POS as usize;
    let nn = comptime!(nb * nb);
    let leaf = comptime!(if T_LEAF < nb { T_LEAF } else { nb });
    // Rows padded by one word: in the merges, consecutive units read at stride nb + 1 (G in
    // the first product, Y in the second), on distinct banks.
    let ld = comptime!(nb + 1);
    // Element (i, c) of the part's diagonal block: G at base + i·wide + c, T W² further.
    let base = bidx * comptime!(2 * wide * wide) + part * comptime!(nb * (wide + 1));
    let tbase = base + comptime!(wide * wide);
    let mut gs = Shared::<[F]>::new_slice(comptime!(nb * (nb + 1)));
    let mut ts = Shared::<[F]>::new_slice(comptime!(nb * (nb + 1)));
    let mut taus = Shared::<[F]>::new_slice(nb);
    let mut idx = unit;
    while idx < nn {
        let i = idx / nb;
        let c = idx % nb;
        gs[i * ld + c] = F::new(0.0);
        if i < w && c < w {
            gs[i * ld + c] = mats[base + i * wide + c];
        }
        ts[i * ld + c] = F::new(0.0);
        idx += units;
    }
    idx = unit;
    while idx < w {
        taus[idx] = tau[tau_off + (bidx / count) * tau_bs + col0 + idx];
        idx += units;
    }
    sync_cube();
    // Leaves: column j of its block's T, rows from j up to the block's first.
    let mut j = unit;
    while j < w {
        let first = (j / leaf) * leaf;
        ts[j * ld + j] = taus[j];
        let mut i = j;
        while i > first {
            i -= 1;
            let mut sum = F::new(0.0);
            let mut l = i + 1;
            while l <= j {
                sum += gs[i * ld + l] * ts[l * ld + j];
                l += 1;
            }
            ts[i * ld + j] = -taus[i] * sum;
        }
        j += units;
    }
    sync_cube();
    // Merges: pair p joins A = [2ps, 2ps + s) (whole whenever B is not empty) and
    // B = [2ps + s, 2ps + 2s) ∩ [0, w). Element (r, c) of the pair: row r of A, column c of B.
    // Consecutive units take consecutive r for Y and consecutive c for T_AB, so runs of s
    // consecutive units have sums of one length (c + 1, then s − r).
    // s is a runtime variable (it doubles per level).
    let mut s = 0usize;
    s += leaf;
    while s < w {
        let ss = s * s;
        let total = w.div_ceil(2 * s) * ss;
        idx = unit;
        while idx < total {
            let a0 = 2 * s * (idx / ss);
            let b0 = a0 + s;
            let c = (idx / s) % s;
            let r = idx % s;
            if b0 + c < w {
                // Y[r][c] = Σ_{l ≤ c} G[a0 + r][b0 + l]·T[b0 + l][b0 + c], stored at
                // (b0 + c, a0 + r). Two partial sums for two loads in flight.
                let g = (a0 + r) * ld + b0;
                let t = b0 * ld + b0 + c;
                let mut s0 = F::new(0.0);
                let mut s1 = F::new(0.0);
                let mut l = 0usize;
                while l < c {
                    s0 += gs[g + l] * ts[t + l * ld];
                    s1 += gs[g + l + 1] * ts[t + (l + 1) * ld];
                    l += 2;
                }
                if l == c {
                    s0 += gs[g + l] * ts[t + l * ld];
                }
                ts[(b0 + c) * ld + a0 + r] = s0 + s1;
            }
            idx += units;
        }
        sync_cube();
        idx = unit;
        while idx < total {
            let a0 = 2 * s * (idx / ss);
            let b0 = a0 + s;
            let r = (idx / s) % s;
            let c = idx % s;
            if b0 + c < w {
                // T[a0 + r][b0 + c] = −Σ_{r ≤ l < s} T[a0 + r][a0 + l]·Y[l][c].
                let x = (a0 + r) * ld + a0;
                let y = (b0 + c) * ld + a0;
                let mut s0 = F::new(0.0);
                let mut s1 = F::new(0.0);
                let mut l = r;
                while l + 1 < s {
                    s0 += ts[x + l] * ts[y + l];
                    s1 += ts[x + l + 1] * ts[y + l + 1];
                    l += 2;
                }
                if l < s {
                    s0 += ts[x + l] * ts[y + l];
                }
                ts[(a0 + r) * ld + b0 + c] = -(s0 + s1);
            }
            idx += units;
        }
        sync_cube();
        s *= 2;
    }
    // The lower triangle holds the last level's Y: write T's upper triangle only.
    idx = unit;
    while idx < nn {
        let i = idx / nb;
        let c = idx % nb;
        let mut v = F::new(0.0);
        if trans {
            if c <= i {
                v = ts[c * ld + i];
            }
        } else if i <= c {
            v = ts[i * ld + c];
        }
        mats[tbase + i * wide + c] = v;
        idx += units;
    }
    // The blocks on T's other side of this part's diagonal block: zero.
    if comptime!(parts > 1) {
        let below = (parts - 1 - part) * nn;
        idx = unit;
        while idx < below {
            let g = part + 1 + idx / nn;
            let i = (idx / nb) % nb;
            let c = idx % nb;
            let mut at = tbase + (g - part) * nb * wide + i * wide + c;
            if trans {
                at = tbase + (g - part) * nb + i * wide + c;
            }
            mats[at] = F::new(0.0);
            idx += units;
        }
    }
}

/// T of blocks wider than one cube's part (`part` < `width`) from the parts' T, pairs of
/// neighbours merged one level at a time as in [`t_from_gram_kernel`]: for A, B of s columns,
/// Y = G_AB·T_BB, then T_AB = −T_AA·Y (two GEMMs per pair, each over all `items`). Y lives in
/// G's block (B, A), transposed, which nothing reads again. With `trans` (Tᵀ stored, lower),
/// Y = G_BA·Tᵀ_AA in G's block (A, B), transposed, then Tᵀ_BA = −Tᵀ_BB·Y. `g`: the items' G
/// (width × width, batch stride 2·width², T width² after it).
fn merge_parts(ctx: &Ctx, g: Operand, part: usize, width: usize, items: usize, trans: bool) {
    let gemm = ctx.launch.gemm_for(part, part);
    let block = |offset: usize, s: usize, transposed: bool| {
        let v = View {
            offset: g.view.offset + offset,
            rows: s,
            cols: s,
            ..g.view
        };
        g.with_view(if transposed { v.t() } else { v })
    };
    let neg = GemmOp {
        negate: true,
        ..GemmOp::SET
    };
    let t0 = width * width;
    let at = |r: usize, c: usize| r * width + c;
    let mut s = part;
    while s < width {
        for a0 in (0..width).step_by(2 * s) {
            let b0 = a0 + s;
            // T_pq = −T_pp·(G_pq·T_qq) with (p, q) = (A, B), or (B, A) for Tᵀ.
            let (p, q) = if trans { (b0, a0) } else { (a0, b0) };
            let y = block(at(q, p), s, true);
            let (g_pq, t_qq) = (block(at(p, q), s, false), block(t0 + at(q, q), s, false));
            gemm.launch(ctx.client, items, g_pq, t_qq, y, GemmOp::SET);
            let (t_pp, t_pq) = (
                block(t0 + at(p, p), s, false),
                block(t0 + at(p, q), s, false),
            );
            gemm.launch(ctx.client, items, t_pp, y, t_pq, neg);
        }
        s *= 2;
    }
}

/// Workspace of a group of blocks: V, U, G and T of up to `group` blocks of every matrix.
pub(crate) struct GramBlocks {
    v: (Handle, usize),
    u: (Handle, usize),
    mats: (Handle, usize),
    /// Split-K partials of G for a few matrices ([`super::QrLaunch::split_matrices`]): a group's
    /// Gram matrices have few output tiles. [`MAX_SPLITS`] chunks in all.
    partials: (Handle, usize),
    pub width: usize,
    pub group: usize,
    m: usize,
    /// Blocks of the group formed last.
    count: usize,
}

impl GramBlocks {
    /// The workspace for matrices of m rows whose first k columns hold the reflectors. Blocks
    /// are no wider than k rounded up to a power of two (few kernel variants, and no slab
    /// mostly of zero columns when k is small).
    pub(crate) fn new(ctx: &Ctx, m: usize, k: usize) -> Self {
        let width = ctx.launch.apply_block.min(k.next_power_of_two());
        let group = ctx.launch.apply_group.min(k.div_ceil(width)).max(1);
        Self::with_width(ctx, m, width, group)
    }

    /// The workspace for `group` blocks of `width` columns (≤ [`super::config::MAX_APPLY_BLOCK`],
    /// within the device's shared memory for T) of matrices of m rows.
    pub(crate) fn with_width(ctx: &Ctx, m: usize, width: usize, group: usize) -> Self {
        let slabs = ctx.batch * group;
        Self {
            v: ctx.buffer(slabs * m * width),
            u: ctx.buffer(slabs * m * width),
            mats: ctx.buffer(slabs * 2 * width * width),
            partials: ctx.buffer(if ctx.batch <= ctx.launch.split_matrices {
                MAX_SPLITS * width * width
            } else {
                1
            }),
            width,
            group,
            m,
            count: 0,
        }
    }

    /// Form V, G, T (Tᵀ with `trans`) and U of blocks q0 … q0 + count − 1 (count ≤ group) of
    /// the reflectors in H's first k columns (`h`: m × ≥ k), for every matrix.
    pub(crate) fn form(
        &mut self,
        ctx: &Ctx,
        h: Operand,
        tau: TauRef,
        k: usize,
        (q0, count): (usize, usize),
        trans: bool,
    ) {
        let (m, width) = (self.m, self.width);
        debug_assert!(count >= 1 && count <= self.group && q0 * width < k && h.view.rows == m);
        self.count = count;
        let items = ctx.batch * count;
        let r0 = q0 * width;
        let hw = &ctx.launch.hw;
        let (_, by, bz) = batch_grid(items, hw.max_cube_count);
        let units = hw.max_units_per_cube.min(256);
        // SAFETY: item t reads H's matrix t / count at rows < m and columns < k (inside H's
        // view, checked by the public ops) and writes its slab's rows r0 … m − 1, columns
        // < width (t < items = batch·count ≤ the slabs allocated).
        unsafe {
            unit_lower_kernel::launch_unchecked::<f32>(
                ctx.client,
                CubeCount::Static(
                    ((m - r0) * width).div_ceil(units) as u32,
                    by as u32,
                    bz as u32,
                ),
                CubeDim::new_1d(units as u32),
                BufferArg::from_raw_parts(h.handle.clone(), h.len),
                BufferArg::from_raw_parts(self.v.0.clone(), self.v.1),
                h.view.launch_arg(),
                m,
                k,
                r0,
                q0,
                count,
                items,
                width,
            );
        }
        let slab = View {
            offset: r0 * width,
            rows: m - r0,
            cols: width,
            row_stride: width,
            col_stride: 1,
            batch_stride: m * width,
        };
        let v = Operand::new(&self.v.0, self.v.1, slab);
        let gv = View {
            offset: 0,
            rows: width,
            cols: width,
            row_stride: width,
            col_stride: 1,
            batch_stride: 2 * width * width,
        };
        let g = Operand::new(&self.mats.0, self.mats.1, gv);
        let t = g.with_view(View {
            offset: width * width,
            ..gv
        });
        let set = GemmOp::SET;
        let vt = v.with_view(slab.t());
        let gl = ctx.launch.gemm_rows(width, width);
        // A group's items split like matrices; the partials hold MAX_SPLITS chunks wherever
        // they may (items ≥ batch).
        let splits = ctx
            .launch
            .split_count(gl, (items, width, width, m - r0), 0, GRAM_CHUNK);
        gl.launch_split_k(
            ctx.client,
            items,
            vt,
            v,
            g,
            set,
            splits,
            (&self.partials.0, self.partials.1),
        );
        let part = t_part(hw, width).expect("block width checked by QrLaunch::new");
        let parts = width / part;
        let tu = (8 * part).min(hw.max_units_per_cube).min(1024);
        let (_, py, pz) = batch_grid(items * parts, hw.max_cube_count);
        // SAFETY: cube t·parts + h reads and writes item t's 2·width² slice of `mats`
        // (t < items) and reads τ of matrix t / count at columns < k (inside τ by
        // construction). Barriers are reached by every unit: the early exit (items·parts) is
        // uniform and so are the loop bounds.
        unsafe {
            t_from_gram_kernel::launch_unchecked::<f32>(
                ctx.client,
                CubeCount::Static(1, py as u32, pz as u32),
                CubeDim::new_1d(tu as u32),
                BufferArg::from_raw_parts(self.mats.0.clone(), self.mats.1),
                BufferArg::from_raw_parts(tau.handle.clone(), tau.len),
                tau.offset,
                tau.batch_stride,
                k,
                q0,
                count,
                items,
                part,
                parts,
                tu,
                trans,
            );
        }
        merge_parts(ctx, g, part, width, items, trans);
        let u = Operand::new(&self.u.0, self.u.1, slab);
        ctx.launch
            .gemm_for(m - r0, width)
            .launch(ctx.client, items, v, t, u, set);
    }

    /// V and U of block j of the group formed last, for every matrix: rows c0 … c0 + p − 1 and
    /// the first w columns of its slabs.
    pub(crate) fn block(
        &self,
        j: usize,
        c0: usize,
        p: usize,
        w: usize,
    ) -> (Operand<'_>, Operand<'_>) {
        debug_assert!(j < self.count && c0 + p <= self.m && w <= self.width);
        let view = View {
            offset: (j * self.m + c0) * self.width,
            rows: p,
            cols: w,
            row_stride: self.width,
            col_stride: 1,
            batch_stride: self.count * self.m * self.width,
        };
        (
            Operand::new(&self.v.0, self.v.1, view),
            Operand::new(&self.u.0, self.u.1, view),
        )
    }
}
