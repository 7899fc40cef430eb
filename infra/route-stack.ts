import { NestedStack, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import type { RouteRow } from '../shared/routing/route.ts';
import { ApiFunction, type ApiFunctionDefaults, constructIdOf } from './api-function.ts';
import type { Monitoring } from './monitoring.ts';

/**
 * Most route rows one route stack may hold: 5.2 resources each (docs/operations.md, resource
 * budget) keeps a full stack at 416 + its alarms' share, under the 450 the infra tests allow.
 */
export const MAX_ROUTES_PER_STACK = 80;

/** `creators/list-creators` → `Creators`: the handler's folder under `functions/`, as a construct id. */
export const domainOf = (handler: string): string => {
  const folder = handler.split('/').slice(0, -1).join('/');
  return constructIdOf(folder).replace(/[^A-Za-z0-9]/g, '') || 'Root';
};

/** The route table split by domain (handler folder), in table order; each group becomes one stack. */
export const routesByDomain = (routes: readonly RouteRow[]): Map<string, RouteRow[]> => {
  const groups = new Map<string, RouteRow[]>();
  for (const row of routes) {
    const domain = domainOf(row.handler);
    groups.set(domain, [...(groups.get(domain) ?? []), row]);
  }
  for (const [domain, rows] of groups) {
    if (rows.length > MAX_ROUTES_PER_STACK) {
      throw new Error(
        `Domain ${domain} has ${rows.length} routes; one route stack holds at most ${MAX_ROUTES_PER_STACK} ` +
          '(CloudFormation: 500 resources per stack). Split its handler folder in two.',
      );
    }
  }
  return groups;
};

export interface RouteStackProps extends ApiFunctionDefaults {
  /** The domain (`domainOf` its handlers): names the stack's alarms. */
  domain: string;
  /** The domain's rows (one handler folder of functions/). */
  rows: readonly RouteRow[];
  api: apigw.IHttpApi;
  /** Receives this stack's Lambda errors/throttles alarms (created here, beside the functions). */
  monitoring: Monitoring;
}

/**
 * One domain's share of the API, as a nested stack of the service stack: per route row its
 * function and role (ApiFunction), the API Gateway integration, route and invoke permission; and
 * the Lambda alarms of those functions. The table, key, API, stage, log groups and analytics stay
 * in the parent, which hands their ids and ARNs in as parameters (CDK wires them). Deployed by the
 * parent's `cdk deploy`, so one command still deploys everything.
 */
export class RouteStack extends NestedStack {
  readonly functions: readonly ApiFunction[];
  /** Routes with a per-route throttle: the parent's stage names their keys, so it depends on them. */
  readonly throttledRoutes: readonly apigw.HttpRoute[];

  constructor(scope: Construct, id: string, props: RouteStackProps) {
    super(scope, id, { description: `Routes of the ${props.domain} domain (functions/, route table)` });
    const throttled: apigw.HttpRoute[] = [];
    this.functions = props.rows.map((row) => {
      const fnId = constructIdOf(row.handler);
      const fn = new ApiFunction(this, fnId, {
        row,
        resources: props.resources,
        environment: props.environment,
        logGroup: props.logGroup,
        code: props.code,
      });
      const route = new apigw.HttpRoute(this, `${fnId}Route`, {
        httpApi: props.api,
        routeKey:
          row.path === '$default'
            ? apigw.HttpRouteKey.DEFAULT
            : apigw.HttpRouteKey.with(row.path, apigw.HttpMethod[row.method]),
        integration: new HttpLambdaIntegration(`${fnId}Integration`, fn.fn),
      });
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          row.auth === 'none'
            ? 'Public endpoint by the spec (catalogue, sign-up, the 404 catch-all): no caller identity needed.'
            : 'Bearer tokens (ES256, KMS-signed) are verified in the shared handler chain, which also serves the optional-auth routes an API Gateway authorizer cannot express.',
      });
      if (row.throttle) throttled.push(route);
      return fn;
    });
    this.throttledRoutes = throttled;
    props.monitoring.watchFunctions(
      this,
      props.domain,
      this.functions.map((f) => f.fn),
    );
  }
}
