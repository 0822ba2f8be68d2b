//! The update's first product W = Vᵀ·C on tensor cores straight from registers (CUDA): V is
//! p × w (w ≤ 32) and C p × nc, both with contiguous rows read as 4-vectors; 3×TF32
//! `mma.sync.m16n8k8` (f32 accuracy, as [`linalg_common::gemm_mma`]). K is split over the
//! planes of one cube and summed in shared memory at the end: no shared windows and no barrier
//! in the K loop, no split-K partials in global memory and no second launch to sum them.
//!
//! Layout: cube (x, b) forms W's columns [32x, 32x + 32) of matrix b. Plane q takes the K
//! steps s ≡ q (mod planes) of 8 rows each; per step, lane (g, t) = (lane / 4, lane % 4) loads
//! the 4-vectors V(8s + t + 4h, 4g … 4g + 3) and C(8s + t + 4h, 32x + 4g … 32x + 4g + 3),
//! h < 2. W's rows and columns are permuted inside the mma tiles so that these vectors are the
//! fragments themselves: row r of A tile i (i < 2) is W row 4·(r mod 8) + 2i + r / 8, and column
//! c of B tile j (j < 4) is W column 32x + 4c + j. So A(g, t) = V(8s + t, 4g + 2i), A(g + 8, t)
//! = V(8s + t, 4g + 2i + 1), A(g, t + 4) and A(g + 8, t + 4) the same on row 8s + t + 4, and
//! B(t, g) = C(8s + t, 32x + 4g + j), B(t + 4, g) = C(8s + t + 4, …): one lane's four vectors
//! per step feed all eight tiles, and a plane's load instruction reads four whole 128-byte
//! rows of C. Rows past p and columns past nc (or past w in V) read as zeros.
//!
//! Where the tiles are fewer than the device's resident cubes, K is also cut into slices, one
//! cube each ([`slices`]): each slice's cube stores its sums, counts itself in on an atomic
//! counter, and the last cube of a tile to count in adds the slices in slice order and stores
//! W (no cube waits for another, so no co-residency is assumed).
//!
//! Loads run one batch of `steps` K steps ahead of the products. Every `flush_steps` steps
//! (and at the end) each plane adds its accumulators (the tensor cores add with truncation)
//! into its own f32 sums in shared memory, one slot per W element, which after one cube
//! barrier the cube adds over the planes in plane order and stores. The result does not depend
//! on the launch's timing (fixed orders of addition), but is not bitwise that of the split-K
//! mma kernel.
use super::config::ProductConfig;
use cubecl::client::Client;
use cubecl::cmma::MmaDefinition;
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::gemm::{Operand, Strides, View, batch_grid};
use linalg_common::gemm_mma::{MMA_PLANE, split_pair};
use linalg_common::launch::Hardware;

type V4 = Vector<f32, Const<4>>;
type Frag = Vector<tf32, Const<1>>;
type Acc = Vector<f32, Const<2>>;

/// Columns of W per cube: 8 lanes × 4-vectors.
pub(crate) const PRODUCT_COLS: usize = 32;

/// W (view `sw`) = Vᵀ·C for V (`sv`, p × w) and C (`sc`, p × nc) of matrix CUBE_POS_Y + …;
/// `sv` and `sc` in elements, their offsets, row and batch strides multiples of 4. Cube x
/// takes slice x mod `slices` of tile x / `slices`; with `slices` > 1 the slices' sums go
/// through `partials` and each (matrix, tile)'s count in `counters` (zero before and after).
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments)]
pub fn product_kernel(
    v: &[f32],
    c: &[f32],
    w: &mut [f32],
    partials: &[Atomic<u32>],
    counters: &[Atomic<u32>],
    sv: Strides,
    sc: Strides,
    sw: Strides,
    p: usize,
    nc: usize,
    wcols: usize,
    batch: usize,
    slices: usize,
    #[comptime] cfg: ProductConfig,
) {
    let planes = comptime!(cfg.planes);
    let units = comptime!(cfg.planes * MMA_PLANE);
    let u = comptime!(cfg.steps);
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before the barrier.
    if bidx >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let plane = unit / MMA_PLANE;
    let lane = unit % MMA_PLANE;
    let g = lane / 4;
    let t = lane % 4;
    let tiles = nc.div_ceil(PRODUCT_COLS);
    let tile = CUBE_POS_X as usize / slices;
    let slice = CUBE_POS_X as usize % slices;
    let n0 = tile * PRODUCT_COLS;

    let vv = v.as_vectorized().with_vector_size::<Const<4>>();
    let cv = c.as_vectorized().with_vector_size::<Const<4>>();
    let v_base = (sv.offset + bidx * sv.bs) / 4 + g;
    let c_base = (sc.offset + bidx * sc.bs + n0) / 4 + g;
    let (v_rs, c_rs) = (sv.rs / 4, sc.rs / 4);
    let c_live = n0 + 4 * g < nc;
    // V's columns past w read as zeros (uniform per cube: only a narrow last panel has any).
    let v_narrow = wcols < PRODUCT_COLS;

    // The plane's sums: W element (row, col) of plane q at q·32·33 + row·33 + col.
    let ld = comptime!(PRODUCT_COLS + 1);
    let per_plane = comptime!(PRODUCT_COLS * (PRODUCT_COLS + 1));
    let mut sums =
        Shared::<[f32]>::new_slice(comptime!(cfg.planes * PRODUCT_COLS * (PRODUCT_COLS + 1)));
    let my = plane * per_plane;
    #[unroll]
    for e in 0..32usize {
        let (row, col) = acc_at(e, g, t);
        sums[my + row * ld + col] = 0.0;
    }

    let def = MmaDefinition::<tf32, tf32, f32>::new(16usize, 8usize, 8usize);
    let mut acc = Sequence::<Array<Acc>>::new();
    #[unroll]
    for _ in 0..8usize {
        let mut x = Array::<Acc>::new(2usize);
        x[0usize] = Acc::broadcast(0.0);
        x[1usize] = Acc::broadcast(0.0);
        acc.push(x);
    }

    // The slice's steps [s0, s1) of the ⌈p / 8⌉; the plane's: s0 + q, s0 + q + planes, …, in
    // batches of u.
    let total = p.div_ceil(8);
    let per_slice = total.div_ceil(slices);
    let s0 = min(total, slice * per_slice);
    let s1 = min(total, s0 + per_slice);
    let span = s1 - s0;
    let mine = if plane < span {
        (span - plane).div_ceil(planes)
    } else {
        0usize
    };
    let batches = mine.div_ceil(u);
    let flush_every = comptime!(cfg.flush_steps / cfg.steps);
    let mut r0 = Array::<V4>::new(comptime!(4 * cfg.steps));
    let mut r1 = Array::<V4>::new(comptime!(4 * cfg.steps));
    let stride = planes;
    if batches > 0 {
        load_batch(
            vv,
            cv,
            &mut r0,
            v_base,
            c_base,
            v_rs,
            c_rs,
            s0 + plane,
            stride,
            s1,
            t,
            p,
            c_live,
            u,
        );
    }
    let mut bt = 0usize;
    let mut since = 0u32;
    while bt < batches {
        if bt + 1 < batches {
            load_batch(
                vv,
                cv,
                &mut r1,
                v_base,
                c_base,
                v_rs,
                c_rs,
                s0 + plane + (bt + 1) * u * stride,
                stride,
                s1,
                t,
                p,
                c_live,
                u,
            );
        }
        mul_batch(&r0, &mut acc, &def, g, wcols, v_narrow, u);
        since += 1;
        if since == comptime!(flush_every as u32) {
            flush(&mut acc, &mut sums, my, g, t);
            since = 0;
        }
        if bt + 1 < batches {
            if bt + 2 < batches {
                load_batch(
                    vv,
                    cv,
                    &mut r0,
                    v_base,
                    c_base,
                    v_rs,
                    c_rs,
                    s0 + plane + (bt + 2) * u * stride,
                    stride,
                    s1,
                    t,
                    p,
                    c_live,
                    u,
                );
            }
            mul_batch(&r1, &mut acc, &def, g, wcols, v_narrow, u);
            since += 1;
            if since == comptime!(flush_every as u32) {
                flush(&mut acc, &mut sums, my, g, t);
                since = 0;
            }
        }
        bt += 2;
    }
    flush(&mut acc, &mut sums, my, g, t);
    sync_cube();

    // Sum over the planes in plane order: unit e takes W elements e, e + units, ….
    let w_base = sw.offset + bidx * sw.bs;
    let elems = comptime!(PRODUCT_COLS * PRODUCT_COLS);
    let per_unit = comptime!((PRODUCT_COLS * PRODUCT_COLS).div_ceil(units));
    let mut part = Array::<f32>::new(per_unit);
    #[unroll]
    for k in 0..per_unit {
        let e = unit + k * units;
        let mut s = 0.0f32;
        if e < elems {
            let (row, col) = (e / PRODUCT_COLS, e % PRODUCT_COLS);
            for q in 0..planes {
                s += sums[q * per_plane + row * ld + col];
            }
        }
        part[k] = s;
    }
    if slices == 1 {
        store_w(w, &part, w_base, &sw, unit, n0, nc, wcols, cfg);
    } else {
        // Slices of K in several cubes (uniform per cube): each stores its sums, then counts
        // itself in; the last one to count sums the slices in slice order, stores W and
        // resets the count for the next launch.
        let group = bidx * tiles + tile;
        let base = group * slices * elems;
        #[unroll]
        for k in 0..per_unit {
            let e = unit + k * units;
            if e < elems {
                partials[base + slice * elems + e].store(u32::reinterpret(part[k]));
            }
        }
        sync_storage();
        sync_cube();
        let mut last = Shared::<[u32]>::new_slice(1usize);
        if unit == 0 {
            let before = counters[group].fetch_add(1u32);
            last[0] = if before as usize + 1 == slices {
                1u32
            } else {
                0u32
            };
        }
        sync_cube();
        if last[0] == 1u32 {
            sync_storage();
            #[unroll]
            for k in 0..per_unit {
                let e = unit + k * units;
                let mut s = 0.0f32;
                if e < elems {
                    for q in 0..slices {
                        s += f32::reinterpret(partials[base + q * elems + e].load());
                    }
                }
                part[k] = s;
            }
            store_w(w, &part, w_base, &sw, unit, n0, nc, wcols, cfg);
            if unit == 0 {
                counters[group].store(0u32);
            }
        }
    }
}

/// Store this unit's W elements (`part[k]`: element unit + k·units of the cube's 32 × 32)
/// inside W's w × nc.
#[cube]
#[allow(clippy::too_many_arguments)]
fn store_w(
    w: &mut [f32],
    part: &Array<f32>,
    w_base: usize,
    sw: &Strides,
    unit: usize,
    n0: usize,
    nc: usize,
    wcols: usize,
    #[comptime] cfg: ProductConfig,
) {
    let units = comptime!(cfg.planes * MMA_PLANE);
    #[unroll]
    for k in 0..comptime!((PRODUCT_COLS * PRODUCT_COLS).div_ceil(units)) {
        let e = unit + k * units;
        let (row, col) = (e / PRODUCT_COLS, e % PRODUCT_COLS);
        if e < comptime!(PRODUCT_COLS * PRODUCT_COLS) && row < wcols && n0 + col < nc {
            w[w_base + row * sw.rs + (n0 + col) * sw.cs] = part[k];
        }
    }
}

/// W's (row, column within the cube's 32) of accumulator element e = 4·(4i + j) + 2h + c of
/// tile (i, j): tile row g + 8h, column 2t + c, permuted as the module doc says.
#[cube]
fn acc_at(#[comptime] e: usize, g: usize, t: usize) -> (usize, usize) {
    let tile = comptime!(e / 4);
    let (i, j) = comptime!((tile / 4, tile % 4));
    let (h, c) = comptime!(((e % 4) / 2, e % 2));
    (4 * g + comptime!(2 * i + h), 4 * (2 * t + c) + j)
}

/// This lane's vectors of the batch's steps first, first + stride, …: per step V rows
/// 8s + t, 8s + t + 4, then C's; zeros for steps from `s_end` on, rows past p and a column
/// vector past nc.
#[cube]
#[allow(clippy::too_many_arguments)]
fn load_batch(
    vv: &[V4],
    cv: &[V4],
    regs: &mut Array<V4>,
    v_base: usize,
    c_base: usize,
    v_rs: usize,
    c_rs: usize,
    first: usize,
    stride: usize,
    s_end: usize,
    t: usize,
    p: usize,
    c_live: bool,
    #[comptime] u: usize,
) {
    #[unroll]
    for k in 0..u {
        let s = first + k * stride;
        #[unroll]
        for h in 0..2usize {
            let r = 8 * s + t + 4 * h;
            let mut a = V4::broadcast(0.0);
            let mut b = V4::broadcast(0.0);
            // A batch's last steps may lie past the slice (the next slice's) or past p.
            if s < s_end && r < p {
                a = vv[v_base + r * v_rs];
                if c_live {
                    b = cv[c_base + r * c_rs];
                }
            }
            regs[4 * k + h] = a;
            regs[4 * k + 2 + h] = b;
        }
    }
}

/// The products of one batch: per step, 3×TF32 into the eight accumulator tiles.
#[cube]
fn mul_batch(
    regs: &Array<V4>,
    acc: &mut Sequence<Array<Acc>>,
    def: &MmaDefinition<tf32, tf32, f32>,
    g: usize,
    wcols: usize,
    v_narrow: bool,
    #[comptime] u: usize,
) {
    #[unroll]
    for k in 0..u {
        let mut va0 = regs[4 * k];
        let mut va1 = regs[4 * k + 1];
        if v_narrow {
            #[unroll]
            for q in 0..4usize {
                if 4 * g + q >= wcols {
                    va0.insert(q, 0.0);
                    va1.insert(q, 0.0);
                }
            }
        }
        let cb0 = regs[4 * k + 2];
        let cb1 = regs[4 * k + 3];
        let mut fb_hi = Sequence::<Array<Frag>>::new();
        let mut fb_lo = Sequence::<Array<Frag>>::new();
        #[unroll]
        for j in 0..4usize {
            // [hi b0, lo b0, hi b1, lo b1]
            let q = split_pair::<tf32>(cb0.extract(j), cb1.extract(j));
            let mut hi = Array::<Frag>::new(2usize);
            let mut lo = Array::<Frag>::new(2usize);
            hi[0usize] = Frag::new(q.extract(0usize));
            lo[0usize] = Frag::new(q.extract(1usize));
            hi[1usize] = Frag::new(q.extract(2usize));
            lo[1usize] = Frag::new(q.extract(3usize));
            fb_hi.push(hi);
            fb_lo.push(lo);
        }
        #[unroll]
        for i in 0..2usize {
            // a0 = A(g, t), a1 = A(g + 8, t), a2 = A(g, t + 4), a3 = A(g + 8, t + 4).
            let x = split_pair::<tf32>(va0.extract(2 * i), va0.extract(2 * i + 1));
            let y = split_pair::<tf32>(va1.extract(2 * i), va1.extract(2 * i + 1));
            let mut fa_hi = Array::<Frag>::new(4usize);
            let mut fa_lo = Array::<Frag>::new(4usize);
            fa_hi[0usize] = Frag::new(x.extract(0usize));
            fa_lo[0usize] = Frag::new(x.extract(1usize));
            fa_hi[1usize] = Frag::new(x.extract(2usize));
            fa_lo[1usize] = Frag::new(x.extract(3usize));
            fa_hi[2usize] = Frag::new(y.extract(0usize));
            fa_lo[2usize] = Frag::new(y.extract(1usize));
            fa_hi[3usize] = Frag::new(y.extract(2usize));
            fa_lo[3usize] = Frag::new(y.extract(3usize));
            #[unroll]
            for j in 0..4usize {
                let d = acc.index_mut(i * 4 + j);
                def.execute_inplace(&fa_lo, fb_hi.index(j), d);
                def.execute_inplace(&fa_hi, fb_lo.index(j), d);
                def.execute_inplace(&fa_hi, fb_hi.index(j), d);
            }
        }
    }
}

/// Add the accumulators into the plane's f32 sums (round to nearest) and clear them.
#[cube]
fn flush(acc: &mut Sequence<Array<Acc>>, sums: &mut Shared<[f32]>, my: usize, g: usize, t: usize) {
    let ld = comptime!(PRODUCT_COLS + 1);
    #[unroll]
    for f in 0..8usize {
        let d = acc.index_mut(f);
        #[unroll]
        for h in 0..2usize {
            let x = d[h];
            #[unroll]
            for c in 0..2usize {
                let (row, col) = acc_at(comptime!(f * 4 + h * 2 + c), g, t);
                sums[my + row * ld + col] += x.extract(c);
            }
            d[h] = Acc::broadcast(0.0);
        }
    }
}

/// Whether V (p × w) and C (p × nc) suit the kernel over `batch` matrices: w ≤ 32, both with
/// contiguous rows whose starts lie on 16 bytes, C's width a multiple of 4, and V's rows
/// holding 32 columns inside its buffer (the kernel reads whole vectors up to column 31 and
/// zeroes those past w).
pub(crate) fn product_fits(v: &Operand, c: &Operand, batch: usize) -> bool {
    let (vv, cv) = (v.view, c.view);
    let v32 = View {
        cols: PRODUCT_COLS,
        ..vv
    };
    vv.cols <= PRODUCT_COLS
        && vv.rows == cv.rows
        && vv.row_stride >= PRODUCT_COLS
        && v32.rows_of_4(v.handle.offset_start.unwrap_or(0), batch)
        && v32.extent(batch) <= v.len
        && cv.rows_of_4(c.handle.offset_start.unwrap_or(0), batch)
}

/// Most K slices of one 32-column tile.
pub const MAX_PRODUCT_SLICES: usize = 16;

/// The K-slice workspace of a launch ([`slices`]): the slices' sums (1024 words each) and a
/// count per (matrix, tile), zeroed once (each launch leaves its counts at zero).
pub(crate) struct ProductWork {
    partials: (Handle, usize),
    counters: (Handle, usize),
    /// Most cubes of a launch with slices: the device's resident cubes.
    cubes: usize,
}

impl ProductWork {
    pub(crate) fn new(client: &Client, cfg: ProductConfig, hw: &Hardware) -> Self {
        let cubes = resident(cfg, hw);
        Self {
            partials: (
                client.empty(cubes * PRODUCT_COLS * PRODUCT_COLS * 4),
                cubes * 1024,
            ),
            counters: (
                client.create_from_slice(u32::as_bytes(&vec![0u32; cubes])),
                cubes,
            ),
            cubes,
        }
    }
}

/// Cubes of `cfg` that the device holds at once: one per multiprocessor per 512 units
/// (ptxas: ~115 registers a unit).
fn resident(cfg: ProductConfig, hw: &Hardware) -> usize {
    hw.num_sms.unwrap_or(1) as usize * (512 / cfg.units()).max(1)
}

/// K slices per 32-column tile of a launch for `batch` matrices of p × nc: as many as fill the
/// resident cubes ([`ProductWork`]), each plane keeping at least two steps, within `most`
/// (and [`MAX_PRODUCT_SLICES`]); 1 where the tiles alone fill the device.
pub(crate) fn slices(
    cfg: ProductConfig,
    hw: &Hardware,
    batch: usize,
    p: usize,
    nc: usize,
    most: usize,
) -> usize {
    let tiles = batch * nc.div_ceil(PRODUCT_COLS);
    let fill = resident(cfg, hw) / tiles.max(1);
    let deep = p.div_ceil(8) / (2 * cfg.planes);
    fill.min(deep).min(most).clamp(1, MAX_PRODUCT_SLICES)
}

/// W = Vᵀ·C into `w` (a w × nc view) for V, C as [`product_fits`] accepts, `batch`
/// matrices, K in `slices` slices per tile ([`slices`]; the tiles times the slices within
/// `work`'s cubes where slices > 1).
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch_product(
    client: &Client,
    cfg: ProductConfig,
    max_count: (u32, u32, u32),
    batch: usize,
    v: Operand,
    c: Operand,
    w: Operand,
    work: &ProductWork,
    slices: usize,
) {
    let (p, nc, wcols) = (c.view.rows, c.view.cols, v.view.cols);
    debug_assert!(product_fits(&v, &c, batch));
    debug_assert!(w.view.rows == wcols && w.view.cols == nc);
    debug_assert!(c.view.extent(batch) <= c.len && w.view.extent(batch) <= w.len);
    if p == 0 || nc == 0 || wcols == 0 || batch == 0 {
        return;
    }
    let tiles = nc.div_ceil(PRODUCT_COLS);
    let slices = slices.max(1);
    debug_assert!(slices == 1 || batch * tiles * slices <= work.cubes);
    let (_, by, bz) = batch_grid(batch, max_count);
    // SAFETY: cube (x, b) with b < batch, tile x / slices, reads V's vectors (r, 4g … 4g + 3),
    // r < p, 4g < 32, inside V's buffer (`product_fits`: 32 columns per row fit, rows on 16
    // bytes), and C's vectors (r, 32·tile + 4g …) only where 32·tile + 4g < nc (nc a multiple
    // of 4: the vector lies inside the row), r < p; W(row, 32·tile + col) is written only for
    // row < w and 32·tile + col < nc of matrix b, by one cube per tile (without slices, the
    // tile's; with slices, the last to count in): the tiles' columns are disjoint. With
    // slices, the partials (b·tiles + tile)·slices·1024 + slice·1024 + e, e < 1024, and the
    // counts b·tiles + tile lie below batch·tiles·slices·1024 and batch·tiles, within
    // `work`'s (checked above). Shared indices stay below planes·32·33 (rows and columns
    // < 32). Every barrier is reached by all units of a cube (the batch exit, `slices` and
    // the last-count flag are uniform per cube); `mma.sync` runs on whole planes, whose loop
    // bounds are uniform per plane.
    unsafe {
        product_kernel::launch_unchecked(
            client,
            CubeCount::Static((tiles * slices) as u32, by as u32, bz as u32),
            CubeDim::new_1d(cfg.units() as u32),
            BufferArg::from_raw_parts(v.handle.clone(), v.len),
            BufferArg::from_raw_parts(c.handle.clone(), c.len),
            BufferArg::from_raw_parts(w.handle.clone(), w.len),
            BufferArg::from_raw_parts(work.partials.0.clone(), work.partials.1),
            BufferArg::from_raw_parts(work.counters.0.clone(), work.counters.1),
            v.view.launch_arg(),
            c.view.launch_arg(),
            w.view.launch_arg(),
            p,
            nc,
            wcols,
            batch,
            slices,
            cfg,
        );
    }
}
