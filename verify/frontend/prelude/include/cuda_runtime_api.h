// ksynth: everything this header declares is in the prelude (ksynth_cuda.h), included first,
// except the library data types (the toolkit's library_types.h, else ksynth's).
#pragma once
#include <library_types.h>
