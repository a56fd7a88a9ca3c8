#include "synth/cli.h"

int main(int argc, char **argv) { return ksynth::synth::main(argc, argv); }
