import * as z from 'zod/mini';
import { described, named } from './schema/schema-meta.ts';

/** The `meta_data` pagination block of every paginated endpoint (spec 2.1). */
export const pagination = (total: number, page: number, limit: number): Pagination => ({
  total,
  page,
  limit,
  total_pages: Math.ceil(total / limit),
});

/** Slice of `items` for a 1-based page (for result sets already bounded in memory, e.g. search hits). */
export const pageSlice = <T>(items: readonly T[], page: number, limit: number): T[] =>
  items.slice((page - 1) * limit, page * limit);

/** The pagination block as the document describes it; `pagination()`'s return type. */
export const Pagination = /* @__PURE__ */ (() =>
  named(
    'Pagination',
    z.object({
      total: described(z.number().check(z.int()), 'Items across all pages', 42),
      page: described(z.number().check(z.int()), 'This page, from 1', 1),
      limit: described(z.number().check(z.int()), 'Items per page', 20),
      total_pages: described(z.number().check(z.int()), 'Pages in all (0 when there are no items)', 3),
    }),
    'Where this page sits in the whole list (spec 2.1)',
  ))();
export type Pagination = z.infer<typeof Pagination>;
