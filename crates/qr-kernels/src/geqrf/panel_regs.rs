//! The register panel kernel: the panel kernel's factorization ([`super::panel`], LAPACK
//! `sgeqr2` + `slarft`, the same reflectors and outputs) with the panel in registers, for
//! panels of at most [`RegPanelConfig::rows_cap`] rows on devices with large cubes.
//!
//! Layout: nb × gy units; unit (ty, tx) owns column tx and rows ty + t·gy (t < rt =
//! rows_cap/gy) of the panel, in registers. Column j:
//! - pass 1: each unit forms Σ_{i>j} a_ij·a_ik over its rows for its column k (s for k = j,
//!   vᵀa_k up to the scale for k > j, the unscaled Gram entry for k < j); the pivot column's
//!   values reach the other units of a row group through a shared 4-vector buffer that the
//!   owner of column j wrote;
//! - a cube barrier, then every unit reduces over the row groups what it needs (s, and the sum
//!   of its own column) and forms β, τ, the scale 1/(α − β) and its coefficient; row group 0
//!   records the Gram column vₖᵀv_j (k < j) for T;
//! - pass 2: a_k −= τ·(vᵀa_k)·v on the unit's own registers (the pivot column read again, so
//!   only the panel occupies registers); the owner of column j + 1 publishes it; a cube
//!   barrier.
//!
//! A column whose squared norm under- or overflows is scaled by a power of two first, as in
//! the panel kernel ([`super::panel::RESCUE_LO`]): its owners scale their rows ≥ j, republish
//! it, and pass 1 runs again (four more cube barriers, for that column only).
//!
//! With `pairs` ([`RegPanelConfig::pairs`]) an iteration takes columns j and j + 1 from one
//! reduction (one grid exchange, two cube barriers): pass 1 forms each unit's sums with both
//! (rows ≥ j + 2; rows j and j + 1 go to two pivot rows), H_j comes from them as above, and
//! column j + 1's sums after H_j are downdated from them ([`pair_step`]). Where the downdated
//! squared norm keeps at least half of the column's (so cancellation costs a few ulps at
//! most) and needs no rescue, H_j+1 is formed too and both apply in one pass; else only H_j
//! applies and column j + 1 starts the next iteration. A column j that needs the rescue
//! starts over alone.
//!
//! With lane segments ([`RegPanelConfig::segs`], GPUs with fixed-width planes) unit u holds
//! column u / gy and row group u % gy, so column k's row groups are gy consecutive lanes of one
//! plane, and every sum over the panel's rows is a butterfly of plane shuffles within the
//! segment, whose lanes all end with the same bits ([`seg_columns`]). Pass 1 sums each unit's
//! Σ_{i>j} a_ij·a_ik over its segment and takes a_jk from the lane that holds row j; the
//! plane that holds the next column forms its α and squared norm s while it publishes it, so
//! no other unit sums them; with a grid the cubes exchange their segment sums and cube 0's
//! pivot row with no cube barrier. A column takes one cube barrier, after the owners of the
//! next column published it.
//!
//! The pivot-column buffer has two banks of one slot per part (pairs: x = column j, y =
//! column j + 1): the owners of the next iteration's columns publish into one bank while
//! the other is still read. The reduction rows and the pivot rows have one: the barrier that
//! ends an iteration precedes the next one's writes.
//!
//! T (Q = H_1⋯H_w = I − V·T·Vᵀ) is built after the loop, each unit of row group 0 forming its
//! row of T from the Gram matrix in registers (T[k, j] = −τ_j·Σ_{k≤l<j} T[k, l]·(vₗᵀv_j),
//! T[k, k] = τ_k), so no sequential dot product sits on the column steps. The reflectors are
//! scaled at the end (the Gram entries correct for the deferred scales).
//!
//! Without `factor` (householder_product and apply_q rebuilding T per panel) the reflectors and
//! τ are given: the panel is loaded as explicit V, and the Gram matrix VᵀV comes from w rounds
//! in which the owners of column l publish it and every unit adds its dot product per row group
//! (row-group barriers only), summed over the row groups once at the end.
//!
//! Outputs as the panel kernel's: H (R on and above the diagonal, reflectors below), τ, and,
//! row-major with row stride nb, V (explicit: unit diagonal, zeros above and in columns ≥ w)
//! and U = V·Tᵀ (`trans`) or V·T, from V staged in shared memory, each unit forming a
//! 4-column strip of U rows.
//!
//! A grid panel (`grid`, factor only) spans the G cubes of the launch along x: cube c holds
//! rows r0 + ty + t·gy, r0 = c·rows_cap (cube 0 holds every pivot row, rows_cap ≥ nb). After
//! each reduction (pass 1's sums, and the rescue's maxima) the cubes exchange them
//! ([`exchange`]): row group 0 of each cube combines its cube's rows per column and stores
//! each partial (cube 0 also its pivot row) in slot e % 2 of the matrix's exchange buffer as
//! one 64-bit word with the exchange number e in its high half, so a word read is either old
//! or new and whole: no fence or flag is needed. Units (ty, tx) then fetch column tx of cubes
//! ty, ty + gy, …, each waiting until its word holds e, sum them in that order and stage the
//! sum in row ty of the V staging area; after one cube barrier every unit sums the gy staged
//! rows of the columns it needs, as without a grid (`staged_sums`; else row group 0 adds the
//! staged words in cube order after one more barrier): the same operations in every cube, so
//! every cube forms the same β, τ, scale and Gram column. Exchange numbers
//! grow across the op's launches (from `e0`), so the buffer never needs a reset. Two slots
//! suffice: a cube stores into slot e % 2 again (exchange e + 2) only after it read every
//! cube's exchange e + 1, which each cube stores only after it finished reading exchange e.
//! Every cube forms T and its own rows of H, V and U; cube 0 writes τ. A wait gives up after
//! [`GRID_WAIT_POLLS`] polls (where the device does not run the cubes at once): the cube then
//! sets `status[b]` to [`GRID_TIMEOUT`], stops waiting and finishes with whatever it read.
use super::config::{GRID_WAIT_POLLS, GRID_WORDS_PER_UNIT, RegPanelConfig};
use super::panel::{RESCUE_HI, RESCUE_LO, group_max, group_sum, pow2_scale};
use crate::tsqr::butterfly_low;
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

type V4<F> = Vector<F, Const<4>>;

/// The value a grid panel whose wait gave up stores in its matrix's status flag.
pub(crate) const GRID_TIMEOUT: u32 = 2;

/// Panel of matrix `b`: rows/columns from `sh.offset + b·sh.bs` (its (0, 0)), p × w; τ at
/// `tau_off + b·tau_bs + j`; V and U at `b·vu_bs + i·nb + k`. Grid panels only (X = u64):
/// the exchange words of matrix b at `b·2·(gmax + 1)·nb` (gmax ≥ the cube count), the
/// launch's exchanges numbered from e0 + 1, and `status[b]` (see the module doc); other
/// launches never read `xv` and `status`.
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments)]
pub fn panel_regs_kernel<F: Float, X: Int>(
    h: &mut [F],
    tau: &mut [F],
    v_out: &mut [F],
    u_out: &mut [F],
    xv: &[Atomic<X>],
    status: &[Atomic<u32>],
    sh: Strides,
    tau_off: usize,
    tau_bs: usize,
    vu_bs: usize,
    p: usize,
    w: usize,
    batch: usize,
    e0: u32,
    gmax: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    let pos = PanelPos {
        bidx,
        cube: CUBE_POS_X as usize,
        cubes: CUBE_COUNT_X as usize,
    };
    let mut a = load_panel::<F>(h, &sh, p, w, &pos, cfg);
    panel_regs_body::<F, X>(
        &mut a, h, tau, v_out, u_out, xv, status, &sh, tau_off, tau_bs, vu_bs, p, w, e0, gmax,
        &pos, cfg,
    );
}

/// Which panel a cube works on: its matrix, and for grid panels its place among the panel's
/// cubes (else cube 0 of 1).
#[derive(CubeType, Clone, Copy)]
pub(crate) struct PanelPos {
    pub bidx: usize,
    pub cube: usize,
    pub cubes: usize,
}

/// The panel's first row held by cube `pos.cube` (0 unless `cfg.grid`).
#[cube]
pub(crate) fn cube_first_row(pos: &PanelPos, #[comptime] cfg: RegPanelConfig) -> usize {
    let mut r0 = 0usize;
    if comptime!(cfg.grid) {
        r0 = pos.cube * comptime!(cfg.rows_cap);
    }
    r0
}

/// The unit's row group ty: unit / nb, or with lane segments unit % gy.
#[cube]
pub(crate) fn unit_row_group(#[comptime] cfg: RegPanelConfig) -> usize {
    let unit = UNIT_POS as usize;
    if comptime!(cfg.segs) {
        unit % comptime!(cfg.gy)
    } else {
        unit / comptime!(cfg.nb)
    }
}

/// The unit's column tx: unit % nb, or with lane segments unit / gy.
#[cube]
pub(crate) fn unit_column(#[comptime] cfg: RegPanelConfig) -> usize {
    let unit = UNIT_POS as usize;
    if comptime!(cfg.segs) {
        unit / comptime!(cfg.gy)
    } else {
        unit % comptime!(cfg.nb)
    }
}

/// The unit's rows r0 + ty + t·gy of column tx of the panel (zero outside p × w).
#[cube]
pub(crate) fn load_panel<F: Float>(
    h: &mut [F],
    sh: &Strides,
    p: usize,
    w: usize,
    pos: &PanelPos,
    #[comptime] cfg: RegPanelConfig,
) -> Array<F> {
    let gy = comptime!(cfg.gy);
    let rt = comptime!(cfg.rows_per_unit());
    let ty = unit_row_group(cfg);
    let tx = unit_column(cfg);
    let hbase = sh.offset + pos.bidx * sh.bs;
    let r0 = cube_first_row(pos, cfg);
    let mut a = Array::<F>::new(rt);
    #[unroll]
    for t in 0..rt {
        let i = r0 + ty + t * gy;
        let mut v = F::new(0.0);
        if i < p && tx < w {
            v = h[hbase + i * sh.rs + tx * sh.cs];
        }
        a[t] = v;
    }
    a
}

/// The kernel's work on the unit's panel registers `a` (from [`load_panel`], possibly
/// updated since): every unit of the cube calls it, and every cube of a grid panel.
#[cube]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
pub(crate) fn panel_regs_body<F: Float, X: Int>(
    a: &mut Array<F>,
    h: &mut [F],
    tau: &mut [F],
    v_out: &mut [F],
    u_out: &mut [F],
    xv: &[Atomic<X>],
    status: &[Atomic<u32>],
    sh: &Strides,
    tau_off: usize,
    tau_bs: usize,
    vu_bs: usize,
    p: usize,
    w: usize,
    e0: u32,
    gmax: usize,
    pos: &PanelPos,
    #[comptime] cfg: RegPanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let rt = comptime!(cfg.rows_per_unit());
    let rq = comptime!(cfg.rows_per_unit() / 4);
    let ld = comptime!(cfg.nb + 1);
    let units = comptime!(cfg.units());
    let bidx = pos.bidx;
    let unit = UNIT_POS as usize;
    let ty = unit_row_group(cfg);
    let tx = unit_column(cfg);
    let hbase = sh.offset + bidx * sh.bs;
    let tbase = tau_off + bidx * tau_bs;
    let vbase = bidx * vu_bs;
    // The panel's first row in this cube (grid panels).
    let r0 = cube_first_row(pos, cfg);
    let grid = GridPos {
        cube: pos.cube,
        cubes: pos.cubes,
        words: bidx * 4 * (gmax + 1) * comptime!(cfg.nb),
        slot_len: 2 * (gmax + 1) * comptime!(cfg.nb),
    };
    let mut e = e0;

    // Per part (`pairs`: column j, then j + 1): gy reduction rows, a pivot row.
    let mut red = Shared::<[F]>::new_slice(comptime!(cfg.parts() * cfg.gy * cfg.nb));
    let mut piv = Shared::<[F]>::new_slice(comptime!(cfg.parts() * cfg.nb));
    let mut scl = Shared::<[F]>::new_slice(nb);
    let mut taus = Shared::<[F]>::new_slice(nb);
    let mut gsh = Shared::<[F]>::new_slice(comptime!(cfg.nb * (cfg.nb + 1)));
    let mut tsh = Shared::<[F]>::new_slice(comptime!(cfg.nb * (cfg.nb + 1)));
    // Two banks of one slot per part: an iteration reads one bank in both passes while the
    // owners of the next one's columns fill the other.
    let mut xcol = Shared::<[V4<F>]>::new_slice(comptime!(cfg.parts() * cfg.rows_cap / 2));
    // V for U; first the Gram partial sums without `factor`.
    let mut vsh = Shared::<[F]>::new_slice(comptime!(cfg.stage_len()));
    // Grid panels: whether a wait of this cube gave up.
    let mut fail = Shared::<[u32]>::new_slice(1usize);
    // Lane segments without a grid: the next column's pivot and squared norm, per bank.
    let mut pa = Shared::<[F]>::new_slice(4usize);

    let mut idx = unit;
    while idx < comptime!(cfg.nb * (cfg.nb + 1)) {
        gsh[idx] = F::new(0.0);
        tsh[idx] = F::new(0.0);
        idx += units;
    }
    if comptime!(cfg.grid) && unit == 0 {
        fail[0] = 0u32;
    }
    if unit < nb {
        scl[unit] = F::new(1.0);
        let mut tv = F::new(0.0);
        if comptime!(!cfg.factor) && unit < w {
            tv = tau[tbase + unit];
        }
        taus[unit] = tv;
    }
    if comptime!(cfg.factor) {
        publish_next::<F>(a, &mut xcol, r0, ty, tx, 0, w, 0, cfg);
        if comptime!(cfg.segs) {
            publish_pivot::<F>(a, &mut pa, r0, ty, tx, 0, 0, cfg);
        }
    } else {
        // The given reflectors, explicit: unit diagonal, zeros above it.
        #[unroll]
        for t in 0..rt {
            let i = ty + t * gy;
            a[t] = select(
                i > tx,
                a[t],
                select(i == tx && tx < w, F::new(1.0), F::new(0.0)),
            );
        }
    }
    sync_cube();

    if comptime!(cfg.segs) {
        seg_columns::<F, X>(
            a, &mut xcol, &mut pa, &mut scl, &mut taus, &mut gsh, &mut fail, tau, xv, &grid, tbase,
            e0, r0, ty, tx, w, cfg,
        );
    } else if comptime!(cfg.factor) {
        // Two cube barriers per column, or with `pairs` per pair of columns. (Pass 1 of column
        // j + 1 in column j's phase after a row-group barrier, with one cube barrier per
        // column, measured slower on the H200: BENCHMARKS.md, session 18.) A column whose
        // squared norm α² + s under- or overflows ([`RESCUE_LO`]) is scaled first, alone. The
        // branches are uniform: every unit read the same sums. (A first loop that only tests
        // and leaves for a second one with the rescale compiled to more instructions per
        // column, ptxas 13.) Iteration `it` reads the pivot-column slots of bank it % 2 while
        // the owners of the next iteration's columns fill the other bank.
        let mut j = 0usize;
        let mut bank = 0usize;
        while j < w {
            let xs = bank * comptime!(cfg.parts());
            let mut single = true;
            let mut adv = 1usize;
            // Nested: the pair branch is compiled only with `pairs`.
            if comptime!(cfg.pairs) {
                if j + 1 < w {
                    pass1_pair::<F>(a, &mut xcol, &mut red, &mut piv, r0, ty, tx, j, xs, cfg);
                    sync_cube();
                    if comptime!(cfg.grid) {
                        e += 1;
                        exchange::<F, X>(
                            &mut red, &mut piv, &mut fail, xv, &mut vsh, &grid, e, ty, tx, false,
                            true, 2usize, cfg,
                        );
                    }
                    let alpha = piv[j];
                    let x1 = piv[nb + j];
                    let pj = col_total::<F>(&mut red, &mut vsh, j, cfg);
                    let nn = alpha * alpha + (x1 * x1 + pj);
                    if nn < F::new(RESCUE_LO) || nn > F::new(RESCUE_HI) {
                        // Column j alone, from the start: its slot again from row j + 1.
                        if tx == j {
                            publish::<F>(a, &mut xcol, r0, ty, j + 1, xs, cfg);
                        }
                        sync_cube();
                    } else {
                        single = false;
                        if pair_step::<F>(
                            a, &mut xcol, &mut red, &mut vsh, &piv, &mut scl, &mut taus, &mut gsh,
                            tau, tbase, alpha, x1, pj, r0, ty, tx, unit, j, xs, cfg,
                        ) {
                            adv = 2;
                        }
                    }
                }
            }
            if single {
                pass1::<F>(a, &mut xcol, &mut red, &mut piv, r0, ty, tx, j, xs, cfg);
                sync_cube();
                if comptime!(cfg.grid) {
                    e += 1;
                    exchange::<F, X>(
                        &mut red, &mut piv, &mut fail, xv, &mut vsh, &grid, e, ty, tx, false, true,
                        1usize, cfg,
                    );
                }
                let mut alpha = piv[j];
                let mut s = col_total::<F>(&mut red, &mut vsh, j, cfg);
                let mut d = F::new(1.0);
                let nn = alpha * alpha + s;
                if nn < F::new(RESCUE_LO) || nn > F::new(RESCUE_HI) {
                    // c·(rows ≥ j of column j), c = 2⁻ᵏ from its largest entry; pass 1 again;
                    // β is scaled back by d = 1/c (v and τ do not change with c).
                    sync_cube();
                    if tx == j {
                        let mut m = F::new(0.0);
                        #[unroll]
                        for t in 0..rt {
                            if r0 + ty + t * gy >= j {
                                m = F::max(m, F::abs(a[t]));
                            }
                        }
                        red[ty * nb + j] = m;
                    }
                    sync_cube();
                    if comptime!(cfg.grid) {
                        e += 1;
                        exchange::<F, X>(
                            &mut red, &mut piv, &mut fail, xv, &mut vsh, &grid, e, ty, tx, true,
                            false, 1usize, cfg,
                        );
                    }
                    let amax = if comptime!(cfg.grid && cfg.staged_sums) {
                        group_max::<F>(&mut vsh, j, nb, gy, true)
                    } else if comptime!(cfg.grid) {
                        red[j]
                    } else {
                        group_max::<F>(&mut red, j, nb, gy, true)
                    };
                    if amax > F::new(0.0) {
                        let f = pow2_scale::<F>(amax);
                        if tx == j {
                            #[unroll]
                            for t in 0..rt {
                                if r0 + ty + t * gy >= j {
                                    a[t] *= f.c;
                                }
                            }
                            publish::<F>(a, &mut xcol, r0, ty, j + 1, xs, cfg);
                        }
                        sync_cube();
                        pass1::<F>(a, &mut xcol, &mut red, &mut piv, r0, ty, tx, j, xs, cfg);
                        sync_cube();
                        if comptime!(cfg.grid) {
                            e += 1;
                            exchange::<F, X>(
                                &mut red, &mut piv, &mut fail, xv, &mut vsh, &grid, e, ty, tx,
                                false, true, 1usize, cfg,
                            );
                        }
                        alpha = piv[j];
                        s = col_total::<F>(&mut red, &mut vsh, j, cfg);
                        d = f.d;
                    }
                }
                let below = col_total::<F>(&mut red, &mut vsh, tx, cfg);
                let pk = piv[tx];
                column_step::<F>(
                    a, &mut xcol, &mut scl, &mut taus, &mut gsh, tau, tbase, alpha, s, d, below,
                    pk, r0, ty, tx, j, xs, cfg,
                );
            }
            j += adv;
            bank = 1 - bank;
            if j < w {
                publish_next::<F>(a, &mut xcol, r0, ty, tx, j, w, bank, cfg);
            }
            sync_cube();
        }
    } else {
        gram_rows::<F>(a, &mut xcol, &mut vsh, &mut gsh, ty, tx, unit, w, cfg);
    }

    // Row tx of T from the Gram matrix (row group 0), T[k, j] zero for j < k and j ≥ w.
    if ty == 0 {
        let mut trow = Array::<F>::new(nb);
        #[unroll]
        for l in 0..nb {
            trow[l] = F::new(0.0);
        }
        #[unroll]
        for jj in 0..nb {
            if jj < w {
                let mut parts = Array::<F>::new(4usize);
                #[unroll]
                for e in 0..4usize {
                    parts[e] = F::new(0.0);
                }
                #[unroll]
                for l in 0..nb {
                    if l < jj {
                        parts[l % 4] += trow[l] * gsh[l * ld + jj];
                    }
                }
                let sum = (parts[0] + parts[1]) + (parts[2] + parts[3]);
                let tj = taus[jj];
                trow[jj] = select(tx == jj, tj, select(tx < jj, -tj * sum, F::new(0.0)));
            }
        }
        #[unroll]
        for l in 0..nb {
            tsh[tx * ld + l] = trow[l];
        }
    }

    // Scale the reflectors; write H and V, and stage V for U (padding rows zero).
    let sk = scl[tx];
    #[unroll]
    for t in 0..rt {
        let i = ty + t * gy;
        let gi = r0 + i;
        let below_diag = gi > tx;
        let mut v = select(
            below_diag,
            a[t] * sk,
            select(gi == tx, F::new(1.0), F::new(0.0)),
        );
        if tx >= w {
            v = F::new(0.0);
        }
        if gi < p {
            if comptime!(cfg.factor) && tx < w {
                h[hbase + gi * sh.rs + tx * sh.cs] = select(below_diag, v, a[t]);
            }
            v_out[vbase + gi * nb + tx] = v;
        }
        vsh[i * ld + tx] = v;
    }
    if comptime!(cfg.grid) && unit == 0 && fail[0] != 0u32 {
        status[bidx].store(GRID_TIMEOUT);
    }
    sync_cube();

    // U: unit (rg, cg) forms columns 4·cg … 4·cg + 3 of rows rg + r·(4·gy).
    let strips = comptime!(cfg.nb / 4);
    let row_step = comptime!(4 * cfg.gy);
    let cg = unit % strips;
    let rg = unit / strips;
    let c0 = cg * 4;
    let mut uacc = Array::<F>::new(comptime!(cfg.rows_per_unit()));
    #[unroll]
    for e in 0..rt {
        uacc[e] = F::new(0.0);
    }
    let mut tk = Array::<F>::new(4usize);
    #[unroll]
    for l in 0..nb {
        if l < w {
            #[unroll]
            for e in 0..4usize {
                if comptime!(cfg.trans) {
                    tk[e] = tsh[(c0 + e) * ld + l];
                } else {
                    tk[e] = tsh[l * ld + c0 + e];
                }
            }
            #[unroll]
            for r in 0..rq {
                let v = vsh[(rg + r * row_step) * ld + l];
                #[unroll]
                for e in 0..4usize {
                    uacc[r * 4 + e] += v * tk[e];
                }
            }
        }
    }
    #[unroll]
    for r in 0..rq {
        let i = r0 + rg + r * row_step;
        if i < p {
            #[unroll]
            for e in 0..4usize {
                u_out[vbase + i * nb + c0 + e] = uacc[r * 4 + e];
            }
        }
    }
}

/// Where a grid panel's cube and its matrix's exchange words are.
#[derive(CubeType)]
struct GridPos {
    cube: usize,
    cubes: usize,
    /// The matrix's exchange words, and one slot's length ((gmax + 1)·nb).
    words: usize,
    slot_len: usize,
}

/// The total over the panel of column k's reduction (k + gy·nb for the second part): after a
/// grid exchange the sum of the row groups' entries of `stage` (`staged_sums`) or row 0 of
/// `red`; else the sum of the row groups' entries of `red`.
#[cube]
fn col_total<F: Float>(
    red: &mut Shared<[F]>,
    stage: &mut Shared<[F]>,
    k: usize,
    #[comptime] cfg: RegPanelConfig,
) -> F {
    if comptime!(cfg.grid && cfg.staged_sums) {
        group_sum::<F>(stage, k, comptime!(cfg.nb), comptime!(cfg.gy), true)
    } else if comptime!(cfg.grid) {
        red[k]
    } else {
        group_sum::<F>(red, k, comptime!(cfg.nb), comptime!(cfg.gy), true)
    }
}

/// Grid exchange `e` (reached by every unit of every cube of the panel, after the barrier
/// that follows the reduction rows' writes), of `parts` reductions (part q: its gy rows of
/// `red` from q·gy·nb, its pivot row in `piv` from q·nb): row group 0 combines the cube's
/// reduction rows per column (the sum, or with `max` the maximum) and stores them, cube 0
/// also its pivot rows (`pivot`); unit (ty, tx) waits for column tx of cubes ty, ty + gy, …
/// (at most [`GRID_WORDS_PER_UNIT`] words per part). With `staged_sums` it leaves their sum
/// (maximum) in row ty of the part's rows of `stage`, and the unit that fetches cube 0's pivot
/// row writes it to `piv` (other cubes); else it stages the words, and after a cube barrier
/// row group 0 leaves the totals in row 0 of the part's rows of `red` (and cube 0's pivot rows
/// in `piv`). Ends on a cube barrier, after which [`col_total`] (or the maximum) is the
/// panel's: the same order of operations in every cube, so every cube forms the same β, τ and
/// scale. A slot holds words (c·parts + q)·nb + tx for cube c (the pivot rows as cube
/// `cubes`).
#[cube]
#[allow(clippy::too_many_arguments)]
fn exchange<F: Float, X: Int>(
    red: &mut Shared<[F]>,
    piv: &mut Shared<[F]>,
    fail: &mut Shared<[u32]>,
    xv: &[Atomic<X>],
    stage: &mut Shared<[F]>,
    grid: &GridPos,
    e: u32,
    ty: usize,
    tx: usize,
    #[comptime] max: bool,
    #[comptime] pivot: bool,
    #[comptime] parts: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let gp = comptime!(cfg.gy * cfg.nb);
    let slot = grid.words + (e % 2) as usize * grid.slot_len;
    let stamp = X::cast_from(e) << X::cast_from(32u32);
    if ty == 0 {
        #[unroll]
        for q in 0..parts {
            let part = if comptime!(max) {
                group_max::<F>(red, q * gp + tx, nb, gy, true)
            } else {
                group_sum::<F>(red, q * gp + tx, nb, gy, true)
            };
            xv[slot + (grid.cube * parts + q) * nb + tx].store(stamped::<F, X>(stamp, part));
            if comptime!(pivot) && grid.cube == 0 {
                xv[slot + (grid.cubes * parts + q) * nb + tx]
                    .store(stamped::<F, X>(stamp, piv[q * nb + tx]));
            }
        }
    }
    let mut words = grid.cubes;
    if comptime!(pivot) {
        words += 1;
    }
    // Up to GRID_WORDS_PER_UNIT words per unit and part, all loaded before the first wait.
    // Older words hold a smaller exchange number (numbers only grow).
    let mut acc = Array::<F>::new(parts);
    #[unroll]
    for q in 0..parts {
        acc[q] = F::new(0.0);
    }
    if fail[0] == 0u32 {
        let n = comptime!(parts * GRID_WORDS_PER_UNIT);
        let mut word = Array::<X>::new(n);
        // With `poll_all`, where each word is.
        let mut at = Array::<usize>::new(n);
        if comptime!(cfg.poll_all) {
            // Words the unit does not take count as arrived.
            #[unroll]
            for wi in 0..n {
                word[wi] = stamp;
            }
        }
        #[unroll]
        for q in 0..parts {
            #[unroll]
            for r in 0..GRID_WORDS_PER_UNIT {
                let c = ty + r * gy;
                if c < words {
                    let wi = q * GRID_WORDS_PER_UNIT + r;
                    let w_at = slot + (c * parts + q) * nb + tx;
                    word[wi] = xv[w_at].load();
                    if comptime!(cfg.poll_all) {
                        at[wi] = w_at;
                    }
                }
            }
        }
        if comptime!(cfg.poll_all) {
            wait_words::<X>(xv, &mut word, &mut at, stamp, fail, n);
        }
        #[unroll]
        for q in 0..parts {
            #[unroll]
            for r in 0..GRID_WORDS_PER_UNIT {
                let c = ty + r * gy;
                let wi = q * GRID_WORDS_PER_UNIT + r;
                if c < words {
                    let at = slot + (c * parts + q) * nb + tx;
                    let got = if comptime!(cfg.poll_all) {
                        word[wi]
                    } else {
                        wait_word::<X>(xv, at, word[wi], stamp, fail)
                    };
                    let v = F::reinterpret(u32::cast_from(got));
                    if comptime!(!cfg.staged_sums) {
                        stage[(c * parts + q) * nb + tx] = v;
                    } else if c < grid.cubes {
                        if comptime!(max) {
                            acc[q] = F::max(acc[q], v);
                        } else {
                            acc[q] += v;
                        }
                    } else if grid.cube != 0 {
                        piv[q * nb + tx] = v;
                    }
                }
            }
        }
    }
    if comptime!(cfg.staged_sums) {
        #[unroll]
        for q in 0..parts {
            stage[q * gp + ty * nb + tx] = acc[q];
        }
    } else {
        // Row group 0 adds the cubes' words in cube order into row 0 of the part's `red` rows.
        sync_cube();
        if ty == 0 {
            #[unroll]
            for q in 0..parts {
                let mut total = F::new(0.0);
                for c in 0..grid.cubes {
                    let v = stage[(c * parts + q) * nb + tx];
                    if comptime!(max) {
                        total = F::max(total, v);
                    } else {
                        total += v;
                    }
                }
                red[q * gp + tx] = total;
                if comptime!(pivot) && grid.cube != 0 {
                    piv[q * nb + tx] = stage[(grid.cubes * parts + q) * nb + tx];
                }
            }
        }
    }
    sync_cube();
}

/// Column j's reflector from α and s (d: the factor that scales the column back, 1 unless it
/// was rescaled), its Gram column and τ, pass 2 on the unit's registers (column j from slot
/// `xs`, rows from j + 1); `below` = Σ_{i>j} a_ij·a_i,tx and `pk` = a_j,tx over the panel.
#[cube]
#[allow(clippy::too_many_arguments)]
fn column_step<F: Float>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    scl: &mut Shared<[F]>,
    taus: &mut Shared<[F]>,
    gsh: &mut Shared<[F]>,
    tau: &mut [F],
    tbase: usize,
    alpha: F,
    s: F,
    d: F,
    below: F,
    pk: F,
    r0: usize,
    ty: usize,
    tx: usize,
    j: usize,
    xs: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let gy = comptime!(cfg.gy);
    let rq = comptime!(cfg.rows_per_unit() / 4);
    let tp = comptime!(cfg.pivot_slots());
    let ld = comptime!(cfg.nb + 1);
    let unit = UNIT_POS as usize;
    let r = reflector::<F>(alpha, s, d);
    // vᵀa_k / τ for k > j; for k < j the Gram entry before the scale of v_k.
    let dot = pk + r.scale * below;
    let coef = select(tx > j, r.tau * dot, F::new(0.0));
    record::<F>(scl, taus, tau, tbase, r0, unit, j, r.tau, r.scale);
    if ty == 0 && tx < j {
        gsh[tx * ld + j] = scl[tx] * dot;
    }
    // Pass 2: rows below j (the pivot column is zero on and above row j), then row j.
    let c2 = coef * r.scale;
    let slot = xcol_first(xs, ty, cfg);
    #[unroll]
    for q in 0..rq {
        let v = xcol[slot + q * comptime!(cfg.xcol_step())];
        #[unroll]
        for e in 0..4usize {
            a[q * 4 + e] -= c2 * v.extract(e);
        }
    }
    #[unroll]
    for t in 0..tp {
        if r0 + ty + t * gy == j {
            if tx == j {
                a[t] = r.beta * d;
            } else if tx > j {
                a[t] = pk - coef;
            }
        }
    }
}

/// Column j's τ and scale into the cube's `taus` and `scl` (unit 0), and τ into the output
/// (unit 0 of the cube holding row 0).
#[cube]
#[allow(clippy::too_many_arguments)]
fn record<F: Float>(
    scl: &mut Shared<[F]>,
    taus: &mut Shared<[F]>,
    tau: &mut [F],
    tbase: usize,
    r0: usize,
    unit: usize,
    j: usize,
    tau_j: F,
    scale_j: F,
) {
    if unit == 0 {
        taus[j] = tau_j;
        scl[j] = scale_j;
        if r0 == 0 {
            tau[tbase + j] = tau_j;
        }
    }
}

/// A reflector: β (before the scale-back d), τ and 1/(α − β).
#[derive(CubeType, Clone, Copy)]
struct Reflector<F: Float> {
    beta: F,
    tau: F,
    scale: F,
}

/// The reflector of a column with pivot α and squared norm s below it (τ = 0 and the scale d
/// where s = 0: the column stays as given, scaled back if it was rescaled).
#[cube]
fn reflector<F: Float>(alpha: F, s: F, d: F) -> Reflector<F> {
    let mut tau = F::new(0.0);
    let mut scale = d;
    let mut beta = alpha;
    if s > F::new(0.0) {
        let norm = F::sqrt(alpha * alpha + s);
        beta = select(alpha >= F::new(0.0), -norm, norm);
        // δ = β − α has β's sign (no cancellation); one division for both
        // τ = δ/β = δ²·r and 1/(α − β) = −β·r, r = 1/(β·δ) (|β·δ| ≤ 2β², in range after
        // the rescue). τ = 1 + |α|/|β| ∈ [1, 2], as LAPACK's (β − α)/β rounds; δ²·r may
        // round an ulp outside where |α| ≪ |β| (or |α| ≫ ‖x‖), so it is clamped.
        let delta = beta - alpha;
        let r = F::new(1.0) / (beta * delta);
        tau = F::clamp(delta * delta * r, F::new(1.0), F::new(2.0));
        scale = -beta * r;
    }
    Reflector::<F> { beta, tau, scale }
}

/// Columns j and j + 1 from one reduction (`pairs`): x = column j and y = column j + 1 below
/// row j + 1 in slots xs and xs + 1, their sums P_k = Σ x_i·a_ik and Q_k = Σ y_i·a_ik over
/// rows i ≥ j + 2 in parts 0 and 1 of the totals, rows j and j + 1 in the pivot rows; α = a_jj,
/// x1 = a_j+1,j, pj = P_j. Column j's reflector H_j as [`column_step`] forms it; with
/// c = τ_j·v_jᵀy and cs = c/(α − β), column j + 1 after H_j has α' = a_j+1,j+1 − cs·x1 and the
/// downdated squared norm s' = Q_j+1 − 2·cs·P_j+1 + cs²·P_j below row j + 1; each unit's
/// Σ y'_i·a'_ik likewise from P_k, Q_k. Where s' keeps at least half of y's squared norm over
/// rows ≥ j (the cancellation costs at most a few ulps) and α'² + s' needs no rescue, H_j+1
/// is formed from them and both apply in one pass: a_ik −= A_k·x_i + B_k·y_i. Else only H_j
/// applies, and column j + 1 starts the next iteration. Returns whether both were taken.
#[cube]
#[allow(clippy::too_many_arguments)]
fn pair_step<F: Float>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    red: &mut Shared<[F]>,
    stage: &mut Shared<[F]>,
    piv: &Shared<[F]>,
    scl: &mut Shared<[F]>,
    taus: &mut Shared<[F]>,
    gsh: &mut Shared<[F]>,
    tau: &mut [F],
    tbase: usize,
    alpha: F,
    x1: F,
    pj: F,
    r0: usize,
    ty: usize,
    tx: usize,
    unit: usize,
    j: usize,
    xs: usize,
    #[comptime] cfg: RegPanelConfig,
) -> bool {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let gp = comptime!(cfg.gy * cfg.nb);
    let rq = comptime!(cfg.rows_per_unit() / 4);
    let tp = comptime!(cfg.pivot_slots());
    let ld = comptime!(cfg.nb + 1);
    // The same totals in every unit: P_j+1, Q_j+1; the unit's own P_k, Q_k.
    let pj1 = col_total::<F>(red, stage, j + 1, cfg);
    let qj1 = col_total::<F>(red, stage, gp + j + 1, cfg);
    let pk_b = col_total::<F>(red, stage, tx, cfg);
    let qk_b = col_total::<F>(red, stage, gp + tx, cfg);
    let pk = piv[tx];
    let qk = piv[nb + tx];
    let y0 = piv[j + 1];
    let y1 = piv[nb + j + 1];
    let r = reflector::<F>(alpha, x1 * x1 + pj, F::new(1.0));
    // H_j: vᵀa_k over rows ≥ j (k < j: the Gram entry before the scale of v_k).
    let dot = pk + r.scale * (x1 * qk + pk_b);
    let coef = select(tx > j, r.tau * dot, F::new(0.0));
    let ck = coef * r.scale;
    let c = r.tau * (y0 + r.scale * (x1 * y1 + pj1));
    let cs = c * r.scale;
    // Column j + 1 after H_j.
    let alpha2 = y1 - cs * x1;
    let s2 = (qj1 - F::new(2.0) * cs * pj1) + cs * cs * pj;
    let n2 = (y0 * y0 + y1 * y1) + qj1;
    let nn2 = alpha2 * alpha2 + s2;
    let ok = s2 >= F::new(0.5) * n2 && nn2 >= F::new(RESCUE_LO) && nn2 <= F::new(RESCUE_HI);
    let mut beta2 = alpha2;
    let mut tau2 = F::new(0.0);
    let mut scale2 = F::new(1.0);
    if ok {
        let r2 = reflector::<F>(alpha2, s2, F::new(1.0));
        beta2 = r2.beta;
        tau2 = r2.tau;
        scale2 = r2.scale;
    }
    // Row j + 1 of column k after H_j, and Σ_{i ≥ j+2} y'_i·a'_ik.
    let q1 = qk - ck * x1;
    let bulk2 = ((qk_b - ck * pj1) - cs * pk_b) + cs * ck * pj;
    let dot2 = q1 + scale2 * bulk2;
    let coef2 = select(ok && tx > j + 1, tau2 * dot2, F::new(0.0));
    record::<F>(scl, taus, tau, tbase, r0, unit, j, r.tau, r.scale);
    if ok {
        record::<F>(scl, taus, tau, tbase, r0, unit, j + 1, tau2, scale2);
    }
    if ty == 0 && tx < j {
        gsh[tx * ld + j] = scl[tx] * dot;
    }
    if ok && ty == 0 && tx <= j {
        gsh[tx * ld + j + 1] = select(tx == j, r.scale, scl[tx]) * dot2;
    }
    // Pass 2 below row j + 1: v_j = x/(α − β), v'_j+1 = (y − cs·x)/(α' − β').
    let bcoef = coef2 * scale2;
    let acoef = ck - bcoef * cs;
    let xsl = xcol_first(xs, ty, cfg);
    let ysl = xsl + comptime!(cfg.rows_cap / 4);
    #[unroll]
    for q in 0..rq {
        let vx = xcol[xsl + q * comptime!(cfg.xcol_step())];
        let vy = xcol[ysl + q * comptime!(cfg.xcol_step())];
        #[unroll]
        for e in 0..4usize {
            a[q * 4 + e] -= acoef * vx.extract(e);
            a[q * 4 + e] -= bcoef * vy.extract(e);
        }
    }
    // Rows j and j + 1.
    #[unroll]
    for t in 0..tp {
        let gi = r0 + ty + t * gy;
        if gi == j {
            if tx == j {
                a[t] = r.beta;
            } else if tx > j {
                a[t] = pk - coef;
            }
        }
        if gi == j + 1 {
            if tx == j + 1 {
                a[t] = select(ok, beta2, q1);
            } else if tx > j + 1 {
                a[t] = q1 - coef2;
            }
        }
    }
    ok
}

/// The owners of the columns that iteration j starts with publish them into bank `bank`: a
/// pair (`pairs` and j + 1 < w) from row j + 2, else column j from row j + 1.
#[cube]
#[allow(clippy::too_many_arguments)]
fn publish_next<F: Float>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    r0: usize,
    ty: usize,
    tx: usize,
    j: usize,
    w: usize,
    bank: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let xs = bank * comptime!(cfg.parts());
    if comptime!(cfg.pairs) && j + 1 < w {
        if tx == j || tx == j + 1 {
            publish::<F>(a, xcol, r0, ty, j + 2, xs + tx - j, cfg);
        }
    } else if tx == j {
        publish::<F>(a, xcol, r0, ty, j + 1, xs, cfg);
    }
}

/// Column j's pivot α = a_jj and squared norm below it, s = Σ_{i>j} a_ij², into
/// `pa[2·bank]` and `pa[2·bank + 1]` ([`RegPanelConfig::segs`] without a grid): the plane
/// that holds column j forms its segments' sums (a branch uniform per plane, so the shuffles
/// see every lane), and column j's segment writes them.
#[cube]
#[allow(clippy::too_many_arguments)]
fn publish_pivot<F: Float>(
    a: &mut Array<F>,
    pa: &mut Shared<[F]>,
    r0: usize,
    ty: usize,
    tx: usize,
    j: usize,
    bank: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let gy = comptime!(cfg.gy);
    let first = (UNIT_POS - UNIT_POS_PLANE) as usize;
    let owner = j * gy;
    if comptime!(!cfg.grid) && owner >= first && owner < first + PLANE_DIM as usize {
        let mut sq = Array::<F>::new(4usize);
        #[unroll]
        for k in 0..4usize {
            sq[k] = F::new(0.0);
        }
        #[unroll]
        for t in 0..comptime!(cfg.rows_per_unit()) {
            let v = select(r0 + ty + t * gy > j, a[t], F::new(0.0));
            sq[t % 4] += v * v;
        }
        sync_plane();
        let s = seg_sum::<F>((sq[0] + sq[1]) + (sq[2] + sq[3]), gy);
        if tx == j {
            if ty == 0 {
                pa[2 * bank + 1] = s;
            }
            #[unroll]
            for t in 0..comptime!(cfg.pivot_slots()) {
                if r0 + ty + t * gy == j {
                    pa[2 * bank] = a[t];
                }
            }
        }
    }
}

/// Column j's sums over the panel, the same bits in every unit that needs them: α = a_jj, s =
/// Σ_{i>j} a_ij², and for the unit's column k, `below` = Σ_{i>j} a_ij·a_ik and `pk` = a_jk.
#[derive(CubeType, Clone, Copy)]
struct SegSums<F: Float> {
    alpha: F,
    s: F,
    below: F,
    pk: F,
}

/// The sum over the unit's lane segment (gy lanes): an xor butterfly, whose every lane ends
/// with the same bits (each step adds the same two values in either order). CubeCL's CUDA
/// shuffles name `__activemask()`, the lanes converged at that point, which after divergent
/// code (a poll loop, a branch on the column) need not be the whole plane: callers converge
/// the plane first (`sync_plane`, `__syncwarp()`), or the lanes that are late read garbage,
/// and units that must agree (the rescue's branch around a cube barrier) may not.
#[cube]
fn seg_sum<F: Float>(v: F, #[comptime] gy: usize) -> F {
    butterfly_low::<F>(v, comptime!(gy.trailing_zeros() as usize))
}

/// The maximum over the unit's lane segment, as [`seg_sum`].
#[cube]
fn seg_max<F: Float>(v: F, #[comptime] gy: usize) -> F {
    let mut t = v;
    let mut mask = 1u32;
    #[unroll]
    for _r in 0..comptime!(gy.trailing_zeros() as usize) {
        t = F::max(t, plane_shuffle_xor(t, mask));
        mask *= 2;
    }
    t
}

/// The plane lane of the unit's segment that holds row group g.
#[cube]
fn seg_lane(ty: usize, g: usize, #[comptime] cfg: RegPanelConfig) -> u32 {
    (UNIT_POS_PLANE - ty as u32) + (g % comptime!(cfg.gy)) as u32
}

/// Pass 1 of column j with lane segments: each unit's Σ x_i·a_ik over its rows (x: column j
/// below row j from slot `bank`) summed over its segment, and a_jk by a shuffle; without a
/// grid α and s as [`publish_pivot`] left them, else the cubes exchange their sums and cube
/// 0's pivot row ([`seg_exchange`], number `e`).
#[cube]
#[allow(clippy::too_many_arguments)]
fn seg_pass1<F: Float, X: Int>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    pa: &mut Shared<[F]>,
    fail: &mut Shared<[u32]>,
    xv: &[Atomic<X>],
    grid: &GridPos,
    e: u32,
    r0: usize,
    ty: usize,
    tx: usize,
    j: usize,
    bank: usize,
    #[comptime] cfg: RegPanelConfig,
) -> SegSums<F> {
    let gy = comptime!(cfg.gy);
    let part = column_dot::<F>(a, xcol, xcol_first(bank, ty, cfg), cfg);
    let mut row = F::new(0.0);
    #[unroll]
    for t in 0..comptime!(cfg.pivot_slots()) {
        if r0 + ty + t * gy == j {
            row = a[t];
        }
    }
    // CubeCL's shuffles take `__activemask()`: the plane converges first (see [`seg_sum`]).
    sync_plane();
    let below = seg_sum::<F>(part, gy);
    // Cube 0 (the only one with r0 = 0 ≤ j) holds row j.
    let pk = plane_shuffle(row, seg_lane(ty, j, cfg));
    if comptime!(cfg.grid) {
        seg_exchange::<F, X>(fail, xv, grid, e, below, pk, ty, tx, j, cfg)
    } else {
        SegSums::<F> {
            alpha: pa[2 * bank],
            s: pa[2 * bank + 1],
            below,
            pk,
        }
    }
}

/// Grid exchange `e` with lane segments (no cube barrier): lane 0 of each segment stores its
/// cube's sum for its column (cube 0 also the pivot row entry), as [`exchange`]'s words; each
/// unit (ty, tx) then fetches the words of columns tx and j of cubes ty, ty + gy, … (and the
/// pivot row, as cube `cubes`), and its segment sums them: every cube and segment adds the
/// same words in the same order. A cube stores into a slot again two exchanges later, after a cube barrier that follows its
/// reads of the exchange between, which every cube stored only after its own barrier that
/// followed its reads of this one.
#[cube]
#[allow(clippy::too_many_arguments)]
fn seg_exchange<F: Float, X: Int>(
    fail: &mut Shared<[u32]>,
    xv: &[Atomic<X>],
    grid: &GridPos,
    e: u32,
    cube_sum: F,
    pivot: F,
    ty: usize,
    tx: usize,
    j: usize,
    #[comptime] cfg: RegPanelConfig,
) -> SegSums<F> {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let slot = grid.words + (e % 2) as usize * grid.slot_len;
    let stamp = X::cast_from(e) << X::cast_from(32u32);
    if ty == 0 {
        xv[slot + grid.cube * nb + tx].store(stamped::<F, X>(stamp, cube_sum));
        if grid.cube == 0 {
            xv[slot + grid.cubes * nb + tx].store(stamped::<F, X>(stamp, pivot));
        }
    }
    let words = grid.cubes + 1;
    let mut acc = Array::<F>::new(2usize);
    let mut row = Array::<F>::new(2usize);
    #[unroll]
    for q in 0..2usize {
        acc[q] = F::new(0.0);
        row[q] = F::new(0.0);
    }
    if fail[0] == 0u32 {
        // Columns tx (q = 0) and j (q = 1); all words loaded before the first wait.
        let n = comptime!(2 * GRID_WORDS_PER_UNIT);
        let mut word = Array::<X>::new(n);
        // With `poll_all`, where each word is.
        let mut at = Array::<usize>::new(n);
        if comptime!(cfg.poll_all) {
            // Words the unit does not take count as arrived.
            #[unroll]
            for wi in 0..n {
                word[wi] = stamp;
            }
        }
        #[unroll]
        for q in 0..2usize {
            let col = select(q == 0, tx, j);
            #[unroll]
            for r in 0..GRID_WORDS_PER_UNIT {
                let c = ty + r * gy;
                if c < words {
                    let wi = q * GRID_WORDS_PER_UNIT + r;
                    let w_at = slot + c * nb + col;
                    word[wi] = xv[w_at].load();
                    if comptime!(cfg.poll_all) {
                        at[wi] = w_at;
                    }
                }
            }
        }
        if comptime!(cfg.poll_all) {
            wait_words::<X>(xv, &mut word, &mut at, stamp, fail, n);
        }
        #[unroll]
        for q in 0..2usize {
            let col = select(q == 0, tx, j);
            #[unroll]
            for r in 0..GRID_WORDS_PER_UNIT {
                let c = ty + r * gy;
                let wi = q * GRID_WORDS_PER_UNIT + r;
                if c < words {
                    let got = if comptime!(cfg.poll_all) {
                        word[wi]
                    } else {
                        wait_word::<X>(xv, slot + c * nb + col, word[wi], stamp, fail)
                    };
                    let v = F::reinterpret(u32::cast_from(got));
                    if c < grid.cubes {
                        acc[q] += v;
                    } else {
                        row[q] = v;
                    }
                }
            }
        }
    }
    // The polls end at different times in different lanes: converge before the shuffles.
    sync_plane();
    let piv_lane = seg_lane(ty, grid.cubes, cfg);
    SegSums::<F> {
        alpha: plane_shuffle(row[1], piv_lane),
        s: seg_sum::<F>(acc[1], gy),
        below: seg_sum::<F>(acc[0], gy),
        pk: plane_shuffle(row[0], piv_lane),
    }
}

/// An exchange word: the stamp (exchange number in the high half) and the value's bits.
#[cube]
fn stamped<F: Float, X: Int>(stamp: X, v: F) -> X {
    stamp | X::cast_from(u32::reinterpret(v))
}

/// Exchange word `at` once it holds exchange `stamp` (`first`: a load already issued), or
/// whatever it holds after [`GRID_WAIT_POLLS`] polls, which sets `fail`.
#[cube]
fn wait_word<X: Int>(
    xv: &[Atomic<X>],
    at: usize,
    first: X,
    stamp: X,
    fail: &mut Shared<[u32]>,
) -> X {
    let mut word = first;
    let mut polls = 0u32;
    while word < stamp && polls < GRID_WAIT_POLLS {
        word = xv[at].load();
        polls += 1;
    }
    if polls >= GRID_WAIT_POLLS {
        fail[0] = 1u32;
    }
    word
}

/// Waits until every word of `word` holds exchange `stamp` ([`RegPanelConfig::poll_all`]):
/// each round re-loads all the words still older (word i from `at[i]`), so their loads are in
/// flight together. After [`GRID_WAIT_POLLS`] rounds it gives up and sets `fail`. (The
/// helpers take the arrays as `&mut`, as [`column_dot`] says.)
#[cube]
fn wait_words<X: Int>(
    xv: &[Atomic<X>],
    word: &mut Array<X>,
    at: &mut Array<usize>,
    stamp: X,
    fail: &mut Shared<[u32]>,
    #[comptime] n: usize,
) {
    let mut polls = 0u32;
    let mut late = any_older::<X>(word, stamp, n);
    while late && polls < GRID_WAIT_POLLS {
        #[unroll]
        for i in 0..n {
            if word[i] < stamp {
                word[i] = xv[at[i]].load();
            }
        }
        polls += 1;
        late = any_older::<X>(word, stamp, n);
    }
    if late {
        fail[0] = 1u32;
    }
}

/// Whether a word of `word` holds an exchange number below `stamp`'s.
#[cube]
fn any_older<X: Int>(word: &mut Array<X>, stamp: X, #[comptime] n: usize) -> bool {
    let mut older = false;
    #[unroll]
    for i in 0..n {
        if word[i] < stamp {
            older = true;
        }
    }
    older
}

/// The maximum of column j's entries on rows ≥ j over the panel, in every unit (the rescue
/// with lane segments): every segment takes x (slot `bank`) over its rows and |α|; a grid
/// panel's cubes exchange their maxima (number `e`).
#[cube]
#[allow(clippy::too_many_arguments)]
fn seg_col_max<F: Float, X: Int>(
    xcol: &mut Shared<[V4<F>]>,
    fail: &mut Shared<[u32]>,
    xv: &[Atomic<X>],
    grid: &GridPos,
    e: u32,
    alpha: F,
    ty: usize,
    tx: usize,
    bank: usize,
    #[comptime] cfg: RegPanelConfig,
) -> F {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let rq = comptime!(cfg.rows_per_unit() / 4);
    let slot = xcol_first(bank, ty, cfg);
    let mut m = F::abs(alpha);
    #[unroll]
    for q in 0..rq {
        let v = xcol[slot + q * comptime!(cfg.xcol_step())];
        #[unroll]
        for k in 0..4usize {
            m = F::max(m, F::abs(v.extract(k)));
        }
    }
    sync_plane();
    m = seg_max::<F>(m, gy);
    if comptime!(cfg.grid) {
        let wslot = grid.words + (e % 2) as usize * grid.slot_len;
        let stamp = X::cast_from(e) << X::cast_from(32u32);
        if ty == 0 {
            xv[wslot + grid.cube * nb + tx].store(stamped::<F, X>(stamp, m));
        }
        let mut acc = F::new(0.0);
        if fail[0] == 0u32 {
            #[unroll]
            for r in 0..GRID_WORDS_PER_UNIT {
                let c = ty + r * gy;
                if c < grid.cubes {
                    let at = wslot + c * nb + tx;
                    let word = wait_word::<X>(xv, at, xv[at].load(), stamp, fail);
                    acc = F::max(acc, F::reinterpret(u32::cast_from(word)));
                }
            }
        }
        sync_plane();
        m = seg_max::<F>(acc, gy);
    }
    m
}

/// The factoring loop with lane segments ([`RegPanelConfig::segs`]): per column, pass 1 and
/// its sums ([`seg_pass1`]), the reflector and pass 2 ([`column_step`]), the owners of the
/// next column publish it (and its pivot) into the other bank, and one cube barrier. A column
/// whose α² + s under- or overflows is scaled by a power of two first (as the other path),
/// after a barrier that ends the reads of its slot; its owners republish it, and pass 1 runs
/// again.
#[cube]
#[allow(clippy::too_many_arguments)]
fn seg_columns<F: Float, X: Int>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    pa: &mut Shared<[F]>,
    scl: &mut Shared<[F]>,
    taus: &mut Shared<[F]>,
    gsh: &mut Shared<[F]>,
    fail: &mut Shared<[u32]>,
    tau: &mut [F],
    xv: &[Atomic<X>],
    grid: &GridPos,
    tbase: usize,
    e0: u32,
    r0: usize,
    ty: usize,
    tx: usize,
    w: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let gy = comptime!(cfg.gy);
    let rt = comptime!(cfg.rows_per_unit());
    let mut e = e0;
    let mut j = 0usize;
    let mut bank = 0usize;
    while j < w {
        e += 1;
        let first = seg_pass1::<F, X>(a, xcol, pa, fail, xv, grid, e, r0, ty, tx, j, bank, cfg);
        let mut alpha = first.alpha;
        let mut s = first.s;
        let mut below = first.below;
        let mut pk = first.pk;
        let mut d = F::new(1.0);
        let nn = alpha * alpha + s;
        if nn < F::new(RESCUE_LO) || nn > F::new(RESCUE_HI) {
            sync_cube();
            e += 1;
            let amax = seg_col_max::<F, X>(xcol, fail, xv, grid, e, alpha, ty, tx, bank, cfg);
            // Every segment has read column j's slot before its owners rescale it.
            sync_cube();
            if amax > F::new(0.0) {
                let f = pow2_scale::<F>(amax);
                if tx == j {
                    #[unroll]
                    for t in 0..rt {
                        if r0 + ty + t * gy >= j {
                            a[t] *= f.c;
                        }
                    }
                    publish::<F>(a, xcol, r0, ty, j + 1, bank, cfg);
                }
                publish_pivot::<F>(a, pa, r0, ty, tx, j, bank, cfg);
                sync_cube();
                e += 1;
                let again =
                    seg_pass1::<F, X>(a, xcol, pa, fail, xv, grid, e, r0, ty, tx, j, bank, cfg);
                alpha = again.alpha;
                s = again.s;
                below = again.below;
                pk = again.pk;
                d = f.d;
            }
        }
        column_step::<F>(
            a, xcol, scl, taus, gsh, tau, tbase, alpha, s, d, below, pk, r0, ty, tx, j, bank, cfg,
        );
        j += 1;
        bank = 1 - bank;
        if j < w {
            publish_next::<F>(a, xcol, r0, ty, tx, j, w, bank, cfg);
            publish_pivot::<F>(a, pa, r0, ty, tx, j, bank, cfg);
        }
        sync_cube();
    }
}

/// Σ_t x_t·a_t over this unit's rows, x from the pivot-column buffer from vector `slot` on
/// (its first, [`xcol_first`]; four partial sums). (The helpers take the panel as `&mut`
/// though they only read it: CubeCL's expansion cannot pass a `&mut` array on as `&`.)
#[cube]
fn column_dot<F: Float>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    slot: usize,
    #[comptime] cfg: RegPanelConfig,
) -> F {
    let rq = comptime!(cfg.rows_per_unit() / 4);
    let mut parts = Array::<F>::new(4usize);
    #[unroll]
    for e in 0..4usize {
        parts[e] = F::new(0.0);
    }
    #[unroll]
    for q in 0..rq {
        let v = xcol[slot + q * comptime!(cfg.xcol_step())];
        #[unroll]
        for e in 0..4usize {
            parts[e] += v.extract(e) * a[q * 4 + e];
        }
    }
    (parts[0] + parts[1]) + (parts[2] + parts[3])
}

/// Pass 1 of column `jj` for this unit: Σ_{i>jj} a_i,jj·a_ik over its rows (four partial
/// sums, the pivot column from slot `xs`) into the reduction rows, and row jj of its column
/// into the pivot row where it holds that row.
#[cube]
#[allow(clippy::too_many_arguments)]
fn pass1<F: Float>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    red: &mut Shared<[F]>,
    piv: &mut Shared<[F]>,
    r0: usize,
    ty: usize,
    tx: usize,
    jj: usize,
    xs: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let tp = comptime!(cfg.pivot_slots());
    let dot = column_dot::<F>(a, xcol, xcol_first(xs, ty, cfg), cfg);
    // Row jj (jj < nb: only the slots that hold rows below nb test it).
    #[unroll]
    for t in 0..tp {
        if r0 + ty + t * gy == jj {
            piv[tx] = a[t];
        }
    }
    red[ty * nb + tx] = dot;
}

/// Pass 1 of the pair j, j + 1 (`pairs`): this unit's Σ x_i·a_ik and Σ y_i·a_ik over its rows
/// (x, y from slots xs, xs + 1, zero above row j + 2) into parts 0 and 1 of the reduction
/// rows, and rows j and j + 1 of its column into the pivot rows where it holds them.
#[cube]
#[allow(clippy::too_many_arguments)]
fn pass1_pair<F: Float>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    red: &mut Shared<[F]>,
    piv: &mut Shared<[F]>,
    r0: usize,
    ty: usize,
    tx: usize,
    j: usize,
    xs: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let tp = comptime!(cfg.pivot_slots());
    let xsl = xcol_first(xs, ty, cfg);
    let dx = column_dot::<F>(a, xcol, xsl, cfg);
    let dy = column_dot::<F>(a, xcol, xsl + comptime!(cfg.rows_cap / 4), cfg);
    #[unroll]
    for t in 0..tp {
        let gi = r0 + ty + t * gy;
        if gi == j {
            piv[tx] = a[t];
        }
        if gi == j + 1 {
            piv[nb + tx] = a[t];
        }
    }
    red[ty * nb + tx] = dx;
    red[comptime!(cfg.gy * cfg.nb) + ty * nb + tx] = dy;
}

/// Vector 0 of row group ty's rows in slot `slot` of the pivot-column buffer; its vector q
/// (rows 4q … 4q + 3 of its slots) lies [`RegPanelConfig::xcol_step`]·q further on.
#[cube]
fn xcol_first(slot: usize, ty: usize, #[comptime] cfg: RegPanelConfig) -> usize {
    let base = slot * comptime!(cfg.rows_cap / 4);
    if comptime!(cfg.segs) {
        base + ty
    } else {
        base + ty * comptime!(cfg.rows_per_unit() / 4)
    }
}

/// The owner of a column in row group `ty` writes its rows from panel row `from` ≤ nb on
/// (zeros above; its rows start at panel row r0) to the row group's part of slot `slot` of
/// the pivot-column buffer.
#[cube]
#[allow(clippy::too_many_arguments)]
fn publish<F: Float>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    r0: usize,
    ty: usize,
    from: usize,
    slot: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let gy = comptime!(cfg.gy);
    let rq = comptime!(cfg.rows_per_unit() / 4);
    // The 4-row slots that hold a pivot slot ([`RegPanelConfig::pivot_slots`]): later rows
    // lie below nb ≥ `from`.
    let pq = comptime!(cfg.pivot_slots().div_ceil(4));
    let base = xcol_first(slot, ty, cfg);
    #[unroll]
    for q in 0..pq {
        let mut v = V4::<F>::broadcast(F::new(0.0));
        #[unroll]
        for e in 0..4usize {
            let t = q * 4 + e;
            v.insert(e, select(r0 + ty + t * gy >= from, a[t], F::new(0.0)));
        }
        xcol[base + q * comptime!(cfg.xcol_step())] = v;
    }
    #[unroll]
    for q in pq..rq {
        let mut v = V4::<F>::broadcast(F::new(0.0));
        #[unroll]
        for e in 0..4usize {
            v.insert(e, a[q * 4 + e]);
        }
        xcol[base + q * comptime!(cfg.xcol_step())] = v;
    }
}

/// Wait for the row group: a plane barrier where a row group is one plane, else the cube's.
#[cube]
fn sync_rows(#[comptime] cfg: RegPanelConfig) {
    if comptime!(cfg.plane_rows) {
        sync_plane();
    } else {
        sync_cube();
    }
}

/// The Gram matrix vₖᵀv_l (k < l < w) of the explicit reflectors in `a` into `gsh` (row
/// stride nb + 1): column l published by its owners in round l, each unit's dot product with
/// its own column per row group into `part` (gy × nb × nb, the V staging area, free until
/// then), then summed over the row groups. Ends on a cube barrier.
#[cube]
#[allow(clippy::too_many_arguments)]
fn gram_rows<F: Float>(
    a: &mut Array<F>,
    xcol: &mut Shared<[V4<F>]>,
    part: &mut Shared<[F]>,
    gsh: &mut Shared<[F]>,
    ty: usize,
    tx: usize,
    unit: usize,
    w: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let ld = comptime!(cfg.nb + 1);
    let units = comptime!(cfg.units());
    let mut l = 0usize;
    while l < w {
        if tx == l {
            publish::<F>(a, xcol, 0, ty, 0, l % 2, cfg);
        }
        sync_rows(cfg);
        part[(ty * nb + l) * nb + tx] = column_dot::<F>(a, xcol, xcol_first(l % 2, ty, cfg), cfg);
        l += 1;
    }
    sync_cube();
    let mut idx = unit;
    while idx < comptime!(cfg.nb * cfg.nb) {
        let ll = idx / nb;
        let k = idx % nb;
        if k < ll && ll < w {
            let mut sum = F::new(0.0);
            #[unroll]
            for g in 0..gy {
                sum += part[(g * nb + ll) * nb + k];
            }
            gsh[k * ld + ll] = sum;
        }
        idx += units;
    }
    sync_cube();
}
