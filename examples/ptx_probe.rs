//! Compile the 3×TF32 `mma.sync` GEMM kernel (`linalg_common::gemm_mma`) for CUDA sm_90 on a
//! host without a GPU, through the CUDA backend's default LLVM path, and print the LLVM IR or
//! the compiler's error. It reproduces here what a launch on the H200 would compile, so kernel
//! code can be checked without device time (session 20 found an inline-PTX variant's
//! verification failure this way).
//!
//! ```sh
//! source scripts/offline-llvm.sh
//! cargo run --release --no-default-features --features "cuda cpu" --target-dir target-cuda \
//!     --example ptx_probe -- [acm] [bcm] [sh] > kernel.ll
//! ```
//! `acm` / `bcm`: A / B column-major; `sh`: the sums in shared memory.
use cubecl::prelude::*;
use linalg_common::gemm::{GemmOp, Layout, MatArgsLaunch, View};
use linalg_common::gemm_mma::{MMA_DEFAULT, MmaTiles, gemm_mma_kernel};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // The CPU runtime supplies device properties and buffers for the kernel's arguments; the
    // target properties are CUDA's.
    let client = cubecl::Device::cpu().expect("cpu runtime").client();
    let props = Arc::new(client.properties().clone());
    let target =
        Arc::new(<cubecl::cuda::CudaRuntime as cubecl::__private::Runtime>::target_properties());
    let cfg = MmaTiles {
        sums_in_shared: args.iter().any(|a| a == "sh"),
        ..MMA_DEFAULT
    };
    let h = client.empty(64);
    let v = View::contiguous(4, 4);
    let layout = Layout {
        a_col_major: args.iter().any(|a| a == "acm"),
        b_col_major: args.iter().any(|a| a == "bcm"),
    };
    let op = GemmOp {
        accumulate: true,
        negate: true,
        lower_only: false,
    };
    // SAFETY: the kernel is only defined and compiled, never launched.
    let (a, b, c) = unsafe {
        (
            BufferArg::from_raw_parts(h.clone(), 16),
            BufferArg::from_raw_parts(h.clone(), 16),
            BufferArg::from_raw_parts(h.clone(), 16),
        )
    };
    let kernel = gemm_mma_kernel::create_dummy_kernel(
        props,
        target,
        CubeCount::Static(1, 1, 1),
        CubeDim::new_1d(cfg.units() as u32),
        a,
        b,
        c,
        MatArgsLaunch::new(4, 4, 4, 1, 1, 4),
        v.launch_arg(),
        v.launch_arg(),
        v.launch_arg(),
        cfg,
        op,
        layout,
    );
    let def = cubecl::CubeKernel::define(&kernel);
    let mut compiler = cubecl::cuda::CudaCompiler::default();
    let opts = cubecl::cuda::CudaCompilationOptions {
        arch: Some(cubecl::ir::nvidia::SmArch::new(90, true)),
        ..Default::default()
    };
    match cubecl_server::compiler::Compiler::compile(&mut compiler, def, &opts) {
        Ok(repr) => println!("{repr}"),
        Err(e) => {
            eprintln!("compilation failed: {e:?}");
            std::process::exit(1);
        }
    }
}
