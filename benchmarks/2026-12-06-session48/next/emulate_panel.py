"""Host emulation of `panel_mma_kernel` (potrf/panel_mma.rs, session 48): per cube (64 rows of
A21) and plane (rows 16·(q / 2) + [0, 16), columns 32·(q % 2) + [0, 32)), the m16n8k8 fragments
that `mma_acc` builds (lane (g, t); per K block of 32 the 4-vectors X = row(32b + 4t …) and
Y = row(32b + 16 + 4t …); K slots t and t + 4 at step e from X[e] and Y[e]), A's rows from A21
and B's from the inverse X = L11⁻¹, multiplied as PTX's mma.sync m16n8k8 does, and stored by
the accumulator layout (row g + 8h, column 2t + c) for rows below `rows`. All of a cube's loads
precede its stores (the kernel's barrier), so the emulation reads A21 before writing the
result. Prints the largest error of L21 against A21·L11⁻ᵀ and of L21·L11ᵀ against A21, for
68 rows (a second cube of 4 rows: the masks)."""
import random

random.seed(2)
NB, rows = 64, 68
# L11: a well-conditioned lower-triangular factor, and its inverse by forward substitution.
L = [[(random.uniform(0.5, 1.5) if i == j else random.gauss(0, 0.1)) if j <= i else 0.0
      for j in range(NB)] for i in range(NB)]
Xi = [[0.0] * NB for _ in range(NB)]
for c in range(NB):
    for i in range(NB):
        s = (1.0 if i == c else 0.0) - sum(L[i][k] * Xi[k][c] for k in range(i))
        Xi[i][c] = s / L[i][i]
A21 = [[random.gauss(0, 1) for _ in range(NB)] for _ in range(rows)]
W = [row[:] for row in A21]  # the buffer, solved in place


def vec(M, nrows, r, b, t, y):
    k = 32 * b + (16 if y else 0) + 4 * t
    return M[r][k:k + 4] if r < nrows else [0.0] * 4


for cube in range((rows + NB - 1) // NB):
    out = {}
    for plane in range(8):
        r0, c0 = cube * NB + 16 * (plane // 2), 32 * (plane % 2)
        acc = {}
        for b in range(NB // 32):
            for e in range(4):
                Af = [[0.0] * 8 for _ in range(16)]
                Bf = [[[0.0] * 8 for _ in range(8)] for _ in range(4)]
                for lane in range(32):
                    g, t = lane // 4, lane % 4
                    Af[g][t] = vec(W, rows, r0 + g, b, t, False)[e]
                    Af[g + 8][t] = vec(W, rows, r0 + g + 8, b, t, False)[e]
                    Af[g][t + 4] = vec(W, rows, r0 + g, b, t, True)[e]
                    Af[g + 8][t + 4] = vec(W, rows, r0 + g + 8, b, t, True)[e]
                    for n in range(4):
                        rr = c0 + 8 * n + g
                        Bf[n][t][g] = vec(Xi, NB, rr, b, t, False)[e]
                        Bf[n][t + 4][g] = vec(Xi, NB, rr, b, t, True)[e]
                for n in range(4):
                    for i in range(16):
                        for j in range(8):
                            d = sum(Af[i][k] * Bf[n][k][j] for k in range(8))
                            acc[(n, i, j)] = acc.get((n, i, j), 0.0) + d
        for lane in range(32):
            g, t = lane // 4, lane % 4
            for e in range(16):
                n, h, c = e // 4, (e // 2) % 2, e % 2
                i, j = r0 + g + 8 * h, c0 + 8 * n + 2 * t + c
                if i < rows:
                    out[(i, j)] = acc[(n, g + 8 * h, 2 * t + c)]
    for (i, j), v in out.items():  # after the barrier
        W[i][j] = v
want = [[sum(A21[i][k] * Xi[j][k] for k in range(NB)) for j in range(NB)] for i in range(rows)]
err = max(abs(W[i][j] - want[i][j]) for i in range(rows) for j in range(NB))
back = max(abs(sum(W[i][k] * L[j][k] for k in range(NB)) - A21[i][j])
           for i in range(rows) for j in range(NB))
print(f"max err against A21·L11⁻ᵀ {err:.2e}; L21·L11ᵀ against A21 {back:.2e}")
