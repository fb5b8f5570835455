#ifndef CVEGABUNDLE_H
#define CVEGABUNDLE_H

#include <stddef.h>

/// The JavaScript of Vega, Vega-Lite and Vega-Embed (see vega-bundle.js and THIRD_PARTY.md beside it),
/// compiled into the binary so `widgetsim report` can write a page that needs no network.
const unsigned char *widgetsim_vega_bundle(void);
size_t widgetsim_vega_bundle_length(void);

#endif
