/**
 * One button's request to the service, as every panel shows it: `busy` while it runs, then its
 * answer in `result` or the refusal in `error` (read for display by `readError`). Written once
 * so that each panel only says what it asks.
 */
import { readError, type ShownError } from './errors';

export class PanelRequest<T> {
  result = $state<T | null>(null);
  error = $state<ShownError | null>(null);
  busy = $state(false);
  private last: { ask: () => Promise<T>; options: { clearResult?: boolean } } | undefined;

  /** `clearResult`: drop the previous answer when asking again (else it stays until the new one arrives). */
  async run(ask: () => Promise<T>, options: { clearResult?: boolean } = {}): Promise<void> {
    this.last = { ask, options };
    this.busy = true;
    this.error = null;
    if (options.clearResult) this.result = null;
    try {
      this.result = await ask();
    } catch (e) {
      this.error = readError(e);
    } finally {
      this.busy = false;
    }
  }

  /** Asks the last question again (the "Try again" of a failed request). */
  retry = (): Promise<void> => (this.last ? this.run(this.last.ask, this.last.options) : Promise.resolve());
}
