// ksynth: cuRAND's device API is in the prelude (ksynth_cuda.h); the host API in curand.h.
#pragma once
#include <curand.h>
