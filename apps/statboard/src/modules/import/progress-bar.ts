/** A progress bar on stderr when it is a terminal (never with --json): `[#####-----] 512/10000 files, 51200 values`. */
export function progressBar(json: boolean): {
  update: (done: number, total: number, values: number) => void;
  done: () => void;
} {
  if (json || !process.stderr.isTTY) return { update: () => undefined, done: () => undefined };
  let last = 0;
  const draw = (done: number, total: number, values: number) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} files, ${values} values stored`,
    );
  };
  return {
    update: (done, total, values) => {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      draw(done, total, values);
    },
    done: () => process.stderr.write('\n'),
  };
}
