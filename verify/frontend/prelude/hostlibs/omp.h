// ksynth: OpenMP's runtime functions, as declarations for parsing host code (used where no
// omp.h is installed; see DESIGN.md, "Headers"). `#pragma omp` lines are ignored.
#pragma once
extern "C" {
int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_num_procs(void);
void omp_set_num_threads(int num_threads);
int omp_in_parallel(void);
double omp_get_wtime(void);
} // extern "C"
