// V8 settings the service applies to itself. Every entry point imports this right after the Node
// version check, before the code whose allocation sites they govern is loaded.
import { setFlagsFromString } from 'node:v8';

/**
 * Allocation-site pretenuring off: V8 may conclude from a few scavenges that a site's objects live
 * long and allocate them in the old generation from then on, which under v1 load filled it with
 * request garbage. Maglev (V8's mid-tier compiler) is left on: it costs some memory and saves more
 * CPU. The figures: docs/decisions/v8-runtime-flags.md.
 *
 * The flag is not allowed in NODE_OPTIONS; it takes effect set at run time. Heap sizes cannot be
 * set here (V8 reads them when it makes the heap): the image's NODE_OPTIONS sets the semi-space size.
 */
const RUNTIME_V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;

for (const flag of RUNTIME_V8_FLAGS) setFlagsFromString(flag);
