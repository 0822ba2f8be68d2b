//! Hardware facts that kernels are configured from, read once from a client.
//!
//! Kernels are written for any plane width: on CUDA a plane is a 32-lane warp and reductions
//! use plane operations; the CPU runtime has planes of one unit and refuses plane operations at
//! compile time, so there a "lane group" is a single unit and reductions are sequential.
use cubecl::client::Client;
use cubecl::features::{MmaConfig, Plane};
use cubecl::ir::{ElemType, FloatKind};

/// What a launch may assume about the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hardware {
    /// Units that cooperate through plane operations: the plane width where plane operations
    /// exist and the width is fixed, else 1 (reductions then run inside one unit).
    pub lanes: usize,
    /// Whether `lanes > 1`, i.e. kernels reduce with plane operations.
    pub plane_ops: bool,
    /// Maximum units in one cube.
    pub max_units_per_cube: usize,
    /// Maximum shared memory of one cube, in bytes.
    pub max_shared_bytes: usize,
    /// Maximum cube counts along x, y, z.
    pub max_cube_count: (u32, u32, u32),
    /// Streaming multiprocessors (or cores), when the runtime says.
    pub num_sms: Option<u32>,
    /// Whether the device multiplies TF32 16×16×8 fragments into f32 (tensor cores).
    pub tf32_mma: bool,
    /// Whether the device runs `mma.sync` m16n8k8 on TF32 into f32 with registers the kernel
    /// manages ([`crate::gemm_mma`]).
    pub tf32_manual_mma: bool,
    /// Whether `sync_storage` is a storage fence the runtime compiles (CUDA, Vulkan); the
    /// CPU runtime refuses it, and there a cube barrier orders storage too.
    pub storage_sync: bool,
    /// Whether a cube may wait (spin on an atomic) for data an earlier cube of the same launch
    /// publishes: where `storage_sync` carries the writes across cubes and the device starts
    /// cubes in grid order (CUDA, Vulkan, Metal; as cubek's relays assume), and on the CPU
    /// runtime, which runs a launch's cubes one after another in grid order (a cube barrier
    /// then orders everything).
    pub cube_handoff: bool,
    /// Whether the cubes of one launch that fit the multiprocessors all run at once, so that
    /// each may wait for flags that any other raises (a grid-wide exchange): CUDA. (Vulkan
    /// promises no such progress: lavapipe need not run a launch's cubes at once, and its
    /// compiler cuts a loop off after 65535 trips.)
    pub co_resident: bool,
    /// Whether a kernel may view a global buffer of scalars as 4-vectors
    /// (`with_vector_size`): CUDA and HIP (CubeCL's `memory_reinterpret`) and the CPU runtime,
    /// whose LLVM path compiles the view (the Cholesky suite runs it there); WGSL has no such
    /// cast.
    pub vector_views: bool,
}

impl Hardware {
    /// What [`Hardware::of`] reads on CUDA from an H100 or H200 (132 multiprocessors, 227 KiB
    /// of shared memory per cube): host-side plans without a device (`examples/ptx_probe.rs`,
    /// policy tests).
    pub fn hopper() -> Self {
        Self {
            lanes: 32,
            plane_ops: true,
            max_units_per_cube: 1024,
            max_shared_bytes: 227 * 1024,
            max_cube_count: (i32::MAX as u32, 65535, 65535),
            num_sms: Some(132),
            tf32_mma: true,
            tf32_manual_mma: true,
            storage_sync: true,
            cube_handoff: true,
            co_resident: true,
            vector_views: true,
        }
    }

    pub fn of(client: &Client) -> Self {
        let props = client.properties();
        let hw = &props.hardware;
        let fixed = hw.plane_size_min == hw.plane_size_max;
        let ops = client.features().plane.contains(Plane::Ops);
        let lanes = if ops && fixed && hw.plane_size_max > 1 {
            hw.plane_size_max as usize
        } else {
            1
        };
        Self {
            lanes,
            plane_ops: lanes > 1,
            max_units_per_cube: hw.max_units_per_cube as usize,
            max_shared_bytes: hw.max_shared_memory_size,
            max_cube_count: hw.max_cube_count,
            num_sms: hw.num_streaming_multiprocessors,
            tf32_mma: client.features().matmul.cmma.contains(&tf32_mma(16)),
            tf32_manual_mma: client.features().matmul.mma.contains(&tf32_mma(8)),
            storage_sync: client.features().device_memory_scope,
            vector_views: client.features().memory_reinterpret
                || props.identity.fingerprint.starts_with("cpu_"),
            cube_handoff: client.features().device_memory_scope
                || props.identity.fingerprint.starts_with("cpu_"),
            co_resident: client.features().device_memory_scope
                && props.identity.fingerprint.starts_with("ptx_"),
        }
    }
}

/// TF32 × TF32 → f32 fragments of 16 × `n` × 8.
fn tf32_mma(n: u32) -> MmaConfig {
    MmaConfig {
        a_type: ElemType::Float(FloatKind::TF32),
        b_type: ElemType::Float(FloatKind::TF32),
        cd_type: ElemType::Float(FloatKind::F32),
        m: 16,
        n,
        k: 8,
    }
}
