// ksynth: everything this header declares is in the prelude (ksynth_cuda.h), included first.
#pragma once
