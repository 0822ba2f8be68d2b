"""Host emulation of `mma_syrk_acc`'s fragment mapping (potrf/fused.rs, session 47): each
plane's m16n8k8 fragments built as the kernel loads them (lane (g, t); per K block of 32, the
4-vectors X = A(r, 32b + 4t ...) and Y = A(r, 32b + 16 + 4t ...), K slots t and t + 4 at step e
taken from X[e] and Y[e]), multiplied as PTX's mma.sync m16n8k8 does, and scattered by the
accumulator layout (row g + 8h, column 2t + c). Prints the largest error against A·Aᵀ for
the tile at (64, 0) of a 100-row A with K = 64 (rows past 100 read as zeros)."""
import random

random.seed(1)
m, K = 100, 64
A = [[random.gauss(0, 1) for _ in range(K)] for _ in range(m)]
row0, col0 = 64, 0
C = [[0.0] * m for _ in range(m)]


def X(r, b, t):
    return A[r][32 * b + 4 * t:32 * b + 4 * t + 4] if r < m else [0.0] * 4


def Y(r, b, t):
    return A[r][32 * b + 16 + 4 * t:32 * b + 16 + 4 * t + 4] if r < m else [0.0] * 4


for plane in range(8):
    r0, c0 = row0 + 16 * (plane // 2), col0 + 32 * (plane % 2)
    for b in range(K // 32):
        for e in range(4):
            Af = [[0.0] * 8 for _ in range(16)]
            Bf = [[[0.0] * 8 for _ in range(8)] for _ in range(4)]
            for lane in range(32):
                g, t = lane // 4, lane % 4
                Af[g][t] = X(r0 + g, b, t)[e]
                Af[g + 8][t] = X(r0 + g + 8, b, t)[e]
                Af[g][t + 4] = Y(r0 + g, b, t)[e]
                Af[g + 8][t + 4] = Y(r0 + g + 8, b, t)[e]
                for n in range(4):
                    rr = c0 + 8 * n + g
                    Bf[n][t][g] = X(rr, b, t)[e]
                    Bf[n][t + 4][g] = Y(rr, b, t)[e]
            for n in range(4):
                D = [[sum(Af[i][k] * Bf[n][k][j] for k in range(8)) for j in range(8)] for i in range(16)]
                for lane in range(32):
                    g, t = lane // 4, lane % 4
                    for h in range(2):
                        for c in range(2):
                            i, j = r0 + g + 8 * h, c0 + 8 * n + 2 * t + c
                            if i < m:
                                C[i][j] += D[g + 8 * h][2 * t + c]
err = max(
    abs(C[i][j] - sum(A[i][k] * A[j][k] for k in range(K)))
    for i in range(64, 100)
    for j in range(64)
)
print("max err", err)
