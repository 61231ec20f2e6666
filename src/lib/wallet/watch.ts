/**
 * Watches something until it is settled: asks, and asks again every `intervalMs` while the
 * answer is not final, until `stop()` is called. Each answer is handed to `onAnswer` (the page
 * shows it as it goes); a refused ask is handed to `onError` and ends the watch, so a failure
 * is shown rather than retried silently forever.
 */
export function watchUntil<T>(
  ask: () => Promise<T>,
  isFinal: (answer: T) => boolean,
  handlers: { onAnswer: (answer: T) => void; onError: (error: unknown) => void },
  intervalMs = 1000,
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const round = async () => {
    if (stopped) return;
    try {
      const answer = await ask();
      if (stopped) return;
      handlers.onAnswer(answer);
      if (!isFinal(answer)) timer = setTimeout(() => void round(), intervalMs);
    } catch (error) {
      if (!stopped) handlers.onError(error);
    }
  };
  void round();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
