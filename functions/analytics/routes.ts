import type { RouteRow } from '../../shared/http/route.ts';

export const analyticsRoutes: RouteRow[] = [];
