import type { RouteRow } from '../../shared/http/route.ts';

export const platformRoutes: RouteRow[] = [];
