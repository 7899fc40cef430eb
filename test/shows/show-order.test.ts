import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareText } from '../../shared/compare.ts';
import { showOrder } from '../../shared/shows/show-ranking.ts';

afterEach(() => vi.restoreAllMocks());

/**
 * Issue 41: the listings' tie-breaks compare ids and ISO instants by code units (shared/compare.ts),
 * not with `localeCompare`, whose ICU collator costs a cold container ~9 ms of CPU at its first
 * sort; the order is the one `localeCompare` gave for such strings.
 */
describe('show sort orders', () => {
  const shows = [
    { id: 'sh_0010', total_views: 5, released_at: '2026-01-02T00:00:00.000Z', views_7d: 1 },
    { id: 'sh_0002', total_views: 5, released_at: '2026-01-02T00:00:00.000Z', views_7d: 1 },
    { id: 'sh_0003', total_views: 9, released_at: '2025-12-31T23:59:59.000Z', views_7d: 3 },
    { id: 'sh_0001', total_views: 5, released_at: '2026-01-10T08:00:00.000Z', views_7d: 1 },
  ];

  it('sorts without a locale collator, in the order localeCompare gave for ids and instants', () => {
    const collated = vi.spyOn(String.prototype, 'localeCompare');
    const orders = Object.fromEntries(
      Object.entries(showOrder).map(([name, order]) => [name, [...shows].sort(order).map((s) => s.id)]),
    );
    expect(collated).not.toHaveBeenCalled();
    collated.mockRestore();
    expect(orders).toEqual({
      most_popular: ['sh_0003', 'sh_0001', 'sh_0002', 'sh_0010'],
      newest: ['sh_0001', 'sh_0002', 'sh_0010', 'sh_0003'],
      trending: ['sh_0003', 'sh_0001', 'sh_0002', 'sh_0010'],
    });
    const ids = [
      'cr_0100',
      'cr_0002',
      'sh_0001',
      'film_tv',
      'art_design',
      'ambassador',
      '2026-11-29',
      '2026-02',
    ];
    expect([...ids].sort(compareText)).toEqual([...ids].sort((a, b) => a.localeCompare(b)));
  });
});
