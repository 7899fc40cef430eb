/** The `meta_data` pagination block of every paginated endpoint (spec 2.1). */
export const pagination = (total: number, page: number, limit: number) => ({
  total,
  page,
  limit,
  total_pages: Math.ceil(total / limit),
});

/** Slice of `items` for a 1-based page (for result sets already bounded in memory, e.g. search hits). */
export const pageSlice = <T>(items: readonly T[], page: number, limit: number): T[] =>
  items.slice((page - 1) * limit, page * limit);
