// The vendored chart library, embedded byte for byte with C23's #embed (clang 19 and later).
#include "CVegaBundle.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char bundle[] = {
#embed "vega-bundle.js"
};

const unsigned char *widgetsim_vega_bundle(void) { return bundle; }

size_t widgetsim_vega_bundle_length(void) { return sizeof(bundle); }
