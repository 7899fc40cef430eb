import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { domainOf, MAX_ROUTES_PER_STACK, routesByDomain } from '../../infra/route-stack.ts';
import { routeKey } from '../../shared/routing/route.ts';
import { cleanUp, SYNTH_TIMEOUT, synthStack, syntheticRoutes, templatesOf } from './synth.ts';

afterAll(cleanUp);

/** CloudFormation's hard limit is 500 resources per stack; we keep 50 for what comes next. */
const MAX_RESOURCES_PER_STACK = 450;

type Json = Record<string, any>;
const countOf = (json: Json) => Object.keys(json.Resources ?? {}).length;
const typesIn = (json: Json): string[] => Object.values(json.Resources as Json).map((r: any) => r.Type);

/** Resources per deployed stack (the stack and each nested one), by construct path. */
const countsOf = (stack: Parameters<typeof templatesOf>[0]) =>
  Object.fromEntries(templatesOf(stack).map(({ path, template }) => [path, countOf(template.toJSON())]));

describe.each(['dev', 'prod'] as const)('resource budget of the real route table (%s)', (stage) => {
  const { stack, parent } = synthStack(routes, { stage });
  const counts = countsOf(stack);

  it(`keeps every stack, parent and nested, at ${MAX_RESOURCES_PER_STACK} resources or fewer`, () => {
    // The parent, one route stack per domain, the Workers stack (infra/projector.ts) and the
    // Events stack (infra/events.ts), the Webhooks stack (infra/webhooks.ts), the Mail stack (infra/mail.ts)
    // the MediaPlaylists stack (infra/media-playlists.ts), the Payments stack (infra/payments.ts), the
    // Accounts stack (infra/accounts.ts), the Chat stack (infra/chat.ts) and the Realtime stack (infra/realtime.ts).
    expect(Object.keys(counts)).toHaveLength(1 + new Set(routes.map((r) => domainOf(r.handler))).size + 9);
    for (const [path, count] of Object.entries(counts)) {
      expect(count, path).toBeLessThanOrEqual(MAX_RESOURCES_PER_STACK);
    }
  });

  it('keeps every function, role, integration, route and permission out of the parent', () => {
    const types = typesIn(parent.toJSON());
    for (const type of [
      'AWS::ApiGatewayV2::Route',
      'AWS::ApiGatewayV2::Integration',
      'AWS::Lambda::Permission',
    ]) {
      expect(types, type).not.toContain(type);
    }
    const parentFunctions = Object.values(parent.findResources('AWS::Lambda::Function')) as Json[];
    expect(parentFunctions.filter((f) => f.Properties.Environment?.Variables?.ROUTE_KEY)).toEqual([]);
    // The route stacks, the Workers stack (projector, recompute, audiences, rebuild:
    // infra/projector.ts), the Events stack (infra/events.ts), the Webhooks stack (infra/webhooks.ts),
    // the Mail stack (infra/mail.ts), the MediaPlaylists stack (infra/media-playlists.ts), the
    // Payments stack (infra/payments.ts), the Accounts stack (infra/accounts.ts), the Chat stack
    // (infra/chat.ts) and the Realtime stack (infra/realtime.ts).
    expect(types.filter((t) => t === 'AWS::CloudFormation::Stack')).toHaveLength(
      stack.routeStacks.length + 9,
    );
  });

  it('keeps the projector, recompute, audience publisher, IVS events and rebuild in the Workers stack: 50 resources', () => {
    // 5 × (function + role), stream mapping, 4 queues + their TLS-only policies, 2 schedules +
    // their roles, the IVS rule + its invoke permission, 13 alarms (docs/operations.md lists them),
    // and 3 × (on-failure queue + its policy, the asynchronous invoke config, its alarm) for the
    // asynchronously invoked IVS event, recompute and audience functions (infra/async-failures.ts).
    expect(counts[stack.workers.node.path]).toBe(50);
  });

  it('keeps the event bus and its publisher in the Events stack: 13 resources', () => {
    // The bus + its policy, function + role, stream mapping, on-failure queue + its TLS-only
    // policy, 4 alarms of its own and 2 of watchFunctions (errors, throttles): docs/events.md.
    expect(counts[stack.events.node.path]).toBe(13);
  });

  it('keeps the mail configuration set, feedback queue and worker in the Mail stack: 13 resources', () => {
    // The configuration set + its event destination, the feedback queue and its dead-letter queue
    // + their TLS-only policies, the rule on the default bus, function + role, the SQS mapping,
    // the dead-letter alarm and 2 of watchFunctions (errors, throttles): docs/identity.md.
    expect(counts[`${stack.node.path}/Mail`]).toBe(13);
  });

  it('keeps the playlist function in the MediaPlaylists stack: 7 resources', () => {
    // Function + role, its function URL, CloudFront's two invoke permissions (the URL and the
    // function) and 2 alarms of watchFunctions (errors, throttles): infra/media-playlists.ts.
    expect(counts[`${stack.node.path}/MediaPlaylists`]).toBe(7);
  });

  it('keeps the webhook key, outbox, fan-out and sender in the Webhooks stack: 20 resources', () => {
    // The HMAC key, the delivery queue and its dead-letter queue + their TLS-only policies, 2 ×
    // (function + role), the SQS mapping, the rule on the bus + its invoke permission, 2 alarms
    // of its own and 2 of watchFunctions (errors, throttles), and the fan-out's on-failure queue +
    // its policy, asynchronous invoke config and alarm (infra/async-failures.ts): docs/webhooks.md.
    expect(counts[`${stack.node.path}/Webhooks`]).toBe(20);
  });

  it('puts each domain in its own stack: 5 resources per row plus its Lambda alarms', () => {
    const byDomain = routesByDomain(routes);
    for (const routeStack of stack.routeStacks) {
      const json = templatesOf(routeStack)[0]!.template.toJSON();
      const rows = byDomain.get(routeStack.node.id.replace(/Routes$/, ''))!;
      const keys = Object.values(json.Resources as Json)
        .filter((r: any) => r.Type === 'AWS::ApiGatewayV2::Route')
        .map((r: any) => r.Properties.RouteKey);
      expect(keys.sort(), routeStack.node.id).toEqual(rows.map(routeKey).sort());
      const alarms = 2 * Math.ceil(rows.length / 10);
      expect(countOf(json), routeStack.node.id).toBe(5 * rows.length + alarms);
      // CloudFormation allows 200 parameters and 200 outputs per template.
      expect(Object.keys(json.Parameters ?? {}).length).toBeLessThanOrEqual(200);
      expect(Object.keys(json.Outputs ?? {}).length).toBeLessThanOrEqual(200);
    }
  });

  it('creates the stage after the route stacks whose routes it throttles', () => {
    const [stageResource] = Object.values(parent.findResources('AWS::ApiGatewayV2::Stage')) as Json[];
    const throttledDomains = new Set(routes.filter((r) => r.throttle).map((r) => domainOf(r.handler)));
    expect(throttledDomains.size).toBeGreaterThan(0);
    for (const routeStack of stack.routeStacks) {
      const id = stack.getLogicalId(routeStack.nestedStackResource as never);
      const domain = routeStack.node.id.replace(/Routes$/, '');
      expect(stageResource!.DependsOn?.includes(id) ?? false, domain).toBe(throttledDomains.has(domain));
    }
  });
});

describe('room to grow', () => {
  it(
    'costs 5.2 resources per route inside a route stack and one per domain in the parent',
    () => {
      const at = (n: number, domains = 1) => {
        const { stack } = synthStack(syntheticRoutes(n, domains));
        return countsOf(stack);
      };
      // The route stack's count (the Webhooks stack comes before the route stacks).
      const routeStack = (counts: Record<string, number>) =>
        Object.entries(counts).find(([path]) => path.endsWith('Routes'))![1];
      expect((routeStack(at(20)) - routeStack(at(10))) / 10).toBe(5.2);
      const parentWith = (domains: number) => Object.values(at(domains, domains))[0]!;
      expect(parentWith(4) - parentWith(2)).toBe(2);
    },
    SYNTH_TIMEOUT,
  );

  it(
    `takes 200 routes over 10 domains with every stack under ${MAX_RESOURCES_PER_STACK}`,
    () => {
      const { stack } = synthStack(syntheticRoutes(200, 10));
      const counts = Object.values(countsOf(stack));
      expect(counts).toHaveLength(20); // parent, 10 route stacks, Workers, Events, Webhooks, Mail, MediaPlaylists, Payments, Accounts, Chat, Realtime
      for (const count of counts) expect(count).toBeLessThanOrEqual(MAX_RESOURCES_PER_STACK);
    },
    SYNTH_TIMEOUT,
  );

  it(
    `fills one route stack to ${MAX_ROUTES_PER_STACK} routes under the limit, and refuses one more`,
    () => {
      const { stack } = synthStack(syntheticRoutes(MAX_ROUTES_PER_STACK));
      const nested = countsOf(stack)[stack.routeStacks[0]!.node.path];
      expect(nested).toBeGreaterThan(5 * MAX_ROUTES_PER_STACK);
      expect(nested).toBeLessThanOrEqual(MAX_RESOURCES_PER_STACK);
      expect(() => synthStack(syntheticRoutes(MAX_ROUTES_PER_STACK + 1))).toThrow(
        `Domain Synthetic has ${MAX_ROUTES_PER_STACK + 1} routes; one route stack holds at most ${MAX_ROUTES_PER_STACK}`,
      );
    },
    SYNTH_TIMEOUT,
  );
});
