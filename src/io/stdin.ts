/**
 * All of standard input, read as a stream. `readFileSync(0)` fails with EAGAIN when stdin is a
 * non-blocking pipe that has no data yet (a producer slower than us), so a pipe is read with events.
 */
export async function readStdin(input: NodeJS.ReadableStream = process.stdin): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
