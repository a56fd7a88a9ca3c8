// ksynth: cuBLAS's v2 interface (see cublas_api.h).
#pragma once
#define CUBLAS_V2_H_
#include <cublas_api.h>
#define cublasCreate_v2 cublasCreate
#define cublasDestroy_v2 cublasDestroy
#define cublasSetStream_v2 cublasSetStream
#define cublasGetStream_v2 cublasGetStream
#define cublasSgemm_v2 cublasSgemm
#define cublasDgemm_v2 cublasDgemm
