// ksynth: see ../nvToolsExt.h.
#pragma once
#include <nvToolsExt.h>
