//! Stage 3 of TSQR: Q, top-down.
//!
//! With Q_L the stacked block Q factors of level L, Q = Q_0·Q_1·…·Q_T. The top level (one
//! block) forms Q_T·I; each lower level L forms, per block, its Householder Q applied to the
//! block's n×n slice of the level above's result. The reflectors were stored by the R pass, so
//! the leaf level moves 4·m·n·4 bytes in all (read A, write and read the reflectors, write Q)
//! and factors A once.
use super::config::TsqrLaunch;
use super::tree::{BlockStage, Level, launch_block};
use cubecl::server::Handle;

/// Run the Q pass. `refl[L]` holds level L's reflectors (`batch·rows_in_L·n` f32), `q_out`
/// receives `batch·m·n` f32; `ystack[L]` (L ≥ 1) is scratch for level L's output,
/// `batch·rows_in_L·n` f32 (`ystack[0]` is unused).
#[allow(clippy::too_many_arguments)]
pub(crate) fn form_q(
    client: &cubecl::client::Client,
    launch: &TsqrLaunch,
    levels: &[Level],
    batch: usize,
    refl: &[Handle],
    ystack: &[Handle],
    q_out: &Handle,
    flags: &Handle,
) {
    let top = levels.len() - 1;
    for l in (0..=top).rev() {
        let out = if l == 0 { q_out } else { &ystack[l] };
        let (y, identity_y) = if l == top {
            (&refl[l], true)
        } else {
            (&ystack[l + 1], false)
        };
        launch_block(
            client,
            launch,
            levels[l],
            batch,
            BlockStage::ApplyQ { identity_y },
            &refl[l],
            y,
            out,
            &refl[l],
            flags,
        );
    }
}
