// The PostgreSQL session settings of the API's pools (db/client.ts). A module of its own, without
// the pg type parsers client.ts installs, so the benchmarks' bare server can plan like the service.

/**
 * API queries are short index scans; starting parallel workers for them costs more than it saves,
 * and under concurrency it starves the other requests. JIT compilation likewise costs
 * milliseconds whenever a misestimate makes a small query look large (seen on the competitor
 * totals before statistics caught up with a new column).
 */
export const API_SESSION_SETTINGS = '-c max_parallel_workers_per_gather=0 -c jit=off';
