#include "cli/commands.h"

int main(int argc, char **argv) { return ksynth::cli::main(argc, argv); }
