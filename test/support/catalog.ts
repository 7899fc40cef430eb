import { generateCatalog } from '../../scripts/seed/generate.ts';

/**
 * The last live channel of the seeded demo catalogue that needs no subscription. Suites that open
 * watch sessions use it; the watch test counts viewers on the first one, so they never disturb it.
 */
export const lastOpenLiveChannel = (seededAt: Date): { id: string; channel: string } => {
  const creator = generateCatalog({ now: seededAt, seed: 42 })
    .creators.filter((c) => c.live && !c.channel.requires_subscription)
    .at(-1)!;
  return { id: creator.id, channel: creator.channel.channel_id };
};
