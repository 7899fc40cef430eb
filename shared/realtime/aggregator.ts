import { type LiveMessage, MESSAGE_VERSION, type MessageKind } from './messages.ts';

/**
 * The per-channel aggregator (docs/realtime.md "Who publishes"): each tick, the sources' snapshots
 * of every kind of every channel are offered; `flush` returns at most one message per kind per
 * channel, and only the kinds whose snapshot changed since the last one published (compared by a
 * fingerprint, by default the snapshot's JSON), or that went REFRESH_TICKS ticks unpublished (a
 * refresh: a client that subscribed since has the whole state within a minute without asking).
 * Pure and in memory: the tick worker keeps one per container, so a cold container publishes every
 * kind once (full snapshots: harmless).
 */
export const REFRESH_TICKS = 12;

export class TickAggregator {
  private readonly published = new Map<string, Map<MessageKind, { fingerprint: string; tick: number }>>();
  private pending = new Map<
    string,
    Map<MessageKind, { data: unknown; fingerprint: string; creatorId?: string }>
  >();

  /** Offers this tick's snapshot of `kind` on `channel`; a later offer in the same tick replaces it. */
  offer(
    channel: string,
    kind: MessageKind,
    data: unknown,
    options: { fingerprint?: string; creatorId?: string } = {},
  ): void {
    const fingerprint = options.fingerprint ?? JSON.stringify(data);
    const kinds = this.pending.get(channel) ?? new Map();
    kinds.set(kind, { data, fingerprint, creatorId: options.creatorId });
    this.pending.set(channel, kinds);
  }

  /** The channels with a published snapshot (the ones a tick must say something about when their source goes away). */
  channels(): string[] {
    return [...this.published.keys()];
  }

  /** Forgets a channel (its creator went offline and its last state was published). */
  forget(channel: string): void {
    this.published.delete(channel);
  }

  /** This tick's messages, by channel: the offered snapshots that differ from the last published. */
  flush(tick: number, at: Date): Map<string, LiveMessage[]> {
    const out = new Map<string, LiveMessage[]>();
    for (const [channel, kinds] of this.pending) {
      const last =
        this.published.get(channel) ?? new Map<MessageKind, { fingerprint: string; tick: number }>();
      for (const [kind, offer] of kinds) {
        const previous = last.get(kind);
        if (previous?.fingerprint === offer.fingerprint && tick - previous.tick < REFRESH_TICKS) continue;
        last.set(kind, { fingerprint: offer.fingerprint, tick });
        const message: LiveMessage = {
          v: MESSAGE_VERSION,
          kind,
          ...(offer.creatorId ? { creator_id: offer.creatorId } : {}),
          tick,
          at: at.toISOString(),
          data: offer.data,
        };
        out.set(channel, [...(out.get(channel) ?? []), message]);
      }
      this.published.set(channel, last);
    }
    this.pending = new Map();
    return out;
  }
}
