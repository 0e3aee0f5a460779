/**
 * Ctrl-C (and SIGTERM) for the commands that run long: the first asks the work to stop at a safe point
 * (its AbortSignal aborts), the second quits at once with the shell's status for the signal (130 for
 * SIGINT, 143 for SIGTERM). The one place the CLI listens for signals.
 */
export interface Interrupt {
  /** Aborted at the first signal. */
  readonly signal: AbortSignal;
  /** The first signal received, if any. */
  readonly received: NodeJS.Signals | null;
  /** Stop listening (in a `finally`). */
  dispose(): void;
}

const SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

/**
 * Listen for Ctrl-C: at the first signal print `bitext: <stopping>` (a string) or call it (a function),
 * then abort; at the second exit now.
 */
export function stopOnInterrupt(stopping: string | ((sig: NodeJS.Signals) => void)): Interrupt {
  const controller = new AbortController();
  let received: NodeJS.Signals | null = null;
  const onSignal = (sig: NodeJS.Signals) => {
    if (received) process.exit(sig === "SIGINT" ? 130 : 143);
    received = sig;
    if (typeof stopping === "string") process.stderr.write(`\nbitext: ${stopping} (Ctrl-C again to quit now)\n`);
    else stopping(sig);
    controller.abort();
  };
  for (const sig of SIGNALS) process.on(sig, onSignal);
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    dispose: () => {
      for (const sig of SIGNALS) process.off(sig, onSignal);
    },
  };
}

/** Resolves at the first Ctrl-C (or SIGTERM) with the signal, and stops listening: for servers run until stopped. */
export function untilInterrupted(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const interrupt = stopOnInterrupt((sig) => {
      interrupt.dispose();
      resolve(sig);
    });
  });
}
