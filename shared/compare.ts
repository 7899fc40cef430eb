/**
 * Orders two strings by their UTF-16 code units: ascending for `compareText(a, b)`, descending
 * for `compareText(b, a)`. For ids (`sh_0001`), slugs and ISO-8601 instants, the strings these
 * sorts break ties on, it is the order `localeCompare` gave; unlike `localeCompare` it needs no
 * ICU collator, whose creation costs ~9 ms of CPU at a container's first sort, on its first
 * request (issue 41, docs/performance.md). Text that people read (emoji, names) keeps `localeCompare`.
 */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
