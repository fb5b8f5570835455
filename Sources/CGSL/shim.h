#ifndef WIDGETSIM_CGSL_SHIM_H
#define WIDGETSIM_CGSL_SHIM_H

#include <stdint.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_version.h>

#include "exponential_ziggurat.h"

// GSL exposes its generator types as mutable globals, which Swift 6 strict concurrency rejects.
// These accessors hand out the (never written) pointers instead.
static inline const gsl_rng_type *widgetsim_rng_taus2(void) { return gsl_rng_taus2; }
static inline const gsl_rng_type *widgetsim_rng_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *widgetsim_rng_gfsr4(void) { return gsl_rng_gfsr4; }
static inline const char *widgetsim_gsl_version(void) { return gsl_version; }
static inline const gsl_multimin_fminimizer_type *widgetsim_multimin_nmsimplex2(void) {
  return gsl_multimin_fminimizer_nmsimplex2;
}

// Writes a full 96-bit state into a taus2 generator.
//
// gsl_rng_set takes an `unsigned long` but taus2 keeps only 32 bits of it, so a million streams seeded that
// way would collide by the birthday bound. taus2's state is three 32-bit words (GSL's taus.c,
// `taus_state_t`); this fills all three, applying the same lower bounds taus_set applies (s1 >= 2, s2 >= 8,
// s3 >= 16) and the same six warm-up draws. Returns 0 (and writes nothing) if the generator is not taus2
// or its state is not laid out as expected, so the caller can fall back to gsl_rng_set.
static inline int widgetsim_taus2_set_state(gsl_rng *r, uint32_t a, uint32_t b, uint32_t c) {
  if (r->type != gsl_rng_taus2 || gsl_rng_size(r) != 3 * sizeof(unsigned long)) {
    return 0;
  }
  unsigned long *s = (unsigned long *)gsl_rng_state(r);
  s[0] = a < 2 ? a + 2UL : a;
  s[1] = b < 8 ? b + 8UL : b;
  s[2] = c < 16 ? c + 16UL : c;
  for (int i = 0; i < 6; i++) {
    (void)gsl_rng_get(r);
  }
  return 1;
}

#endif
