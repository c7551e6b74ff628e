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
 * Maglev (V8's mid-tier compiler) off. It compiles far more functions than TurboFan does, each in
 * zone memory malloc'd on V8's worker threads, which glibc keeps resident once freed: off, peak RSS
 * under the v1 lists was 17–35 MB lower (163–186 vs 185–208 MB, three A/B runs) at 0.97–1.04× the
 * requests/s, hot code still reaching TurboFan (test/bench/README.md, "2026-11-24, evening").
 *
 * Neither flag is allowed in NODE_OPTIONS; both take effect set at run time. Heap sizes cannot be
 * set here (V8 reads them when it makes the heap): the image's NODE_OPTIONS sets the semi-space size.
 */
const RUNTIME_V8_FLAGS = ['--no-allocation-site-pretenuring', '--no-maglev'] as const;

for (const flag of RUNTIME_V8_FLAGS) setFlagsFromString(flag);
