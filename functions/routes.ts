/**
 * THE route table: the single source for the CDK stack (one Lambda per row), the local server,
 * the OpenAPI document and the contract tests. Each domain keeps its rows beside its handlers;
 * adding an endpoint is one row there plus one handler file.
 */
import { type RouteRow, routeKey } from '../shared/http/route.ts';
import { analyticsRoutes } from './analytics/routes.ts';
import { creatorRoutes } from './creators/routes.ts';
import { epgRoutes } from './epg/routes.ts';
import { homeRoutes } from './home/routes.ts';
import { identityRoutes } from './identity/routes.ts';
import { liveRoutes } from './live/routes.ts';
import { platformRoutes } from './platform/routes.ts';
import { reactionRoutes } from './reactions/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { showRoutes } from './shows/routes.ts';

export const routes: readonly RouteRow[] = [
  ...homeRoutes,
  ...creatorRoutes,
  ...showRoutes,
  ...liveRoutes,
  ...epgRoutes,
  ...identityRoutes,
  ...reactionRoutes,
  ...reportRoutes,
  ...analyticsRoutes,
  ...platformRoutes,
];

export const routesByKey: ReadonlyMap<string, RouteRow> = new Map(routes.map((row) => [routeKey(row), row]));
