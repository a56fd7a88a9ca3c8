// The forward matmul through cuBLAS and cuBLASLt (host code), a bias kernel, a hand-written
// tiled kernel, and the gradients averaged over GPUs with NCCL under MPI. Checked by
// tests/projects/run_projects.py.
// expect-kernel: add_bias proven
// expect-kernel: matmul_tiled_racy refuted race
#include "common.h"
#include <nccl.h>
#include <mpi.h>

#define TILE 16

// out[r][c] += bias[c] over a (rows x OC) matrix, a 2-D grid of 2-D blocks.
__global__ void add_bias(float *out, const float *bias, int rows, int OC) {
#ifdef __KSYNTH__
  __requires(rows >= 1 && OC >= 1 && rows <= (1 << 30) / OC);
  __requires(__len(out) >= rows * OC && __len(bias) >= OC);
#endif
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows && c < OC)
    out[r * OC + c] += bias[c];
}

// C = A * B with 16x16 shared tiles; the second barrier of the k loop is missing, so a fast
// thread overwrites a tile that its neighbours are still reading.
__global__ void matmul_tiled_racy(float *C, const float *A, const float *B, int M, int N, int K) {
#ifdef __KSYNTH__
  __requires(M >= 1 && N >= 1 && K >= 1 && M <= 4096 && N <= 4096 && K <= 4096);
  __requires(__len(A) >= M * K && __len(B) >= K * N && __len(C) >= M * N);
#endif
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
    int ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = row < M && ka < K ? A[row * K + ka] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = kb < K && col < N ? B[kb * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// out (B*T x OC) = inp (B*T x C) * weight^T (OC x C) + bias, as cuBLASLt computes it.
void matmul_forward_cublaslt(float *out, const float *inp, const float *weight, const float *bias, int BT, int C,
                             int OC) {
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t weightLayout, inputLayout, outputLayout;
  cublasLtMatmulPreference_t preference;
  cublasOperation_t opTranspose = CUBLAS_OP_T, opNoTranspose = CUBLAS_OP_N;
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
  cublasCheck(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opTranspose, sizeof(opTranspose)));
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &opNoTranspose, sizeof(opNoTranspose)));
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
  cublasCheck(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
  cublasCheck(cublasLtMatrixLayoutCreate(&weightLayout, CUDA_R_32F, C, OC, C));
  cublasCheck(cublasLtMatrixLayoutCreate(&inputLayout, CUDA_R_32F, C, BT, C));
  cublasCheck(cublasLtMatrixLayoutCreate(&outputLayout, CUDA_R_32F, OC, BT, OC));
  cublasCheck(cublasLtMatmulPreferenceCreate(&preference));
  cublasCheck(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                   &cublaslt_workspace_size, sizeof(cublaslt_workspace_size)));
  cublasLtMatmulHeuristicResult_t heuristic;
  int returnedResults = 0;
  cublasCheck(cublasLtMatmulAlgoGetHeuristic(cublaslt_handle, desc, weightLayout, inputLayout, outputLayout,
                                             outputLayout, preference, 1, &heuristic, &returnedResults));
  const float alpha = 1.0f, beta = 0.0f;
  cublasCheck(cublasLtMatmul(cublaslt_handle, desc, &alpha, weight, weightLayout, inp, inputLayout, &beta, out,
                             outputLayout, out, outputLayout, &heuristic.algo, cublaslt_workspace,
                             cublaslt_workspace_size, 0));
  cublasCheck(cublasLtMatmulPreferenceDestroy(preference));
  cublasCheck(cublasLtMatmulDescDestroy(desc));
  cublasCheck(cublasLtMatrixLayoutDestroy(weightLayout));
  cublasCheck(cublasLtMatrixLayoutDestroy(inputLayout));
  cublasCheck(cublasLtMatrixLayoutDestroy(outputLayout));
}

// The same with cuBLAS and the bias kernel.
void matmul_forward_cublas(float *out, const float *inp, const float *weight, const float *bias, int BT, int C,
                           int OC) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasCheck(cublasSgemm(cublas_handle, CUBLAS_OP_T, CUBLAS_OP_N, OC, BT, C, &alpha, weight, C, inp, C, &beta, out,
                          OC));
  dim3 block(32, 8);
  dim3 grid(ceil_div(OC, 32), ceil_div(BT, 8));
  add_bias<<<grid, block>>>(out, bias, BT, OC);
  cudaCheck(cudaGetLastError());
}

void matmul_forward_tiled(float *out, const float *inp, const float *weight, int M, int N, int K) {
  matmul_tiled_racy<<<dim3(ceil_div(N, TILE), ceil_div(M, TILE)), dim3(TILE, TILE)>>>(out, inp, weight, M, N, K);
  cudaCheck(cudaGetLastError());
}

// Gradients averaged over the ranks.
void all_reduce_gradients(float *grads, size_t n, ncclComm_t comm, cudaStream_t stream) {
  ncclResult_t r = ncclAllReduce(grads, grads, n, ncclFloat, ncclAvg, comm, stream);
  if (r != ncclSuccess) {
    fprintf(stderr, "NCCL error: %s\n", ncclGetErrorString(r));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  ncclUniqueId id;
  if (rank == 0)
    ncclGetUniqueId(&id);
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
  cudaCheck(cudaSetDevice(rank));
  ncclComm_t comm;
  ncclCommInitRank(&comm, world, id, rank);
  setup_main();
  int BT = 8 * 1024, C = 768, OC = 3072;
  float *d_out, *d_inp, *d_weight, *d_bias;
  cudaCheck(cudaMalloc(&d_out, (size_t)BT * OC * sizeof(float)));
  cudaCheck(cudaMalloc(&d_inp, (size_t)BT * C * sizeof(float)));
  cudaCheck(cudaMalloc(&d_weight, (size_t)OC * C * sizeof(float)));
  cudaCheck(cudaMalloc(&d_bias, OC * sizeof(float)));
  matmul_forward_cublas(d_out, d_inp, d_weight, d_bias, BT, C, OC);
  matmul_forward_cublaslt(d_out, d_inp, d_weight, d_bias, BT, C, OC);
  matmul_forward_tiled(d_out, d_inp, d_weight, BT, OC, C);
  all_reduce_gradients(d_weight, (size_t)OC * C, comm, 0);
  cudaCheck(cudaFree(d_out));
  ncclCommDestroy(comm);
  MPI_Finalize();
  return 0;
}
