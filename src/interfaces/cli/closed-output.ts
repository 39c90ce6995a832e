// `cairn search … | head -1`: the reader takes what it wants and closes the pipe, and the next
// write to stdout fails with EPIPE. Unix tools end quietly then. Cairn drops the closed stream
// (later writes to it are discarded), finishes the command and closes the facade as usual, and
// exits with the command's own status: 0 when its work succeeded. Exiting on the spot instead
// could stop an embedding thread inside a native call (issue 30 item 7) or cut a write short.
export function discardOutputOnceReaderLeaves(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      // Any other failure to write is still an error, as it was without this listener.
      if (err.code !== 'EPIPE') throw err;
    });
  }
}
