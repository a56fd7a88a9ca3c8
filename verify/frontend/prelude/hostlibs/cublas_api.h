// ksynth: cuBLAS, as declarations for parsing host code (used where neither -I nor the CUDA
// toolkit provides the header; see DESIGN.md, "Headers"). Host code is parsed, never verified;
// these are the names and types of the library's documented interface, not its ABI.
#pragma once
#include <library_types.h>
#include <cuComplex.h>
#include <cuda_fp16.h>
#define CUBLAS_VER_MAJOR 12
#define CUBLAS_VER_MINOR 0
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)
#define CUBLASWINAPI
#define CUBLASAPI
extern "C" {
typedef enum {
  CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1, CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_ARCH_MISMATCH = 8, CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13, CUBLAS_STATUS_INTERNAL_ERROR = 14, CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
  CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2, CUBLAS_OP_HERMITAN = 2, CUBLAS_OP_CONJG = 3
} cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_ATOMICS_NOT_ALLOWED = 0, CUBLAS_ATOMICS_ALLOWED = 1 } cublasAtomicsMode_t;
typedef enum {
  CUBLAS_GEMM_DFALT = -1, CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DFALT_TENSOR_OP = 99,
  CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99
} cublasGemmAlgo_t;
typedef enum {
  CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2, CUBLAS_TF32_TENSOR_OP_MATH = 3,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;
typedef cudaDataType cublasDataType_t;
typedef enum {
  CUBLAS_COMPUTE_16F = 64, CUBLAS_COMPUTE_16F_PEDANTIC = 65, CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69, CUBLAS_COMPUTE_32F_FAST_16F = 74, CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77, CUBLAS_COMPUTE_64F = 70, CUBLAS_COMPUTE_64F_PEDANTIC = 71,
  CUBLAS_COMPUTE_32I = 72, CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;
struct cublasContext;
typedef struct cublasContext *cublasHandle_t;

cublasStatus_t cublasCreate(cublasHandle_t *handle);
cublasStatus_t cublasDestroy(cublasHandle_t handle);
cublasStatus_t cublasGetVersion(cublasHandle_t handle, int *version);
cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value);
size_t cublasGetCudartVersion(void);
cublasStatus_t cublasSetWorkspace(cublasHandle_t handle, void *workspace, size_t bytes);
cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream);
cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t *stream);
cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t *mode);
cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t *mode);
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
const char *cublasGetStatusName(cublasStatus_t status);
const char *cublasGetStatusString(cublasStatus_t status);
cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *y, int incy);
cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy);
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);

// Level 1.
#define KSYNTH_CUBLAS_L1(P, T, R)                                                                       \
  cublasStatus_t cublas##P##axpy(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y,     \
                                 int incy);                                                            \
  cublasStatus_t cublas##P##scal(cublasHandle_t h, int n, const T *alpha, T *x, int incx);              \
  cublasStatus_t cublas##P##copy(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy);        \
  cublasStatus_t cublas##P##swap(cublasHandle_t h, int n, T *x, int incx, T *y, int incy);              \
  cublasStatus_t cublasI##P##amax(cublasHandle_t h, int n, const T *x, int incx, int *result);          \
  cublasStatus_t cublasI##P##amin(cublasHandle_t h, int n, const T *x, int incx, int *result);
KSYNTH_CUBLAS_L1(S, float, float)
KSYNTH_CUBLAS_L1(D, double, double)
KSYNTH_CUBLAS_L1(C, cuComplex, float)
KSYNTH_CUBLAS_L1(Z, cuDoubleComplex, double)
#undef KSYNTH_CUBLAS_L1
cublasStatus_t cublasSdot(cublasHandle_t h, int n, const float *x, int incx, const float *y, int incy, float *result);
cublasStatus_t cublasDdot(cublasHandle_t h, int n, const double *x, int incx, const double *y, int incy,
                          double *result);
cublasStatus_t cublasSnrm2(cublasHandle_t h, int n, const float *x, int incx, float *result);
cublasStatus_t cublasDnrm2(cublasHandle_t h, int n, const double *x, int incx, double *result);
cublasStatus_t cublasSasum(cublasHandle_t h, int n, const float *x, int incx, float *result);
cublasStatus_t cublasDasum(cublasHandle_t h, int n, const double *x, int incx, double *result);

// Levels 2 and 3.
#define KSYNTH_CUBLAS_L23(P, T)                                                                         \
  cublasStatus_t cublas##P##gemv(cublasHandle_t h, cublasOperation_t trans, int m, int n, const T *alpha, \
                                 const T *A, int lda, const T *x, int incx, const T *beta, T *y, int incy); \
  cublasStatus_t cublas##P##ger(cublasHandle_t h, int m, int n, const T *alpha, const T *x, int incx,   \
                                const T *y, int incy, T *A, int lda);                                  \
  cublasStatus_t cublas##P##gemm(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,    \
                                 int m, int n, int k, const T *alpha, const T *A, int lda, const T *B,     \
                                 int ldb, const T *beta, T *C, int ldc);                                  \
  cublasStatus_t cublas##P##gemmBatched(cublasHandle_t h, cublasOperation_t transa,                       \
                                        cublasOperation_t transb, int m, int n, int k, const T *alpha,     \
                                        const T *const Aarray[], int lda, const T *const Barray[],         \
                                        int ldb, const T *beta, T *const Carray[], int ldc,                \
                                        int batchCount);                                                  \
  cublasStatus_t cublas##P##gemmStridedBatched(                                                         \
      cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,          \
      const T *alpha, const T *A, int lda, long long strideA, const T *B, int ldb, long long strideB,     \
      const T *beta, T *C, int ldc, long long strideC, int batchCount);                                  \
  cublasStatus_t cublas##P##geam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,    \
                                 int m, int n, const T *alpha, const T *A, int lda, const T *beta,        \
                                 const T *B, int ldb, T *C, int ldc);                                     \
  cublasStatus_t cublas##P##trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,          \
                                 cublasOperation_t trans, cublasDiagType_t diag, int m, int n,            \
                                 const T *alpha, const T *A, int lda, T *B, int ldb);                     \
  cublasStatus_t cublas##P##syrk(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, \
                                 int k, const T *alpha, const T *A, int lda, const T *beta, T *C, int ldc);
KSYNTH_CUBLAS_L23(S, float)
KSYNTH_CUBLAS_L23(D, double)
KSYNTH_CUBLAS_L23(C, cuComplex)
KSYNTH_CUBLAS_L23(Z, cuDoubleComplex)
#undef KSYNTH_CUBLAS_L23
cublasStatus_t cublasHgemm(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const __half *alpha, const __half *A, int lda, const __half *B, int ldb,
                           const __half *beta, __half *C, int ldc);
cublasStatus_t cublasHgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const __half *alpha, const __half *A, int lda,
                                         long long strideA, const __half *B, int ldb, long long strideB,
                                         const __half *beta, __half *C, int ldc, long long strideC,
                                         int batchCount);
cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m,
                                   int n, int k, const void *alpha, const void *const Aarray[], cudaDataType Atype,
                                   int lda, const void *const Barray[], cudaDataType Btype, int ldb,
                                   const void *beta, void *const Carray[], cudaDataType Ctype, int ldc,
                                   int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void *alpha, const void *A,
                                          cudaDataType Atype, int lda, long long strideA, const void *B,
                                          cudaDataType Btype, int ldb, long long strideB, const void *beta,
                                          void *C, cudaDataType Ctype, int ldc, long long strideC,
                                          int batchCount, cublasComputeType_t computeType,
                                          cublasGemmAlgo_t algo);
cublasStatus_t cublasSgemmEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                             int k, const float *alpha, const void *A, cudaDataType Atype, int lda,
                             const void *B, cudaDataType Btype, int ldb, const float *beta, void *C,
                             cudaDataType Ctype, int ldc);
} // extern "C"
