// V8 settings the service applies to itself. Every entry point imports this right after the Node
// version check, before the code whose allocation sites they govern is loaded.
import { setFlagsFromString } from 'node:v8';

/**
 * Allocation-site pretenuring off. V8 may conclude from a few scavenges that a site's objects live
 * long and allocate them in the old generation from then on. Under v1 load it did so in 2 of 3
 * identical runs: the old generation filled at ~40 MB/s with request garbage, scavenges took
 * 1.2–1.4 ms instead of 0.6–0.7, three mark-compacts in 8 s instead of none, 5–10 % fewer
 * requests/s, and peak RSS swung 226–350 MB between runs (test/bench/README.md, "2026-11-24").
 *
 * Maglev (V8's mid-tier compiler) is left on. It was turned off on 2026-11-24 for memory (its
 * compile zones, malloc'd on V8's worker threads, stay resident: peak RSS 17–35 MB higher) when it
 * measured no faster. On 2026-11-25, on a slower machine, the service without it spent 27–44 % more
 * CPU per /reports/{id} read and 18–31 % more per /clients page (builds side by side, alternated;
 * /reports and /projects within ±6 %) and 24 % more instructions per /reports/{id} request
 * (callgrind), while peak RSS with it stayed at 167–196 MB in five runs (test/bench/README.md,
 * "2026-11-25").
 *
 * The flag is not allowed in NODE_OPTIONS; it takes effect set at run time. Heap sizes cannot be
 * set here (V8 reads them when it makes the heap): the image's NODE_OPTIONS sets the semi-space size.
 */
const RUNTIME_V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;

for (const flag of RUNTIME_V8_FLAGS) setFlagsFromString(flag);
