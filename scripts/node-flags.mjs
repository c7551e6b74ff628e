// The V8 heap policy the service runs with. On a large machine V8 grows the young generation to
// 64 MiB semi-spaces and lets promoted request garbage pile up in the old generation: 400 MB at
// 50 connections for a 55 MB live heap. A 16 MiB semi-space and a 30 % old-generation growth step
// hold the peak near 200 MB for a few percent of throughput (test/bench/README.md).
// `npm start` (package.json) and the image (Dockerfile CMD) pass exactly these; test/deploy.test.ts
// holds both to this list, and the benchmarks start the service with it.
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=30'];
