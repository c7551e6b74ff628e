/** A one-line progress bar on stderr, only when stderr is a terminal (never in CI logs or pipes). */
export function progressBar(label: string) {
  const tty = process.stderr.isTTY;
  let last = 0;
  return {
    update(done: number, total: number) {
      if (!tty || total === 0) return;
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      const width = 30;
      const filled = Math.round((done / total) * width);
      process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    },
    finish() {
      if (tty) process.stderr.write('\n');
    },
  };
}
