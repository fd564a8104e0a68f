/**
 * A notification, as the DNS service emits them after a successful change.
 *
 * @category Events
 */
export interface DnsEvent {
  /** The event type, e.g. `'dns.zone.create'`, `'dns.zone_import.update'`. */
  readonly type: string;
  /** The entity's JSON body, as the matching `get` command would answer it. */
  readonly payload: object;
}

/**
 * Receives events; a listener that throws is ignored (it must not break the command that
 * emitted the event).
 *
 * @category Events
 */
export type DnsEventListener = (event: DnsEvent) => void;

/** A minimal synchronous event bus, one per service instance. @internal */
export class EventBus {
  readonly #listeners = new Set<DnsEventListener>();

  subscribe(listener: DnsEventListener): () => void {
    // A wrapper per subscription so the same function subscribed twice is two subscriptions.
    const entry: DnsEventListener = (e) => listener(e);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Whether anyone listens: callers skip building payloads nobody reads. */
  get listening(): boolean {
    return this.#listeners.size > 0;
  }

  emit(type: string, payload: object): void {
    if (this.#listeners.size === 0) return;
    const event = Object.freeze({ type, payload });
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // Listener failures are the listener's business; the change has already committed.
      }
    }
  }
}
