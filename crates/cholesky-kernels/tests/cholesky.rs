//! Cholesky, triangular solves and the GEMM under them, against f64 host references, on every
//! runtime this build links (bodies take a client; `testgen!` instantiates them per runtime).
#![allow(clippy::needless_range_loop)] // index loops over batch elements read clearest here
use cholesky_kernels::potrf::PanelSolveConfig;
use cholesky_kernels::{
    BatchedLeaf, BlockedLeafConfig, CholeskyError, CholeskyLaunch, CholeskyParams,
    DEFAULT_WHOLE_WORK, LeafKernel, MatrixRef, PotrfGraph, RowsConfig, View, cholesky_inverse,
    cholesky_solve, potrf, potrf_host, solve_triangular,
};
use cubecl::client::Client;
use cubecl::prelude::*;
use linalg_common::gemm::{
    BIG_TILES, GemmConfig, GemmKernel, GemmLaunch, GemmOp, MatArgs, MatArgsLaunch, Operand,
    tile_at_tri, tri_tiles,
};
use linalg_common::gemm_mma::{MMA_DEFAULT, MMA_STORED, MMA_TF32, MmaTiles};
use linalg_common::gemm_tc::{TC_DEFAULT, TcConfig};
use linalg_common::launch::Hardware;
use linalg_common::matgen::spd_from_factor;
use linalg_common::reference::{cholesky_bound, cholesky_residual, f32_eps, matmul, norm1};
use linalg_common::rng::Stream;

const EPS: f64 = f32::EPSILON as f64;

/// A batch of SPD matrices (each its own seed and κ) and their known factors.
fn spd_batch(n: usize, kappas: &[f64], seed: u64) -> (Vec<f32>, Vec<f32>) {
    let mut a = Vec::new();
    let mut l = Vec::new();
    for (i, k) in kappas.iter().enumerate() {
        let (ai, li) = spd_from_factor(n, *k, seed * 1000 + i as u64);
        a.extend(ai);
        l.extend(li);
    }
    (a, l)
}

/// Overwrite the triangle the op must not read (strictly upper for lower, and vice versa)
/// with NaN.
fn poison(a: &mut [f32], batch: usize, n: usize, upper: bool) {
    for b in 0..batch {
        for i in 0..n {
            for j in 0..n {
                let unread = if upper { j < i } else { j > i };
                if unread {
                    a[b * n * n + i * n + j] = f32::NAN;
                }
            }
        }
    }
}

/// Make matrix b of a batch from [`spd_batch`] (factors `l`) fail exactly at pivot
/// `pivots[b]` (0-based; `None` leaves it SPD): the Schur complement there becomes −L_pp²/2 < 0
/// and the earlier leading minors are unchanged.
fn break_pivots(a: &mut [f32], l: &[f32], n: usize, pivots: &[Option<usize>]) {
    for (b, p) in pivots.iter().enumerate() {
        if let Some(p) = *p {
            let at = b * n * n + p * n + p;
            let lp = l[at] as f64;
            a[at] = (a[at] as f64 - 1.5 * lp * lp) as f32;
        }
    }
}

fn check_factor(
    a: &[f32],
    l: &[f32],
    info: &[u32],
    batch: usize,
    n: usize,
    upper: bool,
    what: &str,
) {
    for b in 0..batch {
        let s = b * n * n..(b + 1) * n * n;
        assert_eq!(info[b], 0, "{what}: batch {b} n={n} info");
        let (resid, zero, finite) = cholesky_residual(&a[s.clone()], &l[s], n, upper);
        assert!(finite, "{what}: batch {b} n={n}: non-finite factor");
        assert!(zero, "{what}: batch {b} n={n}: other triangle not zero");
        assert!(
            resid <= cholesky_bound(n),
            "{what}: batch {b} n={n} upper={upper}: residual {resid:.3e} > {:.3e}",
            cholesky_bound(n)
        );
    }
}

pub fn sizes_straddle_thresholds(client: &Client) {
    let def = CholeskyParams::default();
    // Default leaf 64, SYRK leaf 256: sizes around both, and a multi-level recursion.
    for &n in &[
        1usize, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 257, 300,
    ] {
        for upper in [false, true] {
            let batch = if n <= 129 { 3 } else { 1 };
            let (mut a, _) = spd_batch(n, &vec![10.0; batch], n as u64);
            let clean = a.clone();
            poison(&mut a, batch, n, upper);
            let out = potrf_host(client, &a, &[batch, n, n], upper, &def).expect("potrf");
            check_factor(&clean, &out.l, &out.info, batch, n, upper, "default params");
        }
    }
    // Small leaves make deep recursions (TRSM and SYRK recurse too) at small sizes.
    let small = CholeskyParams {
        leaf: Some(8),
        syrk_leaf: Some(16),
        ..CholeskyParams::default()
    };
    for &n in &[9usize, 16, 17, 40, 100, 203] {
        for upper in [false, true] {
            let (mut a, _) = spd_batch(n, &[100.0, 1.0], 7 + n as u64);
            let clean = a.clone();
            poison(&mut a, 2, n, upper);
            let out = potrf_host(client, &a, &[2, n, n], upper, &small).expect("potrf");
            check_factor(&clean, &out.l, &out.info, 2, n, upper, "leaf 8");
        }
    }
}

/// Each right-looking step's SYRK fused with the next diagonal block (`potrf/fused.rs`), forced
/// on: with the default tiles where they fuse (GPUs; there the default fuses single
/// matrices), else with a vector-tile GEMM of the leaf's order and the blocked kernel's unit
/// count (the CPU runtime). Asserts the path is taken, then checks factors (sizes around the leaf
/// multiples, a batch of mixed κ, the unread triangle poisoned), a failing pivot inside a
/// fused block and after it, and the same matrices unfused; also with the blocks factored
/// without their inverses and the panels solved by substitution (`step_substitution`), and
/// with it off.
/// Cube t of [`tri_grid_decode`]'s grid writes the tile row and column `tile_at_tri` gives it
/// (tiles of 1 × 1).
#[cube(launch)]
fn tri_tiles_kernel(out: &mut [u32], dims: MatArgs) {
    let at = tile_at_tri(&dims, 1usize);
    if UNIT_POS == 0 {
        let t = CUBE_POS_X as usize;
        out[2 * t] = u32::cast_from(at.row0);
        out[2 * t + 1] = u32::cast_from(at.col0);
    }
}

/// `tile_at_tri` lists the tiles on and below the diagonal row by row, each once, for grids
/// of T = 1, 2, 3, 64 and 360 tile rows (64 980 cubes, within every runtime's 65 535).
fn tri_grid_decode(client: &Client) {
    for t in [1usize, 2, 3, 64, 360] {
        let cubes = tri_tiles(t, 1);
        assert_eq!(cubes, t * (t + 1) / 2);
        let h = client.empty(2 * cubes * 4);
        tri_tiles_kernel::launch(
            client,
            CubeCount::Static(cubes as u32, 1, 1),
            CubeDim::new_1d(1),
            unsafe { BufferArg::from_raw_parts(h.clone(), 2 * cubes) },
            MatArgsLaunch::new(t, t, 1, t, 1, 1, 1, 0, 0),
        );
        let got = u32::from_bytes(&client.read_one(h).unwrap()).to_vec();
        let want: Vec<u32> = (0..t)
            .flat_map(|r| (0..=r).flat_map(move |c| [r as u32, c as u32]))
            .collect();
        assert_eq!(got, want, "tri grid of {t} tile rows");
    }
}

pub fn fused_syrk_leaf(client: &Client) {
    tri_grid_decode(client);
    let hw = Hardware::of(client);
    let forced = |p: CholeskyParams| CholeskyParams {
        fuse_leaf: Some(true),
        ..p
    };
    // The default tiles; two units of 32×16 for a leaf of 32 (the CPU runtime's cube).
    let candidates = [
        forced(CholeskyParams::default()),
        forced(CholeskyParams {
            leaf: Some(32),
            gemm: Some(GemmConfig {
                units_x: 2,
                units_y: 1,
                tm: 32,
                tn: 16,
                tile_k: 8,
                unroll: false,
                vector: true,
            }),
            ..CholeskyParams::default()
        }),
    ];
    let fuses = |p: &CholeskyParams| {
        CholeskyLaunch::new(&hw, p)
            .is_some_and(|l| l.fused_leaf(3 * l.leaf.nb, l.leaf.nb, 3).is_some())
    };
    let Some(fused) = candidates.into_iter().find(fuses) else {
        // Large cubes with little shared memory: the GEMM's and the diagonal block's shared
        // memory (about 57 KiB at a leaf of 64) do not fit one cube. The default must then
        // not fuse, which the other tests of this suite run.
        assert!(
            hw.max_units_per_cube >= 256 && hw.max_shared_bytes < 64 * 1024,
            "{hw:?}: no fused configuration"
        );
        let def = CholeskyLaunch::new(&hw, &CholeskyParams::default()).expect("launch");
        assert!(def.fused_leaf(192, 64, 1).is_none());
        eprintln!("{hw:?}: the fused SYRK + leaf does not fit one cube here");
        return;
    };
    // The variants below take the SIMT update tiles; `fused_mma` runs the tensor-core ones
    // (the default where the device runs them).
    let fused = CholeskyParams {
        fused_mma: Some(false),
        ..fused
    };
    let launch = CholeskyLaunch::new(&hw, &fused).expect("launch");
    let nb = launch.leaf.nb;
    if fused.leaf.is_none() {
        // The default fuses a single matrix only.
        let def = CholeskyLaunch::new(&hw, &CholeskyParams::default()).expect("launch");
        assert!(def.fused_leaf(3 * nb, nb, 1).is_some());
        assert!(def.fused_leaf(3 * nb, nb, 3).is_none());
    }
    let unfused = CholeskyParams {
        fuse_leaf: Some(false),
        ..fused
    };
    assert!(
        CholeskyLaunch::new(&hw, &unfused)
            .expect("launch")
            .fused_leaf(3 * nb, nb, 3)
            .is_none()
    );
    // The diagonal blocks' cube-wide phases in trips of half a sub-block (the default of
    // launches that share the device), fused and standalone.
    let short = CholeskyParams {
        leaf_unroll: Some(BlockedLeafConfig::default_sub(nb) / 2),
        ..fused
    };
    // The diagonal blocks with and without the look-ahead of one sub-block (the default on
    // GPUs, off elsewhere), fused and standalone.
    let lookahead = CholeskyParams {
        leaf_lookahead: Some(true),
        ..fused
    };
    let no_lookahead = CholeskyParams {
        leaf_lookahead: Some(false),
        ..fused
    };
    // The block handed over in shared memory with C loaded after the product (the default),
    // with C loaded first, and through global memory.
    let staged = CholeskyParams {
        fused_staged: Some(true),
        fused_c_first: Some(true),
        ..fused
    };
    let not_staged = CholeskyParams {
        fused_staged: Some(false),
        ..fused
    };
    let staged_late = CholeskyParams {
        fused_staged: Some(true),
        fused_c_first: Some(false),
        ..fused
    };
    assert!(launch.fused_staged() && !launch.fused_c_first);
    // The fused blocks factored without their inverses, the panels solved by substitution
    // (asked for: by default only single matrices, and this batch has three), and with
    // their inverses, the panels solved by the TRSM GEMM.
    let substitution = CholeskyParams {
        step_substitution: Some(true),
        ..fused
    };
    let inverses = CholeskyParams {
        step_substitution: Some(false),
        ..fused
    };
    // The blocks without inverses factored by the sub-block phases (the default), and by
    // plane 0 alone in two halves (`leaf_plane`).
    let substitution_plane = CholeskyParams {
        leaf_plane: Some(true),
        ..substitution
    };
    let plane_of = |p: &CholeskyParams| {
        CholeskyLaunch::new(&hw, p)
            .expect("launch")
            .blocked_for(&launch.leaf, false)
            .map(|b| b.plane_factor)
    };
    assert_ne!(plane_of(&substitution), Some(true));
    // The blocks' sub-blocks inverted, their panels multiplied by the inverses (by default
    // the sub-blocks are not inverted and their panels are solved by substitution).
    let substitution_inverses = CholeskyParams {
        leaf_subst: Some(false),
        ..substitution
    };
    // The update's grid as the whole square of tiles (by default only those on and below the
    // diagonal).
    let square = CholeskyParams {
        fused_tri_grid: Some(false),
        ..fused
    };
    assert!(plane_of(&substitution_plane).is_none_or(|on| on == BlockedLeafConfig::plane_fits(nb)));
    // A variant that resolves to an earlier one's launch (one of the look-ahead's two is the
    // default's) runs once.
    let mut seen = Vec::new();
    let variants: Vec<_> = [
        ("fused", fused),
        ("unfused", unfused),
        ("short trips", short),
        ("look-ahead", lookahead),
        ("no look-ahead", no_lookahead),
        ("staged", staged),
        ("not staged", not_staged),
        ("staged, C late", staged_late),
        ("substitution", substitution),
        ("substitution, plane path", substitution_plane),
        ("substitution, sub-block inverses", substitution_inverses),
        ("inverses", inverses),
        ("square grid", square),
    ]
    .into_iter()
    .filter(|(_, p)| {
        let l = CholeskyLaunch::new(&hw, p).expect("launch");
        let new = !seen.contains(&l);
        seen.push(l);
        new
    })
    .collect();
    for n in [nb + 1, 2 * nb, 2 * nb + 5, 3 * nb + 7, 5 * nb - 1] {
        for upper in [false, true] {
            let (mut a, _) = spd_batch(n, &[1e5, 10.0, 1.0], 41 + n as u64);
            let clean = a.clone();
            poison(&mut a, 3, n, upper);
            for (what, p) in &variants {
                let out = potrf_host(client, &a, &[3, n, n], upper, p).expect("potrf");
                check_factor(&clean, &out.l, &out.info, 3, n, upper, what);
            }
        }
    }
    // Failing pivots: in the first (unfused) block, in the first and the last row of a fused
    // block, and in a later one; the good matrix of the batch is untouched.
    let pivots = [None, Some(3), Some(nb), Some(2 * nb - 1), Some(3 * nb + 2)];
    for (what, p) in [
        ("staged", staged),
        ("not staged", not_staged),
        ("staged, C late", staged_late),
        ("substitution", substitution),
        ("substitution, plane path", substitution_plane),
        ("substitution, sub-block inverses", substitution_inverses),
        ("inverses", inverses),
        ("square grid", square),
    ] {
        failing_pivots(client, &p, 3 * nb + 7, &pivots, 43, what);
    }
    fused_mma(client, fused);
}

/// A batch of order-n matrices whose pivots fail where `pivots` says (`None`: SPD), factored
/// with `p`: `info` is each matrix's first failing order, and the good first matrix meets
/// the gate.
fn failing_pivots(
    client: &Client,
    p: &CholeskyParams,
    n: usize,
    pivots: &[Option<usize>],
    seed: u64,
    what: &str,
) {
    let (mut a, l) = spd_batch(n, &vec![10.0; pivots.len()], seed);
    let clean = a.clone();
    break_pivots(&mut a, &l, n, pivots);
    let out = potrf_host(client, &a, &[pivots.len(), n, n], false, p).expect("potrf");
    for (b, p) in pivots.iter().enumerate() {
        assert_eq!(
            out.info[b],
            p.map_or(0, |p| p as u32 + 1),
            "{what}, batch {b}: info"
        );
    }
    assert!(pivots[0].is_none());
    let s = 0..n * n;
    let (resid, _, finite) = cholesky_residual(&clean[s.clone()], &out.l[s], n, false);
    assert!(
        finite && resid <= cholesky_bound(n),
        "{what}, good matrix: {resid:e}"
    );
}

/// `CholeskyParams::fused_mma`: the fused steps' update cubes by 3×TF32 `mma.sync` (CUDA,
/// leaves of 64), refused elsewhere. Orders that are multiples of 4 (A's rows as 4-vectors:
/// the tensor-core tiles run), with ragged last tiles (260), and one that is not (198: the
/// launches fall back to the SIMT tiles), lower and upper (upper factors a dense copy of Aᵀ,
/// so its steps take the tensor-core tiles too); and a batch with failing pivots. Each also
/// with `fused_mma_leaf` (the diagonal block's cube too), which needs `fused_mma`, and with
/// `panel_mma` (the steps' panel solve on tensor cores), alone and with the update.
fn fused_mma(client: &Client, fused: CholeskyParams) {
    let hw = Hardware::of(client);
    let mma = CholeskyParams {
        fused_mma: Some(true),
        ..fused
    };
    let Some(launch) = CholeskyLaunch::new(&hw, &mma) else {
        assert!(
            !hw.tf32_manual_mma || hw.lanes != 32 || !hw.vector_views || fused.leaf.is_some(),
            "{hw:?}: the tensor-core update refused"
        );
        let panel = CholeskyParams {
            panel_mma: Some(true),
            ..fused
        };
        assert!(CholeskyLaunch::new(&hw, &panel).is_none(), "panel refused");
        // Off by default where refused.
        if fused.leaf.is_none() {
            let def = CholeskyLaunch::new(&hw, &CholeskyParams::default()).expect("launch");
            assert!(
                !def.fused_mma_for(usize::MAX, 4032),
                "default where refused"
            );
        }
        return;
    };
    assert!(launch.fused_mma && launch.leaf.nb == 64);
    // Asked for: every fused step. The default's regions are `fused_mma_policy_on_hopper`'s.
    assert!(launch.fused_mma_for(2 * 64, 64) && !launch.fused_mma_leaf);
    let leaf_32 = CholeskyParams {
        leaf: Some(32),
        ..mma
    };
    assert!(CholeskyLaunch::new(&hw, &leaf_32).is_none(), "leaf 32");
    let panel_32 = CholeskyParams {
        leaf: Some(32),
        panel_mma: Some(true),
        ..fused
    };
    assert!(
        CholeskyLaunch::new(&hw, &panel_32).is_none(),
        "panel, leaf 32"
    );
    // The panel solve on tensor cores, with the SIMT update tiles and with the tensor-core ones.
    let panel = CholeskyParams {
        panel_mma: Some(true),
        ..fused
    };
    let mma_panel = CholeskyParams {
        panel_mma: Some(true),
        ..mma
    };
    assert!(!launch.panel_mma && CholeskyLaunch::new(&hw, &panel).expect("panel").panel_mma);
    // The diagonal block's cube on tensor cores too (staged steps only).
    let mma_leaf = CholeskyParams {
        fused_mma_leaf: Some(true),
        ..mma
    };
    let mma_square = CholeskyParams {
        fused_tri_grid: Some(false),
        ..mma
    };
    let leaf_alone = CholeskyParams {
        fused_mma_leaf: Some(true),
        ..fused
    };
    assert!(
        CholeskyLaunch::new(&hw, &leaf_alone).is_none(),
        "leaf without fused_mma"
    );
    for (what, p) in [
        ("mma update", mma),
        ("mma update and leaf", mma_leaf),
        ("mma panel", panel),
        ("mma update and panel", mma_panel),
        ("mma update, square grid", mma_square),
    ] {
        for n in [128usize, 198, 260, 320] {
            for upper in [false, true] {
                let (mut a, _) = spd_batch(n, &[1e5, 10.0, 1.0], 47 + n as u64);
                let clean = a.clone();
                poison(&mut a, 3, n, upper);
                let out = potrf_host(client, &a, &[3, n, n], upper, &p).expect("potrf");
                check_factor(&clean, &out.l, &out.info, 3, n, upper, what);
            }
        }
        let pivots = [None, Some(3), Some(64), Some(127), Some(130)];
        failing_pivots(client, &p, 196, &pivots, 49, what);
    }
}

/// `CholeskyParams::step_substitution`: leaves factored without their inverses, each step's
/// panel solved from L11 by substitution (`potrf/panel_solve.rs`), and the inverses that the
/// recursion's TRSMs apply formed after each A11: stepping all the way (unfused: a batch),
/// mixed with the recursion above cutoffs, halves all the way, small leaves, lower and upper,
/// a batch of mixed κ with the unread triangle poisoned; failing pivots; and stepping with
/// it off. (`fused_syrk_leaf` runs it fused.) Refused with steps of several leaves; `panel_mma`
/// stands down under it. On by default for single matrices where the panel kernel runs.
pub fn step_substitution(client: &Client) {
    let hw = Hardware::of(client);
    let base = CholeskyParams {
        step_substitution: Some(true),
        ..CholeskyParams::default()
    };
    let launch = CholeskyLaunch::new(&hw, &base).expect("step_substitution refused");
    assert!(launch.substitutes(1) && launch.substitutes(3) && !launch.panel_mma);
    let nb = launch.leaf.nb;
    let several = CholeskyParams {
        step: Some(2 * nb),
        ..base
    };
    assert!(
        CholeskyLaunch::new(&hw, &several).is_none(),
        "steps of two leaves"
    );
    // The default for single matrices wherever the panel kernel runs and steps are one leaf;
    // an explicit `panel_mma` keeps the inverses.
    let def = CholeskyLaunch::new(&hw, &CholeskyParams::default()).expect("launch");
    assert_eq!(
        def.substitutes(1),
        def.step == def.leaf.nb && PanelSolveConfig::new(&hw, def.leaf.nb).is_some()
    );
    assert!(!def.substitutes(3), "batches keep the inverses by default");
    let mma = CholeskyParams {
        panel_mma: Some(true),
        ..CholeskyParams::default()
    };
    if let Some(l) = CholeskyLaunch::new(&hw, &mma) {
        assert!(l.panel_mma && !l.substitutes(1));
    }
    // The same stepping with the inverses and the TRSM GEMM, for comparison.
    let inverses = CholeskyParams {
        step_substitution: Some(false),
        ..CholeskyParams::default()
    };
    assert!(
        !CholeskyLaunch::new(&hw, &inverses)
            .expect("launch")
            .substitutes(1)
    );
    for (what, p) in [
        ("steps", base),
        ("steps with inverses", inverses),
        (
            "cutoff 3 leaves",
            CholeskyParams {
                blocked_below: Some(3 * nb),
                ..base
            },
        ),
        (
            "halves",
            CholeskyParams {
                blocked_below: Some(0),
                ..base
            },
        ),
        (
            "leaf 8, cutoff 40",
            CholeskyParams {
                leaf: Some(8),
                blocked_below: Some(40),
                ..base
            },
        ),
    ] {
        let lb = CholeskyLaunch::new(&hw, &p).expect(what).leaf.nb;
        for n in [lb + 1, 2 * lb + 5, 3 * lb + 7, 5 * lb - 1] {
            for upper in [false, true] {
                let (mut a, _) = spd_batch(n, &[1e5, 10.0, 1.0], 51 + n as u64);
                let clean = a.clone();
                poison(&mut a, 3, n, upper);
                let out = potrf_host(client, &a, &[3, n, n], upper, &p).expect("potrf");
                check_factor(&clean, &out.l, &out.info, 3, n, upper, what);
            }
        }
        let pivots = [None, Some(3), Some(lb), Some(2 * lb - 1), Some(3 * lb + 2)];
        failing_pivots(client, &p, 3 * lb + 7, &pivots, 53, what);
    }
}

/// The right-looking cutoff: blocks up to it split off one step at a time (all of them, a mix
/// with the recursion above it, and none: halves all the way), with small leaves and steps
/// of several leaves too.
pub fn right_looking_cutoff(client: &Client) {
    // Factors of two matrices (κ 1e4 and 3) at 65, 130 and 300, lower and upper, inputs
    // drawn from `seed`.
    let check = |p: &CholeskyParams, seed: u64, what: &str| {
        for &n in &[65usize, 130, 300] {
            for upper in [false, true] {
                let (mut a, _) = spd_batch(n, &[1e4, 3.0], seed + n as u64);
                let clean = a.clone();
                poison(&mut a, 2, n, upper);
                let out = potrf_host(client, &a, &[2, n, n], upper, p).expect("potrf");
                check_factor(&clean, &out.l, &out.info, 2, n, upper, what);
            }
        }
    };
    for (cut, leaf, step) in [
        (usize::MAX, None, None),
        (200, None, None),
        (0, None, None),
        (usize::MAX, None, Some(128)),
        (usize::MAX, Some(8), None),
        (40, Some(8), None),
        (0, Some(8), None),
        (usize::MAX, Some(8), Some(24)),
    ] {
        let p = CholeskyParams {
            blocked_below: Some(cut),
            leaf,
            step,
            ..CholeskyParams::default()
        };
        check(&p, 31, &format!("cutoff {cut} leaf {leaf:?} step {step:?}"));
    }
    // The GEMM that applies each step's diagonal-block inverse, with narrow tiles (64 × 16
    // scalar on GPUs, 64 × 2 in one unit on the CPU runtime); tiles shorter than the leaf
    // are refused.
    let hw = Hardware::of(client);
    let narrow = if hw.max_units_per_cube >= 256 {
        GemmConfig {
            units_x: 16,
            units_y: 16,
            tm: 4,
            tn: 1,
            tile_k: 32,
            unroll: true,
            vector: false,
        }
    } else {
        GemmConfig {
            units_x: 1,
            units_y: 1,
            tm: 64,
            tn: 2,
            tile_k: 8,
            unroll: false,
            vector: false,
        }
    };
    let p = CholeskyParams {
        solve_gemm: Some(narrow),
        ..CholeskyParams::default()
    };
    check(&p, 37, "narrow solve tiles");
    let short = CholeskyParams {
        solve_gemm: Some(GemmConfig {
            tm: narrow.tm / 2,
            ..narrow
        }),
        ..CholeskyParams::default()
    };
    let (a, _) = spd_batch(65, &[3.0], 38);
    let r = potrf_host(client, &a, &[65, 65], false, &short);
    assert!(matches!(r, Err(CholeskyError::Unsupported(_))), "{r:?}");
}

pub fn large_matrix(client: &Client) {
    let n = 1000;
    let (a, l_true) = spd_batch(n, &[1e3], 99);
    let out = potrf_host(client, &a, &[n, n], false, &CholeskyParams::default()).expect("potrf");
    check_factor(&a, &out.l, &out.info, 1, n, false, "n = 1000");
    // The large-update GEMM (the device default, a small SIMT tiling every runtime can run,
    // and the tensor-core kernels where the device has them: WMMA 3×TF32, mma.sync 3×TF32
    // with its sums in both places, mma.sync TF32) on updates from 100 rows up.
    let small_big = GemmKernel::Simt(GemmConfig {
        units_x: 2,
        units_y: 1,
        tm: 4,
        tn: 2,
        tile_k: 4,
        unroll: false,
        vector: false,
    });
    let mut bigs = vec![None, Some(small_big)];
    if GemmLaunch::tf32x3(&Hardware::of(client), TC_DEFAULT).is_some() {
        bigs.push(Some(GemmKernel::Tf32x3(TC_DEFAULT)));
    }
    if GemmLaunch::mma(&Hardware::of(client), MMA_DEFAULT).is_some() {
        bigs.push(Some(GemmKernel::Mma(MMA_DEFAULT)));
        bigs.push(Some(GemmKernel::Mma(MmaTiles {
            sums_in_shared: !MMA_DEFAULT.sums_in_shared,
            ..MMA_DEFAULT
        })));
        bigs.push(Some(GemmKernel::Mma(MmaTiles {
            split_on_read: !MMA_DEFAULT.split_on_read,
            ..MMA_DEFAULT
        })));
        // TF32 products: the gate (20·n·ε = 2.4e-3 here) still holds at κ = 1e3.
        bigs.push(Some(GemmKernel::Mma(MMA_TF32)));
    }
    for gemm_big in bigs {
        let p = CholeskyParams {
            gemm_big,
            big_from: Some(100),
            ..CholeskyParams::default()
        };
        for upper in [false, true] {
            let o = potrf_host(client, &a, &[n, n], upper, &p).expect("potrf");
            check_factor(&a, &o.l, &o.info, 1, n, upper, "big GEMM tiles");
        }
    }
    // The TF32 option: plain TF32 large updates where the device runs them, else the
    // defaults; here on updates from 100 rows up.
    let hw = Hardware::of(client);
    let tf32 = CholeskyParams::tf32_updates(&hw);
    let expect = GemmLaunch::mma(&hw, MMA_TF32).map(|_| GemmKernel::Mma(MMA_TF32));
    assert_eq!(tf32.gemm_big, expect, "{hw:?}");
    assert_eq!(
        CholeskyParams {
            gemm_big: None,
            ..tf32
        },
        CholeskyParams::default()
    );
    let p = CholeskyParams {
        big_from: Some(100),
        ..tf32
    };
    let o = potrf_host(client, &a, &[n, n], false, &p).expect("potrf");
    check_factor(&a, &o.l, &o.info, 1, n, false, "tf32_updates");
    // Well conditioned: the factor is the known one up to rounding.
    let err = out
        .l
        .iter()
        .zip(&l_true)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, linalg_common::reference::max_nan);
    assert!(err < 1e-3, "n = 1000: max |L − L_true| = {err:e}");
}

pub fn conditioning(client: &Client) {
    for &n in &[50usize, 130] {
        let kappas = [1.0, 1e2, 1e4, 1e6];
        let (mut a, _) = spd_batch(n, &kappas, 3);
        let clean = a.clone();
        poison(&mut a, kappas.len(), n, false);
        let out = potrf_host(
            client,
            &a,
            &[kappas.len(), n, n],
            false,
            &CholeskyParams::default(),
        )
        .expect("potrf");
        check_factor(&clean, &out.l, &out.info, kappas.len(), n, false, "kappa");
    }
}

/// SPD matrices scaled by 1e-30 and 1e30 (the products and pivots stay in f32's range):
/// the gate holds, lower and upper, through the leaves and the blocked path.
pub fn extreme_scaling(client: &Client) {
    for &n in &[40usize, 200] {
        for &scale in &[1e-30f32, 1e30] {
            let (a, _) = spd_batch(n, &[1.0, 1e4], 5 + n as u64);
            let a: Vec<f32> = a.iter().map(|x| x * scale).collect();
            for upper in [false, true] {
                let out = potrf_host(client, &a, &[2, n, n], upper, &CholeskyParams::default())
                    .expect("potrf");
                check_factor(
                    &a,
                    &out.l,
                    &out.info,
                    2,
                    n,
                    upper,
                    &format!("scaled by {scale:e}"),
                );
            }
        }
    }
}

/// Matrices that fail at chosen pivots (0-based p: the leading minor of order p + 1 is the
/// first that is not positive definite) next to good ones in the same batch.
pub fn info_reports_first_failure(client: &Client) {
    for (n, params) in [
        (130usize, CholeskyParams::default()),
        (40, CholeskyParams::default()),
        (
            70,
            CholeskyParams {
                leaf: Some(8),
                syrk_leaf: Some(16),
                ..CholeskyParams::default()
            },
        ),
    ] {
        let pivots: Vec<Option<usize>> = [
            None,
            Some(0),
            Some(5),
            None,
            Some(63),
            Some(64),
            Some(n - 1),
        ]
        .into_iter()
        .map(|p| p.filter(|p| *p < n))
        .collect();
        let batch = pivots.len();
        let (mut a, l) = spd_batch(n, &vec![10.0; batch], 11);
        let clean_good = a.clone();
        break_pivots(&mut a, &l, n, &pivots);
        for upper in [false, true] {
            let out = potrf_host(client, &a, &[batch, n, n], upper, &params).expect("potrf");
            for (b, p) in pivots.iter().enumerate() {
                let want = p.map_or(0, |p| p as u32 + 1);
                assert_eq!(out.info[b], want, "n={n} batch {b} upper={upper}: info");
                if p.is_none() {
                    let s = b * n * n..(b + 1) * n * n;
                    let (resid, _, finite) =
                        cholesky_residual(&clean_good[s.clone()], &out.l[s], n, upper);
                    assert!(
                        finite && resid <= cholesky_bound(n),
                        "good matrix {b} spoiled: {resid:e}"
                    );
                }
            }
        }
    }
}

pub fn nonfinite_and_errors(client: &Client) {
    let def = CholeskyParams::default();
    for &n in &[10usize, 100] {
        let (mut a, _) = spd_batch(n, &[1.0, 1.0, 1.0], 5);
        a[n * n + (n - 1) * n + 1] = f32::NAN; // batch 1, lower triangle
        a[2 * n * n + 2 * n + 2] = f32::INFINITY; // batch 2, diagonal
        let err = potrf_host(client, &a, &[3, n, n], false, &def).unwrap_err();
        assert_eq!(
            err,
            CholeskyError::NonFinite {
                batches: vec![1, 2]
            },
            "n={n}"
        );
    }
    let h = client.create_from_slice(f32::as_bytes(&[1.0f32; 12]));
    let not_square = MatrixRef::contiguous(&h, &[3, 4], "a").unwrap();
    assert!(matches!(
        potrf(client, not_square, false, &def),
        Err(CholeskyError::NotSquare {
            rows: 3,
            cols: 4,
            ..
        })
    ));
    assert!(matches!(
        MatrixRef::contiguous(&h, &[12], "a").map_err(CholeskyError::from),
        Err(CholeskyError::WrongRank { rank: 1, .. })
    ));
    // Runtimes round allocations up (12 values: 16 on the CPU runtime, more on CUDA), so the
    // shape asks for far more than any rounding.
    let short = MatrixRef::contiguous(&h, &[100, 30, 30], "a").unwrap();
    assert!(matches!(
        potrf(client, short, false, &def),
        Err(CholeskyError::BufferTooSmall { needed: 90000, .. })
    ));
    let a = MatrixRef::contiguous(&h, &[3, 3], "a").unwrap();
    let b = MatrixRef::contiguous(&h, &[4, 3], "b").unwrap();
    assert!(matches!(
        solve_triangular(client, a, b, false, true, false, &def),
        Err(CholeskyError::ShapeMismatch { .. })
    ));
    assert!(matches!(
        cholesky_solve(client, b, a, false, &def),
        Err(CholeskyError::ShapeMismatch { .. })
    ));
    let huge = MatrixRef {
        handle: &h,
        batch: 70_000,
        view: View::contiguous(300, 300),
    };
    assert!(matches!(
        potrf(client, huge, false, &def),
        Err(CholeskyError::IndexOverflow { .. })
    ));
    assert!(matches!(
        potrf_host(client, &[1.0; 5], &[2, 2], false, &def),
        Err(CholeskyError::DataLength { needed: 4, got: 5 })
    ));
    // A leaf that is not a multiple of 8 is refused, not run.
    let odd = CholeskyParams {
        leaf: Some(12),
        ..CholeskyParams::default()
    };
    assert!(matches!(
        potrf_host(client, &[4.0], &[1, 1], false, &odd),
        Err(CholeskyError::Unsupported(_))
    ));
    // Empty input gives empty output (torch returns empty factors).
    let e = potrf_host(client, &[], &[0, 5, 5], false, &def).expect("empty batch");
    assert!(e.l.is_empty() && e.info.is_empty());
    let e = potrf_host(client, &[], &[3, 0, 0], false, &def).expect("n = 0");
    assert_eq!(e.info, vec![0, 0, 0]);
    // Non-SPD is not an error.
    let bad = potrf_host(client, &[-1.0, 0.0, 0.0, 1.0], &[2, 2], false, &def).expect("info");
    assert_eq!(bad.info, vec![1]);
}

/// A well-conditioned triangular matrix (its other triangle NaN; its diagonal NaN too when the
/// solve is told the diagonal is unit).
fn triangular(n: usize, upper: bool, unit: bool, seed: u64) -> (Vec<f32>, Vec<f64>) {
    let mut s = Stream::new(seed);
    let mut t = vec![f32::NAN; n * n];
    let mut dense = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..n {
            let inside = if upper { j >= i } else { j <= i };
            if !inside {
                continue;
            }
            let z = s.normal();
            let v = if i == j {
                2.0 + z.abs()
            } else {
                z / (n as f64).sqrt()
            };
            t[i * n + j] = v as f32;
            dense[i * n + j] = v as f32 as f64;
            if i == j && unit {
                t[i * n + j] = f32::NAN;
                dense[i * n + j] = 1.0;
            }
        }
    }
    (t, dense)
}

fn transpose(a: &[f64], r: usize, c: usize) -> Vec<f64> {
    (0..r * c).map(|idx| a[(idx % r) * c + idx / r]).collect()
}

/// L·Lᵀ in f64 for matrix `bi` of a batch of f32 factors: the matrix the factor represents.
fn factor_product(l: &[f32], bi: usize, n: usize) -> Vec<f64> {
    let lb: Vec<f64> = l[bi * n * n..(bi + 1) * n * n]
        .iter()
        .map(|v| *v as f64)
        .collect();
    matmul(&lb, &transpose(&lb, n, n), n, n, n)
}

/// ‖op·X − B‖₁ / (‖op‖₁‖X‖₁ + ‖B‖₁) for left (A·X) or right (X·A) products.
fn solve_residual(
    a: &[f64],
    x: &[f32],
    b: &[f32],
    n: usize,
    r: usize,
    c: usize,
    left: bool,
) -> f64 {
    let x64: Vec<f64> = x.iter().map(|v| *v as f64).collect();
    let b64: Vec<f64> = b.iter().map(|v| *v as f64).collect();
    let ax = if left {
        matmul(a, &x64, n, n, c)
    } else {
        matmul(&x64, a, r, n, n)
    };
    let d: Vec<f64> = ax.iter().zip(&b64).map(|(p, q)| p - q).collect();
    norm1(&d, r, c) / (norm1(a, n, n) * norm1(&x64, r, c) + norm1(&b64, r, c))
}

pub fn triangular_solves(client: &Client) {
    let def = CholeskyParams::default();
    let small = CholeskyParams {
        leaf: Some(8),
        syrk_leaf: Some(16),
        ..CholeskyParams::default()
    };
    // Few right-hand sides go through block substitution (trsv_max_k, default 16): also
    // the GEMM recursion for them, and substitution up to 24 (k = 20).
    let no_trsv = CholeskyParams {
        trsv_max_k: Some(0),
        ..CholeskyParams::default()
    };
    let wide_trsv = CholeskyParams {
        trsv_max_k: Some(24),
        ..CholeskyParams::default()
    };
    // The substitution in one launch (`trsv_chain`; the default where cubes can hand data to
    // each other), at the default and the wide k, and one launch per block (the default
    // elsewhere).
    let per_block = CholeskyParams {
        trsv_chain: Some(false),
        ..CholeskyParams::default()
    };
    let chain = CholeskyParams {
        trsv_chain: Some(true),
        ..CholeskyParams::default()
    };
    let wide_chain = CholeskyParams {
        trsv_chain: Some(true),
        ..wide_trsv
    };
    // It runs where cubes can hand data to each other (CUDA, the CPU runtime; not wgpu's
    // WGSL), and is refused elsewhere.
    let hw = Hardware::of(client);
    let chains = CholeskyLaunch::new(&hw, &chain).is_some_and(|l| l.trsv_chain);
    assert_eq!(chains, hw.cube_handoff, "{hw:?}");
    let by_default = CholeskyLaunch::new(&hw, &def).expect("launch").trsv_chain;
    assert_eq!(by_default, hw.cube_handoff, "{hw:?}");
    let isolated = Hardware {
        cube_handoff: false,
        ..hw
    };
    assert!(CholeskyLaunch::new(&isolated, &chain).is_none());
    // Its own inverse staged before the wait (`trsv_prefetch`, the default where a second
    // block fits the shared memory) or after it: the other one here, where it fits (leaves of
    // 32 on the CPU runtime's 32 KiB). An explicit prefetch that does not fit is refused.
    let ahead = |p: &CholeskyParams| {
        CholeskyLaunch::new(&hw, p)
            .and_then(|l| l.trsv)
            .is_some_and(|c| c.inv_ahead)
    };
    let ahead_default = ahead(&def);
    let flipped = |base: CholeskyParams| CholeskyParams {
        trsv_prefetch: Some(!ahead_default),
        leaf: if ahead_default { None } else { Some(32) },
        ..base
    };
    assert_eq!(ahead(&flipped(def)), !ahead_default, "{hw:?}");
    let other_prefetch = flipped(chain);
    let nb = CholeskyLaunch::new(&hw, &def).expect("launch").leaf.nb;
    let cramped = Hardware {
        max_shared_bytes: 4 * (2 * nb * (nb + 1) + 2 * nb * 16) - 4,
        ..hw
    };
    let fallback = CholeskyLaunch::new(&cramped, &def).expect("launch");
    assert!(fallback.trsv.is_some_and(|c| !c.inv_ahead), "{cramped:?}");
    let prefetch = CholeskyParams {
        trsv_prefetch: Some(true),
        ..CholeskyParams::default()
    };
    assert!(CholeskyLaunch::new(&cramped, &prefetch).is_none());
    // Where the chain is the default, `def` covers it up to 130 rows.
    let chain_sizes: &[usize] = match (chains, by_default) {
        (false, _) => &[],
        (true, true) => &[200],
        (true, false) => &[17, 65, 130, 200],
    };
    let wide_chain_sizes: &[usize] = if chains { &[130] } else { &[] };
    for (params, sizes) in [
        (&def, &[1usize, 17, 64, 65, 130][..]),
        (&small, &[9, 33][..]),
        (&no_trsv, &[65, 130][..]),
        (&wide_trsv, &[130, 200][..]),
        (&chain, chain_sizes),
        (&wide_chain, wide_chain_sizes),
        (&other_prefetch, if chains { &[65, 130][..] } else { &[] }),
        (&per_block, &[65, 130][..]),
    ] {
        for &n in sizes {
            for &k in &[1usize, 7, 20, 40] {
                for upper in [false, true] {
                    for left in [true, false] {
                        for unit in [false, true] {
                            let batch = 2;
                            let (r, c) = if left { (n, k) } else { (k, n) };
                            let mut a = Vec::new();
                            let mut dense = Vec::new();
                            for bi in 0..batch {
                                let (t, d) = triangular(n, upper, unit, (n * 100 + k + bi) as u64);
                                a.extend(t);
                                dense.push(d);
                            }
                            let b = linalg_common::rng::uniform_vec(n as u64 + 5, batch * r * c);
                            let ha = client.create_from_slice(f32::as_bytes(&a));
                            let hb = client.create_from_slice(f32::as_bytes(&b));
                            let am = MatrixRef::contiguous(&ha, &[batch, n, n], "a").unwrap();
                            let bm = MatrixRef::contiguous(&hb, &[batch, r, c], "b").unwrap();
                            let x = solve_triangular(client, am, bm, upper, left, unit, params)
                                .expect("solve")
                                .read(client)
                                .expect("read");
                            for bi in 0..batch {
                                let s = bi * r * c..(bi + 1) * r * c;
                                let res = solve_residual(
                                    &dense[bi],
                                    &x.x[s.clone()],
                                    &b[s],
                                    n,
                                    r,
                                    c,
                                    left,
                                );
                                assert!(
                                    res <= 20.0 * n as f64 * EPS,
                                    "n={n} k={k} upper={upper} left={left} unit={unit} batch {bi}: {res:e}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    if !chains {
        let (t, _) = triangular(65, false, false, 3);
        let ht = client.create_from_slice(f32::as_bytes(&t));
        let hb = client.create_from_slice(f32::as_bytes(&[1.0f32; 65]));
        let tm = MatrixRef::dense(&ht, 1, 65, 65);
        let bm = MatrixRef::dense(&hb, 1, 65, 1);
        let r = solve_triangular(client, tm, bm, false, true, false, &chain);
        assert!(
            matches!(r, Err(CholeskyError::Unsupported(_))),
            "{:?}",
            r.map(|_| ())
        );
    }
}

/// [`strided_views`]' triangular solve of `am`·X = `bm` with `p`, checked per matrix.
fn strided_solve(
    client: &Client,
    am: MatrixRef,
    bm: MatrixRef,
    p: &CholeskyParams,
    dense: &[f64],
    bt: &[f32],
    (n, k, batch): (usize, usize, usize),
) {
    let x = solve_triangular(client, am, bm, false, true, false, p)
        .expect("solve")
        .read(client)
        .expect("read");
    for bi in 0..batch {
        let b: Vec<f32> = transpose(
            &bt[bi * k * n..(bi + 1) * k * n]
                .iter()
                .map(|v| *v as f64)
                .collect::<Vec<_>>(),
            k,
            n,
        )
        .iter()
        .map(|v| *v as f32)
        .collect();
        let res = solve_residual(dense, &x.x[bi * n * k..(bi + 1) * n * k], &b, n, n, k, true);
        assert!(res <= 20.0 * n as f64 * EPS, "{p:?}: batch {bi}: {res:e}");
    }
}

/// Strided inputs read in place: B given as the transpose of a stored matrix, A broadcast
/// over the batch (stride 0), and a sub-block of a larger buffer.
pub fn strided_views(client: &Client) {
    let def = CholeskyParams::default();
    let (n, k, batch) = (70usize, 5usize, 3usize);
    let (t, dense) = triangular(n, false, false, 1);
    // Embed A at offset (2, 3) of a 75×80 buffer.
    let (big_r, big_c) = (75usize, 80usize);
    let mut big = vec![f32::NAN; big_r * big_c];
    for i in 0..n {
        for j in 0..n {
            big[(i + 2) * big_c + j + 3] = t[i * n + j];
        }
    }
    // Bᵀ stored: batch × k × n; B is its transpose view.
    let bt = linalg_common::rng::uniform_vec(77, batch * k * n);
    let ha = client.create_from_slice(f32::as_bytes(&big));
    let hb = client.create_from_slice(f32::as_bytes(&bt));
    let am = MatrixRef {
        handle: &ha,
        batch: 1,
        view: View {
            offset: 2 * big_c + 3,
            rows: n,
            cols: n,
            row_stride: big_c,
            col_stride: 1,
            batch_stride: 0,
        },
    };
    let bm = MatrixRef {
        handle: &hb,
        batch,
        view: View::contiguous(k, n).t(),
    };
    // Also through whole inverted blocks of 32 (T's diagonal blocks copied from the embedded,
    // broadcast A for each matrix of the batch).
    let whole = CholeskyParams {
        leaf: Some(8),
        inv_block: Some(64),
        inv_rhs: Some(8),
        trsv_max_k: Some(0),
        ..CholeskyParams::default()
    };
    let launch = CholeskyLaunch::new(&Hardware::of(client), &whole).expect("launch");
    assert_eq!(launch.whole_order(n, k, batch), 32);
    for p in [&def, &whole] {
        strided_solve(client, am, bm, p, &dense, &bt, (n, k, batch));
    }
    // potrf of a transposed (column-major) input with upper = true reads its upper triangle.
    let (a, _) = spd_from_factor(n, 10.0, 8);
    let mut at = a.clone();
    poison(&mut at, 1, n, false); // keep the lower triangle only…
    let h = client.create_from_slice(f32::as_bytes(&at));
    let view = View::contiguous(n, n).t(); // …which is the upper triangle of the view
    let out = potrf(
        client,
        MatrixRef {
            handle: &h,
            batch: 1,
            view,
        },
        true,
        &def,
    )
    .unwrap()
    .read(client)
    .unwrap();
    check_factor(&a, &out.l, &out.info, 1, n, true, "transposed input");
}

pub fn cholesky_solve_and_inverse(client: &Client) {
    let def = CholeskyParams::default();
    for &n in &[1usize, 20, 65, 150] {
        let batch = 2;
        let (a, l) = spd_batch(n, &[1.0, 1e3], 21);
        let k = 9;
        let b = linalg_common::rng::uniform_vec(3, batch * n * k);
        for upper in [false, true] {
            // The known factor, as L or as U = Lᵀ, with the other triangle poisoned.
            let mut f = Vec::new();
            for bi in 0..batch {
                let lb = &l[bi * n * n..(bi + 1) * n * n];
                for i in 0..n {
                    for j in 0..n {
                        f.push(if upper { lb[j * n + i] } else { lb[i * n + j] });
                    }
                }
            }
            poison(&mut f, batch, n, upper);
            let hf = client.create_from_slice(f32::as_bytes(&f));
            let hb = client.create_from_slice(f32::as_bytes(&b));
            let fm = MatrixRef::contiguous(&hf, &[batch, n, n], "l").unwrap();
            let bm = MatrixRef::contiguous(&hb, &[batch, n, k], "b").unwrap();
            let x = cholesky_solve(client, bm, fm, upper, &def)
                .unwrap()
                .read(client)
                .unwrap();
            let inv = cholesky_inverse(client, fm, upper, &def)
                .unwrap()
                .read(client)
                .unwrap();
            for bi in 0..batch {
                let am = factor_product(&l, bi, n);
                let s = bi * n * k..(bi + 1) * n * k;
                let res = solve_residual(&am, &x.x[s.clone()], &b[s], n, n, k, true);
                assert!(
                    res <= 40.0 * n as f64 * EPS,
                    "solve n={n} upper={upper}: {res:e}"
                );
                let si = bi * n * n..(bi + 1) * n * n;
                let eye: Vec<f32> = (0..n * n)
                    .map(|i| if i % (n + 1) == 0 { 1.0 } else { 0.0 })
                    .collect();
                let res = solve_residual(&am, &inv.x[si], &eye, n, n, n, true);
                assert!(
                    res <= 40.0 * n as f64 * EPS,
                    "inverse n={n} upper={upper}: {res:e}"
                );
            }
        }
        let _ = &a;
    }
}

/// Triangular solves whose leaves are whole inverted diagonal blocks (`inv_block`, doubled
/// from the leaves' inverses), at orders that make several doubling levels, ragged tails
/// and nested recursions cheap: potrf recursing all the way (its TRSMs take the blocks),
/// with κ up to 1e6; solve_triangular in every orientation, unit diagonal too, with B read
/// transposed; cholesky_solve. Each against the same bounds as without the blocks. Block
/// orders that are not the leaf times a power of two are refused.
pub fn inverse_blocks(client: &Client) {
    // The block order must be the leaf (64) times a power of two ≥ 2, or 0 (off); a leaf that
    // does not divide 1024 gets a default that fits it.
    let (a, _) = spd_batch(70, &[10.0], 6);
    for (inv_block, leaf, ok) in [
        (Some(64), None, false),
        (Some(96), None, false),
        (Some(100), None, false),
        (Some(0), None, true),
        (Some(128), None, true),
        (None, Some(24), true),
    ] {
        let p = CholeskyParams {
            inv_block,
            leaf,
            ..CholeskyParams::default()
        };
        let r = potrf_host(client, &a, &[70, 70], false, &p);
        if ok {
            let out = r.expect("potrf");
            check_factor(&a, &out.l, &out.info, 1, 70, false, "inv_block accepted");
        } else {
            assert!(
                matches!(r, Err(CholeskyError::Unsupported(_))),
                "inv_block {inv_block:?}: {r:?}"
            );
        }
    }
    // The last: every update from 32 rows and K 8 on takes the large-update GEMM (the
    // device's default: on the H200 the mma kernel, its K skipping included).
    for (leaf, inv_block, sizes, big) in [
        (8, 32, &[100usize, 203][..], None),
        (16, 32, &[100][..], None),
        (8, 16, &[57][..], None),
        (8, 32, &[100][..], Some(32)),
    ] {
        let p = CholeskyParams {
            leaf: Some(leaf),
            inv_block: Some(inv_block),
            blocked_below: Some(0),
            big_from: big,
            big_min_k: big.map(|_| 8),
            ..CholeskyParams::default()
        };
        for &n in sizes {
            for upper in [false, true] {
                let (mut a, _) = spd_batch(n, &[1e6, 3.0], 41 + n as u64);
                let clean = a.clone();
                poison(&mut a, 2, n, upper);
                let what = format!("leaf {leaf}, inverted blocks of {inv_block}, big {big:?}");
                eprintln!("inverse_blocks: potrf n={n} upper={upper} {what}");
                let out = potrf_host(client, &a, &[2, n, n], upper, &p).expect("potrf");
                check_factor(&clean, &out.l, &out.info, 2, n, upper, &what);
            }
        }
    }
    let hw = Hardware::of(client);
    let order = |p: &CholeskyParams, n: usize, k: usize, batch: usize| {
        let launch = CholeskyLaunch::new(&hw, p).expect("launch");
        launch.whole_order(n, k, batch)
    };
    // Solves with whole blocks of 32: from `inv_block` (40 right-hand sides ≥ 32), and from
    // `inv_rhs` (20 < 64 = inv_block; the largest 8·2^i ≤ 2·20 is 32).
    for (inv_block, inv_rhs, k) in [(32usize, None, 40usize), (64, Some(2), 20)] {
        let p = CholeskyParams {
            leaf: Some(8),
            inv_block: Some(inv_block),
            inv_rhs,
            ..CholeskyParams::default()
        };
        assert_eq!(
            order(&p, 90, k, 2),
            32,
            "whole blocks for {k} right-hand sides"
        );
        solves_with_blocks(client, &p, 90, k, 2);
    }
    // Batches whose blocks are inverted by GEMMs over every matrix at once, their T's
    // diagonal blocks and the leaves' inverses copied in by one launch (96: the leaves step
    // uniformly), one per block (3 matrices, 3 blocks; 5 matrices, 1 block), one per leaf (5
    // matrices, 4 leaves) or one per matrix (2 matrices of 3 blocks and 12 leaves).
    let p = CholeskyParams {
        leaf: Some(8),
        inv_block: Some(32),
        ..CholeskyParams::default()
    };
    for (n, batch) in [(96usize, 3usize), (40, 5), (100, 2)] {
        solves_with_blocks(client, &p, n, 40, batch);
    }
    let p = CholeskyParams {
        leaf: Some(8),
        inv_rhs: Some(2),
        ..CholeskyParams::default()
    };
    for (k, s) in [(7usize, 0usize), (8, 16), (15, 16), (16, 32), (600, 1024)] {
        assert_eq!(order(&p, 4096, k, 2), s, "inv_rhs 2, {k} right-hand sides");
    }
    // An explicit ratio is capped by the order: the largest block that fits.
    assert_eq!(order(&p, 40, 100, 2), 32);
    // By default on GPUs: whole blocks of up to 32·k and n/2 for a single matrix, up to 16·k
    // and n/4 for a batch with batch·n ≤ DEFAULT_WHOLE_WORK, none for larger batches; none
    // on the CPU runtime. From inv_block right-hand sides on, blocks of inv_block.
    let p = CholeskyParams {
        leaf: Some(8),
        ..CholeskyParams::default()
    };
    let gpu = hw.max_units_per_cube >= 256;
    let on_gpu = |s: usize| if gpu { s } else { 0 };
    assert_eq!(order(&p, 4096, 20, 1), on_gpu(512), "{hw:?}");
    assert_eq!(order(&p, 300, 20, 1), on_gpu(128));
    assert_eq!(order(&p, 1024, 20, 2), on_gpu(256));
    assert_eq!(order(&p, 1024, 10, 2), on_gpu(128));
    let wide = DEFAULT_WHOLE_WORK / 1024 + 1;
    assert_eq!(order(&p, 1024, 20, wide), 0);
    assert_eq!(order(&p, 4096, 2000, 2), 1024);
    assert_eq!(order(&p, 4096, 2000, wide), 1024);
    // A batch with the defaults (leaf 64): on GPUs whole blocks of 128 (16·20 and 600/4),
    // four of them and an 88-row tail.
    solves_with_blocks(client, &CholeskyParams::default(), 600, 20, 2);
    // A single matrix with GPUs' default (leaf 64, inv_rhs 8): whole blocks of 128 for 20
    // right-hand sides, two of them and a 44-row tail.
    let p = CholeskyParams {
        inv_rhs: Some(8),
        ..CholeskyParams::default()
    };
    assert_eq!(order(&p, 300, 20, 1), 128);
    solves_with_blocks(client, &p, 300, 20, 1);
}

/// [`inverse_blocks`]' solves: solve_triangular in every orientation (B read transposed) and
/// cholesky_solve, `batch` matrices of n × n, k right-hand sides, with `p`.
fn solves_with_blocks(client: &Client, p: &CholeskyParams, n: usize, k: usize, batch: usize) {
    let what = format!(
        "inv_block {:?}, inv_rhs {:?}, k {k}",
        p.inv_block, p.inv_rhs
    );
    for upper in [false, true] {
        for left in [true, false] {
            for unit in [false, true] {
                let (r, c) = if left { (n, k) } else { (k, n) };
                let mut a = Vec::new();
                let mut dense = Vec::new();
                for bi in 0..batch {
                    let (t, d) = triangular(n, upper, unit, (n * 10 + bi) as u64);
                    a.extend(t);
                    dense.push(d);
                }
                // B stored transposed (c × r), read through a transposed view.
                let bt = linalg_common::rng::uniform_vec(17, batch * r * c);
                let ha = client.create_from_slice(f32::as_bytes(&a));
                let hb = client.create_from_slice(f32::as_bytes(&bt));
                let am = MatrixRef::contiguous(&ha, &[batch, n, n], "a").unwrap();
                let mut bm = MatrixRef::contiguous(&hb, &[batch, c, r], "b").unwrap();
                bm.view = bm.view.t();
                eprintln!("inverse_blocks: solve upper={upper} left={left} unit={unit} {what}");
                let x = solve_triangular(client, am, bm, upper, left, unit, p)
                    .expect("solve")
                    .read(client)
                    .expect("read");
                for bi in 0..batch {
                    let b: Vec<f32> = (0..r * c)
                        .map(|e| bt[bi * r * c + (e % c) * r + e / c])
                        .collect();
                    let s = bi * r * c..(bi + 1) * r * c;
                    let res = solve_residual(&dense[bi], &x.x[s], &b, n, r, c, left);
                    assert!(
                        res <= 20.0 * n as f64 * EPS,
                        "{what}: upper={upper} left={left} unit={unit} batch {bi}: {res:e}"
                    );
                }
            }
        }
    }
    let kappas: Vec<f64> = (0..batch).map(|i| [1e4, 2.0][i % 2]).collect();
    let (_, l) = spd_batch(n, &kappas, 23);
    let b = linalg_common::rng::uniform_vec(29, batch * n * k);
    let hl = client.create_from_slice(f32::as_bytes(&l));
    let hb = client.create_from_slice(f32::as_bytes(&b));
    let lm = MatrixRef::contiguous(&hl, &[batch, n, n], "l").unwrap();
    let bm = MatrixRef::contiguous(&hb, &[batch, n, k], "b").unwrap();
    let x = cholesky_solve(client, bm, lm, false, p)
        .unwrap()
        .read(client)
        .unwrap();
    for bi in 0..batch {
        let am = factor_product(&l, bi, n);
        let s = bi * n * k..(bi + 1) * n * k;
        let res = solve_residual(&am, &x.x[s.clone()], &b[s], n, n, k, true);
        assert!(
            res <= 40.0 * n as f64 * EPS,
            "{what}: cholesky_solve batch {bi}: {res:e}"
        );
    }
}

/// A batch of small matrices is one launch, and each result equals the unbatched one bitwise.
pub fn batched_small(client: &Client) {
    let def = CholeskyParams::default();
    let n = 32;
    let batch = 300;
    let kappas: Vec<f64> = (0..batch).map(|i| 10f64.powi((i % 7) as i32)).collect();
    let (a, _) = spd_batch(n, &kappas, 4);
    let out = potrf_host(client, &a, &[batch, n, n], false, &def).expect("batch");
    check_factor(&a, &out.l, &out.info, batch, n, false, "batch of 300");
    for b in [0usize, 137, 299] {
        let one = potrf_host(client, &a[b * n * n..(b + 1) * n * n], &[n, n], false, &def).unwrap();
        assert_eq!(
            one.l,
            out.l[b * n * n..(b + 1) * n * n],
            "batch {b} differs from unbatched"
        );
    }
    // Every small order (one launch of a whole-op kernel, sized by n) with failing matrices
    // mixed in, on every batched kernel.
    let hw = Hardware::of(client);
    let gpu = hw.max_units_per_cube >= 256;
    let kernel = |k: BatchedLeaf| CholeskyParams {
        batched_leaf: Some(k),
        ..CholeskyParams::default()
    };
    let tiled = kernel(BatchedLeaf::Tiled);
    let crout = kernel(BatchedLeaf::Crout);
    let crout_one = CholeskyParams {
        small_units: Some(1),
        ..crout
    };
    // Rows in 2–4 slots of 16 units (one unit each on the CPU runtime), several matrices per
    // cube, so the last cube of a batch of 9 is ragged.
    let rows_multi = CholeskyParams {
        small_units: Some(if gpu { 16 } else { 1 }),
        small_mats: Some(if gpu { 4 } else { 2 }),
        ..kernel(BatchedLeaf::Rows)
    };
    // Vector I/O only where the device can view buffers as vectors (not wgpu).
    let launch = CholeskyLaunch::new(&hw, &def).expect("launch");
    let no_views = CholeskyLaunch::new(
        &Hardware {
            vector_views: false,
            ..hw
        },
        &def,
    )
    .expect("launch");
    for n in [16usize, 64] {
        for upper in [false, true] {
            assert!(
                !no_views.rows_for(n, true, upper, 9).expect("rows").vec,
                "n={n}"
            );
            let cfg = launch.rows_for(n, true, upper, 9).expect("rows");
            assert_eq!(cfg.vec, hw.vector_views, "n={n} upper={upper}");
            assert_eq!(cfg.cols, cfg.vec && upper, "n={n} upper={upper}");
            // Small batches load at once: lower always, upper on GPUs (where the multiprocessor
            // count is known).
            let whole = cfg.vec && (!cfg.cols || (gpu && hw.num_sms.is_some()));
            assert_eq!(cfg.load_whole, whole, "n={n} upper={upper}");
            // Past the crossovers (cubes per multiprocessor), two trips: checked with this
            // device's multiprocessor count, or 4 where the runtime reports none.
            let sms = hw.num_sms.unwrap_or(4) as usize;
            let counted = CholeskyLaunch::new(
                &Hardware {
                    num_sms: Some(sms as u32),
                    ..hw
                },
                &def,
            )
            .expect("launch");
            let per_sm = if cfg.cols {
                CholeskyLaunch::UPPER_WHOLE_PER_SM
            } else {
                CholeskyLaunch::LOWER_WHOLE_PER_SM
            };
            for (cubes, whole) in [
                (per_sm * sms, cfg.vec && (!cfg.cols || gpu)),
                (per_sm * sms + 1, false),
            ] {
                let c = counted
                    .rows_for(n, true, upper, cubes * cfg.mats)
                    .expect("rows");
                assert_eq!(c.load_whole, whole, "n={n} upper={upper} {cubes} cubes");
            }
        }
    }
    // The vector load in one trip and in two, lower and upper (the defaults take one of
    // them), where the device takes vector loads.
    let rows_load: Vec<_> = [true, false]
        .into_iter()
        .filter(|_| hw.vector_views)
        .map(|whole| CholeskyParams {
            small_load_whole: Some(whole),
            ..def
        })
        .collect();
    // The rows kernel's scalar load and store where the default takes vectors (lower, n a
    // multiple of 4).
    let rows_scalar = CholeskyParams {
        small_vec: Some(false),
        ..kernel(BatchedLeaf::Rows)
    };
    for &n in &[1usize, 5, 8, 9, 16, 31, 32, 33, 50, 64] {
        // The default takes the rows kernel for every order; two matrices of order 64 per
        // cube need more than the 32 KiB of shared memory of some runtimes.
        for (p, upto) in [(def, 64), (rows_multi, 32)] {
            let launch = CholeskyLaunch::new(&hw, &p).expect("launch");
            let rows = [false, true].into_iter().all(|upper| {
                launch.rows_for(n, false, upper, 9).is_some()
                    && launch.rows_for(n, true, upper, 9).is_some()
            });
            assert!(rows || n > upto, "n={n}: {p:?} not on the rows kernel");
        }
        let load = if n == 32 || n == 64 {
            &rows_load[..]
        } else {
            &[]
        };
        for p in [def, rows_scalar, rows_multi, crout, tiled, crout_one]
            .into_iter()
            .chain(load.iter().copied())
        {
            let batch = 9;
            let (mut a, l) = spd_batch(n, &vec![1e3; batch], 70 + n as u64);
            let fail_at = |b: usize| (b % 3 == 1).then_some((b * 7) % n);
            let clean = a.clone();
            for b in 0..batch {
                if let Some(q) = fail_at(b) {
                    let lp = l[b * n * n + q * n + q] as f64;
                    let d = a[b * n * n + q * n + q] as f64 - 1.5 * lp * lp;
                    a[b * n * n + q * n + q] = d as f32;
                }
            }
            for upper in [false, true] {
                let mut ap = a.clone();
                poison(&mut ap, batch, n, upper);
                let out = potrf_host(client, &ap, &[batch, n, n], upper, &p).expect("potrf");
                for b in 0..batch {
                    let want = fail_at(b).map_or(0, |q| q as u32 + 1);
                    let what = format!("n={n} upper={upper} batch {b}");
                    assert_eq!(out.info[b], want, "{what}");
                    if want == 0 {
                        let s = b * n * n..(b + 1) * n * n;
                        let (r, zero, finite) =
                            cholesky_residual(&clean[s.clone()], &out.l[s], n, upper);
                        assert!(zero && finite && r <= cholesky_bound(n), "{what}: {r:e}");
                    } else if p.batched_leaf != Some(BatchedLeaf::Tiled) {
                        // L's columns before the failed pivot, zeros from it on.
                        let q = want as usize - 1;
                        for i in 0..n {
                            for k in 0..n {
                                let (r, c) = if upper { (k, i) } else { (i, k) };
                                let got = out.l[b * n * n + r * n + c];
                                let exp = if k < q && k <= i {
                                    l[b * n * n + i * n + k]
                                } else {
                                    0.0
                                };
                                assert!(
                                    (got - exp).abs() <= 1e-3,
                                    "{what} ({i},{k}): {got} vs {exp}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    // Sliced inputs, NaN everywhere but the triangle used. Order 13 at an offset of 9, rows
    // 17 words apart, matrices 300 apart (element by element); order 60 at an offset of 8, rows
    // 68 apart, matrices 4200 apart (4-vectors where the device views buffers so). The buffer
    // holds the lower triangle, read as lower and, through the transposed view, as upper; or
    // the upper triangle, read as upper (4-vectors down the kernel's columns).
    for (n, batch, ld, bs, off) in [
        (13usize, 5usize, 17usize, 300usize, 9usize),
        (60, 3, 68, 4200, 8),
    ] {
        let (a, _) = spd_batch(n, &vec![1e2; batch], 91 + n as u64);
        let view = View {
            offset: off,
            rows: n,
            cols: n,
            row_stride: ld,
            col_stride: 1,
            batch_stride: bs,
        };
        for stored_upper in [false, true] {
            let mut buf = vec![f32::NAN; off + batch * bs];
            for b in 0..batch {
                for i in 0..n {
                    for k in 0..=i {
                        let (r, c) = if stored_upper { (k, i) } else { (i, k) };
                        buf[off + b * bs + r * ld + c] = a[b * n * n + i * n + k];
                    }
                }
            }
            let h = client.create_from_slice(f32::as_bytes(&buf));
            let cfg = launch
                .rows_for(
                    n,
                    RowsConfig::vec_fits(&view, 0, n, batch),
                    stored_upper,
                    batch,
                )
                .expect("rows");
            assert_eq!(cfg.vec, n == 60 && hw.vector_views, "n={n}");
            assert_eq!(cfg.cols, cfg.vec && stored_upper, "n={n}");
            for p in [def, rows_scalar, rows_multi, crout]
                .into_iter()
                .chain(rows_load.iter().copied())
            {
                let uplos: &[bool] = if stored_upper {
                    &[true]
                } else {
                    &[false, true]
                };
                for &upper in uplos {
                    let m = MatrixRef {
                        handle: &h,
                        batch,
                        view: if upper != stored_upper {
                            view.t()
                        } else {
                            view
                        },
                    };
                    let out = potrf(client, m, upper, &p).unwrap().read(client).unwrap();
                    let what =
                        format!("sliced n={n}, stored upper={stored_upper}, upper={upper}, {p:?}");
                    check_factor(&a, &out.l, &out.info, batch, n, upper, &what);
                }
            }
        }
    }
}

/// potrf recorded as a graph and replayed on new inputs: each result equals the direct call's
/// bitwise (small and recursive paths, lower and upper), `info` and the non-finite flag follow
/// each input; runtimes without graphs (the CPU runtime) refuse with `Unsupported`.
pub fn graph_replay(client: &Client) {
    let def = &CholeskyParams::default();
    for &(batch, n, upper) in &[(3usize, 40usize, false), (2, 129, false), (1, 300, true)] {
        let g = match PotrfGraph::new(client, batch, n, upper, def) {
            Ok(g) => g,
            Err(CholeskyError::Unsupported(why)) => {
                eprintln!("graphs refused on this runtime: {why}");
                return;
            }
            Err(e) => panic!("graph n={n}: {e}"),
        };
        for seed in [1u64, 2, 3] {
            let (mut a, l) = spd_batch(n, &vec![100.0; batch], seed * 10 + n as u64);
            let clean = a.clone();
            // Seed 2: the last matrix fails at pivot 7 (its Schur complement turns negative).
            let fail = (seed == 2).then_some(7usize);
            if let Some(p) = fail {
                let b = batch - 1;
                let lp = l[b * n * n + p * n + p] as f64;
                let d = a[b * n * n + p * n + p] as f64 - 1.5 * lp * lp;
                a[b * n * n + p * n + p] = d as f32;
            }
            poison(&mut a, batch, n, upper);
            let h = client.create_from_slice(f32::as_bytes(&a));
            let m = MatrixRef::dense(&h, batch, n, n);
            let out = g
                .run(client, m)
                .expect("run")
                .clone()
                .read(client)
                .expect("read");
            let direct = potrf(client, m, upper, def).unwrap().read(client).unwrap();
            assert_eq!(out.info, direct.info, "n={n} seed {seed}: info");
            // Bit patterns: a failed matrix's columns past its failure may hold NaN.
            assert_eq!(out.l.len(), direct.l.len());
            let differs =
                (out.l.iter().zip(&direct.l)).position(|(x, y)| x.to_bits() != y.to_bits());
            assert!(
                differs.is_none(),
                "n={n} seed {seed}: graph differs from the direct call at element \
                 {differs:?}"
            );
            if let Some(p) = fail {
                assert_eq!(
                    out.info[batch - 1],
                    p as u32 + 1,
                    "n={n}: info of the failing matrix"
                );
                let good = (batch - 1) * n * n;
                check_factor(
                    &clean[..good],
                    &out.l[..good],
                    &out.info,
                    batch - 1,
                    n,
                    upper,
                    "graph",
                );
            } else {
                check_factor(&clean, &out.l, &out.info, batch, n, upper, "graph");
            }
        }
        // A NaN in the selected triangle is reported after a replay; the next input is clean.
        let (mut a, _) = spd_batch(n, &vec![1.0; batch], 77);
        let (r, c) = if upper { (0, n - 1) } else { (n - 1, 0) };
        a[r * n + c] = f32::NAN;
        let h = client.create_from_slice(f32::as_bytes(&a));
        let err = g
            .run(client, MatrixRef::dense(&h, batch, n, n))
            .unwrap()
            .clone()
            .read(client);
        assert_eq!(
            err.unwrap_err(),
            CholeskyError::NonFinite { batches: vec![0] }
        );
        let (a, _) = spd_batch(n, &vec![1.0; batch], 78);
        let h = client.create_from_slice(f32::as_bytes(&a));
        let out = g
            .run(client, MatrixRef::dense(&h, batch, n, n))
            .unwrap()
            .clone()
            .read(client);
        check_factor(
            &a,
            &out.expect("clean input").l,
            &vec![0; batch],
            batch,
            n,
            upper,
            "after NaN",
        );
        let h = client.create_from_slice(f32::as_bytes(&[1.0f32; 4]));
        assert!(matches!(
            g.run(client, MatrixRef::dense(&h, 1, 2, 2)),
            Err(CholeskyError::ShapeMismatch { .. })
        ));
    }
}

/// The GEMM on row- and column-major operands, accumulate / overwrite / lower-only / A lower
/// trapezoidal (its K windows above the diagonal skipped), ragged sizes, batched: the true-f32 SIMT kernel everywhere, and the 3×TF32 tensor-core kernel where
/// the device has TF32 fragments (elsewhere its constructor must refuse). The tolerance is an
/// f32 GEMM bound, which plain TF32 (2⁻¹¹ per product) fails from K ≈ 8 on.
pub fn gemm_views(client: &Client) {
    let hw = Hardware::of(client);
    let mut launches = simt_launches(&hw);
    match GemmLaunch::tf32x3(&hw, TC_DEFAULT) {
        Some(g) => {
            launches.push(("tf32x3", g));
            launches.push(("tf32x3, sums in shared", tc_shared(&hw)));
        }
        None => assert!(
            !hw.tf32_mma || hw.lanes != 32,
            "TF32 fragments and 32-lane planes, yet the tensor-core GEMM is refused"
        ),
    }
    launches.extend(mma_launches(&hw));
    let mut sizes = vec![
        (1usize, 1usize, 1usize),
        (5, 3, 7),
        (64, 64, 64),
        (65, 17, 130),
        (100, 1, 3),
    ];
    if hw.max_units_per_cube >= 256 {
        // Straddle the 128 × 128 × 16 tiles and run long K.
        sizes.extend([(129, 37, 200), (256, 16, 128), (140, 1000, 70)]);
    }
    for (name, g) in launches {
        for &(m, k, n) in &sizes {
            for (a_cm, b_cm) in [(false, true), (false, false), (true, false), (true, true)] {
                gemm_case(client, name, &g, (m, k, n), a_cm, b_cm);
            }
        }
    }
}

/// The SIMT kernel with scalar and with 4-vector shared tiles: the device default, the
/// Cholesky ops' default where it differs (K windows of 32), the other tile kind (128×128
/// where cubes are large, else 2 units of 4×4 with K windows of 4: ragged edges every few
/// elements) and, where there are, the large-update and the thin tilings.
fn simt_launches(hw: &Hardware) -> Vec<(&'static str, GemmLaunch)> {
    let default = GemmLaunch::new(hw).expect("gemm");
    let GemmKernel::Simt(d) = default.kernel else {
        panic!("the default GEMM is the SIMT kernel")
    };
    let other = if hw.max_units_per_cube >= 256 {
        GemmConfig {
            vector: !d.vector,
            ..BIG_TILES
        }
    } else {
        GemmConfig {
            units_x: 2,
            units_y: 1,
            tm: 4,
            tn: 4,
            tile_k: 4,
            unroll: false,
            vector: !d.vector,
        }
    };
    let mut v = vec![
        ("simt default", default),
        (
            "simt, other tiles",
            GemmLaunch::with_config(hw, other).expect("every runtime runs this tiling"),
        ),
    ];
    let chol = CholeskyLaunch::new(hw, &CholeskyParams::default()).expect("launch");
    if chol.gemm != default {
        v.push(("simt, the Cholesky ops' default", chol.gemm));
    }
    if let Some(g) = GemmLaunch::big(hw) {
        v.push(("simt big", g));
    }
    if let Some(g) = GemmLaunch::thin(hw) {
        v.push(("simt thin", g));
    }
    v
}

/// The tensor-core kernel with its f32 sums in shared memory (and the other knob values
/// the default does not take: flush every 32 of K, k 16).
fn tc_shared(hw: &Hardware) -> GemmLaunch {
    let cfg = TcConfig {
        sums_in_shared: !TC_DEFAULT.sums_in_shared,
        tile_k: 16,
        flush_k: 32,
        ..TC_DEFAULT
    };
    GemmLaunch::tf32x3(hw, cfg).expect("the default's device runs the shared-sums tiling")
}

/// The `mma.sync` kernel where the device runs it (elsewhere its constructor must refuse):
/// 3×TF32 with the default tiling (split on read), one plane of one 16 × 8 accumulator with K
/// windows of 8 flushed every 16 (ragged edges every few elements, a flush inside short K),
/// 4 × 4 planes of 2 × 4 (512 units, flushed every 64, hi and lo stored) with the sums in
/// shared memory, the default with its sums in the other place (shared memory), the default
/// and the one-tile tiling with hi and lo stored; then one TF32 product per step
/// ([`MMA_TF32`], on the one-tile tiling, and with hi stored).
fn mma_launches(hw: &Hardware) -> Vec<(&'static str, GemmLaunch)> {
    let Some(g) = GemmLaunch::mma(hw, MMA_DEFAULT) else {
        assert!(
            !hw.tf32_manual_mma || hw.lanes != 32,
            "TF32 mma.sync and 32-lane planes, yet the mma GEMM is refused"
        );
        return vec![];
    };
    let tiny = MmaTiles {
        warps_m: 1,
        warps_n: 1,
        tiles_m: 1,
        tiles_n: 1,
        tile_k: 8,
        flush_k: 16,
        sums_in_shared: false,
        compensated: true,
        split_on_read: true,
    };
    let wide = MmaTiles {
        warps_m: 4,
        warps_n: 4,
        tiles_m: 2,
        tiles_n: 4,
        tile_k: 16,
        flush_k: 64,
        sums_in_shared: true,
        compensated: true,
        split_on_read: false,
    };
    let other_sums = MmaTiles {
        sums_in_shared: !MMA_DEFAULT.sums_in_shared,
        ..MMA_DEFAULT
    };
    vec![
        ("tf32x3 mma", g),
        (
            "tf32x3 mma, one 16 x 8 tile",
            GemmLaunch::mma(hw, tiny).expect("the default's device runs one tile"),
        ),
        (
            "tf32x3 mma, 4 x 4 planes, sums in shared",
            GemmLaunch::mma(hw, wide).expect("the default's device runs 512 units"),
        ),
        (
            "tf32x3 mma, the sums in the default's other place",
            GemmLaunch::mma(hw, other_sums).expect("the default's device runs both"),
        ),
        (
            "tf32x3 mma, hi and lo stored, sums in shared",
            GemmLaunch::mma(hw, MMA_STORED).expect("the default's device runs both splits"),
        ),
        (
            "tf32x3 mma, one 16 x 8 tile, hi and lo stored",
            GemmLaunch::mma(
                hw,
                MmaTiles {
                    split_on_read: false,
                    ..tiny
                },
            )
            .expect("the default's device runs both splits"),
        ),
        (
            "tf32 mma (one product)",
            GemmLaunch::mma(hw, MMA_TF32).expect("the default's device runs one product"),
        ),
        (
            "tf32 mma (one product), hi stored",
            GemmLaunch::mma(
                hw,
                MmaTiles {
                    split_on_read: false,
                    ..MMA_TF32
                },
            )
            .expect("the default's device runs both splits"),
        ),
        (
            "tf32 mma (one product), one 16 x 8 tile",
            GemmLaunch::mma(
                hw,
                MmaTiles {
                    compensated: false,
                    ..tiny
                },
            )
            .expect("the default's device runs one tile"),
        ),
    ]
}

/// Accumulation error over a long K: on seeded uniform inputs every kernel must stay within
/// 4ε of Σ|a||b| per entry at K = 4096 (the H200 measured 7e-8 for f32 FMAs; tensor cores that
/// accumulate the whole K with their truncating adds gave 3e-6, which this rejects).
pub fn gemm_long_k(client: &Client) {
    let hw = Hardware::of(client);
    let mut launches = simt_launches(&hw);
    if let Some(g) = GemmLaunch::tf32x3(&hw, TC_DEFAULT) {
        launches.push(("tf32x3", g));
        launches.push(("tf32x3, sums in shared", tc_shared(&hw)));
    }
    launches.extend(mma_launches(&hw));
    let (m, k, n) = (48usize, 4096usize, 40usize);
    let a = linalg_common::rng::uniform_vec(71, m * k);
    let b = linalg_common::rng::uniform_vec(72, k * n);
    for (name, g) in launches {
        let ha = client.create_from_slice(f32::as_bytes(&a));
        let hb = client.create_from_slice(f32::as_bytes(&b));
        let hc = client.empty(m * n * 4);
        g.launch(
            client,
            1,
            Operand::new(&ha, a.len(), View::contiguous(m, k)),
            Operand::new(&hb, b.len(), View::contiguous(k, n)),
            Operand::new(&hc, m * n, View::contiguous(m, n)),
            GemmOp::SET,
        );
        let c = f32::from_bytes(&client.read_one(hc).unwrap()).to_vec();
        let mut worst = 0.0f64;
        for i in 0..m {
            for j in 0..n {
                let (mut p, mut s) = (0.0f64, 0.0f64);
                for q in 0..k {
                    let x = a[i * k + q] as f64 * b[q * n + j] as f64;
                    p += x;
                    s += x.abs();
                }
                worst = worst.max((c[i * n + j] as f64 - p).abs() / s);
            }
        }
        eprintln!("{name}: K = {k}, max |error| / Σ|a||b| = {worst:.2e}");
        let bound = 4.0 * f32_eps() + 2.5 * product_roundoff(&g);
        assert!(worst <= bound, "{name}: {worst:e}");
    }
}

/// Unit roundoff of the inputs of a kernel's products: 2⁻¹¹ for the `mma.sync` kernel's plain
/// TF32 mode (each product is then within (2·2⁻¹¹ + 2⁻²²)·|ab|), 0 for the f32-accurate kernels.
fn product_roundoff(g: &GemmLaunch) -> f64 {
    match g.kernel {
        GemmKernel::Mma(t) if !t.compensated => 2f64.powi(-11),
        _ => 0.0,
    }
}

/// One shape of [`gemm_views`], A and B stored row- or column-major (`*_cm`).
fn gemm_case(
    client: &Client,
    name: &str,
    g: &GemmLaunch,
    (m, k, n): (usize, usize, usize),
    a_cm: bool,
    b_cm: bool,
) {
    let batch = 2;
    let u_prod = product_roundoff(g);
    let seed = (m * 7 + k * 11 + n * 13) as u64;
    let a = linalg_common::rng::uniform_vec(seed, batch * m * k);
    let b = linalg_common::rng::uniform_vec(seed + 1, batch * k * n);
    let c0 = linalg_common::rng::uniform_vec(seed + 2, batch * m * n);
    let a_at = |i: usize, q: usize| if a_cm { q * m + i } else { i * k + q };
    // A's lower trapezoid (zeros above its diagonal), for `a_lower`.
    let mut a_tri = a.clone();
    for bi in 0..batch {
        for i in 0..m {
            for q in i + 1..k {
                a_tri[bi * m * k + a_at(i, q)] = 0.0;
            }
        }
    }
    // Element (i, q) of A (or of its trapezoid) and (q, j) of B in their storage.
    let at = |a: &[f32], bi: usize, i: usize, q: usize| a[bi * m * k + a_at(i, q)] as f64;
    let bt = |bi: usize, q: usize, j: usize| {
        b[bi * k * n + if b_cm { j * k + q } else { q * n + j }] as f64
    };
    let av = if a_cm {
        View::contiguous(k, m).t()
    } else {
        View::contiguous(m, k)
    };
    let bv = if b_cm {
        View::contiguous(n, k).t()
    } else {
        View::contiguous(k, n)
    };
    // A lower trapezoidal on the two layouts where A and B differ (K contiguous in A, or in
    // B): the skipped windows are the same on the others, and each case is more to compile.
    let ops = [
        (false, false, false, false),
        (true, true, false, false),
        (true, false, true, false),
        (false, true, false, true),
    ];
    let n_ops = if a_cm != b_cm { 4 } else { 3 };
    for &(accumulate, negate, lower_only, a_lower) in &ops[..n_ops] {
        let a = if a_lower { &a_tri } else { &a };
        let ha = client.create_from_slice(f32::as_bytes(a));
        let hb = client.create_from_slice(f32::as_bytes(&b));
        let hc = client.create_from_slice(f32::as_bytes(&c0));
        g.launch(
            client,
            batch,
            Operand::new(&ha, a.len(), av),
            Operand::new(&hb, b.len(), bv),
            Operand::new(&hc, c0.len(), View::contiguous(m, n)),
            GemmOp {
                accumulate,
                negate,
                lower_only,
                a_lower,
            },
        );
        let c = f32::from_bytes(&client.read_one(hc).unwrap()).to_vec();
        for bi in 0..batch {
            for i in 0..m {
                for j in 0..n {
                    let (mut p, mut pa) = (0.0f64, 0.0f64);
                    for q in 0..k {
                        let x = at(a, bi, i, q) * bt(bi, q, j);
                        p += x;
                        pa += x.abs();
                    }
                    let old = c0[bi * m * n + i * n + j] as f64;
                    let want = if lower_only && j > i {
                        old
                    } else {
                        let s = if negate { -p } else { p };
                        if accumulate { old + s } else { s }
                    };
                    let got = c[bi * m * n + i * n + j] as f64;
                    let tol = 4.0 * (k as f64 + 1.0) * f32_eps() * (1.0 + p.abs() + old.abs())
                        + 2.0 * k as f64 * f32_eps()
                        + 2.5 * u_prod * pa;
                    assert!(
                        (got - want).abs() <= tol,
                        "{name} ({m},{k},{n}) a_cm {a_cm} b_cm {b_cm} a_lower {a_lower} \
                         [{bi},{i},{j}] {got} vs {want}"
                    );
                }
            }
        }
    }
}

/// Both diagonal-block kernels at leaves of 8, 24 (sub-blocks of 8), 48, 64 and 128 (sub-blocks
/// of 16; 64 and 128 where shared memory allows): factors of orders around one, two and three leaves (ragged last blocks), failures at
/// pivots inside and at the edges of sub-blocks, and the invert-only stage through
/// solve_triangular (unit and non-unit diagonal). With `step_substitution` the leaves are
/// factored without their inverses: at leaves of 16 and 64 by plane 0 alone in two halves
/// (`leaf_plane` on); at 64 by the sub-block phases with the look-ahead and the sub-blocks
/// inverted (`leaf_subst` off); and at 24 and 64 with the sub-blocks' panels by substitution
/// (the default), with and without the look-ahead, in sub-blocks of 8, 16 and 32.
pub fn leaf_kernels(client: &Client) {
    // The plane path asked for at a leaf without halves of 8, 16 or 32 is refused.
    let hw = Hardware::of(client);
    for (leaf, fits) in [
        (8, false),
        (16, true),
        (24, false),
        (64, true),
        (128, false),
    ] {
        let p = CholeskyParams {
            leaf: Some(leaf),
            leaf_plane: Some(true),
            ..CholeskyParams::default()
        };
        assert_eq!(BlockedLeafConfig::plane_fits(leaf), fits);
        if !fits {
            assert!(
                CholeskyLaunch::new(&hw, &p).is_none(),
                "plane path at {leaf}"
            );
        }
    }
    let blocked = LeafKernel::Blocked;
    for (kernel, sub, ku, la, subst, plane, tsub) in [
        (blocked, None, None, false, None, None, None),
        (LeafKernel::Steps, None, None, false, None, None, None),
        (blocked, Some(8), None, false, None, None, None),
        (blocked, Some(32), None, false, None, None, None),
        // Cube-wide phases in trips of 4 and of 1 K step.
        (blocked, None, Some(4), false, None, None, None),
        (blocked, Some(8), Some(1), false, None, None, None),
        // The look-ahead of one sub-block (`leaf_lookahead`).
        (blocked, None, None, true, None, None, None),
        (blocked, Some(8), Some(4), true, None, None, None),
        // Factor-only leaves: the plane path, and the sub-block phases with the look-ahead
        // and the sub-blocks inverted (`leaf_subst` off).
        (blocked, None, None, false, Some(true), Some(true), None),
        (
            blocked,
            None,
            None,
            true,
            Some(true),
            Some(false),
            Some(false),
        ),
        // Factor-only leaves with the sub-blocks' panels by substitution (`leaf_subst`, the
        // default): with the look-ahead, without it, and with sub-blocks of 8 and 32.
        (
            blocked,
            None,
            None,
            true,
            Some(true),
            Some(false),
            Some(true),
        ),
        (
            blocked,
            None,
            Some(8),
            false,
            Some(true),
            Some(false),
            Some(true),
        ),
        (
            blocked,
            Some(8),
            None,
            true,
            Some(true),
            Some(false),
            Some(true),
        ),
        (
            blocked,
            Some(32),
            None,
            true,
            Some(true),
            Some(false),
            Some(true),
        ),
    ] {
        let leaves: &[usize] = match (subst, plane, tsub) {
            (None, _, _) => &[8, 24, 48, 64, 128],
            (Some(_), Some(true), _) => &[16, 64],
            (Some(_), _, Some(false)) => &[64],
            (Some(_), _, _) => &[24, 64],
        };
        for &leaf in leaves {
            if sub.is_some_and(|s| leaf % s != 0) {
                continue;
            }
            // The trip lengths and the look-ahead at a leaf that runs the blocked kernel
            // everywhere (24) and at the default leaf (64): each leaf order is a new set of
            // kernels to compile.
            if (ku.is_some() || la) && leaf != 24 && leaf != 64 {
                continue;
            }
            let p = CholeskyParams {
                leaf: Some(leaf),
                leaf_kernel: Some(kernel),
                leaf_sub: sub,
                leaf_unroll: ku,
                leaf_lookahead: Some(la),
                batched_leaf: Some(BatchedLeaf::Tiled),
                step_substitution: subst,
                leaf_plane: plane,
                leaf_subst: tsub,
                ..CholeskyParams::default()
            };
            let Some(launch) = CholeskyLaunch::new(&hw, &p) else {
                // Only a leaf too large for the step kernel's shared memory is refused.
                assert!(
                    4 * leaf * (leaf + 1) > hw.max_shared_bytes,
                    "{leaf} refused"
                );
                continue;
            };
            // The blocked kernel runs where its shared memory fits (else the step kernel).
            let blocked = launch.blocked_for(&launch.leaf, false);
            assert_eq!(
                blocked.is_some(),
                kernel == LeafKernel::Blocked
                    && BlockedLeafConfig::new(&hw, leaf, sub, ku, la).is_some()
            );
            // The look-ahead runs wherever the cube has units besides plane 0; the plane path
            // where asked for (the leaf has two halves of 8, 16 or 32).
            if let Some(b) = blocked {
                assert_eq!(b.lookahead, la && b.units() > b.plane);
                assert_eq!(
                    b.plane_factor,
                    plane == Some(true) && BlockedLeafConfig::plane_fits(leaf)
                );
                assert_eq!(b.subst_panel, tsub.unwrap_or(true));
            }
            let blocked = blocked.is_some();
            assert!(
                kernel == LeafKernel::Steps || leaf <= 48 || blocked || hw.max_shared_bytes < 65536
            );
            let what = format!(
                "{kernel:?} sub {sub:?} ku {ku:?} look-ahead {la} substitution {subst:?} plane \
                 {plane:?} panels by substitution {tsub:?} leaf {leaf} (blocked kernel: \
                 {blocked})"
            );
            for n in [leaf - 1, leaf, leaf + 1, 2 * leaf + 5] {
                for upper in [false, true] {
                    let (mut a, _) = spd_batch(n, &[1e6, 10.0], 300 + n as u64);
                    let clean = a.clone();
                    poison(&mut a, 2, n, upper);
                    let out = potrf_host(client, &a, &[2, n, n], upper, &p).expect("potrf");
                    check_factor(&clean, &out.l, &out.info, 2, n, upper, &what);
                }
            }
            // Failing pivots: the first of a sub-block (and of the plane path's second half),
            // inside one, the last of the leaf.
            let n = leaf + 3;
            let pivots = [
                None,
                Some(0),
                Some(7),
                Some(8),
                Some(leaf / 2),
                Some(leaf / 2 + 1),
                Some(leaf - 1),
                Some(leaf + 2),
            ];
            let (mut a, l) = spd_batch(n, &vec![100.0; pivots.len()], 17 + leaf as u64);
            for (b, piv) in pivots.iter().enumerate() {
                if let Some(q) = *piv {
                    let lq = l[b * n * n + q * n + q] as f64;
                    let v = a[b * n * n + q * n + q] as f64 - 1.5 * lq * lq;
                    a[b * n * n + q * n + q] = v as f32;
                }
            }
            let out = potrf_host(client, &a, &[pivots.len(), n, n], false, &p).expect("potrf");
            for (b, piv) in pivots.iter().enumerate() {
                assert_eq!(
                    out.info[b],
                    piv.map_or(0, |q| q as u32 + 1),
                    "{what}: info {b}"
                );
            }
            // Invert-only: the solves' block inverses.
            for unit in [false, true] {
                for upper in [false, true] {
                    let n = leaf + 5;
                    let (t, dense) = triangular(n, upper, unit, 40 + leaf as u64);
                    let b = linalg_common::rng::uniform_vec(leaf as u64, n * 3);
                    let ha = client.create_from_slice(f32::as_bytes(&t));
                    let hb = client.create_from_slice(f32::as_bytes(&b));
                    let am = MatrixRef::contiguous(&ha, &[n, n], "a").unwrap();
                    let bm = MatrixRef::contiguous(&hb, &[n, 3], "b").unwrap();
                    let x = solve_triangular(client, am, bm, upper, true, unit, &p)
                        .expect("solve")
                        .read(client)
                        .expect("read");
                    let res = solve_residual(&dense, &x.x, &b, n, n, 3, true);
                    assert!(
                        res <= 20.0 * n as f64 * EPS,
                        "{what}: solve upper={upper} unit={unit}: {res:e}"
                    );
                }
            }
        }
    }
    // A sub-block order that is not 8, 16 or 32 dividing the leaf is refused, not ignored; so
    // is a trip length that does not divide the sub-block order.
    let (a, _) = spd_batch(70, &[10.0], 5);
    let def = CholeskyParams::default();
    let subs = [12usize, 128].map(|s| {
        (
            format!("sub {s}"),
            CholeskyParams {
                leaf_sub: Some(s),
                ..def
            },
        )
    });
    let kus = [0usize, 3, 32].map(|k| {
        (
            format!("ku {k}"),
            CholeskyParams {
                leaf_unroll: Some(k),
                ..def
            },
        )
    });
    for (what, bad) in subs.iter().chain(&kus) {
        let r = potrf_host(client, &a, &[70, 70], false, bad);
        assert!(
            matches!(r, Err(CholeskyError::Unsupported(_))),
            "{what}: {r:?}"
        );
    }
}

/// `launch_copy` with 4-vectors asked for (`CopyConfig::vec`, which potrf's input copy uses)
/// against a host reference, in every mode, on views that take vectors (contiguous; sliced
/// with 16-byte row starts) and views that fall back to elements (ragged columns, a
/// misaligned offset). NaN and ∞ sit in the triangle that lower modes must not read, and in
/// the read part of one matrix, so the flags are checked both ways.
pub fn copy_modes(client: &Client) {
    use linalg_common::copy::{CopyConfig, launch_copy};
    let hw = Hardware::of(client);
    let batch = 3;
    let lower = CopyConfig {
        lower: true,
        ..CopyConfig::PLAIN
    };
    let modes = [
        ("plain", CopyConfig::PLAIN),
        ("lower", lower),
        (
            "lower, no diagonal",
            CopyConfig {
                skip_diag: true,
                ..lower
            },
        ),
        (
            "lower, checked",
            CopyConfig {
                check: true,
                ..lower
            },
        ),
        (
            "check only",
            CopyConfig {
                check: true,
                write: false,
                ..lower
            },
        ),
        (
            "identity",
            CopyConfig {
                identity: true,
                ..CopyConfig::PLAIN
            },
        ),
    ];
    // (what, rows, cols, src offset, src row stride, src batch stride)
    let views = [
        ("contiguous", 12usize, 16usize, 0usize, 16usize, 192usize),
        ("sliced", 12, 16, 8, 20, 260),
        ("ragged columns", 12, 10, 0, 10, 120),
        ("misaligned offset", 12, 16, 2, 20, 260),
    ];
    for (vwhat, rows, cols, off, rs, bs) in views {
        let src_view = View {
            offset: off,
            rows,
            cols,
            row_stride: rs,
            col_stride: 1,
            batch_stride: bs,
        };
        let mut src = linalg_common::rng::uniform_vec(500 + (off + cols) as u64, off + batch * bs);
        // Matrix 0: NaN and ∞ above the diagonal only; matrix 1: also NaN at (5, 2).
        for b in 0..2 {
            src[off + b * bs + 1] = f32::NAN;
            src[off + b * bs + 2 * rs + 3] = f32::INFINITY;
        }
        src[off + bs + 5 * rs + 2] = f32::NAN;
        let hs = client.create_from_slice(f32::as_bytes(&src));
        for (mwhat, base) in modes {
            let mut out = Vec::new();
            for vec in [false, true] {
                let dst = vec![7.0f32; batch * rows * cols];
                let hd = client.create_from_slice(f32::as_bytes(&dst));
                let hf = client.create_from_slice(u32::as_bytes(&vec![0u32; batch]));
                let len_s = src.len();
                launch_copy(
                    client,
                    &hw,
                    batch,
                    (&hs, len_s, src_view),
                    (&hd, dst.len(), View::contiguous(rows, cols)),
                    &hf,
                    CopyConfig { vec, ..base },
                );
                let d = linalg_common::matrix::read_prefix::<f32>(client, hd, dst.len()).unwrap();
                let f = linalg_common::matrix::read_prefix::<u32>(client, hf, batch).unwrap();
                out.push((d, f));
            }
            for (k, (d, f)) in out.iter().enumerate() {
                let what = format!("{vwhat}, {mwhat}, vec asked {}", k == 1);
                for b in 0..batch {
                    let mut bad = false;
                    for i in 0..rows {
                        for j in 0..cols {
                            let read = !base.identity
                                && (!base.lower || (j <= i && !(base.skip_diag && j == i)));
                            let x = src[off + b * bs + i * rs + j];
                            bad |= read && !x.is_finite();
                            let want = if !base.write {
                                7.0
                            } else if base.identity {
                                f32::from(u8::from(i == j))
                            } else if read {
                                x
                            } else {
                                0.0
                            };
                            let got = d[b * rows * cols + i * cols + j];
                            assert_eq!(got.to_bits(), want.to_bits(), "{what}: ({b}, {i}, {j})");
                        }
                    }
                    let flagged = base.check && bad;
                    assert_eq!(f[b], u32::from(flagged), "{what}: flag of matrix {b}");
                }
            }
        }
    }
}

/// `CholeskyParams::fused_mma` on a Hopper GPU (host-side policy, no launch): by default in
/// every step of right-looking regions of order at least 4096 (potrf 4096, and 8192 and 16384,
/// whose halves of 4096 step), not below; in every step when asked for; nowhere when turned
/// off; with `fused_mma_rows`, only in steps whose update has that many rows; the diagonal
/// block's cube only when asked for.
#[test]
fn fused_mma_policy_on_hopper() {
    let hw = Hardware::hopper();
    assert_eq!(cholesky_kernels::FUSED_MMA_FROM, 4096);
    let def = CholeskyLaunch::new(&hw, &CholeskyParams::default()).expect("launch");
    assert!(def.blocked_below >= 4096);
    for (region, want) in [
        (4096usize, true),
        (8192, true),
        (4095, false),
        (2048, false),
    ] {
        for rows in [region - 64, 64] {
            assert_eq!(
                def.fused_mma_for(region, rows),
                want,
                "default, region {region}"
            );
        }
    }
    assert!(!def.fused_mma_leaf && !def.panel_mma);
    let on = CholeskyParams {
        fused_mma: Some(true),
        ..CholeskyParams::default()
    };
    let l = CholeskyLaunch::new(&hw, &on).expect("launch");
    assert!(l.fused_mma_for(128, 64) && l.fused_mma_for(4096, 4032));
    let tall = CholeskyParams {
        fused_mma_rows: Some(2048),
        ..CholeskyParams::default()
    };
    let l = CholeskyLaunch::new(&hw, &tall).expect("launch");
    assert!(l.fused_mma_for(4096, 2048) && !l.fused_mma_for(4096, 2047));
    assert!(!l.fused_mma_for(2048, 2048));
    let off = CholeskyParams {
        fused_mma: Some(false),
        ..CholeskyParams::default()
    };
    let l = CholeskyLaunch::new(&hw, &off).expect("launch");
    assert!(!l.fused_mma_for(4096, 4032));
}

macro_rules! testgen {
    ($name:ident, $device:expr) => {
        mod $name {
            use super::*;
            fn client() -> Client {
                let client = $device.client();
                eprintln!("runtime {}: {:?}", stringify!($name), Hardware::of(&client));
                client
            }
            #[test]
            fn sizes_straddle_thresholds() {
                super::sizes_straddle_thresholds(&client());
            }
            #[test]
            fn leaf_kernels() {
                super::leaf_kernels(&client());
            }
            #[test]
            fn large_matrix() {
                super::large_matrix(&client());
            }
            #[test]
            fn copy_modes() {
                super::copy_modes(&client());
            }
            #[test]
            fn conditioning() {
                super::conditioning(&client());
            }
            #[test]
            fn extreme_scaling() {
                super::extreme_scaling(&client());
            }
            #[test]
            fn right_looking_cutoff() {
                super::right_looking_cutoff(&client());
            }
            #[test]
            fn step_substitution() {
                super::step_substitution(&client());
            }
            #[test]
            fn graph_replay() {
                super::graph_replay(&client());
            }
            #[test]
            fn fused_syrk_leaf() {
                super::fused_syrk_leaf(&client());
            }
            #[test]
            fn info_reports_first_failure() {
                super::info_reports_first_failure(&client());
            }
            #[test]
            fn nonfinite_and_errors() {
                super::nonfinite_and_errors(&client());
            }
            #[test]
            fn triangular_solves() {
                super::triangular_solves(&client());
            }
            #[test]
            fn strided_views() {
                super::strided_views(&client());
            }
            #[test]
            fn cholesky_solve_and_inverse() {
                super::cholesky_solve_and_inverse(&client());
            }
            #[test]
            fn inverse_blocks() {
                super::inverse_blocks(&client());
            }
            #[test]
            fn batched_small() {
                super::batched_small(&client());
            }
            #[test]
            fn gemm_long_k() {
                super::gemm_long_k(&client());
            }
            #[test]
            fn gemm_views() {
                super::gemm_views(&client());
            }
        }
    };
}

#[cfg(feature = "cpu")]
testgen!(cpu, cubecl::Device::cpu().expect("cpu runtime"));
#[cfg(feature = "cuda")]
testgen!(cuda, cubecl::Device::cuda(0).expect("cuda device"));
#[cfg(feature = "wgpu")]
testgen!(
    wgpu,
    cubecl::Device::wgpu(Default::default()).expect("a wgpu adapter")
);
