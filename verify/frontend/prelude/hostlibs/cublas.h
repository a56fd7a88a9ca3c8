// ksynth: cuBLAS (see cublas_api.h). The legacy interface's own functions are not declared.
#pragma once
#include <cublas_api.h>
